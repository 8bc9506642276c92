/// A property-list value: the tree that XML and binary plists hold.
public enum PropertyList: Sendable, Equatable {
    /// A Unicode string, kept byte-exact (no normalization).
    case string(String)
    /// A signed 64-bit integer.
    case integer(Int64)
    /// A double-precision real.
    case real(Double)
    /// A boolean.
    case boolean(Bool)
    /// A date, as seconds since 2001-01-01T00:00:00Z.
    case date(Double)
    /// Raw bytes.
    case data([UInt8])
    /// An ordered list of values.
    case array([PropertyList])
    /// A map from string keys to values.
    case dictionary([String: PropertyList])
}

extension PropertyList {
    /// The string, if this is a `.string`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, if this is an `.integer`.
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The real, if this is a `.real`.
    public var realValue: Double? {
        if case .real(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is a `.boolean`.
    public var booleanValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// The seconds since 2001-01-01T00:00:00Z, if this is a `.date`.
    public var dateValue: Double? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The bytes, if this is a `.data`.
    public var dataValue: [UInt8]? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an `.array`.
    public var arrayValue: [PropertyList]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, if this is a `.dictionary`.
    public var dictionaryValue: [String: PropertyList]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The plist element name of this value's type ("string", "integer", ...), for error messages.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .boolean: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }
}
