internal import CSQLite

/// A prepared statement, reusable for a hot loop: prepare once, then run it with new arguments.
///
/// Made by ``Database/prepare(_:)``; finalized (`sqlite3_finalize`) when released. It keeps its
/// database open. Like ``Database``, use it from one isolation domain at a time.
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO words(pack, word) VALUES (?, ?)")
/// try db.transaction { _ in
///     for word in words { try insert.execute(.integer(pack), .text(word)) }
/// }
/// ```
///
/// ``execute(_:)``, ``query(_:)`` and ``forEach(_:_:)`` bind text and blobs without copying them
/// (`SQLITE_STATIC`, valid while the call runs) and clear the bindings afterwards. ``bind(_:)`` with
/// ``next()`` is the step-by-step form; it lets SQLite copy (`SQLITE_TRANSIENT`) since the bindings
/// outlive the call.
public final class Statement {
    /// The SQL text this statement was prepared from.
    public let sql: String
    /// The connection, kept open while the statement lives; `nil` for a statement the connection
    /// itself caches (it is finalized before the connection closes).
    private let database: Database?
    private let connection: OpaquePointer
    private let handle: OpaquePointer
    private var cachedColumnNames: [String]?
    private var isRunning = false

    init(database: Database, handle: OpaquePointer, sql: String, keepsDatabaseOpen: Bool = true) {
        self.database = keepsDatabaseOpen ? database : nil
        self.connection = database.handle
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of `?` parameters (`sqlite3_bind_parameter_count`).
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The names of the result columns (`sqlite3_column_name`).
    public var columnNames: [String] {
        if let cachedColumnNames { return cachedColumnNames }
        let names = (0..<sqlite3_column_count(handle)).map { index in
            sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "column\(index + 1)"
        }
        cachedColumnNames = names
        return names
    }

    /// Whether the statement only reads (`sqlite3_stmt_readonly`).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    // MARK: - Running with arguments

    /// Binds `arguments`, runs the statement to completion and resets it (`sqlite3_step` until `SQLITE_DONE`).
    public func execute(_ arguments: SQLValue...) throws(SQLiteError) {
        try execute(arguments: arguments)
    }

    /// Binds `arguments`, runs the statement to completion and resets it (`sqlite3_step` until `SQLITE_DONE`).
    public func execute(arguments: [SQLValue]) throws(SQLiteError) {
        var failure: SQLiteError?
        try withArguments(arguments) {
            do throws(SQLiteError) {
                while try stepRow() {}
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Binds `arguments` and returns every result row (`sqlite3_step`, `sqlite3_column_*`).
    public func query(_ arguments: SQLValue...) throws(SQLiteError) -> [Row] {
        try query(arguments: arguments)
    }

    /// Binds `arguments` and returns every result row (`sqlite3_step`, `sqlite3_column_*`).
    public func query(arguments: [SQLValue]) throws(SQLiteError) -> [Row] {
        var rows: [Row] = []
        var failure: SQLiteError?
        try withArguments(arguments) {
            do throws(SQLiteError) {
                while try stepRow() { rows.append(currentRow()) }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return rows
    }

    /// Binds `arguments` and calls `body` with each result row as SQLite produces it, without collecting them.
    public func forEach(_ arguments: SQLValue..., body: (Row) throws -> Void) throws {
        try forEach(arguments: arguments, body)
    }

    /// Binds `arguments` and calls `body` with each result row as SQLite produces it, without collecting them.
    public func forEach(arguments: [SQLValue], _ body: (Row) throws -> Void) throws {
        var failure: (any Error)?
        try withArguments(arguments) {
            do {
                while try stepRow() { try body(currentRow()) }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// The first column of the first row, or `nil` when there is no row.
    func firstValue(arguments: [SQLValue]) throws(SQLiteError) -> SQLValue? {
        var value: SQLValue?
        var failure: SQLiteError?
        try withArguments(arguments) {
            do throws(SQLiteError) {
                if try stepRow(), sqlite3_column_count(handle) > 0 { value = columnValue(0) }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return value
    }

    // MARK: - Running with values bound in place

    /// Binds the parameters through `bind` (no array of values, no `sqlite3_clear_bindings`), runs
    /// the statement to completion and resets it: the form for a loop of a million inserts.
    ///
    /// A parameter `bind` leaves alone keeps the value it was last bound to (NULL at first).
    ///
    /// ```swift
    /// let insert = try db.prepare("INSERT INTO words(word, clue) VALUES (?, ?)")
    /// try insert.execute { $0.bind(text: wordBytes, at: 1); $0.bind(clue, at: 2) }
    /// ```
    public func execute(binding bind: (inout StatementBindings) -> Void) throws(SQLiteError) {
        try bindInPlace(bind)
        defer { reset() }
        while try stepRow() {}
    }

    /// Binds the parameters through `bind`, runs the statement and returns the integer in the first
    /// column of its first row (`nil` for no row or NULL), then resets it.
    public func int64(binding bind: (inout StatementBindings) -> Void) throws(SQLiteError) -> Int64? {
        try bindInPlace(bind)
        defer { reset() }
        guard try stepRow(), sqlite3_column_count(handle) > 0 else { return nil }
        switch sqlite3_column_type(handle, 0) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return sqlite3_column_int64(handle, 0)
        default:
            throw SQLiteError(code: .mismatch, message: "the first column holds \(columnValue(0).typeName), expected integer", sql: sql)
        }
    }

    /// The integer of the first column of the first row, for a statement without parameters.
    public func int64() throws(SQLiteError) -> Int64? {
        try int64 { _ in }
    }

    private func bindInPlace(_ bind: (inout StatementBindings) -> Void) throws(SQLiteError) {
        if isRunning { reset() }
        var bindings = StatementBindings(handle: handle)
        bind(&bindings)
        if let failure = bindings.failure { throw bindError(failure) }
    }

    // MARK: - Step by step

    /// Resets the statement and binds `values`, copied by SQLite (`sqlite3_bind_*` with `SQLITE_TRANSIENT`).
    public func bind(_ values: SQLValue...) throws(SQLiteError) {
        try bind(values)
    }

    /// Resets the statement and binds `values`, copied by SQLite (`sqlite3_bind_*` with `SQLITE_TRANSIENT`).
    public func bind(_ values: [SQLValue]) throws(SQLiteError) {
        reset()
        sqlite3_clear_bindings(handle)
        try checkArgumentCount(values.count)
        for (offset, value) in values.enumerated() {
            try check(bindCopy(value, at: Int32(offset + 1)))
        }
    }

    /// Steps once (`sqlite3_step`): the next row, or `nil` when the statement is done.
    public func next() throws(SQLiteError) -> Row? {
        try stepRow() ? currentRow() : nil
    }

    /// Rewinds the statement so it can run again, keeping its bindings (`sqlite3_reset`).
    public func reset() {
        sqlite3_reset(handle)
        isRunning = false
    }

    // MARK: - Internals

    /// Steps once; `true` when a row is available. On error the statement is reset.
    private func stepRow() throws(SQLiteError) -> Bool {
        if !isRunning {
            isRunning = true
            // A schema change can re-prepare the statement with other columns (`SELECT *`).
            cachedColumnNames = nil
        }
        let resultCode = sqlite3_step(handle)
        switch resultCode {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let error = SQLiteError(resultCode: resultCode, handle: connection, sql: sql)
            reset()
            throw error
        }
    }

    private func currentRow() -> Row {
        let count = sqlite3_column_count(handle)
        var values: [SQLValue] = []
        values.reserveCapacity(Int(count))
        for index in 0..<count { values.append(columnValue(index)) }
        return Row(columnNames: columnNames, values: values)
    }

    /// Reads one column of the current row (`sqlite3_column_type`, `sqlite3_column_*`).
    private func columnValue(_ index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            let start = sqlite3_column_text(handle, index)
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: start, count: start == nil ? 0 : count), as: UTF8.self))
        case SQLITE_BLOB:
            let start = sqlite3_column_blob(handle, index)
            let count = Int(sqlite3_column_bytes(handle, index))
            return .blob(Array(UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count)))
        default:
            return .null
        }
    }

    private func checkArgumentCount(_ count: Int) throws(SQLiteError) {
        let expected = parameterCount
        guard count == expected else {
            throw SQLiteError(
                code: .range,
                message: "the statement takes \(expected) argument\(expected == 1 ? "" : "s"), got \(count)",
                sql: sql)
        }
    }

    private func check(_ resultCode: Int32) throws(SQLiteError) {
        guard resultCode == SQLITE_OK else {
            throw SQLiteError(resultCode: resultCode, handle: connection, sql: sql)
        }
    }

    /// Resets, binds `arguments` for the duration of `body` without copying text or blobs, then clears them.
    private func withArguments(_ arguments: [SQLValue], _ body: () -> Void) throws(SQLiteError) {
        if isRunning { reset() }
        try checkArgumentCount(arguments.count)
        let failure = bindBorrowing(arguments, from: 0, body)
        reset()
        // The borrowed pointers die with this call: make sure SQLite no longer refers to them.
        sqlite3_clear_bindings(handle)
        if let failure { throw failure }
    }

    /// Binds `arguments[index...]` then runs `body`, nesting one scope per borrowed buffer.
    private func bindBorrowing(_ arguments: [SQLValue], from index: Int, _ body: () -> Void) -> SQLiteError? {
        guard index < arguments.count else {
            body()
            return nil
        }
        let position = Int32(index + 1)
        func bound(_ resultCode: Int32) -> SQLiteError? {
            resultCode == SQLITE_OK ? bindBorrowing(arguments, from: index + 1, body) : bindError(resultCode)
        }
        switch arguments[index] {
        case .text(let text) where !text.isEmpty:
            let borrowed = text.utf8.withContiguousStorageIfAvailable { bytes -> SQLiteError? in
                guard let start = bytes.baseAddress else { return bound(bindCopy(arguments[index], at: position)) }
                return bound(start.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
                    sqlite3_bind_text64(handle, position, characters, sqlite3_uint64(bytes.count), nil, UInt8(SQLITE_UTF8))
                })
            }
            return borrowed ?? bound(bindCopy(arguments[index], at: position))
        case .blob(let bytes) where !bytes.isEmpty:
            return bytes.withUnsafeBytes { buffer -> SQLiteError? in
                bound(sqlite3_bind_blob64(handle, position, buffer.baseAddress, sqlite3_uint64(buffer.count), nil))
            }
        default:
            return bound(bindCopy(arguments[index], at: position))
        }
    }

    private func bindError(_ resultCode: Int32) -> SQLiteError {
        SQLiteError(resultCode: resultCode, handle: connection, sql: sql)
    }

    /// Binds one value, letting SQLite copy text and blobs (`sqlite3_bind_*`, `SQLITE_TRANSIENT`).
    private func bindCopy(_ value: SQLValue, at position: Int32) -> Int32 {
        switch value {
        case .null:
            return sqlite3_bind_null(handle, position)
        case .integer(let integer):
            return sqlite3_bind_int64(handle, position, integer)
        case .real(let real):
            return sqlite3_bind_double(handle, position, real)
        case .text(let text):
            var text = text
            return text.withUTF8 { bytes in
                // An empty buffer may have no address; SQLite would read a nil pointer as NULL.
                guard let start = bytes.baseAddress else {
                    return sqlite3_bind_text64(handle, position, "", 0, hangman_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
                return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
                    sqlite3_bind_text64(
                        handle, position, characters, sqlite3_uint64(bytes.count), hangman_sqlite_transient(),
                        UInt8(SQLITE_UTF8))
                }
            }
        case .blob(let bytes):
            return bytes.withUnsafeBytes { buffer in
                guard let start = buffer.baseAddress, !buffer.isEmpty else {
                    return sqlite3_bind_zeroblob(handle, position, 0)
                }
                return sqlite3_bind_blob64(handle, position, start, sqlite3_uint64(buffer.count), hangman_sqlite_transient())
            }
        }
    }
}

/// The parameters of a statement as ``Statement/execute(binding:)`` binds them, by position from 1
/// (`sqlite3_bind_*`). Text is copied by SQLite (`SQLITE_TRANSIENT`) into memory the statement
/// keeps from row to row, so nothing the caller passes has to outlive the call.
public struct StatementBindings {
    private let handle: OpaquePointer
    /// The first failing result code, thrown once binding is done.
    private(set) var failure: Int32?

    init(handle: OpaquePointer) {
        self.handle = handle
    }

    private mutating func record(_ resultCode: Int32) {
        if resultCode != SQLITE_OK && failure == nil { failure = resultCode }
    }

    /// `sqlite3_bind_int64`.
    public mutating func bind(_ value: Int64, at position: Int) {
        record(sqlite3_bind_int64(handle, Int32(clamping: position), value))
    }

    /// `sqlite3_bind_int64`.
    public mutating func bind(_ value: Int, at position: Int) {
        bind(Int64(value), at: position)
    }

    /// `sqlite3_bind_null`.
    public mutating func bindNull(at position: Int) {
        record(sqlite3_bind_null(handle, Int32(clamping: position)))
    }

    /// UTF-8 text given as bytes (`sqlite3_bind_text64`, copied).
    public mutating func bind(text bytes: UnsafeBufferPointer<UInt8>, at position: Int) {
        // An empty buffer may have no address; SQLite would read a nil pointer as NULL.
        let start = bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(("" as StaticString).utf8Start)
        record(sqlite3_bind_text64(
            handle, Int32(clamping: position), start.assumingMemoryBound(to: CChar.self), sqlite3_uint64(bytes.count),
            hangman_sqlite_transient(), UInt8(SQLITE_UTF8)))
    }

    /// Text (`sqlite3_bind_text64`, copied).
    public mutating func bind(_ text: String, at position: Int) {
        var text = text
        text.withUTF8 { bind(text: $0, at: position) }
    }

    /// Text, or NULL for `nil`.
    public mutating func bind(_ text: String?, at position: Int) {
        if let text { bind(text, at: position) } else { bindNull(at: position) }
    }
}
