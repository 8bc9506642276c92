import PropertyList
import Testing

@Suite struct RoundTripTests {
    static let samples: [(name: String, value: PropertyList)] = [
        ("empty array", .array([])),
        ("empty dictionary", .dictionary([:])),
        ("empty string", .string("")),
        ("empty data", .data([])),
        ("scalar string", .string("hello")),
        ("integer extremes", .array([.integer(.min), .integer(.max), .integer(0), .integer(-1), .integer(255), .integer(256), .integer(65_536), .integer(4_294_967_296)])),
        ("reals", .array([.real(0), .real(-0.0), .real(0.1), .real(1e100), .real(-1e-300), .real(.leastNonzeroMagnitude), .real(.greatestFiniteMagnitude), .real(.infinity), .real(-.infinity)])),
        ("booleans", .array([.boolean(true), .boolean(false)])),
        ("dates", .array([.date(0), .date(-978_307_200), .date(725_846_400), .date(-63_113_904_000), .date(252_423_993_599)])),
        ("data", .data(Array(0...255))),
        ("unicode", .array(["ñ", "é", "e\u{301}", "ß", "😀", "👩‍👩‍👧", "漢字", "\u{FEFF}", "\u{10FFFF}"].map(PropertyList.string))),
        ("markup characters", .string("<a href=\"x\">&amp; ]]> 'q'</a>")),
        ("whitespace", .string("  leading\n\ttrailing  \r\n")),
        ("nested", .dictionary([
            "words": .array([.string("apple"), .string("banana")]),
            "meta": .dictionary(["version": .integer(3), "empty": .array([]), "inner": .dictionary([:])]),
            "nested": .array([.array([.array([.dictionary(["k": .data([1, 2, 3])])])])]),
        ])),
        ("keys needing escapes", .dictionary(["a<b": .integer(1), "&": .integer(2), "é": .integer(3)])),
    ]

    @Test(arguments: samples.indices)
    func xmlRoundTrip(index: Int) throws {
        let (name, value) = Self.samples[index]
        let decoded = try PropertyListDecoding.decode(PropertyListEncoding.xml(value))
        #expect(decoded.format == .xml)
        #expect(decoded.value.isIdentical(to: value), "\(name)")
    }

    @Test(arguments: samples.indices)
    func binaryRoundTrip(index: Int) throws {
        let (name, value) = Self.samples[index]
        let decoded = try PropertyListDecoding.decode(PropertyListEncoding.binary(value))
        #expect(decoded.format == .binary)
        #expect(decoded.value.isIdentical(to: value), "\(name)")
    }

    @Test(arguments: [PropertyListFormat.xml, .binary])
    func normalizationFormsStayByteExact(format: PropertyListFormat) throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let value = PropertyList.array([.string(composed), .string(decomposed)])
        let bytes = format == .xml ? PropertyListEncoding.xml(value) : PropertyListEncoding.binary(value)
        let items = try #require(try PropertyListDecoding.decode(bytes).value.arrayValue)
        #expect(items.count == 2)
        #expect(Array(items[0].stringValue?.utf8 ?? "".utf8) == Array(composed.utf8))
        #expect(Array(items[1].stringValue?.utf8 ?? "".utf8) == Array(decomposed.utf8))
    }

    @Test func nanSurvivesBothFormats() throws {
        for bytes in [PropertyListEncoding.xml(.real(.nan)), PropertyListEncoding.binary(.real(.nan))] {
            let value = try PropertyListDecoding.decode(bytes).value
            #expect(value.realValue?.isNaN == true)
        }
    }

    @Test func binaryKeepsFractionalDates() throws {
        let value = PropertyList.date(12_345.678_9)
        #expect(try PropertyListDecoding.decode(PropertyListEncoding.binary(value)).value == value)
    }

    @Test func xmlRoundsDatesDownToWholeSeconds() throws {
        #expect(try PropertyListDecoding.decode(PropertyListEncoding.xml(.date(12.75))).value == .date(12))
        #expect(try PropertyListDecoding.decode(PropertyListEncoding.xml(.date(-0.5))).value == .date(-1))
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomTreesRoundTrip(seed: UInt64) throws {
        var random = RandomPropertyLists(seed: seed)
        random.foundationSafe = false
        for _ in 0..<40 {
            let value = random.tree()
            #expect(try PropertyListDecoding.decode(PropertyListEncoding.xml(value)).value.isIdentical(to: value))
            #expect(try PropertyListDecoding.decode(PropertyListEncoding.binary(value)).value.isIdentical(to: value))
        }
    }

    @Test func encodingIsDeterministic() {
        var random = RandomPropertyLists(seed: 99)
        for _ in 0..<20 {
            let value = random.tree()
            #expect(PropertyListEncoding.xml(value) == PropertyListEncoding.xml(value))
            #expect(PropertyListEncoding.binary(value) == PropertyListEncoding.binary(value))
        }
    }

    @Test func binaryStoresEqualStringsOnce() {
        let repeated = PropertyList.array(Array(repeating: .dictionary(["word": .string("apple")]), count: 100))
        let single = PropertyList.array([.dictionary(["word": .string("apple")])])
        // 99 more dictionaries cost a marker, two refs, an array ref and an offset each; no new strings.
        #expect(PropertyListEncoding.binary(repeated).count < PropertyListEncoding.binary(single).count + 99 * 7)
    }
}
