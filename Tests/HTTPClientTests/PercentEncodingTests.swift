import HTTPClient
import Testing

/// A URL's text and a form's: every byte but the unreserved ones encoded, and decoded back.
@Suite struct PercentEncodingTests {
    @Test(arguments: ["", "plain-Text_1.2~", "a b/c?d=e&f", "refused: no hints left", "Spanisch é €", "100%"])
    func encodedTextDecodesToItself(text: String) {
        let encoded = PercentEncoding.encoded(text)
        #expect(encoded.utf8.allSatisfy { $0 < 0x80 && ($0 == UInt8(ascii: "%") || !" /?=&:".utf8.contains($0)) })
        #expect(PercentEncoding.decoded(encoded) == text)
    }

    @Test func onlyAPercentWithTwoHexDigitsIsDecoded() {
        #expect(PercentEncoding.encoded("a b") == "a%20b")
        #expect(PercentEncoding.decoded("%41%7e%7E") == "A~~")
        // Kept as they are, the bytes after them too.
        #expect(PercentEncoding.decoded("%zz1") == "%zz1")
        #expect(PercentEncoding.decoded("%+1x") == "%+1x")
        #expect(PercentEncoding.decoded("50%") == "50%")
        #expect(PercentEncoding.decoded("5%4") == "5%4")
        // Bytes that are not UTF-8, repaired.
        #expect(PercentEncoding.decoded("%FF") == "\u{FFFD}")
    }
}
