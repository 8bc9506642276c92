import PropertyList
import Testing

@Suite struct WriterTests {
    @Test func xmlLayout() {
        let value = PropertyList.dictionary([
            "b": .array([.string("x&y"), .integer(1), .real(0.5), .boolean(false)]),
            "a": .dictionary([:]),
            "c": .array([]),
            "d": .date(0),
            "e": .data([1, 2, 3]),
        ])
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>a</key>
            \t<dict/>
            \t<key>b</key>
            \t<array>
            \t\t<string>x&amp;y</string>
            \t\t<integer>1</integer>
            \t\t<real>0.5</real>
            \t\t<false/>
            \t</array>
            \t<key>c</key>
            \t<array/>
            \t<key>d</key>
            \t<date>2001-01-01T00:00:00Z</date>
            \t<key>e</key>
            \t<data>
            \tAQID
            \t</data>
            </dict>
            </plist>

            """
        #expect(String(decoding: PropertyListEncoding.xml(value), as: UTF8.self) == expected)
    }

    @Test func keysAreSortedByUTF8Bytes() {
        let value = PropertyList.dictionary(["é": .integer(1), "z": .integer(2), "Z": .integer(3), "a": .integer(4)])
        let text = String(decoding: PropertyListEncoding.xml(value), as: UTF8.self)
        let keys = text.split(separator: "\n").filter { $0.contains("<key>") }.map { String($0.filter { $0 != "\t" }) }
        #expect(keys == ["<key>Z</key>", "<key>a</key>", "<key>z</key>", "<key>é</key>"])
    }

    @Test(arguments: [
        (0.1, "0.1"), (1e100, "1e+100"), (-0.0, "-0.0"), (.infinity, "+infinity"), (-.infinity, "-infinity"), (.nan, "nan"), (3, "3.0"),
    ] as [(Double, String)])
    func realText(value: Double, text: String) {
        #expect(String(decoding: PropertyListEncoding.xml(.real(value)), as: UTF8.self).contains("<real>\(text)</real>"))
    }

    @Test(arguments: [
        (0, "2001-01-01T00:00:00Z"), (-978_307_200, "1970-01-01T00:00:00Z"), (-1, "2000-12-31T23:59:59Z"),
        (-63_113_904_000, "0001-01-01T00:00:00Z"), (-63_177_062_400, "-0001-01-01T00:00:00Z"), (252_423_993_599, "9999-12-31T23:59:59Z"),
    ] as [(Double, String)])
    func dateText(value: Double, text: String) {
        #expect(String(decoding: PropertyListEncoding.xml(.date(value)), as: UTF8.self).contains("<date>\(text)</date>"))
    }

    @Test func binaryLayoutOfASmallArray() {
        let bytes = PropertyListEncoding.binary(.array([.string("hi"), .integer(7), .boolean(true)]))
        let expected: [UInt8] = Array("bplist00".utf8)
            + [0xA3, 1, 2, 3]          // object 0 at 0x08: array of objects 1, 2, 3
            + [0x52, 0x68, 0x69]       // object 1 at 0x0C: "hi"
            + [0x10, 0x07]             // object 2 at 0x0F: 7
            + [0x09]                   // object 3 at 0x11: true
            + [0x08, 0x0C, 0x0F, 0x11] // offset table at 0x12
            + [0, 0, 0, 0, 0, 0, 1, 1] + RawBinaryPlist.bigEndian(4, size: 8) + RawBinaryPlist.bigEndian(0, size: 8) + RawBinaryPlist.bigEndian(0x12, size: 8)
        #expect(bytes == expected)
    }

    @Test func binaryStringEncodings() {
        let ascii = PropertyListEncoding.binary(.string("abc"))
        #expect(Array(ascii[8..<12]) == [0x53, 0x61, 0x62, 0x63])
        let utf16 = PropertyListEncoding.binary(.string("é😀"))
        #expect(Array(utf16[8..<15]) == [0x63, 0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00])
    }

    @Test func binaryLongCountsUseAnIntegerObject() throws {
        let bytes = PropertyListEncoding.binary(.data(Array(repeating: 7, count: 300)))
        #expect(Array(bytes[8..<12]) == [0x4F, 0x11, 0x01, 0x2C])
        #expect(try PropertyListDecoding.decode(bytes).value == .data(Array(repeating: 7, count: 300)))
    }

    @Test(arguments: [(0, [0x10, 0x00]), (255, [0x10, 0xFF]), (256, [0x11, 0x01, 0x00]), (-1, [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])] as [(Int64, [UInt8])])
    func binaryIntegerWidths(value: Int64, encoded: [UInt8]) {
        let bytes = PropertyListEncoding.binary(.integer(value))
        #expect(Array(bytes[8..<(8 + encoded.count)]) == encoded)
    }
}

@Suite struct AccessorTests {
    @Test(arguments: [
        (PropertyList.string("s"), "string"), (.integer(1), "integer"), (.real(1), "real"), (.boolean(true), "boolean"),
        (.date(0), "date"), (.data([]), "data"), (.array([]), "array"), (.dictionary([:]), "dictionary"),
    ])
    func typeNames(value: PropertyList, name: String) {
        #expect(value.typeName == name)
    }

    @Test func accessorsReturnOnlyTheirOwnCase() {
        let value = PropertyList.dictionary(["words": .array([.string("a")]), "n": .integer(3)])
        #expect(value.dictionaryValue?["n"]?.integerValue == 3)
        #expect(value.dictionaryValue?["words"]?.arrayValue?.first?.stringValue == "a")
        #expect(value.arrayValue == nil)
        #expect(value.stringValue == nil)
        #expect(PropertyList.string("1").integerValue == nil)
    }

    @Test func errorDescriptionIsTheMessage() {
        let error = PropertyListError(.malformed, "line 3: bad")
        #expect(error.description == "line 3: bad")
        #expect("\(error)" == "line 3: bad")
    }
}
