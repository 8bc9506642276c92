/// Writes `bplist00` documents: header, objects, offset table, 32-byte trailer.
///
/// Objects are numbered depth first from the top object (a dictionary's keys, sorted by UTF-8
/// bytes, then its values), and byte-equal strings are stored once, so output is deterministic.
package struct BinaryPropertyListWriter {
    private enum Object {
        case scalar(PropertyList)
        case string(String)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// A string compared by its UTF-8 bytes: Swift's `==` would merge NFC and NFD spellings.
    private struct ExactString: Hashable {
        var string: String

        static func == (lhs: ExactString, rhs: ExactString) -> Bool {
            lhs.string.utf8.elementsEqual(rhs.string.utf8)
        }

        func hash(into hasher: inout Hasher) {
            for byte in string.utf8 { hasher.combine(byte) }
        }
    }

    private var objects: [Object] = []
    private var strings: [ExactString: Int] = [:]
    private var output: [UInt8] = []

    mutating func writeDocument(_ value: PropertyList) -> [UInt8] {
        _ = flatten(value)
        let referenceSize = Self.byteCount(UInt64(objects.count - 1))
        output = Array("bplist00".utf8)
        var offsets: [UInt64] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(UInt64(output.count))
            write(object, referenceSize: referenceSize)
        }
        let offsetTableStart = UInt64(output.count)
        let offsetSize = Self.byteCount(offsets.last ?? 0)
        for offset in offsets { appendBigEndian(offset, size: offsetSize) }
        output.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
        appendBigEndian(UInt64(objects.count), size: 8)
        appendBigEndian(0, size: 8)
        appendBigEndian(offsetTableStart, size: 8)
        return output
    }

    /// Numbers the value and everything in it; returns the value's object number.
    private mutating func flatten(_ value: PropertyList) -> Int {
        switch value {
        case .string(let string):
            return flattenString(string)
        case .array(let items):
            let index = reserveObject()
            let references = items.map { flatten($0) }
            objects[index] = .array(references)
            return index
        case .dictionary(let entries):
            let index = reserveObject()
            let sorted = entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            let keys = sorted.map { flattenString($0.key) }
            let values = sorted.map { flatten($0.value) }
            objects[index] = .dictionary(keys: keys, values: values)
            return index
        default:
            objects.append(.scalar(value))
            return objects.count - 1
        }
    }

    private mutating func reserveObject() -> Int {
        objects.append(.array([]))
        return objects.count - 1
    }

    private mutating func flattenString(_ string: String) -> Int {
        if let index = strings[ExactString(string: string)] { return index }
        objects.append(.string(string))
        strings[ExactString(string: string)] = objects.count - 1
        return objects.count - 1
    }

    private mutating func write(_ object: Object, referenceSize: Int) {
        switch object {
        case .string(let string):
            if string.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x50, count: string.utf8.count)
                output.append(contentsOf: string.utf8)
            } else {
                appendMarker(0x60, count: string.utf16.count)
                for unit in string.utf16 { appendBigEndian(UInt64(unit), size: 2) }
            }
        case .array(let references):
            appendMarker(0xA0, count: references.count)
            for reference in references { appendBigEndian(UInt64(reference), size: referenceSize) }
        case .dictionary(let keys, let values):
            appendMarker(0xD0, count: keys.count)
            for reference in keys { appendBigEndian(UInt64(reference), size: referenceSize) }
            for reference in values { appendBigEndian(UInt64(reference), size: referenceSize) }
        case .scalar(let value):
            writeScalar(value)
        }
    }

    private mutating func writeScalar(_ value: PropertyList) {
        switch value {
        case .integer(let integer):
            appendInteger(integer)
        case .real(let real):
            output.append(0x23)
            appendBigEndian(real.bitPattern, size: 8)
        case .boolean(let boolean):
            output.append(boolean ? 0x09 : 0x08)
        case .date(let seconds):
            output.append(0x33)
            appendBigEndian(seconds.bitPattern, size: 8)
        case .data(let bytes):
            appendMarker(0x40, count: bytes.count)
            output.append(contentsOf: bytes)
        case .string, .array, .dictionary:
            break
        }
    }

    private mutating func appendInteger(_ integer: Int64) {
        Self.appendInteger(integer, to: &output)
    }

    /// Non-negative integers in the fewest of 1, 2, 4 bytes, else 8 bytes (two's complement).
    private static func appendInteger(_ integer: Int64, to output: inout [UInt8]) {
        let size = integer < 0 ? 8 : byteCount(UInt64(integer))
        output.append(0x10 | UInt8(size.trailingZeroBitCount))
        appendBigEndian(UInt64(bitPattern: integer), size: size, to: &output)
    }

    private mutating func appendMarker(_ marker: UInt8, count: Int) {
        Self.appendHeader(marker, count: count, to: &output)
    }

    private mutating func appendBigEndian(_ value: UInt64, size: Int) {
        Self.appendBigEndian(value, size: size, to: &output)
    }

    /// An object's header as this writer (and Python's `plistlib`) writes it: the marker with the
    /// count in its low four bits, or, from 15 on, `0x_F` followed by the count as an integer
    /// object in the fewest of 1, 2, 4 or 8 bytes.
    package static func appendHeader(_ marker: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(marker | UInt8(count))
        } else {
            output.append(marker | 0x0F)
            appendInteger(Int64(count), to: &output)
        }
    }

    /// How many bytes `appendHeader` writes for `count`.
    package static func headerSize(count: Int) -> Int {
        count < 15 ? 1 : 2 + byteCount(UInt64(count))
    }

    /// `value`'s low `size` bytes, most significant first.
    package static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
    private static func byteCount(_ value: UInt64) -> Int {
        switch value {
        case ...0xFF: 1
        case ...0xFFFF: 2
        case ...0xFFFF_FFFF: 4
        default: 8
        }
    }
}
