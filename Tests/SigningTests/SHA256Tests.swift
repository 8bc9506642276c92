import Testing
import Signing

@Suite struct SHA256Tests {
    // FIPS 180-2 / NIST CSRC examples.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func nistVectors(message: String, expected: String) {
        #expect(SHA256.hash(Array(message.utf8)).hex == expected)
        #expect(SHA256.hash(message.utf8).hex == expected)
    }

    @Test func oneMillionLetterA() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)).hex == expected)
        var hasher = SHA256Hasher()
        let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(thousand) }
        #expect(hasher.finalize().hex == expected)
    }

    @Test func nonContiguousSequencesHashTheSame() {
        let bytes = (0..<200_000).lazy.map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(SHA256.hash(bytes) == SHA256.hash(Array(bytes)))
    }

    @Test func streamingMatchesOneShotWhateverThePieces() {
        let message = Array("The quick brown fox jumps over the lazy dog".utf8)
        var hasher = SHA256Hasher()
        hasher.update(message[..<5])
        hasher.update([UInt8]())
        message[5...].withUnsafeBytes { hasher.update($0) }
        #expect(hasher.finalize() == SHA256.hash(message))
        #expect(hasher.finalize().hex == "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592")
    }

    @Test func finalizeLeavesTheHasherUsable() {
        var hasher = SHA256Hasher()
        hasher.update(Array("ab".utf8))
        let prefix = hasher.finalize()
        hasher.update(Array("c".utf8))
        #expect(prefix == SHA256.hash(Array("ab".utf8)))
        #expect(hasher.finalize() == SHA256.hash(Array("abc".utf8)))
    }

    @Test func aCopiedHasherForksTheComputation() {
        var first = SHA256Hasher()
        first.update(Array("ab".utf8))
        var second = first
        first.update(Array("c".utf8))
        second.update(Array("d".utf8))
        #expect(first.finalize() == SHA256.hash(Array("abc".utf8)))
        #expect(second.finalize() == SHA256.hash(Array("abd".utf8)))
    }

    @Test func hexRoundTripsAndRefusesGarbage() throws {
        let digest = SHA256.hash(Array("abc".utf8))
        #expect(SHA256Digest(hex: digest.hex) == digest)
        #expect(SHA256Digest(hex: digest.hex.uppercased()) == digest)
        #expect(digest.description == digest.hex)
        #expect(digest.bytes.count == 32)
        #expect(SHA256Digest(bytes: digest.bytes) == digest)
        #expect(SHA256Digest(bytes: [1, 2, 3]) == nil)
        #expect(SHA256Digest(hex: String(digest.hex.dropLast())) == nil)
        #expect(SHA256Digest(hex: String(digest.hex.dropLast()) + "g") == nil)
        #expect(SHA256Digest(hex: "") == nil)
    }
}
