/// The request bodies the server reads most (`{"key":"spend-1"}`, `{"productID":"...","quantity":1}`):
/// one object of ASCII strings without escapes, integers, booleans and nulls, decoded without
/// Foundation's decoder (a spend's body took 8% of the server's time through it).
///
/// Only what it reads exactly as Foundation's decoder would is taken: any other document (a
/// nested value, an escape, a non-ASCII byte, a fraction or exponent, a key given twice,
/// anything malformed) and any value the type does not take as given make `decode` return nil,
/// and the caller decodes the bytes the general way, which reports what is wrong.
enum FlatJSON {
    enum Value {
        case string(String)
        case integer(Int64)
        case bool(Bool)
        case null
    }

    /// Decodes `bytes` as `T` when they are such an object and `T` takes them, else nil.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) -> T? {
        guard let members = parse(bytes) else { return nil }
        return try? T(from: ObjectDecoder(members: members))
    }

    /// The object's members in order, or nil when `bytes` are not such an object.
    static func parse(_ bytes: [UInt8]) -> [(key: String, value: Value)]? {
        bytes.withUnsafeBufferPointer { buffer -> [(key: String, value: Value)]? in
            var reader = Reader(bytes: buffer)
            return reader.object()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func object() -> [(key: String, value: Value)]? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [(key: String, value: Value)] = []
            skipSpace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipSpace()
                    guard take(UInt8(ascii: "\"")), let key = string() else { return nil }
                    // A key given twice: the general decoder refuses it, and says which.
                    guard !members.contains(where: { $0.key == key }) else { return nil }
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipSpace()
                    guard let value = value() else { return nil }
                    members.append((key, value))
                    skipSpace()
                    if take(UInt8(ascii: ",")) { continue }
                    guard take(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
            skipSpace()
            return index == bytes.count ? members : nil
        }

        mutating func value() -> Value? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return string().map(Value.string)
            case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return word("null") ? .null : nil
            default: return integer().map(Value.integer)
            }
        }

        /// The rest of a string after its opening quote: printable ASCII without a backslash.
        mutating func string() -> String? {
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index - 1]), as: UTF8.self)
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            return nil
        }

        /// `-?(0|[1-9][0-9]*)` of at most 18 digits (no overflow), not followed by a fraction or
        /// exponent, and not minus zero.
        mutating func integer() -> Int64? {
            let negative = take(UInt8(ascii: "-"))
            let start = index
            var magnitude: Int64 = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                guard index - start < 18 else { return nil }
                magnitude = magnitude * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            let digits = index - start
            guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
            // Minus zero is left to the general way: read as a Double, it keeps its sign.
            if negative, magnitude == 0 { return nil }
            return negative ? -magnitude : magnitude
        }

        mutating func word(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
            index += count
            return true
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
        }
    }

    /// Thrown for anything this decoder does not take; the caller decodes the general way.
    struct NotTaken: Error {}

    /// The top level: the object.
    struct ObjectDecoder: Decoder {
        let members: [(key: String, value: Value)]
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Members<Key>(members: members))
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NotTaken() }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw NotTaken() }
    }

    struct Members<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [(key: String, value: Value)]
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

        func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

        /// The member's value as a decoder of its own.
        private func member(_ key: Key) throws -> ScalarDecoder {
            guard let found = members.first(where: { $0.key == key.stringValue }) else { throw NotTaken() }
            return ScalarDecoder(value: found.value)
        }

        func decodeNil(forKey key: Key) throws -> Bool { try member(key).decodeNil() }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decode(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decode(type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).decode(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).decode(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).decode(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).decode(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).decode(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).decode(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).decode(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).decode(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).decode(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).decode(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).decode(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).decode(type) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decode(type) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw NotTaken()
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw NotTaken() }
        func superDecoder() throws -> any Decoder { throw NotTaken() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw NotTaken() }
    }

    /// One member's value: a scalar, read by a type's `init(from:)` through its single value
    /// container (an identifier that checks its text, a raw-value enum).
    struct ScalarDecoder: Decoder, SingleValueDecodingContainer {
        let value: Value
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw NotTaken() }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NotTaken() }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

        func decodeNil() -> Bool { if case .null = value { true } else { false } }

        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let bool) = value else { throw NotTaken() }
            return bool
        }

        func decode(_ type: String.Type) throws -> String {
            guard case .string(let string) = value else { throw NotTaken() }
            return string
        }

        /// An integer of the type asked, when it fits.
        private func integer<T: BinaryInteger>(_ type: T.Type) throws -> T {
            guard case .integer(let integer) = value, let exact = T(exactly: integer) else { throw NotTaken() }
            return exact
        }

        /// A floating-point value: an integer that it holds exactly.
        private func floating<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T {
            guard case .integer(let integer) = value, let exact = T(exactly: integer) else { throw NotTaken() }
            return exact
        }

        func decode(_ type: Double.Type) throws -> Double { try floating(type) }
        func decode(_ type: Float.Type) throws -> Float { try floating(type) }
        func decode(_ type: Int.Type) throws -> Int { try integer(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            // The scalars themselves, without a detour through their init(from:).
            if let scalar = try scalar(type) { return scalar }
            return try T(from: self)
        }

        private func scalar<T>(_ type: T.Type) throws -> T? {
            if T.self == String.self { return try decode(String.self) as? T }
            if T.self == Int.self { return try decode(Int.self) as? T }
            if T.self == Bool.self { return try decode(Bool.self) as? T }
            if T.self == Int64.self { return try decode(Int64.self) as? T }
            return nil
        }
    }
}
