import Base64
import PackServiceWire
import PostgreSQL
import Signing
import SQLite
import Store
import Synchronization

/// The server's accounts: an id, and the SHA-256 of the account's bearer token (the token itself
/// is shown once, at creation, and never stored). In SQLite beside the ledgers, or in the
/// PostgreSQL database that several servers share, so that a token made on one works on all.
///
/// A token is a ``BearerToken``, `hp1.<account id>.<secret>`: the id finds the row, then the secret's hash is
/// compared in constant time.
protocol AccountDirectory: DailyBoard {
    /// Records a new account and its first token (the SHA-256 of its secret); `false` when the id is taken.
    func insert(id: String, tokenSHA256: String, now: Int64) throws(StoreError) -> Bool
    /// Whether the account exists and is not closed.
    func isOpen(account: String) throws(StoreError) -> Bool
    /// The SHA-256 of every token of an open account that is not revoked.
    func liveTokens(account: String) throws(StoreError) -> [String]
    /// Adds a token (a device) to an open account.
    func addToken(account: String, tokenSHA256: String, now: Int64) throws(StoreError)
    /// Every token of the account, revoked ones included, oldest first; never a secret.
    func tokens(account: String) throws(StoreError) -> [AccountToken]
    /// Revokes the live token `tokenID` and adds one in its place, in one transaction: `false`
    /// (nothing done) when that token is no longer live (another rotation took it first).
    func replaceToken(account: String, tokenID: String, with tokenSHA256: String, now: Int64) throws(StoreError) -> Bool
    /// Revokes one live token of the account (`tokenID`), or every one (`nil`); how many.
    func revoke(account: String, tokenID: String?, now: Int64) throws(StoreError) -> Int
    /// Closes the account: every token revoked, and its receipts no longer valid (21010).
    func close(account: String, now: Int64) throws(StoreError)
    /// Records that a token was used, at most once a minute.
    func touch(tokenID: String, now: Int64) throws(StoreError)
}

/// One token of an account as the directory keeps it: an id (the first 16 hex digits of its
/// SHA-256), when it was made, last used and revoked.
struct AccountToken {
    var id: String
    var created: Int64
    var lastUsed: Int64?
    var revoked: Int64?
}

extension PresentedToken {
    /// A token's parts, read without looking it up (`nil` for anything not in the format).
    /// Whether it is live is the directory's to say (or the ledger's, in the same call).
    init?(parsing token: String) {
        guard let token = BearerToken(parsing: token) else { return nil }
        let digest = SHA256.hash(Array(token.secret.utf8)).hex
        self.init(account: token.account, tokenID: Self.tokenID(ofDigest: digest), sha256: digest)
    }

    /// A token's id: the first 16 hex digits of its secret's SHA-256 (the server keeps the digest only).
    static func tokenID(ofDigest digest: String) -> String { String(digest.prefix(16)) }
}

/// A new token's secret: 32 random bytes in base64url, and the SHA-256 the directory keeps of it.
private func newSecret() -> (secret: String, sha256: String) {
    var random = SystemRandomNumberGenerator()
    let secret = Base64.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }, alphabet: .url)
    return (secret, SHA256.hash(Array(secret.utf8)).hex)
}

extension AccountDirectory {
    /// A new account, with its token.
    func create(now: Int64) throws(StoreError) -> NewAccount {
        var random = SystemRandomNumberGenerator()
        let made = newSecret()
        for _ in 0..<8 {
            let id = String(random.next(), radix: 16).leftPadded(to: 16)
            if try insert(id: id, tokenSHA256: made.sha256, now: now) {
                return NewAccount(accountID: id, token: BearerToken(account: id, secret: made.secret).text)
            }
        }
        throw StoreError(.storage, "cannot find a free account id")
    }

