import Base64
import PackServiceAPI
import Signing
import SystemCalls

/// The seller's tokens for the dashboard (`hangman serve --data DIR --admin-token`): kept as
/// digests in `<data>/admin-tokens`, one line each (`<id> <sha256> <made> <revoked or -> <role>`;
/// a line of an older version, `<id> <sha256> <made> [<revoked>]`, is an admin's), never the
/// token. A token is `hpa1.<id>.<secret>`: no player's token (`hp1.`) opens the dashboard. An
/// `admin` may act (grant, refund, extend); a `viewer` reads. When each token was last used is
/// kept beside them (`<data>/admin-token-uses`), written at most once a minute per token.
///
/// ```swift
/// let made = try AdminTokens(dataFolder: "/var/lib/hangman").issue(now: now)   // print made.token once
/// let ok = try AdminTokens(dataFolder: "/var/lib/hangman").accepts(presented)
/// ```
public struct AdminTokens: Sendable {
    public static let scheme = "hpa1"
    public let path: String

    public init(dataFolder: String) {
        path = dataFolder + "/admin-tokens"
    }

    /// What a token may do.
    public enum Role: String, Sendable, Codable, CaseIterable {
        /// Reads every page and acts on customers (grants, refunds, extensions).
        case admin
        /// Reads every page; refused any action (403).
        case viewer
    }

    /// A token as kept: its id, its secret's digest, when it was made and revoked, its role.
    public struct Entry: Sendable, Equatable {
        public var id: String
        public var sha256: String
        public var made: Int64
        public var revoked: Int64?
        public var role: Role = .admin
    }

    /// How far apart two records of a token's use are, at least.
    static let useRecordInterval: Int64 = 60_000

    /// Every token made, revoked ones included; none when the file does not exist yet.
    public func entries() throws(ServiceError) -> [Entry] {
        guard FileSystem.exists(atPath: path) else { return [] }
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(atPath: path, limit: 1 << 20) } catch { throw ServiceError(.storage, "cannot read \(path): \(error)") }
        return try String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { line throws(ServiceError) in
            let fields = line.split(separator: " ")
            guard (3...5).contains(fields.count), fields[0].count == 16, fields[1].count == 64, let made = Int64(fields[2]),
                fields.count < 4 || fields[3] == "-" || Int64(fields[3]) != nil, let role = fields.count == 5 ? Role(rawValue: String(fields[4])) : .admin
            else {
                throw ServiceError(.storage, "\(path) holds a line that is not a token's: correct or remove it")
            }
            return Entry(id: String(fields[0]), sha256: String(fields[1]), made: made, revoked: fields.count >= 4 ? Int64(fields[3]) : nil, role: role)
        }
    }

    /// A new token: the text to hand to the seller (shown once), and its id.
    public func issue(now: Int64, role: Role = .admin) throws(ServiceError) -> (token: String, id: String) {
        var random = SystemRandomNumberGenerator()
        let id = Hex.encode((0..<8).map { _ in UInt8.random(in: 0...255, using: &random) })
        let secret = Base64.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }, alphabet: .url)
        try write(try entries() + [Entry(id: id, sha256: SHA256.hash(Array(secret.utf8)).hex, made: now, revoked: nil, role: role)])
        return ("\(Self.scheme).\(id).\(secret)", id)
    }

    /// Revokes the token `id`: `false` when there is no live one with that id.
    public func revoke(_ id: String, now: Int64) throws(ServiceError) -> Bool {
        var all = try entries()
        guard let index = all.firstIndex(where: { $0.id == id && $0.revoked == nil }) else { return false }
        all[index].revoked = now
        try write(all)
        return true
    }

    /// Whether `presented` is a live token (compared in constant time).
    public func accepts(_ presented: String) throws(ServiceError) -> Bool {
        try liveID(presented) != nil
    }

    /// The id of the live token `presented`, or `nil` when it is not one.
    func liveID(_ presented: String) throws(ServiceError) -> String? {
        try live(presented)?.id
    }

    /// The live token `presented` (compared in constant time), or `nil` when it is not one.
    public func live(_ presented: String) throws(ServiceError) -> Entry? {
        let parts = presented.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.scheme, parts[1].count == 16, (1...64).contains(parts[2].count) else { return nil }
        let digest = Array(SHA256.hash(Array(parts[2].utf8)).hex.utf8)
        return try entries().first { $0.id == parts[1] && $0.revoked == nil && ConstantTime.equal(Array($0.sha256.utf8), digest) }
    }

    /// The live token with id `id`, or `nil`.
    public func live(id: String) throws(ServiceError) -> Entry? {
        try entries().first { $0.id == id && $0.revoked == nil }
    }

    /// Where each token's last use is kept.
    var usesPath: String { path.dropLast("admin-tokens".count) + "admin-token-uses" }

    /// When each token was last used, by id (a minute's precision).
    public func lastUses() throws(ServiceError) -> [String: Int64] {
        guard FileSystem.exists(atPath: usesPath) else { return [:] }
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(atPath: usesPath, limit: 1 << 20) } catch { throw ServiceError(.storage, "cannot read \(usesPath): \(error)") }
        var uses: [String: Int64] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0].count == 16, let date = Int64(fields[1]) { uses[String(fields[0])] = date }
        }
        return uses
    }

    /// Records that token `id` was used at `now`, unless that was recorded less than a minute ago.
    public func touch(_ id: String, now: Int64) throws(ServiceError) {
        var uses = try lastUses()
        guard now - (uses[id] ?? .min / 2) >= Self.useRecordInterval else { return }
        uses[id] = now
        let text = uses.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
        do {
            try FileSystem.writeAtomically(Array(text.utf8), toPath: usesPath, permissions: 0o600)
        } catch {
            throw ServiceError(.storage, "cannot write \(usesPath): \(error)")
        }
    }

    private func write(_ entries: [Entry]) throws(ServiceError) {
        let text = entries.map { "\($0.id) \($0.sha256) \($0.made) \($0.revoked.map(String.init) ?? "-") \($0.role.rawValue)\n" }.joined()
        do {
            try FileSystem.writeAtomically(Array(text.utf8), toPath: path, permissions: 0o600)
        } catch {
            throw ServiceError(.storage, "cannot write \(path): \(error)")
        }
    }
}
