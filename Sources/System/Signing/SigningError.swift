/// Why a key or key file was refused, or could not be read or written; the description names the
/// file, says what is wrong and what to pass instead.
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
    /// There is no key file at `path`.
    case missingKeyFile(KeyKind, path: String)
    /// The key file at `path` cannot be read: `reason` says why (a folder, too large, no permission).
    case unreadableKeyFile(KeyKind, path: String, reason: String)
    /// The file at `path` holds no valid key; `problem` says what is wrong with its text.
    indirect case invalidKeyFile(path: String, problem: SigningError)
    /// Something is already at `path`, and replacing it was not asked for.
    case keyFileExists(path: String)
    /// The key file at `path` could not be written: `reason` says why.
    case unwritableKeyFile(path: String, reason: String)

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
        case .missingKeyFile(_, let path):
            "no such key file '\(path)': check the path"
        case .unreadableKeyFile(let kind, let path, let reason):
            "\(path): cannot read this \(kind.noun) file: \(reason)"
        case .invalidKeyFile(let path, let problem):
            "\(path): \(problem)"
        case .keyFileExists(let path):
            "\(path) exists: choose another name, or replace it"
        case .unwritableKeyFile(let path, let reason):
            "cannot write the key file \(path): \(reason); check that its folder exists and is writable"
        }
    }
}