    /// The account a bearer token belongs to and the token's id, or `nil` (an unknown, revoked
    /// token, or a closed account); throws when the directory cannot be read (the database is
    /// away: 503, not a wrong token).
    func account(for presented: PresentedToken) throws(StoreError) -> (account: String, tokenID: String)? {
        let digest = Array(presented.sha256.utf8)
        // Every live token compared in full, whichever matches: timing tells nothing.
        var found: String?
        for stored in try liveTokens(account: presented.account) where constantTimeEqual(Array(stored.utf8), digest) { found = stored }
        return found.map { (presented.account, PresentedToken.tokenID(ofDigest: $0)) }
    }

    /// The presented token `tokenID` replaced by a new one (a rotation), atomically: `nil` when it
    /// was no longer live, so that concurrent rotations of one token make one new token.
    func rotate(account: String, tokenID: String, now: Int64) throws(StoreError) -> (token: String, tokenID: String)? {
        let made = newSecret()
        guard try replaceToken(account: account, tokenID: tokenID, with: made.sha256, now: now) else { return nil }
        return (BearerToken(account: account, secret: made.secret).text, PresentedToken.tokenID(ofDigest: made.sha256))
    }

    /// A new token for an open account (a device joining it): the token, and its id.
    func newToken(account: String, now: Int64) throws(StoreError) -> (token: String, tokenID: String) {
        let made = newSecret()
        try addToken(account: account, tokenSHA256: made.sha256, now: now)
        return (BearerToken(account: account, secret: made.secret).text, PresentedToken.tokenID(ofDigest: made.sha256))
    }
}

/// Compares without stopping at the first difference, so timing tells nothing.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
}

/// The accounts in PostgreSQL, in the database the ledgers are in.
final class PostgreSQLAccountDirectory: AccountDirectory {
    private let pool: ConnectionPool

    static let migrations = AccountsSchema.postgreSQLMigrations

    init(pool: ConnectionPool) throws(StoreError) {
        self.pool = pool
        do {
            try Self.migrations.migrate(pool)
        } catch {
            throw Self.failure(error)
        }
    }

    func insert(id: String, tokenSHA256: String, now: Int64) throws(StoreError) -> Bool {
        try run { connection in
            guard try connection.execute(
                "INSERT INTO accounts (id, token_sha256, created_date) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING", [id, tokenSHA256, String(now)]
            ).affectedRows == 1 else { return false }
            try connection.execute(
                "INSERT INTO tokens (token_id, account_id, token_sha256, created_date) VALUES ($1, $2, $3, $4)",
                [PresentedToken.tokenID(ofDigest: tokenSHA256), id, tokenSHA256, String(now)])
            return true
        }
    }

    func isOpen(account: String) throws(StoreError) -> Bool {
        try run(writing: false) { connection in
            try connection.execute("SELECT 1 FROM accounts WHERE id = $1 AND closed_date IS NULL", [account]).rows.count == 1
        }
    }

    func liveTokens(account: String) throws(StoreError) -> [String] {
        try run(writing: false) { connection in
            try connection.execute("SELECT token_sha256 FROM live_tokens WHERE account_id = $1", [account]).rows.compactMap { $0.first ?? nil }
        }
    }

    func addToken(account: String, tokenSHA256: String, now: Int64) throws(StoreError) {
        _ = try run { connection in
            try connection.execute(
                "INSERT INTO tokens (token_id, account_id, token_sha256, created_date) VALUES ($1, $2, $3, $4)",
                [PresentedToken.tokenID(ofDigest: tokenSHA256), account, tokenSHA256, String(now)])
        }
    }

    func tokens(account: String) throws(StoreError) -> [AccountToken] {
        try run(writing: false) { connection in
            try connection.execute(
                "SELECT token_id, created_date, last_used_date, revoked_date FROM tokens WHERE account_id = $1 ORDER BY created_date, token_id", [account]
            ).rows.map { row in
                AccountToken(id: row[0] ?? "", created: row[1].flatMap(Int64.init) ?? 0, lastUsed: row[2].flatMap(Int64.init), revoked: row[3].flatMap(Int64.init))
            }
        }
    }

