import PropertyList
import Signing

/// `Signature.plist`: an Ed25519 signature over the exact bytes of the pack's manifest.
///
/// The manifest lists every other file's SHA-256 in `Files`, so one signature covers the pack.
public struct PackSignature: Sendable, Equatable {
    /// The only algorithm written and accepted.
    public static let algorithm = "Ed25519"
    /// The file's name, beside the manifest.
    public static let fileName = "Signature.plist"

    /// The key that signed: checked against the trusted keys, when a verifier has any.
    public var publicKey: SigningPublicKey
    /// The 64-byte Ed25519 signature of the manifest's bytes.
    public var signature: [UInt8]

    /// Signs `manifestBytes` with `key`.
    public init(signing manifestBytes: [UInt8], with key: SigningKey) {
        publicKey = key.publicKey
        signature = key.sign(manifestBytes)
    }

    /// The file's contents, as a deterministic XML plist.
    public var propertyList: PropertyList {
        .dictionary([
            "Algorithm": .string(Self.algorithm),
            "KeyID": .string(publicKey.keyID),
            "PublicKey": .data(publicKey.bytes),
            "Signature": .data(signature),
        ])
    }

    /// Reads a signature file's value; `nil` with a problem when it is not one.
    static func parse(_ value: PropertyList, entry: String, problems: inout [PackProblem]) -> PackSignature? {
        guard case .dictionary(let dict) = value else {
            problems.append(PackProblem(.signatureMalformed, entry: entry, "root is \(value.typeName), expected a dictionary"))
            return nil
        }
        guard case .string(let algorithm)? = dict["Algorithm"], algorithm == Self.algorithm else {
            problems.append(PackProblem(.signatureMalformed, entry: entry, "'Algorithm' must be '\(Self.algorithm)'"))
            return nil
        }
        guard case .data(let keyBytes)? = dict["PublicKey"], let publicKey = SigningPublicKey(bytes: keyBytes) else {
            problems.append(PackProblem(.signatureMalformed, entry: entry, "'PublicKey' must be 32 bytes of data"))
            return nil
        }
        guard case .data(let signature)? = dict["Signature"], signature.count == 64 else {
            problems.append(PackProblem(.signatureMalformed, entry: entry, "'Signature' must be 64 bytes of data"))
            return nil
        }
        var result = PackSignature(publicKey: publicKey, signature: signature)
        result.publicKey = publicKey
        return result
    }

    private init(publicKey: SigningPublicKey, signature: [UInt8]) {
        self.publicKey = publicKey
        self.signature = signature
    }

    /// Whether the signature is valid for `manifestBytes` under its own public key.
    func isValid(for manifestBytes: [UInt8]) -> Bool {
        publicKey.isValidSignature(signature, for: manifestBytes)
    }
}
