/// Assembles a `bplist00` from hand-written object bytes, with every trailer field overridable,
/// so tests can build documents no honest writer would produce.
struct RawBinaryPlist {
    var objects: [[UInt8]]
    var topObject: UInt64 = 0
    var offsetIntSize: UInt8 = 1
    var objectRefSize: UInt8 = 1
    var objectCount: UInt64?
    var offsetTableOffset: UInt64?
    /// Replaces entries of the offset table, by object number.
    var offsetOverrides: [Int: UInt64] = [:]

    init(_ objects: [[UInt8]]) {
        self.objects = objects
    }

    var bytes: [UInt8] {
        var output = Array("bplist00".utf8)
        var offsets: [UInt64] = []
        for object in objects {
            offsets.append(UInt64(output.count))
            output += object
        }
        let tableStart = UInt64(output.count)
        for (index, offset) in offsets.enumerated() {
            output += Self.bigEndian(offsetOverrides[index] ?? offset, size: Int(offsetIntSize))
        }
        output += [0, 0, 0, 0, 0, 0, offsetIntSize, objectRefSize]
        output += Self.bigEndian(objectCount ?? UInt64(objects.count), size: 8)
        output += Self.bigEndian(topObject, size: 8)
        output += Self.bigEndian(offsetTableOffset ?? tableStart, size: 8)
        return output
    }

    static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (UInt64($0) * 8)) }
    }

    /// An ASCII string object.
    static func ascii(_ text: String) -> [UInt8] {
        precondition(text.utf8.count < 15)
        return [0x50 | UInt8(text.utf8.count)] + Array(text.utf8)
    }
}
