import Base64
import Messages
import PackServiceAPI
import PackServiceWire
import PostgreSQL
import SQLite
import Signing
import Synchronization

/// The server's accounts: an id, and the SHA-256 of the account's bearer token (the token itself
/// is shown once, at creation, and never stored). In SQLite beside the ledgers, or in the
/// PostgreSQL database that several servers share, so that a token made on one works on all.
///
/// A token is a ``BearerToken``, `hp1.<account id>.<secret>`: the id finds the row, then the secret's hash is
/// compared in constant time.
public protocol AccountDirectory: DailyBoard {
    /// Records a new account and its first token (the SHA-256 of its secret); `false` when the id is taken.
    func insert(id: String, tokenSHA256: String, deviceName: String?, now: Int64) throws(ServiceError) -> Bool
    /// Whether the account exists and is not closed.
    func isOpen(account: String) throws(ServiceError) -> Bool
    /// The SHA-256 of every token of an open account that is not revoked.
    func liveTokens(account: String) throws(ServiceError) -> [String]
    /// Adds a token (a device, by its name when it gave one) to an open account.
    func addToken(account: String, tokenSHA256: String, deviceName: String?, now: Int64) throws(ServiceError)
    /// Every token of the account, revoked ones included, oldest first; never a secret.
    func tokens(account: String) throws(ServiceError) -> [AccountToken]
    /// Revokes the live token `tokenID` and adds one in its place (its device's name kept), in one transaction: `false`
    /// (nothing done) when that token is no longer live (another rotation took it first).
    func replaceToken(account: String, tokenID: String, with tokenSHA256: String, now: Int64) throws(ServiceError) -> Bool
    /// Revokes one live token of the account (`tokenID`), or every one (`nil`); how many.
    func revoke(account: String, tokenID: String?, now: Int64) throws(ServiceError) -> Int
    /// Closes the account: every token revoked, its receipts no longer valid (21010), its display
    /// name released (its rows on past boards show a placeholder).
    func close(account: String, now: Int64) throws(ServiceError)
    /// Records that a token was used, at most once a minute.
    func touch(tokenID: String, now: Int64) throws(ServiceError)
    /// Writes a row and takes it back, in one transaction: that the database takes a write now
    /// (readiness); throws when it does not.
    func probeWrite() throws(ServiceError)
    /// What is wrong with the database's file as its engine checks it (SQLite's `quick_check`),
    /// or `nil` when nothing is (or the engine checks its own files, as PostgreSQL does).
    func damage() throws(ServiceError) -> String?
    /// Claims a transaction id for `account` before its ledger records it: `false` when another
    /// account has it (draw another). The same account claiming it again is `true`.
    func claim(transaction: TransactionID, account: String) throws(ServiceError) -> Bool
    /// The account a transaction id was claimed for; `nil` for an id no account has.
    func owner(of transaction: TransactionID) throws(ServiceError) -> String?
    /// Records an admin's action as `started`; its id, for ``finishAction(_:outcome:)``.
    func beginAction(_ action: AdminAction) throws(ServiceError) -> Int64
    /// Records what came of an action.
    func finishAction(_ id: Int64, outcome: String) throws(ServiceError)
    /// The actions taken, newest first: on `account` (or every one), before the action `before`, `limit` at most.
    func actions(account: String?, before: Int64?, limit: Int) throws(ServiceError) -> [AdminAction]
    /// When the account was made and, if it was, closed; `nil` for an id no account has.
    func lifetime(account: String) throws(ServiceError) -> (created: Int64, closed: Int64?)?
    /// The accounts whose display name, folded (``DisplayName/folded(_:)``), starts with
    /// `folded`, by name, `limit` at most: read from the names' index.
    func accounts(namedFrom folded: String, limit: Int) throws(ServiceError) -> [(account: String, name: String)]
    /// Claims an offer code (its SHA-256, ``OfferCodes/digest(_:)``) for `account`: `false` when
    /// another account redeemed it. The same account claiming it again is `true` (a retry).
    func claim(offerCode digest: String, account: String, now: Int64) throws(ServiceError) -> Bool
    /// Records a friend invitation of `account` (its code's SHA-256), good until `expires`, and
    /// lets go of the account's expired ones; `false` when the account has ``FriendLimits/invites`` live already.
    func addFriendInvite(account: String, digest: String, expires: Int64, now: Int64) throws(ServiceError) -> Bool
    /// Uses an invitation once: the two accounts become friends both ways, in one transaction.
    func acceptFriendInvite(digest: String, account: String, now: Int64) throws(ServiceError) -> FriendInviteUse
    /// The account's friends and since when, oldest first.
    func friends(of account: String) throws(ServiceError) -> [(account: String, since: Int64)]
    /// Ends a friendship both ways; `false` when there was none.
    func removeFriend(account: String, friend: String) throws(ServiceError) -> Bool
    /// Records a challenge and lets go of its challenger's expired ones; `false` when the
    /// challenger has ``Challenge/maxOpen`` that have not expired.
    func insertChallenge(_ row: ChallengeRow, now: Int64) throws(ServiceError) -> Bool
    /// The challenge `id`, if it is kept.
    func challenge(_ id: String) throws(ServiceError) -> ChallengeRow?
    /// The challenges `account` set or received that have not expired at `now`, newest first
    /// (at most ``Challenge/maxOpen`` per friend and ``FriendLimits/friends`` friends).
    func challenges(of account: String, now: Int64) throws(ServiceError) -> [ChallengeRow]
    /// Records a side's result, once: `challenger` or the friend's.
    func recordChallengeResult(_ id: String, challenger: Bool, result: String) throws(ServiceError)
}

/// What using a friend invitation did.
public enum FriendInviteUse: Sendable, Equatable {
    /// Friends now (or already), with the inviter.
    case friends(String)
    /// No such invitation, or used already.
    case unknown
    case expired
    /// The account's own invitation.
    case own
    /// One of the two has ``FriendLimits/friends`` friends already.
    case tooMany
}

/// How far friends go: bounded, so that a friends' board is a bounded read.
public enum FriendLimits {
    public static let friends = 100
    /// Invitations one account holds live at once.
    public static let invites = 20
}

/// Thrown inside a probe's transaction so that it rolls back.
private struct ProbeRollback: Error {}

/// The probe's row: an account id no account gets (ids are random 64-bit numbers; this one is
/// all `f`s), never committed.
private let probeAccount = "ffffffffffffffff"

/// One token of an account as the directory keeps it: an id (the first 16 hex digits of its
/// SHA-256), when it was made, last used and revoked.
public struct AccountToken: Sendable {
    public var id: String
    /// The device's name, when it gave one (``DeviceName``).
    public var deviceName: String?
    public var created: Int64
    public var lastUsed: Int64?
    public var revoked: Int64?
}

