/// The wire's JSON writer: any `Encodable` to compact JSON with each object's keys in byte order
/// (the same value always gives the same bytes), written straight from the value's `encode(to:)`.
///
/// Foundation's `JSONEncoder` checks every nested value for the types it treats specially
/// (`Date`, `Data`, `URL`, `Decimal`) and keeps a coding path; the server's answers have none of
/// those, and a hint spend's two documents cost 11 us there against 2 us here. What this writes
/// any JSON reader reads: strings as UTF-8 with `"`, `\` and control characters escaped,
/// integers in decimal, finite floating-point numbers in Swift's shortest form, `nil` as `null`
/// (an absent optional as an absent key, as the synthesized `encodeIfPresent` asks).
///
/// ```swift
/// let bytes = try WireJSONEncoder.encode(HintBalance(hints: 3))  // {"hints":3}
/// ```
public enum WireJSONEncoder {
    /// Compact, for the wire and the log; `pretty` indents by two spaces (`"key" : value`, as
    /// `--json` prints); `terminalSafe` also escapes DEL, C1 controls and the bidirectional
    /// controls in strings (`\u009b`), so that a document is safe to print on a terminal and
    /// still the same JSON.
    public static func encode(_ value: some Encodable, pretty: Bool = false, terminalSafe: Bool = false) throws -> [UInt8] {
        let root = Slot()
        try value.encode(to: ValueEncoder(slot: root, codingPath: []))
        var output: [UInt8] = []
        output.reserveCapacity(256)
        try root.write(to: &output, indent: pretty ? 0 : nil)
        return terminalSafe ? JSONText.escapingTerminalControls(output) : output
    }
}

/// Where one value's JSON goes: a scalar already written, or an object or array filled in by
/// its containers.
private final class Slot {
    enum Content {
        case none
        case scalar([UInt8])
        case object(Members)
        case array(Items)
    }

    var content = Content.none

    final class Members {
        var pairs: [(key: String, value: Slot)] = []
    }

    final class Items {
        var slots: [Slot] = []
    }

    init() {}
    init(scalar: [UInt8]) { content = .scalar(scalar) }

    /// The object this slot holds, made when it holds nothing yet (two keyed containers asked of
    /// one encoder write into the same object, as in Foundation's encoder).
    func object() -> Members {
        if case .object(let members) = content { return members }
        let members = Members()
        content = .object(members)
        return members
    }

    func array() -> Items {
        if case .array(let items) = content { return items }
        let items = Items()
        content = .array(items)
        return items
    }

    /// `indent`: the depth of a pretty document, `nil` for a compact one.
    func write(to output: inout [UInt8], indent: Int? = nil) throws {
        func newline(_ depth: Int) {
            guard indent != nil else { return }
            output.append(0x0A)
            output.append(contentsOf: repeatElement(0x20, count: 2 * depth))
        }
        let inner = indent.map { $0 + 1 }
        switch content {
        case .none:
            // A value that encoded nothing at all: Foundation writes an empty object.
            output.append(contentsOf: [0x7B, 0x7D])
        case .scalar(let bytes):
            output.append(contentsOf: bytes)
        case .object(let members):
            output.append(0x7B)
            // Byte order of the keys, the order written among equal keys: of a key written twice,
            // the last value is the one kept.
            let order = members.pairs.indices.sorted { a, b in
                let (left, right) = (members.pairs[a].key, members.pairs[b].key)
                return left == right ? a < b : left.utf8.lexicographicallyPrecedes(right.utf8)
            }
            var first = true
            for (position, index) in order.enumerated() {
                let pair = members.pairs[index]
                if position + 1 < order.count, members.pairs[order[position + 1]].key == pair.key { continue }
                if !first { output.append(0x2C) }
                first = false
                newline(inner ?? 0)
                JSONText.appendString(pair.key, to: &output)
                output.append(contentsOf: indent == nil ? [0x3A] : [0x20, 0x3A, 0x20])
                try pair.value.write(to: &output, indent: inner)
            }
            if !first { newline(indent ?? 0) }
            output.append(0x7D)
        case .array(let items):
            output.append(0x5B)
            for (index, slot) in items.slots.enumerated() {
                if index > 0 { output.append(0x2C) }
                newline(inner ?? 0)
                try slot.write(to: &output, indent: inner)
            }
            if !items.slots.isEmpty { newline(indent ?? 0) }
            output.append(0x5D)
        }
    }
}

