import Base64
import FoundationEssentials
import Messages
import PackServiceWire
import Signing
import SystemCalls

/// The account's files under the home: `service.json` (where, who, the pinned key) and
/// `service-token` (the bearer token, mode 0600). Only a hash of the token is on the server.
extension ServiceCredentials {
    public static let descriptionFile = "service.json"
    public static let tokenFile = "service-token"

    private struct Description: Codable {
        /// The address last used.
        var service: String
        var accountID: String
        var publicKey: String
        var keyID: String
        /// Every address the service proved itself at, most recent first (absent in older homes).
        var addresses: [String]?
    }

    /// The credentials kept in `folder`, or `nil` when no account was made there.
    public static func load(folder: String) throws(ServiceError) -> ServiceCredentials? {
        let descriptionPath = folder + "/" + descriptionFile
        guard FileSystem.exists(atPath: descriptionPath) else { return nil }
        do {
            let description = try Wire.decode(Description.self, from: try FileSystem.readFile(atPath: descriptionPath, limit: 64 << 10))
            let tokenBytes = try FileSystem.readFile(atPath: folder + "/" + tokenFile, limit: 4096)
            guard let keyBytes = Base64.decode(description.publicKey), let key = SigningPublicKey(bytes: keyBytes), key.keyID == description.keyID,
                let token = String(validating: tokenBytes, as: UTF8.self)?.filter({ !$0.isWhitespace }), !token.isEmpty
            else {
                throw ServiceError(.storage, "the account files in \(folder) are damaged: make a new account with 'hangman account create --service URL'")
            }
            var credentials = ServiceCredentials(service: description.service, accountID: description.accountID, token: token, publicKey: key)
            credentials.addresses = (description.addresses ?? []).map(normalized)
            if !credentials.addresses.contains(credentials.service) { credentials.addresses.insert(credentials.service, at: 0) }
            return credentials
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(.storage, "cannot read the account files in \(folder): \(error)")
        }
    }

    /// Writes the credentials into `folder`: the token 0600, created new (an existing account is
    /// never overwritten).
    public func save(folder: String) throws(ServiceError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileSystem.createNew(atPath: folder + "/" + Self.tokenFile, containing: Array((token + "\n").utf8), permissions: 0o600)
            try writeDescription(folder: folder)
        } catch Errno.fileExists {
            throw ServiceError(.wrongState, L10n.text("this home already has an account (%s/%s): use another --home", folder, Self.tokenFile))
        } catch {
            throw ServiceError(.storage, "cannot write the account files in \(folder): \(error)")
        }
    }

    /// Replaces the token kept in `folder` (a rotation): written whole beside it, then renamed
    /// over it, so that a crash leaves the old token or the new one, never half of one.
    public mutating func replaceToken(with token: String, folder: String) throws(ServiceError) {
        do {
            try FileSystem.writeAtomically(Array((token + "\n").utf8), toPath: folder + "/" + Self.tokenFile, permissions: 0o600)
        } catch {
            throw ServiceError(.storage, "cannot write the new token in \(folder)/\(Self.tokenFile): \(error)")
        }
        self.token = token
    }

    /// Records `address` as the one last used: the service proved its pinned key and knew the
    /// account there. The token file is left as it is.
    public mutating func remember(address: String, folder: String) throws(ServiceError) {
        let address = Self.normalized(address)
        service = address
        addresses.removeAll { $0 == address }
        addresses.insert(address, at: 0)
        if addresses.count > Self.addressesKept { addresses.removeLast(addresses.count - Self.addressesKept) }
        do {
            try writeDescription(folder: folder)
        } catch {
            throw ServiceError(.storage, "cannot write the account files in \(folder): \(error)")
        }
    }

    /// How many addresses `service.json` remembers.
    static let addressesKept = 8

    private func writeDescription(folder: String) throws {
        let description = Description(
            service: service, accountID: accountID, publicKey: Base64.encode(publicKey.bytes), keyID: publicKey.keyID, addresses: addresses)
        try FileSystem.writeAtomically(Wire.encode(description), toPath: folder + "/" + Self.descriptionFile, permissions: 0o600)
    }
}