extension PresentedToken {
    /// A token's parts, read without looking it up (`nil` for anything not in the format).
    /// Whether it is live is the directory's to say (or the ledger's, in the same call).
    public init?(parsing token: String) {
        guard let token = BearerToken(parsing: token) else { return nil }
        let digest = SHA256.hash(Array(token.secret.utf8)).hex
        self.init(account: token.account, tokenID: Self.tokenID(ofDigest: digest), sha256: digest)
    }

    /// A token's id: the first 16 hex digits of its secret's SHA-256 (the server keeps the digest only).
    public static func tokenID(ofDigest digest: String) -> String { String(digest.prefix(16)) }
}

/// A new token's secret: 32 random bytes in base64url, and the SHA-256 the directory keeps of it.
private func newSecret() -> (secret: String, sha256: String) {
    var random = SystemRandomNumberGenerator()
    let secret = Base64.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }, alphabet: .url)
    return (secret, SHA256.hash(Array(secret.utf8)).hex)
}

extension AccountDirectory {
    /// A new account, with its token.
    public func create(deviceName: String? = nil, now: Int64) throws(ServiceError) -> NewAccount {
        var random = SystemRandomNumberGenerator()
        let made = newSecret()
        for _ in 0..<8 {
            let id = String(random.next(), radix: 16).leftPadded(to: 16)
            if try insert(id: id, tokenSHA256: made.sha256, deviceName: deviceName, now: now) {
                return NewAccount(accountID: id, token: BearerToken(account: id, secret: made.secret).text)
            }
        }
        throw ServiceError(.storage, "cannot find a free account id")
    }

    /// The account a bearer token belongs to and the token's id, or `nil` (an unknown, revoked
    /// token, or a closed account); throws when the directory cannot be read (the database is
    /// away: 503, not a wrong token).
    public func account(for presented: PresentedToken) throws(ServiceError) -> (account: String, tokenID: String)? {
        let digest = Array(presented.sha256.utf8)
        // Every live token compared in full, whichever matches: timing tells nothing.
        var found: String?
        for stored in try liveTokens(account: presented.account) where ConstantTime.equal(Array(stored.utf8), digest) { found = stored }
        return found.map { (presented.account, PresentedToken.tokenID(ofDigest: $0)) }
    }

    /// The presented token `tokenID` replaced by a new one (a rotation), atomically: `nil` when it
    /// was no longer live, so that concurrent rotations of one token make one new token.
    public func rotate(account: String, tokenID: String, now: Int64) throws(ServiceError) -> (token: String, tokenID: String)? {
        let made = newSecret()
        guard try replaceToken(account: account, tokenID: tokenID, with: made.sha256, now: now) else { return nil }
        return (BearerToken(account: account, secret: made.secret).text, PresentedToken.tokenID(ofDigest: made.sha256))
    }

    /// A new token for an open account (a device joining it): the token, and its id.
    public func newToken(account: String, deviceName: String? = nil, now: Int64) throws(ServiceError) -> (token: String, tokenID: String) {
        let made = newSecret()
        try addToken(account: account, tokenSHA256: made.sha256, deviceName: deviceName, now: now)
        return (BearerToken(account: account, secret: made.secret).text, PresentedToken.tokenID(ofDigest: made.sha256))
    }
}


/// The accounts in PostgreSQL, in the database the ledgers are in.
public final class PostgreSQLAccountDirectory: AccountDirectory {
    private let pool: ConnectionPool

    static let migrations = AccountsSchema.postgreSQLMigrations

    public init(pool: ConnectionPool) throws(ServiceError) {
        self.pool = pool
        do {
            try Self.migrations.migrate(pool)
        } catch {
            throw Self.failure(error)
        }
    }

    public func insert(id: String, tokenSHA256: String, deviceName: String?, now: Int64) throws(ServiceError) -> Bool {
        try run { connection in
            guard try connection.execute(
                "INSERT INTO accounts (id, token_sha256, created_date) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING", [id, tokenSHA256, String(now)]
            ).affectedRows == 1 else { return false }
            try connection.execute(
                "INSERT INTO tokens (token_id, account_id, token_sha256, created_date, device_name) VALUES ($1, $2, $3, $4, $5)",
                [PresentedToken.tokenID(ofDigest: tokenSHA256), id, tokenSHA256, String(now), deviceName])
            return true
        }
    }

    public func isOpen(account: String) throws(ServiceError) -> Bool {
        try run(writing: false) { connection in
            try connection.execute("SELECT 1 FROM accounts WHERE id = $1 AND closed_date IS NULL", [account]).rows.count == 1
        }
    }

    public func liveTokens(account: String) throws(ServiceError) -> [String] {
        try run(writing: false) { connection in
            try connection.execute("SELECT token_sha256 FROM live_tokens WHERE account_id = $1", [account]).rows.compactMap { $0.first ?? nil }
        }
    }

    public func addToken(account: String, tokenSHA256: String, deviceName: String?, now: Int64) throws(ServiceError) {
        _ = try run { connection in
            try connection.execute(
                "INSERT INTO tokens (token_id, account_id, token_sha256, created_date, device_name) VALUES ($1, $2, $3, $4, $5)",
                [PresentedToken.tokenID(ofDigest: tokenSHA256), account, tokenSHA256, String(now), deviceName])
        }
    }

    public func tokens(account: String) throws(ServiceError) -> [AccountToken] {
        try run(writing: false) { connection in
            try connection.execute(
                "SELECT token_id, created_date, last_used_date, revoked_date, device_name FROM tokens WHERE account_id = $1 ORDER BY created_date, token_id", [account]
            ).rows.map { row in
                AccountToken(
                    id: row[0] ?? "", deviceName: row[4] ?? nil, created: row[1].flatMap(Int64.init) ?? 0, lastUsed: row[2].flatMap(Int64.init),
                    revoked: row[3].flatMap(Int64.init))
            }
        }
    }

    public func replaceToken(account: String, tokenID: String, with tokenSHA256: String, now: Int64) throws(ServiceError) -> Bool {
        try run { connection in
            guard try connection.execute(
                "UPDATE tokens SET revoked_date = $3 WHERE account_id = $1 AND token_id = $2 AND revoked_date IS NULL", [account, tokenID, String(now)]
            ).affectedRows == 1 else { return false }
            try connection.execute(
                """
                INSERT INTO tokens (token_id, account_id, token_sha256, created_date, device_name)
                    SELECT $1, $2, $3, $4, (SELECT device_name FROM tokens WHERE account_id = $2 AND token_id = $5)
                """, [PresentedToken.tokenID(ofDigest: tokenSHA256), account, tokenSHA256, String(now), tokenID])
            return true
        }
    }

    public func revoke(account: String, tokenID: String?, now: Int64) throws(ServiceError) -> Int {
        try run { connection in
            try connection.execute(
                "UPDATE tokens SET revoked_date = $3 WHERE account_id = $1 AND revoked_date IS NULL AND ($2::text IS NULL OR token_id = $2)",
                [account, tokenID, String(now)]
            ).affectedRows
        }
    }

