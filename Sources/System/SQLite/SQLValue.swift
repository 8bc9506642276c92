/// A value SQLite stores: one of its five storage classes.
public enum SQLValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes, stored as they are (NUL bytes included).
    case blob([UInt8])
}

extension SQLValue {
    /// An integer value from an `Int`.
    public init(_ value: Int) { self = .integer(Int64(value)) }
    /// An integer value from an `Int64`.
    public init(_ value: Int64) { self = .integer(value) }
    /// A real value.
    public init(_ value: Double) { self = .real(value) }
    /// A text value.
    public init(_ value: String) { self = .text(value) }
    /// A blob value.
    public init(_ value: [UInt8]) { self = .blob(value) }
    /// `1` or `0`, as SQLite stores booleans.
    public init(_ value: Bool) { self = .integer(value ? 1 : 0) }

    /// Whether this is `NULL`.
    public var isNull: Bool { self == .null }
    /// The integer, or `nil` for any other storage class.
    public var int64Value: Int64? { if case .integer(let value) = self { value } else { nil } }
    /// The number as a `Double` (real or integer), or `nil` for any other storage class.
    public var doubleValue: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
    /// The text, or `nil` for any other storage class.
    public var stringValue: String? { if case .text(let value) = self { value } else { nil } }
    /// The bytes, or `nil` for any other storage class.
    public var blobValue: [UInt8]? { if case .blob(let value) = self { value } else { nil } }

    /// The storage class name SQLite's `typeof()` returns: `null`, `integer`, `real`, `text` or `blob`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }
}

extension SQLValue: CustomStringConvertible {
    /// The value as an SQL literal: `NULL`, `42`, `1.5`, `'it''s'`, `x'00ff'`.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "'" + value.replacing("'", with: "''") + "'"
        case .blob(let bytes):
            let digits = Array("0123456789abcdef")
            var hex = ""
            hex.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                hex.append(digits[Int(byte >> 4)])
                hex.append(digits[Int(byte & 0x0F)])
            }
            return "x'" + hex + "'"
        }
    }
}

extension SQLValue: ExpressibleByNilLiteral {
    /// `nil` is SQL `NULL`.
    public init(nilLiteral: ()) { self = .null }
}

extension SQLValue: ExpressibleByIntegerLiteral {
    /// An integer literal is an ``integer(_:)``.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLValue: ExpressibleByFloatLiteral {
    /// A float literal is a ``real(_:)``.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLValue: ExpressibleByStringLiteral {
    /// A string literal is a ``text(_:)``.
    public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLValue: ExpressibleByBooleanLiteral {
    /// `true` and `false` are the integers `1` and `0`.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
