/// One result row: column names and values, copied out of SQLite, so it outlives its statement.
///
/// Typed accessors are strict and throw a ``SQLiteError``: ``SQLiteError/Code/range`` for an unknown
/// column, ``SQLiteError/Code/mismatch`` for a value of another storage class, `NULL` included.
/// For a nullable column read the ``SQLValue`` and use its optional views:
/// `try row["clue"].stringValue`.
public struct Row: Sendable, Hashable {
    /// The column names, in order (as SQLite reports them: the `AS` name when there is one).
    public let columnNames: [String]
    /// The values, in column order.
    public let values: [SQLValue]

    init(columnNames: [String], values: [SQLValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    /// The number of columns.
    public var count: Int { values.count }

    /// Each value as its text, `nil` for `NULL` (integers and reals as Swift writes them, a blob
    /// as UTF-8): one decoding for rows that another engine answers as text.
    public var texts: [String?] {
        values.map { value in
            switch value {
            case .null: nil
            case .integer(let number): String(number)
            case .real(let number): String(number)
            case .text(let text): text
            case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// The value of the column at `index` (from 0).
    public subscript(index: Int) -> SQLValue {
        get throws(SQLiteError) { values[try position(index)] }
    }

    /// The value of the column named `name` (exact match first, then ASCII case-insensitive, as in SQL).
    public subscript(name: String) -> SQLValue {
        get throws(SQLiteError) { values[try position(name)] }
    }

    /// Whether the column at `index` is `NULL`.
    public func isNull(_ index: Int) throws(SQLiteError) -> Bool { try self[index] == .null }
    /// Whether the column named `name` is `NULL`.
    public func isNull(_ name: String) throws(SQLiteError) -> Bool { try self[name] == .null }

    /// The integer in the column at `index`.
    public func int64(_ index: Int) throws(SQLiteError) -> Int64 { try integer(at: try position(index)) }
    /// The integer in the column named `name`.
    public func int64(_ name: String) throws(SQLiteError) -> Int64 { try integer(at: try position(name)) }

    /// The integer in the column at `index`, as an `Int`.
    public func int(_ index: Int) throws(SQLiteError) -> Int { try platformInt(at: try position(index)) }
    /// The integer in the column named `name`, as an `Int`.
    public func int(_ name: String) throws(SQLiteError) -> Int { try platformInt(at: try position(name)) }

    /// The integer in the column at `index` as a boolean (non-zero is `true`).
    public func bool(_ index: Int) throws(SQLiteError) -> Bool { try integer(at: try position(index)) != 0 }
    /// The integer in the column named `name` as a boolean (non-zero is `true`).
    public func bool(_ name: String) throws(SQLiteError) -> Bool { try integer(at: try position(name)) != 0 }

    /// The number (real, or integer converted) in the column at `index`.
    public func double(_ index: Int) throws(SQLiteError) -> Double { try number(at: try position(index)) }
    /// The number (real, or integer converted) in the column named `name`.
    public func double(_ name: String) throws(SQLiteError) -> Double { try number(at: try position(name)) }

    /// The text in the column at `index`.
    public func string(_ index: Int) throws(SQLiteError) -> String { try text(at: try position(index)) }
    /// The text in the column named `name`.
    public func string(_ name: String) throws(SQLiteError) -> String { try text(at: try position(name)) }

    /// The bytes in the column at `index`.
    public func blob(_ index: Int) throws(SQLiteError) -> [UInt8] { try bytes(at: try position(index)) }
    /// The bytes in the column named `name`.
    public func blob(_ name: String) throws(SQLiteError) -> [UInt8] { try bytes(at: try position(name)) }

    // MARK: - Lookup and conversion

    private func position(_ index: Int) throws(SQLiteError) -> Int {
        guard values.indices.contains(index) else {
            throw SQLiteError(
                code: .range,
                message: "no column at index \(index): the row has \(count) (\(columnNames.joined(separator: ", ")))")
        }
        return index
    }

    private func position(_ name: String) throws(SQLiteError) -> Int {
        if let index = columnNames.firstIndex(of: name) { return index }
        let folded = Row.asciiLowercased(name)
        if let index = columnNames.firstIndex(where: { Row.asciiLowercased($0) == folded }) { return index }
        throw SQLiteError(
            code: .range,
            message: "no column named '\(name)': the row has \(columnNames.joined(separator: ", "))")
    }

    private static func asciiLowercased(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private func mismatch(at index: Int, expected: String) -> SQLiteError {
        SQLiteError(
            code: .mismatch,
            message: "column '\(columnNames[index])' holds \(values[index].typeName), expected \(expected)")
    }

    private func integer(at index: Int) throws(SQLiteError) -> Int64 {
        guard case .integer(let value) = values[index] else { throw mismatch(at: index, expected: "integer") }
        return value
    }

    private func platformInt(at index: Int) throws(SQLiteError) -> Int {
        let value = try integer(at: index)
        guard let result = Int(exactly: value) else {
            throw SQLiteError(code: .range, message: "column '\(columnNames[index])' holds \(value), too large for Int")
        }
        return result
    }

    private func number(at index: Int) throws(SQLiteError) -> Double {
        guard let value = values[index].doubleValue else { throw mismatch(at: index, expected: "real") }
        return value
    }

    private func text(at index: Int) throws(SQLiteError) -> String {
        guard case .text(let value) = values[index] else { throw mismatch(at: index, expected: "text") }
        return value
    }

    private func bytes(at index: Int) throws(SQLiteError) -> [UInt8] {
        guard case .blob(let value) = values[index] else { throw mismatch(at: index, expected: "blob") }
        return value
    }
}
