import Testing
import Signing

@Suite struct KeyFileTests {
    private let seed = SigningKeyTests.seed

    @Test func keyFilesHaveTheDocumentedFormat() throws {
        let key = try SigningKey(seed: seed)
        #expect(key.fileContents == "hangman-ed25519-secret nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=\n")
        #expect(key.publicKey.fileContents == "hangman-ed25519-public 11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\n")
    }

    @Test func keyFilesRoundTrip() throws {
        let key = SigningKey.generate()
        let reread = try SigningKey(fileContents: key.fileContents)
        #expect(reread.publicKey == key.publicKey)
        #expect(try SigningPublicKey(fileContents: key.publicKey.fileContents) == key.publicKey)
        let message = Array("signed before saving".utf8)
        #expect(key.publicKey.isValidSignature(reread.sign(message), for: message))
    }

    @Test(arguments: [
        "hangman-ed25519-public 11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=",
        "  hangman-ed25519-public\t11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\r\n\n",
        "\u{FEFF}hangman-ed25519-public 11qYAYKxCrfVS/7TyWQH Og7hcvPapiMlrwIaaPcHURo=\n",
    ])
    func blankSpaceAroundAndInsideTheBase64IsTolerated(text: String) throws {
        #expect(try SigningPublicKey(fileContents: text).bytes == SigningKeyTests.publicKey)
    }

    @Test(arguments: [
        ("", SigningError.notAKeyFile(expected: .publicKey)),
        ("\n", .notAKeyFile(expected: .publicKey)),
        ("11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=", .notAKeyFile(expected: .publicKey)),
        ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl", .notAKeyFile(expected: .publicKey)),
        ("hangman-ed25519-public", .notAKeyFile(expected: .publicKey)),
        ("hangman-ed25519-public 11qYAYKxCrfVS/7TyWQH\nOg7hcvPapiMlrwIaaPcHURo=", .notAKeyFile(expected: .publicKey)),
        ("hangman-ed25519-secret nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=", .wrongKind(found: .secretKey, expected: .publicKey)),
        ("hangman-ed25519-public not*base64", .invalidBase64(.publicKey)),
        ("hangman-ed25519-public 11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHUQ==", .wrongLength(.publicKey, actual: 31, expected: 32)),
        ("hangman-ed25519-public AAAA", .wrongLength(.publicKey, actual: 3, expected: 32)),
    ])
    func malformedPublicKeyFilesSayWhatIsWrong(text: String, expected: SigningError) {
        #expect(throws: expected) { try SigningPublicKey(fileContents: text) }
    }

    @Test(arguments: [
        ("", SigningError.notAKeyFile(expected: .secretKey)),
        ("hangman-ed25519-public 11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=", .wrongKind(found: .publicKey, expected: .secretKey)),
        ("hangman-ed25519-secret ####", .invalidBase64(.secretKey)),
        ("hangman-ed25519-secret nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2B=", .invalidBase64(.secretKey)),
        ("hangman-ed25519-secret nWGxne/9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyufw==", .wrongLength(.secretKey, actual: 31, expected: 32)),
    ])
    func malformedSecretKeyFilesSayWhatIsWrong(text: String, expected: SigningError) {
        #expect(throws: expected) { try SigningKey(fileContents: text) }
    }

    @Test func errorMessagesSayWhatToDo() {
        #expect(SigningError.notAKeyFile(expected: .publicKey).description
            == "not a hangman public key file: expected a line 'hangman-ed25519-public <base64>'")
        #expect(SigningError.wrongKind(found: .secretKey, expected: .publicKey).description
            == "this is a secret key; pass the .pub file")
        #expect(SigningError.wrongKind(found: .publicKey, expected: .secretKey).description
            == "this is a public key; pass the secret key file")
        #expect(SigningError.wrongLength(.publicKey, actual: 31, expected: 32).description
            == "public key is 31 bytes, expected 32")
        #expect(SigningError.wrongLength(.secretKey, actual: 31, expected: 32).description
            == "secret key seed is 31 bytes, expected 32")
    }
}