    public func close(account: String, now: Int64) throws(ServiceError) {
        try run { connection in
            try connection.execute("UPDATE tokens SET revoked_date = $2 WHERE account_id = $1 AND revoked_date IS NULL", [account, String(now)])
            try connection.execute("UPDATE accounts SET closed_date = $2 WHERE id = $1 AND closed_date IS NULL", [account, String(now)])
            try connection.execute("DELETE FROM display_names WHERE account_id = $1", [account])
        }
    }

    public func touch(tokenID: String, now: Int64) throws(ServiceError) {
        _ = try run { connection in
            try connection.execute(
                "UPDATE tokens SET last_used_date = $2::bigint WHERE token_id = $1 AND (last_used_date IS NULL OR last_used_date < $2::bigint - 60000)",
                [tokenID, String(now)])
        }
    }

    public func probeWrite() throws(ServiceError) {
        do {
            try pool.transaction { connection in
                try connection.execute(
                    "INSERT INTO accounts (id, token_sha256, created_date) VALUES ($1, $2, 0) ON CONFLICT (id) DO NOTHING",
                    [probeAccount, String(repeating: "0", count: 64)])
                throw ProbeRollback()
            }
        } catch is ProbeRollback {
            return
        } catch {
            throw Self.failure(error)
        }
    }

    public func damage() throws(ServiceError) -> String? { nil }

    public func claim(transaction: TransactionID, account: String) throws(ServiceError) -> Bool {
        try run(writing: false) { connection in
            try connection.execute(
                """
                WITH claimed AS (
                    INSERT INTO transaction_owners (transaction_id, account_id) VALUES ($1, $2) ON CONFLICT (transaction_id) DO NOTHING RETURNING account_id)
                SELECT account_id FROM claimed UNION ALL SELECT account_id FROM transaction_owners WHERE transaction_id = $1
                """, [transaction.rawValue, account]
            ).rows.first?.first ?? nil
        } == account
    }

    public func owner(of transaction: TransactionID) throws(ServiceError) -> String? {
        try run(writing: false) { connection in
            try connection.execute("SELECT account_id FROM transaction_owners WHERE transaction_id = $1", [transaction.rawValue]).rows.first?.first ?? nil
        }
    }

    public func claim(offerCode digest: String, account: String, now: Int64) throws(ServiceError) -> Bool {
        try run(writing: false) { connection in
            let claimed = try connection.execute(
                """
                WITH claimed AS (
                    INSERT INTO offer_code_redemptions (code_sha256, account_id, redeemed_date) VALUES ($1, $2, $3)
                    ON CONFLICT (code_sha256) DO NOTHING RETURNING account_id)
                SELECT account_id FROM claimed UNION ALL SELECT account_id FROM offer_code_redemptions WHERE code_sha256 = $1
                """, [digest, account, String(now)]
            ).rows.first?.first ?? nil
            if let claimed { return claimed }
            // Another claim of the code committed while this one waited on it: the statement's
            // snapshot is older than that row, a new statement sees it.
            return try connection.execute("SELECT account_id FROM offer_code_redemptions WHERE code_sha256 = $1", [digest]).rows.first?.first ?? nil
        } == account
    }

    public func addFriendInvite(account: String, digest: String, expires: Int64, now: Int64) throws(ServiceError) -> Bool {
        try run { connection in
            _ = try connection.execute("DELETE FROM friend_invites WHERE account_id = $1 AND expires_date <= $2", [account, String(now)])
            let live = Int(try connection.execute("SELECT count(*) FROM friend_invites WHERE account_id = $1", [account]).rows.first?.first.flatMap { $0 } ?? "0") ?? 0
            guard live < FriendLimits.invites else { return false }
            _ = try connection.execute(
                "INSERT INTO friend_invites (code_sha256, account_id, expires_date) VALUES ($1, $2, $3)", [digest, account, String(expires)])
            return true
        }
    }

    public func acceptFriendInvite(digest: String, account: String, now: Int64) throws(ServiceError) -> FriendInviteUse {
        try run { connection in
            guard let row = try connection.execute(
                "SELECT account_id, expires_date FROM friend_invites WHERE code_sha256 = $1 FOR UPDATE", [digest]).rows.first,
                let inviter = row[0], let expires = row[1].flatMap({ Int64($0) })
            else { return .unknown }
            guard inviter != account else { return .own }
            guard expires > now else { return .expired }
            let counts = try connection.execute(
                "SELECT count(*) FILTER (WHERE account_id = $1), count(*) FILTER (WHERE account_id = $2), count(*) FILTER (WHERE account_id = $1 AND friend_id = $2) FROM friendships WHERE account_id IN ($1, $2)",
                [account, inviter]).rows.first ?? []
            let numbers = counts.map { Int($0 ?? "0") ?? 0 }
            if numbers.count == 3, numbers[2] == 0, numbers[0] >= FriendLimits.friends || numbers[1] >= FriendLimits.friends { return .tooMany }
            _ = try connection.execute("DELETE FROM friend_invites WHERE code_sha256 = $1", [digest])
            _ = try connection.execute(
                "INSERT INTO friendships (account_id, friend_id, since_date) VALUES ($1, $2, $3), ($2, $1, $3) ON CONFLICT DO NOTHING", [account, inviter, String(now)])
            return .friends(inviter)
        }
    }

    public func friends(of account: String) throws(ServiceError) -> [(account: String, since: Int64)] {
        try run(writing: false) { connection in
            try connection.execute("SELECT friend_id, since_date FROM friendships WHERE account_id = $1 ORDER BY since_date, friend_id", [account]).rows
                .compactMap { row in row[0].flatMap { id in row[1].flatMap { Int64($0) }.map { (id, $0) } } }
        }
    }

    public func removeFriend(account: String, friend: String) throws(ServiceError) -> Bool {
        try run { connection in
            try connection.execute(
                "DELETE FROM friendships WHERE (account_id = $1 AND friend_id = $2) OR (account_id = $2 AND friend_id = $1)", [account, friend]
            ).affectedRows > 0
        }
    }

    public func insertChallenge(_ row: ChallengeRow, now: Int64) throws(ServiceError) -> Bool {
        let values = try row.texts
        return try run { connection in
            _ = try connection.execute("DELETE FROM challenges WHERE challenger_id = $1 AND expires_date <= $2", [row.challenger, String(now)])
            let open = Int(try connection.execute("SELECT count(*) FROM challenges WHERE challenger_id = $1", [row.challenger]).rows.first?.first.flatMap { $0 } ?? "0") ?? 0
            guard open < Challenge.maxOpen else { return false }
            _ = try connection.execute(
                "INSERT INTO challenges (\(ChallengeRow.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)", values)
            return true
        }
    }

    public func challenge(_ id: String) throws(ServiceError) -> ChallengeRow? {
        let row = try run(writing: false) { connection in try connection.execute("SELECT \(ChallengeRow.columns) FROM challenges WHERE id = $1", [id]).rows.first }
        return try row.map { row throws(ServiceError) in try ChallengeRow(columns: row) }
    }

