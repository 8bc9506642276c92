/// Why a key or key file was refused; the description says what is wrong and what to pass instead.
public enum SigningError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The two kinds of key file.
    public enum KeyKind: Sendable, Equatable {
        /// A `.pub` file: `hangman-ed25519-public <base64>`.
        case publicKey
        /// A secret key file: `hangman-ed25519-secret <base64 seed>`.
        case secretKey

        /// The first word of a key file of this kind.
        public var label: String {
            switch self {
            case .publicKey: "hangman-ed25519-public"
            case .secretKey: "hangman-ed25519-secret"
            }
        }

        var noun: String {
            switch self {
            case .publicKey: "public key"
            case .secretKey: "secret key"
            }
        }
    }

    /// The text is not a one-line key file of the expected kind.
    case notAKeyFile(expected: KeyKind)
    /// A key file of the other kind was given.
    case wrongKind(found: KeyKind, expected: KeyKind)
    /// The key after the label is not valid base64.
    case invalidBase64(KeyKind)
    /// The key (for a secret key, its seed) has the wrong number of bytes.
    case wrongLength(KeyKind, actual: Int, expected: Int)

    /// What is wrong, and what to do about it where there is something to do.
    public var description: String {
        switch self {
        case .notAKeyFile(let expected):
            "not a hangman \(expected.noun) file: expected a line '\(expected.label) <base64>'"
        case .wrongKind(found: .secretKey, expected: .publicKey):
            "this is a secret key; pass the .pub file"
        case .wrongKind(found: .publicKey, expected: .secretKey):
            "this is a public key; pass the secret key file"
        case .wrongKind(let found, _):
            "this is a \(found.noun) file"
        case .invalidBase64(let kind):
            "\(kind.noun) is not valid base64: expected 44 characters of padded base64 after '\(kind.label)'"
        case .wrongLength(.publicKey, let actual, let expected):
            "public key is \(actual) bytes, expected \(expected)"
        case .wrongLength(.secretKey, let actual, let expected):
            "secret key seed is \(actual) bytes, expected \(expected)"
        }
    }
}
