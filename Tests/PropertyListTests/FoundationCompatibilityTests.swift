import Foundation
import PropertyList
import Testing

/// Our reader and writer against Foundation's `PropertyListSerialization`, on generated trees.
@Suite struct FoundationCompatibilityTests {
    static let seeds: [UInt64] = Array(1...10)
    static let treesPerSeed = 30

    @Test(arguments: seeds)
    func weReadFoundationXML(seed: UInt64) throws {
        var random = RandomPropertyLists(seed: seed)
        for _ in 0..<Self.treesPerSeed {
            let value = random.tree()
            let bytes = try FoundationBridge.encode(value, format: .xml)
            let decoded = try PropertyListDecoding.decode(bytes)
            #expect(decoded.format == .xml)
            #expect(decoded.value.isIdentical(to: value), "\(value)")
        }
    }

    @Test(arguments: seeds)
    func weReadFoundationBinary(seed: UInt64) throws {
        var random = RandomPropertyLists(seed: seed)
        random.xmlSafe = false
        for _ in 0..<Self.treesPerSeed {
            let value = random.tree()
            let bytes = try FoundationBridge.encode(value, format: .binary)
            let decoded = try PropertyListDecoding.decode(bytes)
            #expect(decoded.format == .binary)
            #expect(decoded.value.isIdentical(to: value), "\(value)")
        }
    }

    @Test(arguments: seeds)
    func foundationReadsOurXML(seed: UInt64) throws {
        var random = RandomPropertyLists(seed: seed)
        for _ in 0..<Self.treesPerSeed {
            let value = random.tree()
            let decoded = try FoundationBridge.decode(PropertyListEncoding.xml(value))
            #expect(decoded.isIdentical(to: value), "\(value)")
        }
    }

    @Test(arguments: seeds)
    func foundationReadsOurBinary(seed: UInt64) throws {
        var random = RandomPropertyLists(seed: seed)
        random.xmlSafe = false
        for _ in 0..<Self.treesPerSeed {
            let value = random.tree()
            let decoded = try FoundationBridge.decode(PropertyListEncoding.binary(value))
            #expect(decoded.isIdentical(to: value), "\(value)")
        }
    }

    /// Without reals (Foundation writes `%.17g`, we write the shortest round-trip form) our XML is
    /// Foundation's XML, byte for byte.
    @Test func xmlLayoutMatchesFoundationByteForByte() throws {
        let value = PropertyList.dictionary([
            "name": .string("Fruit & <Veg>"),
            "words": .array([.string("apple"), .string("pear"), .array([]), .dictionary([:]), .string("")]),
            "count": .integer(-42),
            "flags": .array([.boolean(true), .boolean(false)]),
            "made": .date(725_846_400),
            "blob": .data(Array(0..<100)),
            "empty": .data([]),
            "nested": .dictionary(["deeper": .dictionary(["blob": .data(Array(0..<200))])]),
            "Zeta": .integer(1),
        ])
        let ours = PropertyListEncoding.xml(value)
        let theirs = try FoundationBridge.encode(value, format: .xml)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self))
    }

    @Test func foundationReadsOurLongStringsAndLargeArrays() throws {
        let words = (0..<5_000).map { PropertyList.string("word\($0)") }
        let value = PropertyList.dictionary(["words": .array(words), "long": .string(String(repeating: "ñ", count: 70_000))])
        #expect(try FoundationBridge.decode(PropertyListEncoding.binary(value)).isIdentical(to: value))
        #expect(try FoundationBridge.decode(PropertyListEncoding.xml(value)).isIdentical(to: value))
    }
}
