import Base64
import PackServiceWire
import PostgreSQL
import Signing
import SQLite

/// The server's accounts: an id, and the SHA-256 of the account's bearer token (the token itself
/// is shown once, at creation, and never stored). In SQLite beside the ledgers, or in the
/// PostgreSQL database that several servers share, so that a token made on one works on all.
///
/// A token is `hp1.<account id>.<secret>`: the id finds the row, then the secret's hash is
/// compared in constant time.
protocol AccountDirectory: Sendable {
    /// Records a new account with the SHA-256 of its secret; `false` when the id is taken.
    func insert(id: String, tokenSHA256: String, now: Int64) throws(StoreError) -> Bool
    /// The stored SHA-256 of the account's secret, or `nil` when there is no such account.
    func tokenSHA256(account: String) throws(StoreError) -> String?
}

extension AccountDirectory {
    /// A new account, with its token.
    func create(now: Int64) throws(StoreError) -> NewAccount {
        var random = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        let secretText = Base64.encode(secret, alphabet: .url)
        for _ in 0..<8 {
            let id = String(random.next(), radix: 16).leftPadded(to: 16)
            if try insert(id: id, tokenSHA256: SHA256.hash(Array(secretText.utf8)).hex, now: now) {
                return NewAccount(accountID: id, token: "hp1.\(id).\(secretText)")
            }
        }
        throw StoreError(.storage, "cannot find a free account id")
    }

    /// The account a bearer token belongs to, or `nil`; throws when the directory cannot be read
    /// (the database is away: 503, not a wrong token).
    func account(forToken token: String) throws(StoreError) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "hp1", parts[1].utf8.count == 16, parts[2].utf8.count <= 64 else { return nil }
        let id = String(parts[1])
        guard let stored = try tokenSHA256(account: id) else { return nil }
        let presented = SHA256.hash(Array(parts[2].utf8)).hex
        return constantTimeEqual(Array(stored.utf8), Array(presented.utf8)) ? id : nil
    }
}

/// The accounts' one table, the same in both engines' schemas but for the name of a 64-bit
/// integer type (`integer`).
private func accountsTable(integer: String) -> String {
    """
    CREATE TABLE accounts (
        id TEXT PRIMARY KEY CHECK (length(id) = 16),
        token_sha256 TEXT NOT NULL CHECK (length(token_sha256) = 64),
        created_date \(integer) NOT NULL
    );
    """
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

    static let migrations: Migrations = {
        var migrations = Migrations(set: "accounts")
        migrations.register("1-accounts", sql: accountsTable(integer: "BIGINT"))
        return migrations
    }()

    init(pool: ConnectionPool) throws(StoreError) {
        self.pool = pool
        do {
            try Self.migrations.migrate(pool)
        } catch {
            throw Self.failure(error)
        }
    }

    func insert(id: String, tokenSHA256: String, now: Int64) throws(StoreError) -> Bool {
        do {
            return try pool.withConnection { connection in
                try connection.execute(
                    "INSERT INTO accounts (id, token_sha256, created_date) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
                    [id, tokenSHA256, String(now)]
                ).affectedRows == 1
            }
        } catch {
            throw Self.failure(error)
        }
    }

    func tokenSHA256(account: String) throws(StoreError) -> String? {
        do {
            return try pool.withConnection { connection in
                try connection.execute("SELECT token_sha256 FROM accounts WHERE id = $1", [account]).scalar
            }
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

/// The accounts in a SQLite file beside the ledgers.
final class SQLiteAccountDirectory: AccountDirectory {
    private let path: String

    init(path: String) throws(StoreError) {
        self.path = path
        do {
            // Made whole and private (0600) like every state database, whatever the folder's mode.
            _ = try Database.openState(path: path, migrator: Self.migrator)
        } catch {
            throw StoreError(.storage, "cannot prepare the accounts database \(path): \(error)")
        }
    }

    private static let migrator: Migrator = {
        var migrator = Migrator()
        migrator.register("1-accounts", sql: accountsTable(integer: "INTEGER"))
        return migrator
    }()

    /// A connection per call: the server's threads never share one. The schema was made once,
    /// when the directory opened.
    private func open() throws(StoreError) -> Database {
        do {
            return try Database(path: path)
        } catch {
            throw StoreError(.storage, "cannot open the accounts database \(path): \(error)")
        }
    }

    func insert(id: String, tokenSHA256: String, now: Int64) throws(StoreError) -> Bool {
        let db = try open()
        do {
            try db.execute(
                "INSERT INTO accounts (id, token_sha256, created_date) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING",
                .text(id), .text(tokenSHA256), .integer(now))
            return db.changes == 1
        } catch {
            throw StoreError(.storage, "cannot record the new account: \(error)")
        }
    }

    func tokenSHA256(account: String) throws(StoreError) -> String? {
        let db = try open()
        do {
            return try db.string("SELECT token_sha256 FROM accounts WHERE id = ?", .text(account))
        } catch {
            throw StoreError(.storage, "cannot read the accounts database \(path): \(error)")
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