    func replaceToken(account: String, tokenID: String, with tokenSHA256: String, now: Int64) throws(StoreError) -> Bool {
        try run { connection in
            guard try connection.execute(
                "UPDATE tokens SET revoked_date = $3 WHERE account_id = $1 AND token_id = $2 AND revoked_date IS NULL", [account, tokenID, String(now)]
            ).affectedRows == 1 else { return false }
            try connection.execute(
                "INSERT INTO tokens (token_id, account_id, token_sha256, created_date) VALUES ($1, $2, $3, $4)",
                [PresentedToken.tokenID(ofDigest: tokenSHA256), account, tokenSHA256, String(now)])
            return true
        }
    }

    func revoke(account: String, tokenID: String?, now: Int64) throws(StoreError) -> Int {
        try run { connection in
            try connection.execute(
                "UPDATE tokens SET revoked_date = $3 WHERE account_id = $1 AND revoked_date IS NULL AND ($2::text IS NULL OR token_id = $2)",
                [account, tokenID, String(now)]
            ).affectedRows
        }
    }

    func close(account: String, now: Int64) throws(StoreError) {
        try run { connection in
            try connection.execute("UPDATE tokens SET revoked_date = $2 WHERE account_id = $1 AND revoked_date IS NULL", [account, String(now)])
            try connection.execute("UPDATE accounts SET closed_date = $2 WHERE id = $1 AND closed_date IS NULL", [account, String(now)])
        }
    }

    func touch(tokenID: String, now: Int64) throws(StoreError) {
        _ = try run { connection in
            try connection.execute(
                "UPDATE tokens SET last_used_date = $2::bigint WHERE token_id = $1 AND (last_used_date IS NULL OR last_used_date < $2::bigint - 60000)",
                [tokenID, String(now)])
        }
    }

    /// `body` in one transaction when it writes, or as single statements when it reads (one
    /// round trip: every request's token is read here); a database away is 503.
    private func run<T>(writing: Bool = true, _ body: (Connection) throws -> T) throws(StoreError) -> T {
        do {
            return writing ? try pool.transaction { connection in try body(connection) } : try pool.autocommit(body)
        } catch {
            throw Self.failure(error)
        }
    }

    private static func failure(_ error: any Error) -> StoreError {
        if let error = error as? PostgreSQLError, error.isConnectionLost {
            return StoreError(.unavailable, "the accounts database is unavailable (\(error.message)): try again")
        }
        return StoreError(.storage, "the accounts database failed: \(error)")
    }
}

/// The daily words' board in the shared database: what every server's leaderboards read.
extension PostgreSQLAccountDirectory {
    func record(_ score: DailyScore) throws(StoreError) {
        _ = try run { connection in
            try connection.execute(
                """
                INSERT INTO daily_scores (day, language, account_id, game_id, score, hints, won, finished_date)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (day, language, account_id) DO NOTHING
                """,
                [score.day, score.language, score.account, score.gameID, String(score.score), String(score.hints), score.won ? "1" : "0",
                 String(score.finished)])
        }
    }

    func scores(days: [String], language: String) throws(StoreError) -> [DailyScore] {
        try run(writing: false) { connection in
            try connection.execute(
                """
                SELECT day, language, account_id, game_id, score, hints, won, finished_date FROM daily_scores
                WHERE day = ANY(string_to_array($1, ',')) AND language = $2
                """, [days.joined(separator: ","), language]
            ).rows.compactMap(Self.dailyScore)
        }
    }

    private static func dailyScore(_ row: [String?]) -> DailyScore? {
        guard row.count == 8, let day = row[0], let language = row[1], let account = row[2], let game = row[3], let score = row[4].flatMap(Int.init),
            let hints = row[5].flatMap(Int.init), let won = row[6], let finished = row[7].flatMap(Int64.init)
        else { return nil }
        return DailyScore(day: day, language: language, account: account, gameID: game, score: score, hints: hints, won: won == "1", finished: finished)
    }

