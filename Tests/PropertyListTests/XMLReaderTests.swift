import PropertyList
import Testing

@Suite struct XMLReaderTests {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    static func decode(_ text: String) throws(PropertyListError) -> PropertyList {
        try PropertyListDecoding.decode(Array(text.utf8)).value
    }

    static func plist(_ body: String) throws(PropertyListError) -> PropertyList {
        try decode(header + body + "\n</plist>\n")
    }

    @Test func readsAppleLayout() throws {
        let value = try Self.plist("""
            <dict>
            \t<key>name</key>
            \t<string>Fruit</string>
            \t<key>words</key>
            \t<array>
            \t\t<string>apple</string>
            \t\t<string>pear</string>
            \t</array>
            \t<key>count</key>
            \t<integer>2</integer>
            \t<key>ratio</key>
            \t<real>0.10000000000000001</real>
            \t<key>free</key>
            \t<true/>
            \t<key>paid</key>
            \t<false/>
            \t<key>made</key>
            \t<date>2001-01-01T00:01:00Z</date>
            \t<key>blob</key>
            \t<data>
            \tAAEC
            \tAw==
            \t</data>
            </dict>
            """)
        #expect(value == .dictionary([
            "name": .string("Fruit"),
            "words": .array([.string("apple"), .string("pear")]),
            "count": .integer(2),
            "ratio": .real(0.1),
            "free": .boolean(true),
            "paid": .boolean(false),
            "made": .date(60),
            "blob": .data([0, 1, 2, 3]),
        ]))
    }

    @Test func acceptsBareRootWithoutPrologue() throws {
        #expect(try Self.decode("<array><string>a</string></array>") == .array([.string("a")]))
        #expect(try Self.decode("<string>only</string>") == .string("only"))
    }

    @Test func acceptsByteOrderMarkAndLeadingWhitespace() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("\n  <plist><integer>7</integer></plist>".utf8)
        #expect(try PropertyListDecoding.decode(bytes).value == .integer(7))
    }

    @Test func emptyForms() throws {
        #expect(try Self.plist("<array><string/><array/><dict/><string></string><true></true></array>")
            == .array([.string(""), .array([]), .dictionary([:]), .string(""), .boolean(true)]))
    }

    @Test func commentsAndProcessingInstructionsBetweenElements() throws {
        let value = try Self.decode("""
            <!-- before --><?xml-stylesheet href="x"?>
            <plist version="1.0"><!-- a -->
            <dict><!-- b --><key>k</key><!-- c --><integer>1</integer><!-- d --></dict>
            <!-- after --></plist><!-- end -->
            """)
        #expect(value == .dictionary(["k": .integer(1)]))
    }

    @Test func attributesAreSkipped() throws {
        #expect(try Self.decode("<plist version='1.0' x=\"a > b / c\"><array id=\"1\" ><string lang=\"en\">w</string></array ></plist>")
            == .array([.string("w")]))
    }

    @Test func entitiesAndCharacterReferences() throws {
        #expect(try Self.plist("<string>&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x1F600;&#233;</string>")
            == .string("<>&\"'AB😀é"))
    }

    @Test func cdataInStringsAndKeys() throws {
        #expect(try Self.plist("<dict><key><![CDATA[<k>]]></key><string>a<![CDATA[ & <b> ]]>c</string></dict>")
            == .dictionary(["<k>": .string("a & <b> c")]))
    }

    @Test func textKeepsWhitespaceAndLineEndingsExactly() throws {
        #expect(try Self.plist("<string> a\r\n\tb </string>") == .string(" a\r\n\tb "))
    }

    @Test(arguments: [
        ("0", 0), ("-0", 0), ("+42", 42), ("-42", -42), ("0x10", 16), ("0XfF", 255), ("-0x10", -16),
        (" 12 ", 12), ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
        ("0x7FFFFFFFFFFFFFFF", Int64.max),
    ] as [(String, Int64)])
    func integers(text: String, expected: Int64) throws {
        #expect(try Self.plist("<integer>\(text)</integer>") == .integer(expected))
    }

    @Test(arguments: ["9223372036854775808", "-9223372036854775809", "18446744073709551616", "0x10000000000000000", "", "12a", "0x", "1.5", "--1"])
    func badIntegers(text: String) {
        expectError(.malformed, containing: "line 4:") { () throws(PropertyListError) in _ = try Self.plist("<integer>\(text)</integer>") }
    }

    @Test(arguments: [
        ("1.5", 1.5), ("-0.25", -0.25), ("1e+100", 1e100), ("1E-5", 1e-5), ("3", 3), ("+infinity", .infinity), ("-infinity", -.infinity), ("inf", .infinity),
    ] as [(String, Double)])
    func reals(text: String, expected: Double) throws {
        #expect(try Self.plist("<real>\(text)</real>") == .real(expected))
    }

    @Test(arguments: ["", "abc", "1.2.3", String(repeating: "1", count: 5_000)])
    func badReals(text: String) {
        expectError(.malformed, containing: "<real>") { () throws(PropertyListError) in _ = try Self.plist("<real>\(text)</real>") }
    }

    @Test(arguments: [
        ("2001-01-01T00:00:00Z", 0), ("1970-01-01T00:00:00Z", -978_307_200), ("2000-02-29T12:00:00Z", -86_400 * 306 - 43_200),
        ("0001-01-01T00:00:00Z", -63_113_904_000), ("2001-01-01T00:00:01.5Z", 1.5),
    ] as [(String, Double)])
    func dates(text: String, expected: Double) throws {
        #expect(try Self.plist("<date>\(text)</date>") == .date(expected))
    }

    @Test(arguments: ["2001-13-01T00:00:00Z", "2001-02-29T00:00:00Z", "2001-01-01 00:00:00Z", "2001-01-01T24:00:00Z", "2001-01-01T00:00:00", "yesterday", ""])
    func badDates(text: String) {
        expectError(.malformed, containing: "<date>") { () throws(PropertyListError) in _ = try Self.plist("<date>\(text)</date>") }
    }

    @Test(arguments: [("", []), ("AQ==", [1]), ("AQI=", [1, 2]), ("AQID", [1, 2, 3]), ("AQ", [1]), (" A Q\nI D ", [1, 2, 3])] as [(String, [UInt8])])
    func data(text: String, expected: [UInt8]) throws {
        #expect(try Self.plist("<data>\(text)</data>") == .data(expected))
    }

    @Test(arguments: ["A", "AQ*I", "A===", "AQ==AQ==", "AQ=I", "&#65;"])
    func badData(text: String) {
        expectError(.malformed, containing: "<data>") { () throws(PropertyListError) in _ = try Self.plist("<data>\(text)</data>") }
    }

    @Test func nonASCIIStringsAreValidatedAndKept() throws {
        #expect(try Self.plist("<string>ñé漢😀</string>") == .string("ñé漢😀"))
    }

    @Test func errorMessagesNameTheLine() {
        let text = "<plist>\n<dict>\n<key>a</key>\n<string>x</string>\n</array>\n</plist>"
        expectError(.malformed, containing: "line 5: expected </dict>, found </array>") { () throws(PropertyListError) in
            try decodeIgnoringValue(text)
        }
    }
}
