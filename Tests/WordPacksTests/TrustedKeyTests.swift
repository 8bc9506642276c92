import Foundation
import TestSupport
import Signing
import Testing
import WordPacks

/// A verifier made from a `.pub` file, its text or its bytes: what a content author's tests use.
@Suite struct TrustedKeyTests {
    private let directory: TemporaryDirectory
    private let key = SigningKey.generate()
    private let signed: [UInt8]
    private let unsigned: [UInt8]

    init() throws {
        directory = try TemporaryDirectory()
        signed = try PackBuilder(signingKey: key).build(Fixture.validSource).bytes
        unsigned = try PackBuilder().build(Fixture.validSource).bytes
    }

    /// A `.pub` file's text, encoded by Foundation rather than by the Signing module.
    private func publicKeyText(_ key: SigningKey) -> String {
        "hangman-ed25519-public \(Data(key.publicKey.bytes).base64EncodedString())\n"
    }

    @Test func aPubFileTrustsItsKeyAndRequiresASignature() throws {
        let path = try directory.write("release.pub", Array(publicKeyText(key).utf8))
        let verifier = try PackVerifier(trustedKeyFileAt: path)
        let result = verifier.verify(signed)
        #expect(result.isValid, "\(result.problems)")
        #expect(result.pack?.signature?.publicKey == key.publicKey)
        #expect(verifier.verify(unsigned).problems.map(\.kind) == [.signatureMissing])
    }

    @Test func anUnsignedPackPassesWhenASignatureIsNotRequired() throws {
        let verifier = try PackVerifier(trustedKeyFile: publicKeyText(key), requireSignature: false)
        #expect(verifier.verify(unsigned).isValid)
        #expect(verifier.verify(signed).isValid)
    }

    @Test func anotherKeysFileRefusesThePack() throws {
        let other = SigningKey.generate()
        let fromText = try PackVerifier(trustedKeyFile: publicKeyText(other))
        let fromBytes = try PackVerifier(trustedKeyFile: Array(publicKeyText(other).utf8))
        #expect(fromText.verify(signed).problems.map(\.kind) == [.signatureUntrusted])
        #expect(fromBytes.verify(signed).problems.map(\.kind) == [.signatureUntrusted])
    }

    @Test func aMissingPubFileSaysSo() {
        let path = directory.path + "/absent.pub"
        let error = #expect(throws: SigningError.self) { try PackVerifier(trustedKeyFileAt: path) }
        #expect(error == .missingKeyFile(.publicKey, path: path))
    }

    @Test func aSecretKeyIsNotAPublicKey() throws {
        let path = directory.path + "/release.key"
        try key.write(toFileAt: path)
        let error = #expect(throws: SigningError.self) { try PackVerifier(trustedKeyFileAt: path) }
        #expect(error?.description == "\(path): this is a secret key; pass the .pub file")
    }

    @Test(arguments: ["", "hangman-ed25519-public", "hangman-ed25519-public !!!", "ssh-ed25519 AAAA"])
    func textThatIsNotAPublicKeyIsRefused(_ text: String) {
        #expect(throws: SigningError.self) { try PackVerifier(trustedKeyFile: text) }
    }
}
