import PostgreSQL
import SQLite

/// The server's accounts and their bearer tokens, in either engine: the schema beside the
/// ledger's, because the ledger's one-call spend on PostgreSQL reads the view `live_tokens`
/// (migration `7-spend-checking-its-token`). One module owns every statement about what makes a
/// token live. Migration names are those the accounts' databases recorded.
public enum AccountsSchema {
    public static let postgreSQLMigrations: Migrations = {
        var migrations = Migrations(set: "accounts")
        migrations.register("1-accounts", sql: accountsTable(integer: "BIGINT"))
        migrations.register("2-tokens", sql: tokensTable(integer: "BIGINT"))
        migrations.register("3-live-tokens", sql: liveTokensView, olderProgramsMayRun: true)
        migrations.register("4-daily-scores", sql: dailyScores(integer: "BIGINT"), olderProgramsMayRun: true)
        return migrations
    }()

    public static let sqliteMigrator: Migrator = {
        var migrator = Migrator()
        migrator.register("1-accounts", sql: accountsTable(integer: "INTEGER"))
        migrator.register("2-tokens", sql: tokensTable(integer: "INTEGER"))
        migrator.register("3-live-tokens", sql: liveTokensView, olderProgramsMayRun: true)
        migrator.register("4-daily-scores", sql: dailyScores(integer: "INTEGER"), olderProgramsMayRun: true)
        return migrator
    }()

    /// Tokens per device: each account's first token moves into `tokens`, and an account can be
    /// closed. The same in both engines but for the integer type.
    static func tokensTable(integer: String) -> String {
        """
        CREATE TABLE tokens (
            token_id TEXT PRIMARY KEY CHECK (length(token_id) = 16),
            account_id TEXT NOT NULL REFERENCES accounts(id),
            token_sha256 TEXT NOT NULL CHECK (length(token_sha256) = 64),
            created_date \(integer) NOT NULL,
            last_used_date \(integer),
            revoked_date \(integer)
        );
        CREATE INDEX tokens_by_account ON tokens(account_id);
        INSERT INTO tokens (token_id, account_id, token_sha256, created_date)
            SELECT substr(token_sha256, 1, 16), id, token_sha256, created_date FROM accounts;
        ALTER TABLE accounts ADD COLUMN closed_date \(integer);
        """
    }

    /// What makes a token live, the rule's one statement in each engine's schema: not revoked, and
    /// its account not closed. Every lookup of a presented token reads this view (the directory's,
    /// and on PostgreSQL the spend that checks its token in the same call).
    static let liveTokensView = """
        CREATE VIEW live_tokens AS
            SELECT t.token_id, t.account_id, t.token_sha256 FROM tokens AS t JOIN accounts AS a ON a.id = t.account_id
            WHERE t.revoked_date IS NULL AND a.closed_date IS NULL;
        """

    /// What leaderboards read across accounts: each account's ended daily word (a copy of its
    /// ledger's game, written again until it is there: the same row each time), and the names
    /// players appear under, unique folded.
    static func dailyScores(integer: String) -> String {
        """
        CREATE TABLE daily_scores (
            day TEXT NOT NULL CHECK (length(day) = 10),
            language TEXT NOT NULL,
            account_id TEXT NOT NULL REFERENCES accounts(id),
            game_id TEXT NOT NULL CHECK (length(game_id) = 32),
            score INTEGER NOT NULL CHECK (score >= 0),
            hints INTEGER NOT NULL CHECK (hints >= 0),
            won INTEGER NOT NULL CHECK (won IN (0, 1)),
            finished_date \(integer) NOT NULL,
            PRIMARY KEY (day, language, account_id)
        );
        CREATE TABLE display_names (
            account_id TEXT PRIMARY KEY REFERENCES accounts(id),
            name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 24),
            folded TEXT NOT NULL UNIQUE,
            changed_date \(integer) NOT NULL
        );
        """
    }

    /// The accounts' one table, the same in both engines' schemas but for the name of a 64-bit
    /// integer type (`integer`).
    static func accountsTable(integer: String) -> String {
        """
        CREATE TABLE accounts (
            id TEXT PRIMARY KEY CHECK (length(id) = 16),
            token_sha256 TEXT NOT NULL CHECK (length(token_sha256) = 64),
            created_date \(integer) NOT NULL
        );
        """
    }
}
