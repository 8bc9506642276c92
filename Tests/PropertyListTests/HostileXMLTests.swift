import PropertyList
import Testing

@Suite struct HostileXMLTests {
    static func nestedArrays(_ depth: Int) -> String {
        "<plist version=\"1.0\">" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
    }

    @Test func sixtyFourLevelsAreAccepted() throws {
        var value = try PropertyListDecoding.decode(Array(Self.nestedArrays(64).utf8)).value
        var depth = 0
        while let items = value.arrayValue {
            depth += 1
            guard let first = items.first else { break }
            value = first
        }
        #expect(depth == 64)
    }

    @Test func sixtyFiveLevelsAreTooDeep() {
        expectError(.tooDeep, containing: "line 1") { () throws(PropertyListError) in try decodeIgnoringValue(Self.nestedArrays(65)) }
    }

    @Test func emptyContainerPastTheLimitIsTooDeep() {
        let text = String(repeating: "<array>", count: 64) + "<dict/>" + String(repeating: "</array>", count: 64)
        expectError(.tooDeep) { () throws(PropertyListError) in try decodeIgnoringValue(text) }
    }

    @Test func aHundredThousandOpenArraysStopAtTheLimit() {
        let text = String(repeating: "<array>", count: 100_000)
        expectError(.tooDeep) { () throws(PropertyListError) in try decodeIgnoringValue(text) }
    }

    @Test func deepNestingWithinARaisedLimitDoesNotUseTheMachineStack() throws {
        let depth = 100_000
        let text = String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
        let limits = PropertyListLimits(maxDepth: depth)
        var value = try PropertyListDecoding.decode(Array(text.utf8), limits: limits).value
        // Tear the tree down level by level: a recursive deinit of 100,000 levels could overflow.
        var levels = 0
        while case .array(var items) = value, !items.isEmpty {
            value = items.removeLast()
            levels += 1
        }
        #expect(levels == depth - 1)
    }

    @Test func objectLimitCountsKeysAndValues() {
        let text = "<dict><key>a</key><string>1</string><key>b</key><string>2</string></dict>"
        expectError(.tooManyObjects) { () throws(PropertyListError) in
            try decodeIgnoringValue(text, limits: PropertyListLimits(maxObjects: 4))
        }
    }

    @Test(arguments: [
        "<plist><array><string>a</string>",
        "<plist><array><string>a",
        "<plist><dict><key>a</key>",
        "<plist><dict><key>a",
        "<plist><array><integer>1</integer></array>",
        "<plist><arr",
        "<plist><string>a</str",
        "<plist><!-- never closed",
        "<plist><string><![CDATA[open",
        "<?xml version=\"1.0\"",
        "<!DOCTYPE plist",
    ])
    func truncatedDocumentsNameALine(text: String) {
        expectError(.malformed, containing: "line 1") { () throws(PropertyListError) in try decodeIgnoringValue(text) }
    }

    @Test func truncationReportsWhereTheContainerOpened() {
        let text = "<plist>\n<dict>\n<key>words</key>\n<array>\n<string>a</string>\n"
        expectError(.malformed, containing: "line 6: unexpected end of input inside the <array> opened at line 4") { () throws(PropertyListError) in
            try decodeIgnoringValue(text)
        }
    }

    @Test(arguments: ["&nbsp;", "&lol;", "&#0;", "&#x0;", "&#xD800;", "&#x110000;", "&#99999999999;", "&#;", "&#xZZ;", "& ", "&amp"])
    func badEntitiesAreRefused(entity: String) {
        expectError(.malformed) { () throws(PropertyListError) in try decodeIgnoringValue("<string>a\(entity)b</string>") }
    }

