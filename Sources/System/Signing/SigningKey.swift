internal import Base64
internal import CSodium
internal import SystemCalls

/// An Ed25519 signing (secret) key: its 32-byte seed (RFC 8032's private key), signing through
/// libsodium.
///
/// The seed lives in memory this module allocates, locks out of swap where allowed and wipes
/// (`SecretMemory`) when the last copy of the key is released. That is best effort:
/// the `seed` array a caller passes in, and the ``fileContents`` string, are ordinary Swift values
/// that this module cannot wipe.
///
/// ```swift
/// let key = SigningKey.generate()
/// let signature = key.sign(Array(receipt.utf8))
/// key.publicKey.isValidSignature(signature, for: Array(receipt.utf8))  // true
/// ```
public struct SigningKey: Sendable, CustomStringConvertible {
    /// The number of bytes in a seed.
    public static let seedByteCount = 32

    /// libsodium's secret key: the seed, then the public key (64 bytes).
    private let secret: SecretBytes
    /// The public half, to give to whoever verifies.
    public let publicKey: SigningPublicKey

    private init(_ fill: (UnsafeMutablePointer<UInt8>) -> Void) {
        Sodium.ready()
        let seed = SecretBytes(count: SigningKey.seedByteCount, fill)
        var publicBytes = [UInt8](repeating: 0, count: SigningPublicKey.byteCount)
        secret = SecretBytes(count: Int(crypto_sign_SECRETKEYBYTES)) { secretBytes in
            seed.withBytes { seedBytes in _ = crypto_sign_seed_keypair(&publicBytes, secretBytes, seedBytes) }
        }
        publicKey = SigningPublicKey(unchecked: publicBytes)
    }

    /// A new random key: a seed from the system's generator (`SystemRandomNumberGenerator`,
    /// `getrandom(2)` on Linux).
    public static func generate() -> SigningKey {
        SigningKey { seedBytes in
            var generator = SystemRandomNumberGenerator()
            for word in 0..<seedByteCount / 8 {
                UnsafeMutableRawPointer(seedBytes).storeBytes(of: generator.next(), toByteOffset: word * 8, as: UInt64.self)
            }
        }
    }

    /// The key derived from a 32-byte seed (RFC 8032): the same seed gives the same key.
    public init(seed: [UInt8]) throws(SigningError) {
        guard seed.count == SigningKey.seedByteCount else {
            throw .wrongLength(.secretKey, actual: seed.count, expected: SigningKey.seedByteCount)
        }
        self.init { seedBytes in seedBytes.update(from: seed, count: SigningKey.seedByteCount) }
    }

    /// The detached 64-byte signature of `message` (`crypto_sign_detached`; RFC 8032's, the same
    /// bytes any Ed25519 implementation makes).
    public func sign(_ message: some Sequence<UInt8>) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: SigningPublicKey.signatureByteCount)
        withContiguousBytes(message) { buffer in
            withNonNullBytes(buffer) { messageBytes, length in
                secret.withBytes { secretBytes in
                    _ = crypto_sign_detached(&signature, nil, messageBytes, UInt64(length), secretBytes)
                }
            }
        }
        return signature
    }

    /// Reads a secret key file (`hangman-ed25519-secret <base64 of the 32-byte seed>`); the decoded seed is wiped.
    public init(fileContents: String) throws(SigningError) {
        var seed = try KeyFile.payload(of: fileContents, expected: .secretKey)
        defer { wipe(&seed) }
        try self.init(seed: seed)
    }

    /// The key file text: `hangman-ed25519-secret <base64 of the seed>` and a newline.
    public var fileContents: String {
        let encoded = secret.withBytes { secretBytes in
            Base64.encode(UnsafeRawBufferPointer(start: secretBytes, count: SigningKey.seedByteCount))
        }
        return "\(SigningError.KeyKind.secretKey.label) \(encoded)\n"
    }

    /// Reads the secret key file at `path` (at most 4 KiB; a folder, FIFO or device is refused).
    public static func read(fileAt path: String) throws(SigningError) -> SigningKey {
        let text = try KeyFile.text(at: path, kind: .secretKey)
        do {
            return try SigningKey(fileContents: text)
        } catch {
            throw .invalidKeyFile(path: path, problem: error)
        }
    }

    /// Writes the secret key file at `path` with mode 0600, which it has from its first byte. It
    /// appears complete or not at all; without `replace`, an existing file is kept and
    /// ``SigningError/keyFileExists(path:)`` thrown.
    public func write(toFileAt path: String, replace: Bool = false) throws(SigningError) {
        var bytes = Array(fileContents.utf8)
        defer { wipe(&bytes) }
        try KeyFile.write(bytes, to: path, permissions: 0o600, replace: replace)
    }

    /// Writes the pair: the secret key file (mode 0600), then the public one (mode 0644). Without
    /// `replace`, nothing is written if either file exists.
    public func write(secretKeyTo secretPath: String, publicKeyTo publicPath: String, replace: Bool = false) throws(SigningError) {
        if !replace {
            for path in [secretPath, publicPath] where FileSystem.exists(atPath: path) {
                throw .keyFileExists(path: path)
            }
        }
        try write(toFileAt: secretPath, replace: replace)
        try publicKey.write(toFileAt: publicPath, replace: replace)
    }

    /// Names the key by its public ``SigningPublicKey/keyID``; never shows the secret.
    public var description: String { "SigningKey(\(publicKey), secret redacted)" }
}

/// libsodium, initialized once before its first use (`sodium_init`, safe to call from any thread).
enum Sodium {
    private static let initialized: Bool = sodium_init() >= 0

    static func ready() {
        precondition(initialized, "libsodium could not be initialized")
    }
}

extension SigningKey {
    /// A 32-byte secret for one `purpose`, derived from the key's seed (keyed BLAKE2b,
    /// `crypto_generichash`): the same key and purpose, the same bytes, on every server that holds
    /// the key; nothing about the seed can be learnt from it.
    public func derivedSecret(for purpose: String) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let message = Array(purpose.utf8)
        secret.withBytes { secretBytes in
            _ = crypto_generichash(&out, out.count, message, UInt64(message.count), secretBytes, SigningKey.seedByteCount)
        }
        return out
    }
}