    public func challenges(of account: String, now: Int64) throws(ServiceError) -> [ChallengeRow] {
        let rows = try run(writing: false) { connection in
            try connection.execute(
                """
                SELECT \(ChallengeRow.columns) FROM challenges WHERE (challenger_id = $1 OR friend_id = $1) AND expires_date > $2
                ORDER BY created_date DESC, id LIMIT \(Challenge.maxOpen * (FriendLimits.friends + 1))
                """, [account, String(now)]
            ).rows
        }
        return try rows.map { row throws(ServiceError) in try ChallengeRow(columns: row) }
    }

    public func recordChallengeResult(_ id: String, challenger: Bool, result: String) throws(ServiceError) {
        let column = challenger ? "challenger_result" : "friend_result"
        try run { connection in _ = try connection.execute("UPDATE challenges SET \(column) = $2 WHERE id = $1 AND \(column) IS NULL", [id, result]) }
    }

    /// `body` in one transaction when it writes, or as single statements when it reads (one
    /// round trip: every request's token is read here); a database away is 503.
    private func run<T>(writing: Bool = true, _ body: (Connection) throws -> T) throws(ServiceError) -> T {
        do {
            return writing ? try pool.transaction { connection in try body(connection) } : try pool.autocommit(body)
        } catch {
            throw Self.failure(error)
        }
    }

    private static func failure(_ error: any Error) -> ServiceError {
        if let error = error as? PostgreSQLError, error.isConnectionLost {
            return ServiceError(.unavailable, L10n.text("the accounts database is unavailable (%s): try again", error.message))
        }
        return ServiceError(.storage, "the accounts database failed: \(error)")
    }
}

/// The daily words' board in the shared database: what every server's leaderboards read.
extension PostgreSQLAccountDirectory {
    public func record(_ score: DailyScore) throws(ServiceError) {
        _ = try run { connection in
            guard try connection.execute(
                """
                INSERT INTO daily_scores (day, language, account_id, game_id, score, hints, misses, won, finished_date)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (day, language, account_id) DO NOTHING
                """,
                [score.day, score.language, score.account, score.gameID, String(score.score), String(score.hints), String(score.misses),
                 score.won ? "1" : "0", String(score.finished)]
            ).affectedRows == 1 else { return }
            for change in try BoardChange.changes(recording: score, weekEntry: { end throws in
                try connection.execute(
                    "SELECT score, hints, misses, won FROM week_scores WHERE end_day = $1 AND language = $2 AND account_id = $3",
                    [end, score.language, score.account]
                ).rows.first.flatMap(Self.entry(account: score.account))
            }) {
                switch change {
                case .count(let kind, let day, let entry, let by) where by < 0:
                    try connection.execute(
                        "UPDATE board_counts SET players = players + $7 WHERE kind = $1 AND end_day = $2 AND language = $3 AND score = $4 AND hints = $5 AND misses = $6",
                        [kind, day, score.language, String(entry.score), String(entry.hints), String(entry.misses), String(by)])
                case .count(let kind, let day, let entry, let by):
                    try connection.execute(
                        """
                        INSERT INTO board_counts (kind, end_day, language, score, hints, misses, players) VALUES ($1, $2, $3, $4, $5, $6, $7)
                        ON CONFLICT (kind, end_day, language, score, hints, misses) DO UPDATE SET players = board_counts.players + excluded.players
                        """, [kind, day, score.language, String(entry.score), String(entry.hints), String(entry.misses), String(by)])
                case .week(let end, let entry):
                    try connection.execute(
                        """
                        INSERT INTO week_scores (end_day, language, account_id, score, hints, misses, won) VALUES ($1, $2, $3, $4, $5, $6, $7)
                        ON CONFLICT (end_day, language, account_id) DO UPDATE SET score = excluded.score, hints = excluded.hints,
                            misses = excluded.misses, won = excluded.won
                        """, [end, score.language, score.account, String(entry.score), String(entry.hints), String(entry.misses), String(entry.won)])
                }
            }
        }
    }

    public func top(_ board: BoardKey, limit: Int) throws(ServiceError) -> [BoardEntry] {
        try run(writing: false) { connection in
            try connection.execute(
                board.week
                    ? "SELECT score, hints, misses, won, account_id FROM week_scores WHERE end_day = $1 AND language = $2 ORDER BY score DESC, hints, misses, account_id LIMIT $3"
                    : "SELECT score, hints, misses, won, account_id FROM daily_scores WHERE day = $1 AND language = $2 ORDER BY score DESC, hints, misses, account_id LIMIT $3",
                [board.day, board.language, String(limit)]
            ).rows.compactMap { row in Self.entry(account: row.count == 5 ? row[4] ?? "" : "")(row) }
        }
    }

    public func buckets(_ board: BoardKey) throws(ServiceError) -> [BoardBucket] {
        try run(writing: false) { connection in
            try connection.execute(
                "SELECT score, hints, misses, players FROM board_counts WHERE kind = $1 AND end_day = $2 AND language = $3 AND players > 0",
                [board.kind, board.day, board.language]
            ).rows.compactMap { row in
                guard row.count == 4, let score = row[0].flatMap(Int.init), let hints = row[1].flatMap(Int.init), let misses = row[2].flatMap(Int.init),
                    let players = row[3].flatMap(Int.init)
                else { return nil }
                return BoardBucket(score: score, hints: hints, misses: misses, players: players)
            }
        }
    }

    public func entry(_ board: BoardKey, account: String) throws(ServiceError) -> BoardEntry? {
        try run(writing: false) { connection in
            try connection.execute(
                board.week
                    ? "SELECT score, hints, misses, won FROM week_scores WHERE end_day = $1 AND language = $2 AND account_id = $3"
                    : "SELECT score, hints, misses, won FROM daily_scores WHERE day = $1 AND language = $2 AND account_id = $3",
                [board.day, board.language, account]
            ).rows.first.flatMap(Self.entry(account: account))
        }
    }

    /// A row of `score, hints, misses, won` as the account's entry.
    private static func entry(account: String) -> ([String?]) -> BoardEntry? {
        { row in
            guard row.count >= 4, let score = row[0].flatMap(Int.init), let hints = row[1].flatMap(Int.init), let misses = row[2].flatMap(Int.init),
                let won = row[3].flatMap(Int.init)
            else { return nil }
            return BoardEntry(account: account, score: score, hints: hints, misses: misses, won: won)
        }
    }

    public func names(of accounts: [String]) throws(ServiceError) -> [String: String] {
        try run(writing: false) { connection in
            var names: [String: String] = [:]
            for row in try connection.execute(
                "SELECT account_id, name FROM display_names WHERE account_id = ANY(string_to_array($1, ','))", [accounts.joined(separator: ",")]
            ).rows {
                if let account = row[0], let name = row[1] { names[account] = name }
            }
            return names
        }
    }

    public func beginAction(_ action: AdminAction) throws(ServiceError) -> Int64 {
        try run { connection in
            guard let id = try connection.execute(
                "INSERT INTO admin_actions (made_date, admin, action, account_id, subject, reason, outcome) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                [String(action.date), action.admin, action.action, action.account, action.subject, action.reason, action.outcome]
            ).rows.first?.first.flatMap({ $0.flatMap(Int64.init) }) else { throw ServiceError(.storage, "the admin action was not recorded") }
            return id
        }
    }