    func names(of accounts: [String]) throws(StoreError) -> [String: String] {
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

    func setName(account: String, name: String, folded: String, now: Int64) throws(StoreError) -> Bool {
        do {
            return try run { connection in
                let holder = try connection.execute("SELECT account_id FROM display_names WHERE folded = $1", [folded]).rows.first?.first ?? nil
                if let holder, holder != account { return false }
                try connection.execute(
                    """
                    INSERT INTO display_names (account_id, name, folded, changed_date) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (account_id) DO UPDATE SET name = excluded.name, folded = excluded.folded, changed_date = excluded.changed_date
                    """, [account, name, folded, String(now)])
                return true
            }
        } catch where error.message.contains("display_names_folded_key") {
            // Another account took the name between the look and the write.
            return false
        }
    }
}

/// The accounts in a SQLite file beside the ledgers.
final class SQLiteAccountDirectory: AccountDirectory {
    private let path: String
    /// Connections not in use, each with its statements compiled once: a request borrows one
    /// (every request's token is read here), so none is opened per request and no two threads
    /// share one. At most `keptConnections` wait here; more are closed when given back.
    private let idle = Mutex<[UncheckedDatabase]>([])
    private static let keptConnections = 32

    init(path: String) throws(StoreError) {
        self.path = path
        do {
            // Made whole and private (0600) like every state database, whatever the folder's mode.
            _ = try Database.openState(path: path, migrator: Self.migrator)
        } catch {
            throw StoreError(.storage, "cannot prepare the accounts database \(path): \(error)")
        }
    }

    private static let migrator = AccountsSchema.sqliteMigrator

