import Testing
import Base64

@Suite struct Base64Tests {
    static func lenient(_ text: String) -> [UInt8]? {
        Array(text.utf8).withUnsafeBufferPointer { Base64.decode($0, strictness: .lenient) }
    }

    // RFC 4648 §10.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.encodedBytes(Array(plain.utf8)) == Array(encoded.utf8))
        #expect(Base64.decode(encoded) == Array(plain.utf8))
        #expect(Self.lenient(encoded) == Array(plain.utf8))
    }

    @Test func binaryRoundTrips() {
        let bytes = (0...255).map(UInt8.init) + [0, 0, 0xFF]
        #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=", "the standard alphabet, not the URL-safe one")
    }

    @Test func aLargeBufferRoundTripsAndMatchesTheByteVariant() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<1_000_003).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let text = Base64.encode(bytes)
        #expect(text.utf8.count == Base64.encodedCount(bytes.count))
        #expect(Array(text.utf8) == Base64.encodedBytes(bytes))
        #expect(bytes.withUnsafeBytes { Base64.encode($0) } == text)
        #expect(Base64.decode(text) == bytes)
    }

    // RFC 4648 §5: '-' and '_' for '+' and '/', and no padding.
    @Test(arguments: [
        ([], ""), ([0xFB], "-w"), ([0xFB, 0xFF], "-_8"), ([0xFB, 0xFF, 0xBF], "-_-_"), ([0x66, 0x6F, 0x6F, 0x62], "Zm9vYg"),
    ] as [([UInt8], String)])
    func urlAlphabetWithoutPadding(bytes: [UInt8], encoded: String) {
        #expect(Base64.encode(bytes, alphabet: .url) == encoded)
        #expect(Base64.encodedBytes(bytes, alphabet: .url) == Array(encoded.utf8))
        #expect(Base64.encodedCount(bytes.count, alphabet: .url) == encoded.utf8.count)
    }

    @Test func aTokenSecretIsFortyThreeURLSafeSymbols() {
        let text = Base64.encode([UInt8](repeating: 0xFF, count: 32), alphabet: .url)
        #expect(text.utf8.count == 43)
        #expect(text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test func whitespaceAndLineBreaksAreIgnored() {
        #expect(Base64.decode("Zm9v\nYmFy\r\n") == Array("foobar".utf8))
        #expect(Base64.decode("  Zm9v YmFy\t") == Array("foobar".utf8))
        #expect(Self.lenient(" A Q\nI D ") == [1, 2, 3])
    }

    @Test(arguments: [
        "Zm9v!", "Zg", "Zg=", "Zm9vYmFy=", "Zh==", "Zm9=", "Z===", "=Zg=", "-_8=", "Zm9v\u{0}", "Zm9vYg==Zg==", "é", "Zm9vYmFy garbage",
    ])
    func garbageIsRefused(text: String) {
        #expect(Base64.decode(text) == nil)
    }

    /// What property lists accept and key files refuse: a last group without its padding, and
    /// bits set where the padding stands.
    @Test(arguments: [("AQ", [1]), ("AQI", [1, 2]), ("Zh==", [0x66]), ("Zm9=", [0x66, 0x6F]), ("Zm9", [0x66, 0x6F])] as [(String, [UInt8])])
    func lenientDecodingTakesWhatCanonicalRefuses(text: String, expected: [UInt8]) {
        #expect(Self.lenient(text) == expected)
        #expect(Base64.decode(text) == nil)
    }

    @Test(arguments: ["A", "AQ*I", "A===", "AQ==AQ==", "AQ=I", "Zg=", "-_8=", "&#65;"])
    func lenientDecodingStillRefusesWhatIsNotBase64(text: String) {
        #expect(Self.lenient(text) == nil)
    }

    @Test func decodingIntoCallersMemoryLeavesWhatItWroteThereForWiping() {
        var output = [UInt8](repeating: 0, count: Base64.decodedCapacity(9))
        let text = Array("Zm9vYmFy!".utf8)
        let count = text.withUnsafeBufferPointer { text in output.withUnsafeMutableBufferPointer { Base64.decode(text, strictness: .canonical, into: $0) } }
        #expect(count == nil)
        #expect(output.prefix(6) == Array("foobar".utf8)[...], "the caller can wipe what was decoded")
        let tooSmall = Array("Zm9v".utf8).withUnsafeBufferPointer { text in output.withUnsafeMutableBufferPointer { Base64.decode(text, strictness: .canonical, into: UnsafeMutableBufferPointer(rebasing: $0[..<2])) } }
        #expect(tooSmall == nil, "no room is no decoding, not a write past the end")
    }
}
