internal import Base64
internal import CSodium

/// An Ed25519 public key (32 bytes): checks detached signatures made by the matching ``SigningKey``.
public struct SigningPublicKey: Hashable, Sendable, CustomStringConvertible {
    /// The number of bytes in a public key.
    public static let byteCount = 32
    /// The number of bytes in a signature.
    public static let signatureByteCount = 64

    /// The 32 bytes.
    public let bytes: [UInt8]
    /// A short name for messages: the first 8 bytes of the key's SHA-256, in hex (worked out once:
    /// every signed document names its key).
    public let keyID: String

    /// A public key from its 32 bytes; `nil` for any other count (like ``SHA256Digest/init(bytes:)``).
    public init?(bytes: [UInt8]) {
        guard bytes.count == SigningPublicKey.byteCount else { return nil }
        self.init(unchecked: bytes)
    }

    init(unchecked bytes: [UInt8]) {
        self.bytes = bytes
        self.keyID = String(SHA256.hash(bytes).hex.prefix(16))
    }

    /// Whether `signature` is a valid signature of `message` by this key
    /// (`crypto_sign_verify_detached`).
    ///
    /// A signature of the wrong length, or a key that is no point of the curve, is simply invalid.
    public func isValidSignature(_ signature: [UInt8], for message: some Sequence<UInt8>) -> Bool {
        guard signature.count == SigningPublicKey.signatureByteCount else { return false }
        Sodium.ready()
        return withContiguousBytes(message) { buffer in
            withNonNullBytes(buffer) { messageBytes, length in
                crypto_sign_verify_detached(signature, messageBytes, UInt64(length), bytes) == 0
            }
        }
    }

    /// `ed25519:` and the ``keyID``.
    public var description: String { "ed25519:\(keyID)" }

    /// The key file text: `hangman-ed25519-public <base64>` and a newline.
    public var fileContents: String { "\(SigningError.KeyKind.publicKey.label) \(Base64.encode(bytes))\n" }

    /// Reads a public key file (`hangman-ed25519-public <base64>`; surrounding blank space is ignored).
    public init(fileContents: String) throws(SigningError) {
        var bytes = try KeyFile.payload(of: fileContents, expected: .publicKey)
        guard bytes.count == SigningPublicKey.byteCount else {
            let count = bytes.count
            wipe(&bytes)
            throw .wrongLength(.publicKey, actual: count, expected: SigningPublicKey.byteCount)
        }
        self.init(unchecked: bytes)
    }

    /// Reads the public key file at `path` (at most 4 KiB; a folder, FIFO or device is refused).
    public static func read(fileAt path: String) throws(SigningError) -> SigningPublicKey {
        let text = try KeyFile.text(at: path, kind: .publicKey)
        do {
            return try SigningPublicKey(fileContents: text)
        } catch {
            throw .invalidKeyFile(path: path, problem: error)
        }
    }

    /// Writes the public key file at `path` with mode 0644. It appears complete or not at all;
    /// without `replace`, an existing file is kept and ``SigningError/keyFileExists(path:)`` thrown.
    public func write(toFileAt path: String, replace: Bool = false) throws(SigningError) {
        try KeyFile.write(Array(fileContents.utf8), to: path, permissions: 0o644, replace: replace)
    }
}
