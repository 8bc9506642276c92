import PropertyList
import Testing

@Suite struct HostileBinaryTests {
    /// Arrays 0..<depth, each holding the next; the last is empty.
    static func nestedArrays(_ depth: Int) -> [UInt8] {
        var objects: [[UInt8]] = (0..<(depth - 1)).map { (index: Int) -> [UInt8] in [0xA1, UInt8(index + 1)] }
        objects.append([0xA0])
        return RawBinaryPlist(objects).bytes
    }

    @Test func wellFormedRawDocumentDecodes() throws {
        let plist = RawBinaryPlist([[0xA2, 1, 2], RawBinaryPlist.ascii("hi"), [0x10, 0x07]])
        #expect(try PropertyListDecoding.decode(plist.bytes).value == .array([.string("hi"), .integer(7)]))
    }

    @Test func sixtyFourLevelsAreAccepted() throws {
        _ = try PropertyListDecoding.decode(Self.nestedArrays(64))
    }

    @Test func sixtyFiveLevelsAreTooDeep() {
        expectError(.tooDeep, containing: "binary object 64") { () throws(PropertyListError) in try decodeIgnoringValue(Self.nestedArrays(65)) }
    }

    @Test func arrayContainingItselfIsCyclic() {
        let plist = RawBinaryPlist([[0xA1, 0]])
        expectError(.cyclic, containing: "object 0 contains itself") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test func twoObjectCycleIsCyclic() {
        let plist = RawBinaryPlist([[0xA1, 1], [0xA1, 0]])
        expectError(.cyclic, containing: "refers to object 0") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test func dictionaryValueReferringToItsDictionaryIsCyclic() {
        let plist = RawBinaryPlist([[0xD1, 1, 2], RawBinaryPlist.ascii("k"), [0xA1, 0]])
        expectError(.cyclic) { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test func sharedReferencesAreLegal() throws {
        let plist = RawBinaryPlist([[0xA3, 1, 2, 1], RawBinaryPlist.ascii("w"), [0xA2, 1, 1]])
        #expect(try PropertyListDecoding.decode(plist.bytes).value
            == .array([.string("w"), .array([.string("w"), .string("w")]), .string("w")]))
    }

    @Test func exponentialDAGStopsQuickly() {
        // 64 arrays, each referencing the next twice: 2^64 values if expanded.
        var objects: [[UInt8]] = (0..<63).map { (index: Int) -> [UInt8] in [0xA2, UInt8(index + 1), UInt8(index + 1)] }
        objects.append(RawBinaryPlist.ascii("boom"))
        let bytes = RawBinaryPlist(objects).bytes
        // Refused by the object limit, which counts every reference as it is followed: the walk
        // stops there instead of expanding 2^64 values (how fast is for 'make bench').
        expectError(.tooManyObjects) { () throws(PropertyListError) in try decodeIgnoringValue(bytes) }
    }

    @Test func objectLimitCountsEveryReference() {
        let plist = RawBinaryPlist([[0xA4, 1, 1, 1, 1], RawBinaryPlist.ascii("w")])
        expectError(.tooManyObjects) { () throws(PropertyListError) in
            try decodeIgnoringValue(plist.bytes, limits: PropertyListLimits(maxObjects: 4))
        }
    }

    // MARK: - Trailer and offsets

    static func valid() -> RawBinaryPlist {
        RawBinaryPlist([[0xA1, 1], RawBinaryPlist.ascii("ok")])
    }

    @Test(arguments: [0, 9, 255] as [UInt8])
    func badObjectRefSize(size: UInt8) {
        var plist = Self.valid()
        plist.objectRefSize = size
        expectError(.malformed, containing: "reference size") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test(arguments: [0, 9] as [UInt8])
    func badOffsetIntSize(size: UInt8) {
        var plist = Self.valid()
        plist.offsetIntSize = size
        expectError(.malformed, containing: "offset size") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test(arguments: [0, 3, 8, 1_000, UInt64.max, UInt64(Int64.max) + 1] as [UInt64])
    func offsetTableOffsetOutOfRange(offset: UInt64) {
        var plist = Self.valid()
        plist.offsetTableOffset = offset
        expectError(.malformed, containing: "trailer") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test(arguments: [0, 3, 1 << 40, UInt64.max, UInt64.max / 2 + 1, 1 << 61] as [UInt64])
    func objectCountThatCannotFit(count: UInt64) {
        var plist = Self.valid()
        plist.objectCount = count
        plist.offsetIntSize = 8
        expectError(.malformed, containing: "trailer") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test func topObjectOutOfRange() {
        var plist = Self.valid()
        plist.topObject = 2
        expectError(.malformed, containing: "top object") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test(arguments: [0, 7, 13, 200, UInt64(UInt32.max)] as [UInt64])
    func offsetTableEntryOutsideObjects(offset: UInt64) {
        var plist = Self.valid()
        plist.offsetIntSize = 4
        plist.offsetOverrides = [1: offset]
        expectError(.malformed, containing: "outside the object area") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test func referenceToMissingObject() {
        let plist = RawBinaryPlist([[0xA1, 7], RawBinaryPlist.ascii("x")])
        expectError(.malformed, containing: "only 2 objects") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test(arguments: [
        [0x5F, 0x10, 0xFF, 0x61],               // 255 bytes claimed, 1 present
        [0x4F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], // Int64.max bytes
        [0x6F, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0], // count × 2 overflows
        [0xAF, 0x13, 0x20, 0, 0, 0, 0, 0, 0, 0], // refs × size overflows
        [0xDF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0], // dictionary count × 2 overflows
        [0xAF, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], // negative count
        [0x5F, 0x20],                            // count is not an integer
        [0x5F],                                  // count missing
        [0x13, 0x01],                            // 8-byte integer cut short
        [0x23, 0x00],                            // real cut short
        [0x33],                                  // date cut short
        [0x15, 0, 0, 0],                         // 32-byte integer
        [0x21, 0, 0],                            // 2-byte real
        [0x34, 0, 0, 0, 0, 0, 0, 0, 0],          // bad date marker
        [0x0F],                                  // fill byte
        [0xF0],                                  // unknown marker
        [0x52, 0x61, 0xC3],                      // non-ASCII in an ASCII string
        [0x61, 0xD8, 0x00],                      // lone high surrogate
        [0x61, 0xDC, 0x00],                      // lone low surrogate
        [0x62, 0xD8, 0x3D, 0x00, 0x41],          // high surrogate then a letter
        [0x14, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], // 16-byte integer beyond 64 bits
        [0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0], // 2^63 as 16 bytes
    ] as [[UInt8]])
    func malformedObjects(object: [UInt8]) {
        let plist = RawBinaryPlist([object])
        expectError(.malformed, containing: "binary object 0") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test(arguments: [
        [0x00],                   // null
        [0x80, 0x01],             // UID
        [0xC1, 0x00],             // set
        [0x0C],                   // bplist1x URL
        [0x71, 0x61],             // bplist1x UTF-8 string
    ] as [[UInt8]])
    func unsupportedObjects(object: [UInt8]) {
        let plist = RawBinaryPlist([object])
        expectError(.unsupported, containing: "binary object 0") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test(arguments: [
        ([0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], Int64.max),
        ([0x14, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE], -2),
        ([0x13, 0x80, 0, 0, 0, 0, 0, 0, 0], Int64.min),
        ([0x12, 0xFF, 0xFF, 0xFF, 0xFF], 4_294_967_295),
    ] as [([UInt8], Int64)])
    func wideIntegers(object: [UInt8], expected: Int64) throws {
        #expect(try PropertyListDecoding.decode(RawBinaryPlist([object]).bytes).value == .integer(expected))
    }

    @Test func singlePrecisionReal() throws {
        let plist = RawBinaryPlist([[0x22] + RawBinaryPlist.bigEndian(UInt64(Float(1.5).bitPattern), size: 4)])
        #expect(try PropertyListDecoding.decode(plist.bytes).value == .real(1.5))
    }

    @Test func utf16SurrogatePairDecodes() throws {
        let plist = RawBinaryPlist([[0x63, 0x00, 0x61, 0xD8, 0x3D, 0xDE, 0x00]])
        #expect(try PropertyListDecoding.decode(plist.bytes).value == .string("a😀"))
    }

    @Test func nonStringKeyIsRefused() {
        let plist = RawBinaryPlist([[0xD1, 1, 2], [0x10, 0x05], RawBinaryPlist.ascii("v")])
        expectError(.malformed, containing: "must be a string; found an integer") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test func containerKeyIsRefused() {
        let plist = RawBinaryPlist([[0xD1, 1, 2], [0xA0], RawBinaryPlist.ascii("v")])
        expectError(.malformed, containing: "must be a string; found an array") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test func duplicateKeysAreRefused() {
        let plist = RawBinaryPlist([[0xD2, 1, 1, 2, 2], RawBinaryPlist.ascii("k"), [0x09]])
        expectError(.duplicateKey, containing: "'k'") { () throws(PropertyListError) in try decodeIgnoringValue(plist.bytes) }
    }

    @Test(arguments: [8, 20, 40, 41] as [Int])
    func tooShortOrEmptyTrailer(length: Int) {
        let bytes = Array("bplist00".utf8) + [UInt8](repeating: 0, count: length - 8)
        expectError(.malformed) { () throws(PropertyListError) in try decodeIgnoringValue(bytes) }
    }

    @Test func everyTruncationOfAValidDocumentFails() throws {
        let bytes = PropertyListEncoding.binary(.dictionary(["words": .array([.string("apple"), .string("ñandú"), .integer(1 << 40)])]))
        for length in 0..<bytes.count {
            do {
                _ = try PropertyListDecoding.decode(Array(bytes.prefix(length)))
                Issue.record("a \(length)-byte prefix decoded")
            } catch {
                #expect([.malformed, .notAPropertyList, .unsupported].contains(error.kind), "\(length): \(error.message)")
            }
        }
    }
}