    public func finishAction(_ id: Int64, outcome: String) throws(ServiceError) {
        try run { connection in _ = try connection.execute("UPDATE admin_actions SET outcome = $2 WHERE id = $1", [String(id), outcome]) }
    }

    public func actions(account: String?, before: Int64?, limit: Int) throws(ServiceError) -> [AdminAction] {
        try run(writing: false) { connection in
            try connection.execute(
                """
                SELECT id, made_date, admin, action, account_id, subject, reason, outcome FROM admin_actions
                WHERE ($1 = '' OR account_id = $1) AND id < $2 ORDER BY id DESC LIMIT $3
                """, [account ?? "", String(before ?? .max), String(limit)]
            ).rows.map { row throws in try AdminAction(texts: row) }
        }
    }

    public func lifetime(account: String) throws(ServiceError) -> (created: Int64, closed: Int64?)? {
        try run(writing: false) { connection in
            try connection.execute("SELECT created_date, closed_date FROM accounts WHERE id = $1", [account]).rows.first.flatMap { row in
                row[0].flatMap(Int64.init).map { ($0, row[1].flatMap(Int64.init)) }
            }
        }
    }

    public func accounts(namedFrom folded: String, limit: Int) throws(ServiceError) -> [(account: String, name: String)] {
        try run(writing: false) { connection in
            // Byte order (the index's collation), so that the range is the names that start with it.
            try connection.execute(
                """
                SELECT account_id, name FROM display_names WHERE folded COLLATE "C" >= $1 AND folded COLLATE "C" < $2
                ORDER BY folded COLLATE "C" LIMIT $3
                """, [folded, folded + "\u{10FFFF}", String(limit)]
            ).rows.compactMap { row in row[0].flatMap { account in row[1].map { (account, $0) } } }
        }
    }

    public func setName(account: String, name: String, folded: String, skeleton: String, now: Int64) throws(ServiceError) -> Bool {
        do {
            return try run { connection in
                let holder = try connection.execute(
                    "SELECT account_id FROM display_names WHERE (folded = $1 OR skeleton = $2) AND account_id <> $3 LIMIT 1", [folded, skeleton, account]
                ).rows.first?.first ?? nil
                if holder != nil { return false }
                try connection.execute(
                    """
                    INSERT INTO display_names (account_id, name, folded, skeleton, changed_date) VALUES ($1, $2, $3, $4, $5)
                    ON CONFLICT (account_id) DO UPDATE SET name = excluded.name, folded = excluded.folded, skeleton = excluded.skeleton,
                        changed_date = excluded.changed_date
                    """, [account, name, folded, skeleton, String(now)])
                return true
            }
        } catch where error.message.contains("display_names_folded_key") || error.message.contains("display_names_skeleton") {
            // Another account took the name between the look and the write.
            return false
        }
    }

    public func fillSkeletons(_ skeleton: (String) -> String) throws(ServiceError) -> Int {
        try run { connection in
            var filled = 0
            for row in try connection.execute("SELECT account_id, folded FROM display_names WHERE skeleton IS NULL ORDER BY changed_date, account_id").rows {
                guard let account = row[0], let folded = row[1] else { continue }
                filled += try connection.execute(
                    """
                    UPDATE display_names SET skeleton = $2 WHERE account_id = $1
                        AND NOT EXISTS (SELECT 1 FROM display_names WHERE skeleton = $2)
                    """, [account, skeleton(folded)]
                ).affectedRows
            }
            return filled
        }
    }
}

/// The accounts in a SQLite file beside the ledgers.
public final class SQLiteAccountDirectory: AccountDirectory {
    private let path: String
    /// Connections not in use, each with its statements compiled once: a request borrows one
    /// (every request's token is read here), so none is opened per request and no two threads
    /// share one. At most `keptConnections` wait here; more are closed when given back.
    private let idle = Mutex<[UncheckedDatabase]>([])
    private static let keptConnections = 32

    public init(path: String) throws(ServiceError) {
        self.path = path
        do {
            // Made whole and private (0600) like every state database, whatever the folder's mode.
            _ = try Database.openState(path: path, migrator: Self.migrator)
        } catch {
            throw ServiceError(.storage, "cannot prepare the accounts database \(path): \(error)")
        }
    }

    private static let migrator = AccountsSchema.sqliteMigrator

    /// A connection of this call's own, from those kept or new. The schema was made once, when
    /// the directory opened.
    private func borrow() throws(ServiceError) -> Database {
        if let kept = idle.withLock({ $0.popLast() }) { return kept.database }
        do {
            return try Database(path: path)
        } catch {
            throw ServiceError(.storage, "cannot open the accounts database \(path): \(error)")
        }
    }

    /// Keeps a connection for the next call, unless it is in a transaction still (a failure
    /// left it there) or enough are kept.
    private func giveBack(_ db: Database) {
        guard !db.isInTransaction else { return }
        let kept = UncheckedDatabase(database: db)
        idle.withLock { idle in
            if idle.count < Self.keptConnections { idle.append(kept) }
        }
    }

    public func insert(id: String, tokenSHA256: String, deviceName: String?, now: Int64) throws(ServiceError) -> Bool {
        try run { db in
            try db.execute(
                "INSERT INTO accounts (id, token_sha256, created_date) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING",
                .text(id), .text(tokenSHA256), .integer(now))
            guard db.changes == 1 else { return false }
            try db.execute(
                "INSERT INTO tokens (token_id, account_id, token_sha256, created_date, device_name) VALUES (?, ?, ?, ?, ?)",
                .text(PresentedToken.tokenID(ofDigest: tokenSHA256)), .text(id), .text(tokenSHA256), .integer(now), deviceName.map(SQLValue.text) ?? .null)
            // A new account's ledger has nothing made before ids were claimed.
            try db.execute("INSERT INTO claimed_ledgers (account_id) VALUES (?) ON CONFLICT(account_id) DO NOTHING", .text(id))
            return true
        }
    }

    public func isOpen(account: String) throws(ServiceError) -> Bool {
        try run(writing: false) { db in try db.int64("SELECT 1 FROM accounts WHERE id = ? AND closed_date IS NULL", .text(account)) != nil }
    }

    public func liveTokens(account: String) throws(ServiceError) -> [String] {
        try run(writing: false) { db in
            try db.query("SELECT token_sha256 FROM live_tokens WHERE account_id = ?", .text(account)).map { try $0.string(0) }
        }
    }

    public func addToken(account: String, tokenSHA256: String, deviceName: String?, now: Int64) throws(ServiceError) {
        try run { db in
            try db.execute(
                "INSERT INTO tokens (token_id, account_id, token_sha256, created_date, device_name) VALUES (?, ?, ?, ?, ?)",
                .text(PresentedToken.tokenID(ofDigest: tokenSHA256)), .text(account), .text(tokenSHA256), .integer(now), deviceName.map(SQLValue.text) ?? .null)
        }
    }