    @Test func billionLaughsDoctypeIsRefused() {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [
              <!ENTITY lol "lol">
              <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            ]>
            <plist><string>&lol2;</string></plist>
            """
        expectError(.unsupported, containing: "internal subset") { () throws(PropertyListError) in try decodeIgnoringValue(text) }
    }

    @Test func doctypeWithBracketInsideQuotesIsFine() throws {
        let text = "<!DOCTYPE plist PUBLIC \"-//x[y]//EN\" 'http://example.com/[z]'><plist><true/></plist>"
        #expect(try PropertyListDecoding.decode(Array(text.utf8)).value == .boolean(true))
    }

    @Test(arguments: [[0xFF], [0xC3], [0xE2, 0x82], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]] as [[UInt8]])
    func invalidUTF8InStringsIsRefused(sequence: [UInt8]) {
        let bytes = Array("<plist><array><string>ok</string><string>a".utf8) + sequence + Array("b</string></array></plist>".utf8)
        expectError(.invalidUTF8) { () throws(PropertyListError) in try decodeIgnoringValue(bytes) }
    }

    @Test func invalidUTF8InKeysIsRefused() {
        let bytes = Array("<dict><key>".utf8) + [0xFE] + Array("</key><true/></dict>".utf8)
        expectError(.invalidUTF8) { () throws(PropertyListError) in try decodeIgnoringValue(bytes) }
    }

    @Test func invalidUTF8AfterAnEntityIsRefused() {
        let bytes = Array("<string>&amp;".utf8) + [0xC3] + Array("</string>".utf8)
        expectError(.invalidUTF8) { () throws(PropertyListError) in try decodeIgnoringValue(bytes) }
    }

    @Test func duplicateKeysAreRefused() {
        let text = "<plist>\n<dict>\n<key>a</key><true/>\n<key>a</key><false/>\n</dict></plist>"
        expectError(.duplicateKey, containing: "line 4: duplicate key 'a'") { () throws(PropertyListError) in try decodeIgnoringValue(text) }
    }

    @Test(arguments: [
        ("<dict><key>a</key></dict>", "has no value"),
        ("<dict><key>a</key><key>b</key><true/></dict>", "has no value"),
        ("<dict><string>v</string></dict>", "without a <key>"),
        ("<array><key>a</key></array>", "outside a <dict>"),
        ("<plist><array/><array/></plist>", "expected </plist>"),
        ("<plist><array/></plist><x/>", "after the root element"),
        ("<plist><array/></plist>junk", "after the root element"),
        ("<array>text<string>a</string></array>", "unexpected text"),
        ("<array><foo/></array>", "unknown element <foo>"),
        ("<array><plist/></array>", "not allowed here"),
        ("<string>a<b>c</b></string>", "only text is allowed"),
        ("<plist/>", "holds no value"),
        ("<true>x</true>", "expected </true>"),
        ("<array></dict>", "expected </array>, found </dict>"),
        ("<array><string>a</string</array>", "not closed"),
        ("</array>", "expected a root element"),
    ])
    func structuralErrors(text: String, message: String) {
        let kind: PropertyListError.Kind = text == "</array>" ? .notAPropertyList : .malformed
        expectError(kind, containing: message) { () throws(PropertyListError) in try decodeIgnoringValue(text) }
    }

    @Test(arguments: [
        ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist/>", PropertyListError.Kind.unsupported),
        ("<?xml version='1.0' encoding='UTF-16'?><plist/>", .unsupported),
        ("{\"words\": [\"a\"]}", .unsupported),
        ("[\"a\", \"b\"]", .unsupported),
        ("( apple, pear )", .unsupported),
        ("{ key = value; }", .unsupported),
        ("<html><body/></html>", .notAPropertyList),
        ("hello", .notAPropertyList),
        ("", .notAPropertyList),
        (" \n\t", .notAPropertyList),
        ("bplist15xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", .unsupported),
    ])
    func otherFormatsAreNamed(text: String, kind: PropertyListError.Kind) {
        expectError(kind) { () throws(PropertyListError) in try decodeIgnoringValue(text) }
    }

    @Test func lowercaseUTF8EncodingIsAccepted() throws {
        let text = "<?xml version='1.0' encoding='utf-8' standalone='yes'?><plist><integer>1</integer></plist>"
        #expect(try PropertyListDecoding.decode(Array(text.utf8)).value == .integer(1))
    }

    @Test(arguments: [[0xFE, 0xFF, 0x00, 0x3C], [0xFF, 0xFE, 0x3C, 0x00], [0x3C, 0x00, 0x3F, 0x00], [0x00, 0x00, 0xFE, 0xFF]] as [[UInt8]])
    func utf16AndUTF32AreUnsupported(bytes: [UInt8]) {
        expectError(.unsupported) { () throws(PropertyListError) in try decodeIgnoringValue(bytes) }
    }
}
