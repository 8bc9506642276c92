import Testing
import Signing

@Suite struct Base64Tests {
    // RFC 4648 §10.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func binaryRoundTrips() {
        let bytes = (0...255).map(UInt8.init) + [0, 0, 0xFF]
        #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=", "the standard alphabet, not the URL-safe one")
    }

    @Test func whitespaceAndLineBreaksAreIgnored() {
        #expect(Base64.decode("Zm9v\nYmFy\r\n") == Array("foobar".utf8))
        #expect(Base64.decode("  Zm9v YmFy\t") == Array("foobar".utf8))
    }

    @Test(arguments: [
        "Zm9v!", "Zg", "Zg=", "Zm9vYmFy=", "Zh==", "Zm9=", "Z===", "=Zg=", "-_8=", "Zm9v\u{0}", "Zm9vYg==Zg==", "é", "Zm9vYmFy garbage",
    ])
    func garbageIsRefused(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