    public func tokens(account: String) throws(ServiceError) -> [AccountToken] {
        try run(writing: false) { db in
            try db.query(
                "SELECT token_id, created_date, last_used_date, revoked_date, device_name FROM tokens WHERE account_id = ? ORDER BY created_date, token_id", .text(account)
            ).map { row in
                AccountToken(
                    id: try row.string(0), deviceName: try row[4].stringValue, created: try row.int64(1), lastUsed: try row[2].int64Value, revoked: try row[3].int64Value)
            }
        }
    }

    public func replaceToken(account: String, tokenID: String, with tokenSHA256: String, now: Int64) throws(ServiceError) -> Bool {
        try run { db in
            try db.execute(
                "UPDATE tokens SET revoked_date = ? WHERE account_id = ? AND token_id = ? AND revoked_date IS NULL", .integer(now), .text(account), .text(tokenID))
            guard db.changes == 1 else { return false }
            try db.execute(
                """
                INSERT INTO tokens (token_id, account_id, token_sha256, created_date, device_name)
                    SELECT ?, ?, ?, ?, (SELECT device_name FROM tokens WHERE account_id = ?2 AND token_id = ?)
                """, .text(PresentedToken.tokenID(ofDigest: tokenSHA256)), .text(account), .text(tokenSHA256), .integer(now), .text(tokenID))
            return true
        }
    }

    public func revoke(account: String, tokenID: String?, now: Int64) throws(ServiceError) -> Int {
        try run { db in
            try db.execute(
                "UPDATE tokens SET revoked_date = ? WHERE account_id = ? AND revoked_date IS NULL AND (? IS NULL OR token_id = ?)",
                .integer(now), .text(account), tokenID.map(SQLValue.text) ?? .null, tokenID.map(SQLValue.text) ?? .null)
            return db.changes
        }
    }

    public func close(account: String, now: Int64) throws(ServiceError) {
        try run { db in
            try db.execute("UPDATE tokens SET revoked_date = ? WHERE account_id = ? AND revoked_date IS NULL", .integer(now), .text(account))
            try db.execute("UPDATE accounts SET closed_date = ? WHERE id = ? AND closed_date IS NULL", .integer(now), .text(account))
            try db.execute("DELETE FROM display_names WHERE account_id = ?", .text(account))
        }
    }

    public func touch(tokenID: String, now: Int64) throws(ServiceError) {
        try run { db in
            try db.execute(
                "UPDATE tokens SET last_used_date = ? WHERE token_id = ? AND (last_used_date IS NULL OR last_used_date < ? - 60000)",
                .integer(now), .text(tokenID), .integer(now))
        }
    }

    public func probeWrite() throws(ServiceError) {
        let db = try borrow()
        defer { giveBack(db) }
        do {
            try db.transaction(.immediate) { db in
                try db.execute(
                    "INSERT INTO accounts (id, token_sha256, created_date) VALUES (?, ?, 0) ON CONFLICT(id) DO NOTHING", .text(probeAccount),
                    .text(String(repeating: "0", count: 64)))
                throw ProbeRollback()
            }
        } catch is ProbeRollback {
            return
        } catch {
            throw ServiceError(.storage, "the accounts database \(path) takes no write: \(error)")
        }
    }

    public func claim(transaction: TransactionID, account: String) throws(ServiceError) -> Bool {
        try run { db in
            try db.execute(
                "INSERT INTO transaction_owners (transaction_id, account_id) VALUES (?, ?) ON CONFLICT(transaction_id) DO NOTHING",
                .text(transaction.rawValue), .text(account))
            return try db.string("SELECT account_id FROM transaction_owners WHERE transaction_id = ?", .text(transaction.rawValue))
        } == account
    }

    public func owner(of transaction: TransactionID) throws(ServiceError) -> String? {
        try run(writing: false) { db in try db.string("SELECT account_id FROM transaction_owners WHERE transaction_id = ?", .text(transaction.rawValue)) }
    }

    public func claim(offerCode digest: String, account: String, now: Int64) throws(ServiceError) -> Bool {
        try run { db in
            try db.execute(
                "INSERT INTO offer_code_redemptions (code_sha256, account_id, redeemed_date) VALUES (?, ?, ?) ON CONFLICT(code_sha256) DO NOTHING",
                .text(digest), .text(account), .integer(now))
            return try db.string("SELECT account_id FROM offer_code_redemptions WHERE code_sha256 = ?", .text(digest))
        } == account
    }

    public func addFriendInvite(account: String, digest: String, expires: Int64, now: Int64) throws(ServiceError) -> Bool {
        try run { db in
            try db.execute("DELETE FROM friend_invites WHERE account_id = ? AND expires_date <= ?", .text(account), .integer(now))
            guard try db.int64("SELECT count(*) FROM friend_invites WHERE account_id = ?", .text(account)) ?? 0 < Int64(FriendLimits.invites) else { return false }
            try db.execute("INSERT INTO friend_invites (code_sha256, account_id, expires_date) VALUES (?, ?, ?)", .text(digest), .text(account), .integer(expires))
            return true
        }
    }

    public func acceptFriendInvite(digest: String, account: String, now: Int64) throws(ServiceError) -> FriendInviteUse {
        try run { db in
            guard let row = try db.query("SELECT account_id, expires_date FROM friend_invites WHERE code_sha256 = ?", .text(digest)).first else { return .unknown }
            let inviter = try row.string(0)
            guard inviter != account else { return .own }
            guard try row.int64(1) > now else { return .expired }
            let already = try db.int64("SELECT count(*) FROM friendships WHERE account_id = ? AND friend_id = ?", .text(account), .text(inviter)) ?? 0
            let mine = try db.int64("SELECT count(*) FROM friendships WHERE account_id = ?", .text(account)) ?? 0
            let theirs = try db.int64("SELECT count(*) FROM friendships WHERE account_id = ?", .text(inviter)) ?? 0
            if already == 0, mine >= Int64(FriendLimits.friends) || theirs >= Int64(FriendLimits.friends) { return .tooMany }
            try db.execute("DELETE FROM friend_invites WHERE code_sha256 = ?", .text(digest))
            try db.execute(
                "INSERT INTO friendships (account_id, friend_id, since_date) VALUES (?, ?, ?), (?, ?, ?) ON CONFLICT DO NOTHING", .text(account), .text(inviter),
                .integer(now), .text(inviter), .text(account), .integer(now))
            return .friends(inviter)
        }
    }

    public func friends(of account: String) throws(ServiceError) -> [(account: String, since: Int64)] {
        try run(writing: false) { db in
            try db.query("SELECT friend_id, since_date FROM friendships WHERE account_id = ? ORDER BY since_date, friend_id", .text(account)).map {
                row throws in (try row.string(0), try row.int64(1))
            }
        }
    }

