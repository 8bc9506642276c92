import Base64
import Testing
import Signing

@Suite struct SigningKeyTests {
    static func bytes(hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return result
    }

    // RFC 8032 §7.1, test 1.
    static let seed = bytes(hex: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    static let publicKey = bytes(hex: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    static let signature = bytes(hex: """
        e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b
        """)

    @Test func rfc8032TestVector1() throws {
        let key = try SigningKey(seed: Self.seed)
        #expect(key.publicKey.bytes == Self.publicKey)
        #expect(key.sign([UInt8]()) == Self.signature)
        let publicKey = try #require(SigningPublicKey(bytes: Self.publicKey))
        #expect(publicKey.isValidSignature(Self.signature, for: [UInt8]()))
    }

    @Test func aSignatureVerifiesWithItsKey() {
        let key = SigningKey.generate()
        let message = Array("receipt: com.example.animals, transaction 1".utf8)
        let signature = key.sign(message)
        #expect(signature.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(key.publicKey.isValidSignature(signature, for: message[...]), "any byte sequence works")
    }

    @Test func generatedKeysDiffer() {
        #expect(SigningKey.generate().publicKey != SigningKey.generate().publicKey)
    }

    @Test func aTamperedMessageIsRefused() {
        let key = SigningKey.generate()
        var message = Array("pay 1 hint".utf8)
        let signature = key.sign(message)
        message[4] = UInt8(ascii: "9")
        #expect(!key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature, for: message + [0]))
    }

    @Test(arguments: [0, 31, 63])
    func aTamperedSignatureIsRefused(position: Int) {
        let key = SigningKey.generate()
        let message = Array("unlock pack".utf8)
        var signature = key.sign(message)
        signature[position] ^= 0x01
        #expect(!key.publicKey.isValidSignature(signature, for: message))
    }

    @Test func anotherKeysSignatureIsRefused() {
        let message = Array("unlock pack".utf8)
        let signature = SigningKey.generate().sign(message)
        #expect(!SigningKey.generate().publicKey.isValidSignature(signature, for: message))
    }

    @Test(arguments: [0, 1, 63, 65, 128])
    func aSignatureOfTheWrongLengthIsInvalidNotACrash(length: Int) {
        let key = SigningKey.generate()
        #expect(!key.publicKey.isValidSignature([UInt8](repeating: 0, count: length), for: [1, 2, 3]))
    }

    @Test func seedsOfTheWrongLengthAreRefused() {
        #expect(throws: SigningError.wrongLength(.secretKey, actual: 31, expected: 32)) {
            try SigningKey(seed: [UInt8](repeating: 1, count: 31))
        }
        #expect(SigningPublicKey(bytes: [UInt8](repeating: 1, count: 33)) == nil)
        #expect(SigningPublicKey(bytes: [UInt8](repeating: 1, count: 31)) == nil)
    }

    @Test func keyIDIsTheStartOfTheKeysSHA256() throws {
        let key = try #require(SigningPublicKey(bytes: Self.publicKey))
        #expect(key.keyID == String(SHA256.hash(Self.publicKey).hex.prefix(16)))
        #expect(key.keyID.count == 16)
        #expect(key.description == "ed25519:\(key.keyID)")
    }

    @Test func theSecretIsNeverPrinted() throws {
        let key = try SigningKey(seed: Self.seed)
        let shown = "\(key) \(String(reflecting: key))"
        #expect(!shown.contains(Base64.encode(Self.seed)))
        #expect(!shown.contains("9d61b19d"))
        #expect(shown.contains(key.publicKey.keyID))
    }

    @Test func keysAreUsableFromManyTasksAtOnce() async {
        let key = SigningKey.generate()
        let message = Array("concurrent".utf8)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 { group.addTask { key.publicKey.isValidSignature(key.sign(message), for: message) } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == [Bool](repeating: true, count: 16))
    }
}