    /// A connection of this call's own, from those kept or new. The schema was made once, when
    /// the directory opened.
    private func borrow() throws(StoreError) -> Database {
        if let kept = idle.withLock({ $0.popLast() }) { return kept.database }
        do {
            return try Database(path: path)
        } catch {
            throw StoreError(.storage, "cannot open the accounts database \(path): \(error)")
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

    func insert(id: String, tokenSHA256: String, now: Int64) throws(StoreError) -> Bool {
        try run { db in
            try db.execute(
                "INSERT INTO accounts (id, token_sha256, created_date) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING",
                .text(id), .text(tokenSHA256), .integer(now))
            guard db.changes == 1 else { return false }
            try db.execute(
                "INSERT INTO tokens (token_id, account_id, token_sha256, created_date) VALUES (?, ?, ?, ?)",
                .text(PresentedToken.tokenID(ofDigest: tokenSHA256)), .text(id), .text(tokenSHA256), .integer(now))
            return true
        }
    }

    func isOpen(account: String) throws(StoreError) -> Bool {
        try run(writing: false) { db in try db.int64("SELECT 1 FROM accounts WHERE id = ? AND closed_date IS NULL", .text(account)) != nil }
    }

    func liveTokens(account: String) throws(StoreError) -> [String] {
        try run(writing: false) { db in
            try db.query("SELECT token_sha256 FROM live_tokens WHERE account_id = ?", .text(account)).map { try $0.string(0) }
        }
    }

    func addToken(account: String, tokenSHA256: String, now: Int64) throws(StoreError) {
        try run { db in
            try db.execute(
                "INSERT INTO tokens (token_id, account_id, token_sha256, created_date) VALUES (?, ?, ?, ?)",
                .text(PresentedToken.tokenID(ofDigest: tokenSHA256)), .text(account), .text(tokenSHA256), .integer(now))
        }
    }

    func tokens(account: String) throws(StoreError) -> [AccountToken] {
        try run(writing: false) { db in
            try db.query("SELECT token_id, created_date, last_used_date, revoked_date FROM tokens WHERE account_id = ? ORDER BY created_date, token_id", .text(account))
                .map { row in AccountToken(id: try row.string(0), created: try row.int64(1), lastUsed: try row[2].int64Value, revoked: try row[3].int64Value) }
        }
    }

    func replaceToken(account: String, tokenID: String, with tokenSHA256: String, now: Int64) throws(StoreError) -> Bool {
        try run { db in
            try db.execute(
                "UPDATE tokens SET revoked_date = ? WHERE account_id = ? AND token_id = ? AND revoked_date IS NULL", .integer(now), .text(account), .text(tokenID))
            guard db.changes == 1 else { return false }
            try db.execute(
                "INSERT INTO tokens (token_id, account_id, token_sha256, created_date) VALUES (?, ?, ?, ?)",
                .text(PresentedToken.tokenID(ofDigest: tokenSHA256)), .text(account), .text(tokenSHA256), .integer(now))
            return true
        }
    }

    func revoke(account: String, tokenID: String?, now: Int64) throws(StoreError) -> Int {
        try run { db in
            try db.execute(
                "UPDATE tokens SET revoked_date = ? WHERE account_id = ? AND revoked_date IS NULL AND (? IS NULL OR token_id = ?)",
                .integer(now), .text(account), tokenID.map(SQLValue.text) ?? .null, tokenID.map(SQLValue.text) ?? .null)
            return db.changes
        }
    }

    func close(account: String, now: Int64) throws(StoreError) {
        try run { db in
            try db.execute("UPDATE tokens SET revoked_date = ? WHERE account_id = ? AND revoked_date IS NULL", .integer(now), .text(account))
            try db.execute("UPDATE accounts SET closed_date = ? WHERE id = ? AND closed_date IS NULL", .integer(now), .text(account))
        }
    }

    func touch(tokenID: String, now: Int64) throws(StoreError) {
        try run { db in
            try db.execute(
                "UPDATE tokens SET last_used_date = ? WHERE token_id = ? AND (last_used_date IS NULL OR last_used_date < ? - 60000)",
                .integer(now), .text(tokenID), .integer(now))
        }
    }

    /// `body` in one transaction on a connection of its own: a read takes no write lock (every
    /// request's token is read here), a write takes it at `BEGIN`.
    private func run<T>(writing: Bool = true, _ body: (Database) throws -> T) throws(StoreError) -> T {
        let db = try borrow()
        defer { giveBack(db) }
        do {
            return try db.transaction(writing ? .immediate : .deferred) { db in try body(db) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.storage, "the accounts database \(path) failed: \(error)")
        }
    }
}

/// The daily words' board beside the accounts: what this server's leaderboards read.
extension SQLiteAccountDirectory {
    func record(_ score: DailyScore) throws(StoreError) {
        try run { db in
            try db.execute(
                """
                INSERT INTO daily_scores (day, language, account_id, game_id, score, hints, won, finished_date)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (day, language, account_id) DO NOTHING
                """,
                .text(score.day), .text(score.language), .text(score.account), .text(score.gameID), .integer(Int64(score.score)),
                .integer(Int64(score.hints)), .integer(score.won ? 1 : 0), .integer(score.finished))
        }
    }

    func scores(days: [String], language: String) throws(StoreError) -> [DailyScore] {
        try run(writing: false) { db in
            try db.query(
                sql: "SELECT day, language, account_id, game_id, score, hints, won, finished_date FROM daily_scores WHERE language = ? AND day IN ("
                    + days.map { _ in "?" }.joined(separator: ", ") + ")",
                arguments: [.text(language)] + days.map(SQLValue.text)
            ).map { row in
                DailyScore(
                    day: try row.string(0), language: try row.string(1), account: try row.string(2), gameID: try row.string(3), score: try row.int(4),
                    hints: try row.int(5), won: try row.int(6) == 1, finished: try row.int64(7))
            }
        }
    }

    func names(of accounts: [String]) throws(StoreError) -> [String: String] {
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

    func setName(account: String, name: String, folded: String, now: Int64) throws(StoreError) -> Bool {
        try run { db in
            if let holder = try db.string("SELECT account_id FROM display_names WHERE folded = ?", .text(folded)), holder != account { return false }
            try db.execute(
                """
                INSERT INTO display_names (account_id, name, folded, changed_date) VALUES (?, ?, ?, ?)
                ON CONFLICT (account_id) DO UPDATE SET name = excluded.name, folded = excluded.folded, changed_date = excluded.changed_date
                """, .text(account), .text(name), .text(folded), .integer(now))
            return true
        }
    }
}

/// A connection handed from one thread to the next through the directory's lock, used by one
/// thread at a time.
private struct UncheckedDatabase: @unchecked Sendable {
    let database: Database
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