    public func removeFriend(account: String, friend: String) throws(ServiceError) -> Bool {
        try run { db in
            try db.execute(
                "DELETE FROM friendships WHERE (account_id = ? AND friend_id = ?) OR (account_id = ? AND friend_id = ?)", .text(account), .text(friend),
                .text(friend), .text(account))
            return db.changes > 0
        }
    }

    public func insertChallenge(_ row: ChallengeRow, now: Int64) throws(ServiceError) -> Bool {
        let values = try row.texts.map { $0.map(SQLValue.text) ?? .null }
        return try run { db in
            try db.execute("DELETE FROM challenges WHERE challenger_id = ? AND expires_date <= ?", .text(row.challenger), .integer(now))
            guard try db.int64("SELECT count(*) FROM challenges WHERE challenger_id = ?", .text(row.challenger)) ?? 0 < Int64(Challenge.maxOpen) else { return false }
            try db.execute(sql: "INSERT INTO challenges (\(ChallengeRow.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: values)
            return true
        }
    }

    public func challenge(_ id: String) throws(ServiceError) -> ChallengeRow? {
        let row = try run(writing: false) { db in try db.query("SELECT \(ChallengeRow.columns) FROM challenges WHERE id = ?", .text(id)).first }
        return try row.map { row throws(ServiceError) in try ChallengeRow(columns: row.texts) }
    }

    public func challenges(of account: String, now: Int64) throws(ServiceError) -> [ChallengeRow] {
        let rows = try run(writing: false) { db in
            try db.query(
                """
                SELECT \(ChallengeRow.columns) FROM challenges WHERE (challenger_id = ? OR friend_id = ?) AND expires_date > ?
                ORDER BY created_date DESC, id LIMIT \(Challenge.maxOpen * (FriendLimits.friends + 1))
                """, .text(account), .text(account), .integer(now))
        }
        return try rows.map { row throws(ServiceError) in try ChallengeRow(columns: row.texts) }
    }

    public func recordChallengeResult(_ id: String, challenger: Bool, result: String) throws(ServiceError) {
        let column = challenger ? "challenger_result" : "friend_result"
        try run { db in try db.execute("UPDATE challenges SET \(column) = ? WHERE id = ? AND \(column) IS NULL", .text(result), .text(id)) }
    }

    /// The ledgers whose transactions are claimed (``SellerService`` claims the others' once).
    func claimedLedgers() throws(ServiceError) -> Set<String> {
        try run(writing: false) { db in Set(try db.query("SELECT account_id FROM claimed_ledgers").map { try $0.string(0) }) }
    }

    /// Claims every id of a ledger made before ids were claimed, and records the ledger claimed,
    /// in one transaction. An id another account has is said (`false`), never taken from it.
    func claimLedger(account: String, transactions: [TransactionID]) throws(ServiceError) -> [TransactionID] {
        try run { db in
            var taken: [TransactionID] = []
            for transaction in transactions {
                try db.execute(
                    "INSERT INTO transaction_owners (transaction_id, account_id) VALUES (?, ?) ON CONFLICT(transaction_id) DO NOTHING",
                    .text(transaction.rawValue), .text(account))
                if db.changes == 0, try db.string("SELECT account_id FROM transaction_owners WHERE transaction_id = ?", .text(transaction.rawValue)) != account {
                    taken.append(transaction)
                }
            }
            try db.execute("INSERT INTO claimed_ledgers (account_id) VALUES (?) ON CONFLICT(account_id) DO NOTHING", .text(account))
            return taken
        }
    }

    public func damage() throws(ServiceError) -> String? {
        let db = try borrow()
        defer { giveBack(db) }
        do {
            let found = try db.query("PRAGMA quick_check").map { row throws in try row.string(0) }
            return found == ["ok"] ? nil : found.prefix(5).joined(separator: "; ")
        } catch {
            return "\(error)"
        }
    }

    /// `body` in one transaction on a connection of its own: a read takes no write lock (every
    /// request's token is read here), a write takes it at `BEGIN`.
    private func run<T>(writing: Bool = true, _ body: (Database) throws -> T) throws(ServiceError) -> T {
        let db = try borrow()
        defer { giveBack(db) }
        do {
            return try db.transaction(writing ? .immediate : .deferred) { db in try body(db) }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(.storage, "the accounts database \(path) failed: \(error)")
        }
    }
}

/// The daily words' board beside the accounts: what this server's leaderboards read.
extension SQLiteAccountDirectory {
    public func record(_ score: DailyScore) throws(ServiceError) {
        try run { db in
            try db.execute(
                """
                INSERT INTO daily_scores (day, language, account_id, game_id, score, hints, misses, won, finished_date)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (day, language, account_id) DO NOTHING
                """,
                .text(score.day), .text(score.language), .text(score.account), .text(score.gameID), .integer(Int64(score.score)),
                .integer(Int64(score.hints)), .integer(Int64(score.misses)), .integer(score.won ? 1 : 0), .integer(score.finished))
            guard db.changes == 1 else { return }
            for change in try BoardChange.changes(recording: score, weekEntry: { end throws in
                try db.query(
                    "SELECT score, hints, misses, won FROM week_scores WHERE end_day = ? AND language = ? AND account_id = ?", .text(end),
                    .text(score.language), .text(score.account)
                ).first.map { row in try Self.entry(row, account: score.account) }
            }) {
                switch change {
                case .count(let kind, let day, let entry, let by) where by < 0:
                    try db.execute(
                        "UPDATE board_counts SET players = players + ? WHERE kind = ? AND end_day = ? AND language = ? AND score = ? AND hints = ? AND misses = ?",
                        .integer(Int64(by)), .text(kind), .text(day), .text(score.language), .integer(Int64(entry.score)), .integer(Int64(entry.hints)),
                        .integer(Int64(entry.misses)))
                case .count(let kind, let day, let entry, let by):
                    try db.execute(
                        """
                        INSERT INTO board_counts (kind, end_day, language, score, hints, misses, players) VALUES (?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (kind, end_day, language, score, hints, misses) DO UPDATE SET players = players + excluded.players
                        """, .text(kind), .text(day), .text(score.language), .integer(Int64(entry.score)), .integer(Int64(entry.hints)),
                        .integer(Int64(entry.misses)), .integer(Int64(by)))
                case .week(let end, let entry):
                    try db.execute(
                        """
                        INSERT INTO week_scores (end_day, language, account_id, score, hints, misses, won) VALUES (?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (end_day, language, account_id) DO UPDATE SET score = excluded.score, hints = excluded.hints,
                            misses = excluded.misses, won = excluded.won
                        """, .text(end), .text(score.language), .text(score.account), .integer(Int64(entry.score)), .integer(Int64(entry.hints)),
                        .integer(Int64(entry.misses)), .integer(Int64(entry.won)))
                }
            }
        }
    }

