import AppStore
import CertificateChain
import PackServiceWire
import SystemCalls

/// `serve --api-issuer ISSUER --api-key KID=FILE ...`: the App Store Server API's callers.
enum AppStoreAPIKeys {
    static func read(issuer: String?, keys: [String]) throws -> AppStoreAPIAuthorization? {
        guard issuer != nil || !keys.isEmpty else { return nil }
        guard let issuer, !issuer.isEmpty, !keys.isEmpty else {
            throw CommandFailure.usage("the App Store Server API needs both --api-issuer ISSUER and at least one --api-key KEY_ID=FILE")
        }
        var read: [String: ES256PublicKey] = [:]
        for given in keys {
            guard let equals = given.firstIndex(of: "="), equals != given.startIndex else {
                throw CommandFailure.usage("--api-key takes KEY_ID=FILE (2X9R4HXF34=AuthKey.pub), not '\(given)'")
            }
            let id = String(given[..<equals])
            let path = String(given[given.index(after: equals)...])
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.readFile(atPath: path, limit: 16 << 10)
            } catch {
                throw CommandFailure(code: .noInput, message: "cannot read the API key \(path): \(error)")
            }
            do {
                read[id] = try ES256PublicKey(pem: bytes)
            } catch {
                throw CommandFailure.invalid("\(path) is not an App Store Server API public key (PEM, P-256): \(error)")
            }
        }
        return AppStoreAPIAuthorization(issuer: issuer, bundleID: "", keys: read)
    }

    /// SIGHUP: every key file read again. A key whose file is gone or no longer a key is left out
    /// (so removing a file revokes its key), and said; the others are kept.
    static func reload(issuer: String, keys: [String]) -> (authorization: AppStoreAPIAuthorization, said: [String]) {
        var read: [String: ES256PublicKey] = [:]
        var said: [String] = []
        for given in keys {
            guard let equals = given.firstIndex(of: "=") else { continue }
            let id = String(given[..<equals])
            let path = String(given[given.index(after: equals)...])
            do {
                read[id] = try ES256PublicKey(pem: try FileSystem.readFile(atPath: path, limit: 16 << 10))
            } catch {
                said.append("SIGHUP: App Store Server API key \(id) refused from now on: \(path): \(error)")
            }
        }
        said.append("SIGHUP: App Store Server API keys: " + (read.isEmpty ? "none" : read.keys.sorted().joined(separator: ", ")))
        return (AppStoreAPIAuthorization(issuer: issuer, bundleID: "", keys: read), said)
    }
}