/// Scalars as JSON text.
enum JSONText {
    /// `json` with DEL (7F), the C1 controls (U+0080-U+009F) and U+202A-U+202E, U+2066-U+2069
    /// written as `\u` escapes: outside strings a JSON document is ASCII, so every such
    /// character is in a string, where the escape means the same.
    static func escapingTerminalControls(_ json: [UInt8]) -> [UInt8] {
        func escape(_ scalar: UInt32, to output: inout [UInt8]) {
            let hex = Array("0123456789abcdef".utf8)
            output.append(contentsOf: [0x5C, 0x75])
            for shift in stride(from: 12, through: 0, by: -4) { output.append(hex[Int((scalar >> UInt32(shift)) & 0xF)]) }
        }
        guard json.contains(where: { $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) else { return json }
        var output: [UInt8] = []
        output.reserveCapacity(json.count + 16)
        var index = 0
        while index < json.count {
            let byte = json[index]
            if byte == 0x7F {
                escape(0x7F, to: &output)
                index += 1
            } else if byte == 0xC2, index + 1 < json.count, (0x80...0x9F).contains(json[index + 1]) {
                escape(UInt32(json[index + 1]), to: &output)
                index += 2
            } else if byte == 0xE2, index + 2 < json.count, json[index + 1] == 0x80 || json[index + 1] == 0x81 {
                let scalar = 0x2000 | (UInt32(json[index + 1] & 0x0F) << 6) | UInt32(json[index + 2] & 0x3F)
                if (0x202A...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar) {
                    escape(scalar, to: &output)
                } else {
                    output.append(contentsOf: json[index...index + 2])
                }
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    static func appendString(_ text: String, to output: inout [UInt8]) {
        output.append(0x22)
        // Most strings (keys, ids, Base64) need no escape: copied at once.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            output.append(contentsOf: text.utf8)
            output.append(0x22)
            return
        }
        for byte in text.utf8 {
            switch byte {
            case 0x22: output.append(contentsOf: [0x5C, 0x22])
            case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: output.append(contentsOf: [0x5C, 0x72])
            case 0x09: output.append(contentsOf: [0x5C, 0x74])
            case 0x08: output.append(contentsOf: [0x5C, 0x62])
            case 0x0C: output.append(contentsOf: [0x5C, 0x66])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: output.append(byte)
            }
        }
        output.append(0x22)
    }

    static func string(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        appendString(text, to: &bytes)
        return bytes
    }

    static func integer(_ value: some BinaryInteger) -> [UInt8] { Array(String(value).utf8) }

    static func number(_ value: some BinaryFloatingPoint & LosslessStringConvertible, codingPath: [any CodingKey]) throws -> [UInt8] {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
        }
        var text = String(value)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return Array(text.utf8)
    }

    static let null = Array("null".utf8)
    static let yes = Array("true".utf8)
    static let no = Array("false".utf8)
}

private struct ValueEncoder: Encoder {
    let slot: Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(members: slot.object(), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(items: slot.array(), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(slot: slot, codingPath: codingPath)
    }
}

/// A key standing for an array's element or a super encoder in coding paths.
private struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let members: Slot.Members
    let codingPath: [any CodingKey]

    private func put(_ bytes: [UInt8], _ key: Key) { members.pairs.append((key.stringValue, Slot(scalar: bytes))) }

    mutating func encodeNil(forKey key: Key) throws { put(JSONText.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(value ? JSONText.yes : JSONText.no, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(JSONText.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(try JSONText.number(value, codingPath: codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(try JSONText.number(value, codingPath: codingPath + [key]), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(JSONText.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(JSONText.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(JSONText.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(JSONText.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(JSONText.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(JSONText.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(JSONText.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(JSONText.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(JSONText.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(JSONText.integer(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let slot = Slot()
        try value.encode(to: ValueEncoder(slot: slot, codingPath: codingPath + [key]))
        members.pairs.append((key.stringValue, slot))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let slot = Slot()
        members.pairs.append((key.stringValue, slot))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(members: slot.object(), codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let slot = Slot()
        members.pairs.append((key.stringValue, slot))
        return UnkeyedContainer(items: slot.array(), codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(key: IndexKey(stringValue: "super")) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(key: key) }

    private func superEncoder(key: any CodingKey) -> any Encoder {
        let slot = Slot()
        members.pairs.append((key.stringValue, slot))
        return ValueEncoder(slot: slot, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer, ScalarWriting {
    let items: Slot.Items
    let codingPath: [any CodingKey]
    var count: Int { items.slots.count }

    func put(_ bytes: [UInt8]) { items.slots.append(Slot(scalar: bytes)) }
    var scalarPath: [any CodingKey] { nextPath }
    private var nextPath: [any CodingKey] { codingPath + [IndexKey(intValue: items.slots.count)] }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let slot = Slot()
        let path = nextPath
        items.slots.append(slot)
        try value.encode(to: ValueEncoder(slot: slot, codingPath: path))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let slot = Slot()
        let path = nextPath
        items.slots.append(slot)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(members: slot.object(), codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let slot = Slot()
        let path = nextPath
        items.slots.append(slot)
        return UnkeyedContainer(items: slot.array(), codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let slot = Slot()
        let path = nextPath
        items.slots.append(slot)
        return ValueEncoder(slot: slot, codingPath: path)
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer, ScalarWriting {
    let slot: Slot
    let codingPath: [any CodingKey]

    func put(_ bytes: [UInt8]) { slot.content = .scalar(bytes) }
    var scalarPath: [any CodingKey] { codingPath }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try value.encode(to: ValueEncoder(slot: slot, codingPath: codingPath))
    }
}

/// The scalars of an unkeyed and a single-value container, written once: each container says
/// where a scalar goes (`put`) and the coding path an error names.
private protocol ScalarWriting {
    func put(_ bytes: [UInt8])
    var scalarPath: [any CodingKey] { get }
}

extension ScalarWriting {
    mutating func encodeNil() throws { put(JSONText.null) }
    mutating func encode(_ value: Bool) throws { put(value ? JSONText.yes : JSONText.no) }
    mutating func encode(_ value: String) throws { put(JSONText.string(value)) }
    mutating func encode(_ value: Double) throws { put(try JSONText.number(value, codingPath: scalarPath)) }
    mutating func encode(_ value: Float) throws { put(try JSONText.number(value, codingPath: scalarPath)) }
    mutating func encode(_ value: Int) throws { put(JSONText.integer(value)) }
    mutating func encode(_ value: Int8) throws { put(JSONText.integer(value)) }
    mutating func encode(_ value: Int16) throws { put(JSONText.integer(value)) }
    mutating func encode(_ value: Int32) throws { put(JSONText.integer(value)) }
    mutating func encode(_ value: Int64) throws { put(JSONText.integer(value)) }
    mutating func encode(_ value: UInt) throws { put(JSONText.integer(value)) }
    mutating func encode(_ value: UInt8) throws { put(JSONText.integer(value)) }
    mutating func encode(_ value: UInt16) throws { put(JSONText.integer(value)) }
    mutating func encode(_ value: UInt32) throws { put(JSONText.integer(value)) }
    mutating func encode(_ value: UInt64) throws { put(JSONText.integer(value)) }
}