    public func top(_ board: BoardKey, limit: Int) throws(ServiceError) -> [BoardEntry] {
        try run(writing: false) { db in
            try db.query(
                board.week
                    ? "SELECT score, hints, misses, won, account_id FROM week_scores WHERE end_day = ? AND language = ? ORDER BY score DESC, hints, misses, account_id LIMIT ?"
                    : "SELECT score, hints, misses, won, account_id FROM daily_scores WHERE day = ? AND language = ? ORDER BY score DESC, hints, misses, account_id LIMIT ?",
                .text(board.day), .text(board.language), .integer(Int64(limit))
            ).map { row in try Self.entry(row, account: try row.string(4)) }
        }
    }

    public func buckets(_ board: BoardKey) throws(ServiceError) -> [BoardBucket] {
        try run(writing: false) { db in
            try db.query(
                "SELECT score, hints, misses, players FROM board_counts WHERE kind = ? AND end_day = ? AND language = ? AND players > 0", .text(board.kind),
                .text(board.day), .text(board.language)
            ).map { row in BoardBucket(score: try row.int(0), hints: try row.int(1), misses: try row.int(2), players: try row.int(3)) }
        }
    }

    public func entry(_ board: BoardKey, account: String) throws(ServiceError) -> BoardEntry? {
        try run(writing: false) { db in
            try db.query(
                board.week
                    ? "SELECT score, hints, misses, won FROM week_scores WHERE end_day = ? AND language = ? AND account_id = ?"
                    : "SELECT score, hints, misses, won FROM daily_scores WHERE day = ? AND language = ? AND account_id = ?",
                .text(board.day), .text(board.language), .text(account)
            ).first.map { row in try Self.entry(row, account: account) }
        }
    }

    private static func entry(_ row: Row, account: String) throws -> BoardEntry {
        BoardEntry(account: account, score: try row.int(0), hints: try row.int(1), misses: try row.int(2), won: try row.int(3))
    }

    public func names(of accounts: [String]) throws(ServiceError) -> [String: String] {
        guard !accounts.isEmpty else { return [:] }
        return try run(writing: false) { db in
            var names: [String: String] = [:]
            for row in try db.query(
                sql: "SELECT account_id, name FROM display_names WHERE account_id IN (" + accounts.map { _ in "?" }.joined(separator: ", ") + ")",
                arguments: accounts.map(SQLValue.text))
            {
                names[try row.string(0)] = try row.string(1)
            }
            return names
        }
    }

    public func beginAction(_ action: AdminAction) throws(ServiceError) -> Int64 {
        try run { db in
            try db.execute(
                "INSERT INTO admin_actions (made_date, admin, action, account_id, subject, reason, outcome) VALUES (?, ?, ?, ?, ?, ?, ?)",
                .integer(action.date), .text(action.admin), .text(action.action), .text(action.account), .text(action.subject), .text(action.reason),
                .text(action.outcome))
            return try db.int64("SELECT last_insert_rowid()") ?? 0
        }
    }

    public func finishAction(_ id: Int64, outcome: String) throws(ServiceError) {
        try run { db in try db.execute("UPDATE admin_actions SET outcome = ? WHERE id = ?", .text(outcome), .integer(id)) }
    }

    public func actions(account: String?, before: Int64?, limit: Int) throws(ServiceError) -> [AdminAction] {
        try run(writing: false) { db in
            try db.query(
                """
                SELECT id, made_date, admin, action, account_id, subject, reason, outcome FROM admin_actions
                WHERE (?1 = '' OR account_id = ?1) AND id < ?2 ORDER BY id DESC LIMIT ?3
                """, .text(account ?? ""), .integer(before ?? .max), .integer(Int64(limit))
            ).map { row throws in try AdminAction(texts: row.texts) }
        }
    }

    public func lifetime(account: String) throws(ServiceError) -> (created: Int64, closed: Int64?)? {
        try run(writing: false) { db in
            try db.query("SELECT created_date, closed_date FROM accounts WHERE id = ?", .text(account)).first.map { row in
                (try row.int64(0), try row.isNull(1) ? nil : try row.int64(1))
            }
        }
    }

    public func accounts(namedFrom folded: String, limit: Int) throws(ServiceError) -> [(account: String, name: String)] {
        try run(writing: false) { db in
            try db.query(
                "SELECT account_id, name FROM display_names WHERE folded >= ? AND folded < ? ORDER BY folded LIMIT ?",
                .text(folded), .text(folded + "\u{10FFFF}"), .integer(Int64(limit))
            ).map { row in (try row.string(0), try row.string(1)) }
        }
    }

    public func setName(account: String, name: String, folded: String, skeleton: String, now: Int64) throws(ServiceError) -> Bool {
        try run { db in
            if try db.string(
                "SELECT account_id FROM display_names WHERE (folded = ? OR skeleton = ?) AND account_id <> ? LIMIT 1", .text(folded), .text(skeleton), .text(account)
            ) != nil { return false }
            try db.execute(
                """
                INSERT INTO display_names (account_id, name, folded, skeleton, changed_date) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (account_id) DO UPDATE SET name = excluded.name, folded = excluded.folded, skeleton = excluded.skeleton,
                    changed_date = excluded.changed_date
                """, .text(account), .text(name), .text(folded), .text(skeleton), .integer(now))
            return true
        }
    }

    public func fillSkeletons(_ skeleton: (String) -> String) throws(ServiceError) -> Int {
        try run { db in
            var filled = 0
            for row in try db.query("SELECT account_id, folded FROM display_names WHERE skeleton IS NULL ORDER BY changed_date, account_id") {
                try db.execute("UPDATE OR IGNORE display_names SET skeleton = ? WHERE account_id = ?", .text(skeleton(try row.string(1))), .text(try row.string(0)))
                filled += db.changes
            }
            return filled
        }
    }
}

/// A connection handed from one thread to the next through the directory's lock, used by one
/// thread at a time.
private struct UncheckedDatabase: @unchecked Sendable {
    let database: Database
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// An action an admin took on a customer, as the audit log keeps it.
public struct AdminAction: Sendable, Equatable, Codable {
    public var id: Int64 = 0
    public var date: Int64
    /// The admin token's id, or `cli:` and the operator's user name.
    public var admin: String
    /// `grant`, `extend` or `refund`.
    public var action: String
    public var account: String
    /// What was given or taken back: a product and quantity, days, a transaction.
    public var subject: String
    public var reason: String
    /// `started`, then what came of it.
    public var outcome: String

    public init(date: Int64, admin: String, action: String, account: String, subject: String, reason: String, outcome: String = "started") {
        self.date = date
        self.admin = admin
        self.action = action
        self.account = account
        self.subject = subject
        self.reason = reason
        self.outcome = outcome
    }

    init(texts row: [String?]) throws {
        guard row.count == 8, let id = row[0].flatMap(Int64.init), let date = row[1].flatMap(Int64.init), let admin = row[2], let action = row[3],
            let account = row[4], let subject = row[5], let reason = row[6], let outcome = row[7]
        else { throw ServiceError(.storage, "the accounts database holds a malformed admin action") }
        self.init(date: date, admin: admin, action: action, account: account, subject: subject, reason: reason, outcome: outcome)
        self.id = id
    }
}
