import Base64
import PackServiceAPI
import Signing
import SystemCalls

/// The seller's signed-in browsers on the dashboard: a random session id in the cookie (never the admin token),
/// kept as a digest in `<data>/admin-sessions`, one line each (`<sha256> <token id> <expires>`),
/// beside the tokens, so that every server of a data folder knows it. A session ends at sign-out,
/// when its token is revoked, or after 30 days.
public struct AdminSessions: Sendable {
    public let path: String
    let tokens: AdminTokens
    /// How long a session lasts: 30 days, as the cookie says.
    public static let lifetime: Int64 = 30 * 86_400_000

    public init(dataFolder: String) {
        path = dataFolder + "/admin-sessions"
        tokens = AdminTokens(dataFolder: dataFolder)
    }

    private struct Entry {
        var sha256: String
        var tokenID: String
        var expires: Int64
    }

    /// A new session for the live token `presented`, or `nil` when it is not one.
    public func begin(with presented: String, now: Int64) throws(ServiceError) -> String? {
        guard let tokenID = try tokens.liveID(presented) else { return nil }
        var random = SystemRandomNumberGenerator()
        let session = Base64.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }, alphabet: .url)
        try write(try entries().filter { $0.expires > now } + [Entry(sha256: SHA256.hash(Array(session.utf8)).hex, tokenID: tokenID, expires: now + Self.lifetime)])
        return session
    }

    /// Whether `session` is a live session whose token is still live.
    public func accepts(_ session: String, now: Int64) throws(ServiceError) -> Bool {
        try token(of: session, now: now) != nil
    }

    /// The live token `session` was opened with, when the session and the token are both live.
    public func token(of session: String, now: Int64) throws(ServiceError) -> AdminTokens.Entry? {
        guard (1...64).contains(session.utf8.count) else { return nil }
        let digest = Array(SHA256.hash(Array(session.utf8)).hex.utf8)
        var found: Entry?
        for entry in try entries() where ConstantTime.equal(Array(entry.sha256.utf8), digest) { found = entry }
        guard let found, found.expires > now else { return nil }
        return try tokens.live(id: found.tokenID)
    }

    /// Ends `session` (sign-out); nothing when it is not one.
    public func end(_ session: String) throws(ServiceError) {
        let digest = SHA256.hash(Array(session.utf8)).hex
        let all = try entries()
        let kept = all.filter { $0.sha256 != digest }
        if kept.count != all.count { try write(kept) }
    }

    private func entries() throws(ServiceError) -> [Entry] {
        guard FileSystem.exists(atPath: path) else { return [] }
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(atPath: path, limit: 4 << 20) } catch { throw ServiceError(.storage, "cannot read \(path): \(error)") }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[0].count == 64, fields[1].count == 16, let expires = Int64(fields[2]) else { return nil }
            return Entry(sha256: String(fields[0]), tokenID: String(fields[1]), expires: expires)
        }
    }

    private func write(_ entries: [Entry]) throws(ServiceError) {
        let text = entries.map { "\($0.sha256) \($0.tokenID) \($0.expires)\n" }.joined()
        do {
            try FileSystem.writeAtomically(Array(text.utf8), toPath: path, permissions: 0o600)
        } catch {
            throw ServiceError(.storage, "cannot write \(path): \(error)")
        }
    }
}
