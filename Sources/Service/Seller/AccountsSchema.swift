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
        migrations.register("5-ranked-boards", sql: rankedBoards(dayPlus: { day, offset in "to_char(\(day)::date + \(offset), 'YYYY-MM-DD')" }))
        migrations.register("6-name-skeletons", sql: nameSkeletons, olderProgramsMayRun: true)
        migrations.register("7-transaction-owners", sql: transactionOwners + postgreSQLClaimEarlierTransactions)
        migrations.register("8-device-names", sql: deviceNames, olderProgramsMayRun: true)
        migrations.register("9-offer-code-redemptions", sql: offerCodeRedemptions(integer: "BIGINT"), olderProgramsMayRun: true)
        migrations.register("10-friends", sql: friends(integer: "BIGINT"), olderProgramsMayRun: true)
        migrations.register("11-challenges", sql: challenges(integer: "BIGINT"), olderProgramsMayRun: true)
        // The seller's customer search: names by their first letters, in byte order (any database collation).
        migrations.register("12-customer-search", sql: #"CREATE INDEX display_names_by_folded_bytes ON display_names (folded COLLATE "C");"#, olderProgramsMayRun: true)
        migrations.register("13-admin-actions", sql: adminActions(key: "id BIGSERIAL PRIMARY KEY", integer: "BIGINT"), olderProgramsMayRun: true)
        // The players' page reads the accounts made in its days from an index.
        migrations.register("14-accounts-by-date", sql: "CREATE INDEX accounts_by_date ON accounts (created_date);", olderProgramsMayRun: true)
        return migrations
    }()

    public static let sqliteMigrator: Migrator = {
        var migrator = Migrator()
        migrator.register("1-accounts", sql: accountsTable(integer: "INTEGER"))
        migrator.register("2-tokens", sql: tokensTable(integer: "INTEGER"))
        migrator.register("3-live-tokens", sql: liveTokensView, olderProgramsMayRun: true)
        migrator.register("4-daily-scores", sql: dailyScores(integer: "INTEGER"), olderProgramsMayRun: true)
        migrator.register("5-ranked-boards", sql: rankedBoards(dayPlus: { day, offset in "date(\(day), '+' || \(offset) || ' days')" }))
        migrator.register("6-name-skeletons", sql: nameSkeletons, olderProgramsMayRun: true)
        migrator.register("7-transaction-owners", sql: transactionOwners + sqliteClaimedLedgers)
        migrator.register("8-device-names", sql: deviceNames, olderProgramsMayRun: true)
        migrator.register("9-offer-code-redemptions", sql: offerCodeRedemptions(integer: "INTEGER"), olderProgramsMayRun: true)
        migrator.register("10-friends", sql: friends(integer: "INTEGER"), olderProgramsMayRun: true)
        migrator.register("11-challenges", sql: challenges(integer: "INTEGER"), olderProgramsMayRun: true)
        // SQLite compares in byte order already: the names' unique index serves the customer search.
        migrator.register("12-customer-search", sql: "CREATE INDEX display_names_by_folded_bytes ON display_names (folded);", olderProgramsMayRun: true)
        migrator.register("13-admin-actions", sql: adminActions(key: "id INTEGER PRIMARY KEY AUTOINCREMENT", integer: "INTEGER"), olderProgramsMayRun: true)
        // The players' page reads the accounts made in its days from an index.
        migrator.register("14-accounts-by-date", sql: "CREATE INDEX accounts_by_date ON accounts (created_date);", olderProgramsMayRun: true)
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

    /// Boards read from indexes, not by summing every row: each daily score's misses; each
    /// account's sums over the seven days to each day (`week_scores`, one row per day a score
    /// counts in); and how many players stand at each score, hints and misses of each board
    /// (`board_counts`, `kind` `d` for a day, `w` for a week), from which a rank is counted. Filled
    /// from the scores already there (a week's row is derived from `daily_scores`, whose account
    /// it checks: no key of its own, so that filling a million is not a million look-ups). `dayPlus` is the engine's `YYYY-MM-DD` plus a number of days.
    static func rankedBoards(dayPlus: (_ day: String, _ offset: String) -> String) -> String {
        """
        ALTER TABLE daily_scores ADD COLUMN misses INTEGER NOT NULL DEFAULT 0 CHECK (misses >= 0);
        CREATE INDEX daily_scores_ranked ON daily_scores (day, language, score DESC, hints, misses, account_id);
        CREATE TABLE week_scores (
            end_day TEXT NOT NULL CHECK (length(end_day) = 10),
            language TEXT NOT NULL,
            account_id TEXT NOT NULL,
            score INTEGER NOT NULL CHECK (score >= 0),
            hints INTEGER NOT NULL CHECK (hints >= 0),
            misses INTEGER NOT NULL CHECK (misses >= 0),
            won INTEGER NOT NULL CHECK (won >= 0),
            PRIMARY KEY (end_day, language, account_id)
        );
        CREATE TABLE board_counts (
            kind TEXT NOT NULL CHECK (kind IN ('d', 'w')),
            end_day TEXT NOT NULL,
            language TEXT NOT NULL,
            score INTEGER NOT NULL,
            hints INTEGER NOT NULL,
            misses INTEGER NOT NULL,
            players INTEGER NOT NULL CHECK (players >= 0),
            PRIMARY KEY (kind, end_day, language, score, hints, misses)
        );
        WITH o(k) AS (VALUES (0), (1), (2), (3), (4), (5), (6))
        INSERT INTO week_scores (end_day, language, account_id, score, hints, misses, won)
            SELECT \(dayPlus("s.day", "o.k")), s.language, s.account_id, sum(s.score), sum(s.hints), sum(s.misses), sum(s.won)
            FROM daily_scores AS s CROSS JOIN o
            GROUP BY \(dayPlus("s.day", "o.k")), s.language, s.account_id;
        INSERT INTO board_counts (kind, end_day, language, score, hints, misses, players)
            SELECT 'd', day, language, score, hints, misses, count(*) FROM daily_scores GROUP BY day, language, score, hints, misses;
        INSERT INTO board_counts (kind, end_day, language, score, hints, misses, players)
            SELECT 'w', end_day, language, score, hints, misses, count(*) FROM week_scores GROUP BY end_day, language, score, hints, misses;
        CREATE INDEX week_scores_ranked ON week_scores (end_day, language, score DESC, hints, misses, account_id);
        """
    }

    /// Each display name's TR39 skeleton (of its folded form), unique: a name that looks like a
    /// taken one (Cyrillic or fullwidth letters, `rn` for `m`) is taken. Names made before are
    /// given theirs when the directory opens (``AccountDirectory/fillSkeletons(_:)``).
    static let nameSkeletons = """
        ALTER TABLE display_names ADD COLUMN skeleton TEXT;
        CREATE UNIQUE INDEX display_names_skeleton ON display_names (skeleton);
        """

    /// Which account each transaction id is in, across the service: an id is claimed here before
    /// a ledger records it, so that it is the service's once and a transaction is found from its
    /// id alone (Apple's endpoints take nothing else). An older program would record ids it never
    /// claimed: it may not run on this schema.
    static let transactionOwners = """
        CREATE TABLE transaction_owners (
            transaction_id TEXT PRIMARY KEY CHECK (length(transaction_id) = 16),
            account_id TEXT NOT NULL CHECK (length(account_id) = 16)
        );

        """

    /// The transactions recorded before ids were claimed, claimed for their accounts: the shared
    /// database holds the ledgers beside the accounts (a directory made on its own has none).
    static let postgreSQLClaimEarlierTransactions = """
        DO $$ BEGIN
            IF to_regclass('transactions') IS NOT NULL THEN
                INSERT INTO transaction_owners (transaction_id, account_id)
                    SELECT id, account_id FROM transactions WHERE length(account_id) = 16 ON CONFLICT DO NOTHING;
            END IF;
        END $$;
        """

    /// On SQLite each ledger is a file of its own: the ledgers whose earlier transactions are
    /// claimed (every account made from now on, and each older one once, when the service opens:
    /// ``SellerService``).
    static let sqliteClaimedLedgers = """
        CREATE TABLE claimed_ledgers (account_id TEXT PRIMARY KEY);
        """

    /// Each token's device, by the name it gave (``DeviceName``: at most 40 characters); tokens
    /// made before, or by a client that gives none, have none.
    static let deviceNames = """
        ALTER TABLE tokens ADD COLUMN device_name TEXT CHECK (device_name IS NULL OR length(device_name) BETWEEN 1 AND 40);
        """

    /// Which account redeemed each offer code (by the code's SHA-256: ``OfferCodes``), across the
    /// service: a code is claimed here before the account's ledger records its purchase, so that
    /// it is redeemed once whichever server and account try it.
    static func offerCodeRedemptions(integer: String) -> String {
        """
        CREATE TABLE offer_code_redemptions (
            code_sha256 TEXT PRIMARY KEY CHECK (length(code_sha256) = 64),
            account_id TEXT NOT NULL CHECK (length(account_id) = 16),
            redeemed_date \(integer) NOT NULL
        );
        """
    }

    /// Friends: invitations by the SHA-256 of their code (single use, expiring), and each
    /// friendship as two rows, one per side, written together.
    static func friends(integer: String) -> String {
        """
        CREATE TABLE friend_invites (
            code_sha256 TEXT PRIMARY KEY CHECK (length(code_sha256) = 64),
            account_id TEXT NOT NULL CHECK (length(account_id) = 16),
            expires_date \(integer) NOT NULL
        );
        CREATE INDEX friend_invites_by_account ON friend_invites (account_id);
        CREATE TABLE friendships (
            account_id TEXT NOT NULL CHECK (length(account_id) = 16),
            friend_id TEXT NOT NULL CHECK (length(friend_id) = 16 AND friend_id <> account_id),
            since_date \(integer) NOT NULL,
            PRIMARY KEY (account_id, friend_id)
        );
        """
    }

    /// Challenges between friends: the word (the server's choice, or the challenger's own), hard
    /// mode's key and starting candidates, and each side's result (JSON) once its game ended.
    /// Migration 13: every action an admin took on a customer (a grant, an extension, a
    /// refund), who took it (the admin token's id, or `cli:` and the operator's user), on whom,
    /// why, and what came of it: recorded as `started` before the action, its outcome after, so
    /// that an action cut short still shows.
    static func adminActions(key: String, integer: String) -> String {
        """
        CREATE TABLE admin_actions (
            \(key),
            made_date \(integer) NOT NULL,
            admin TEXT NOT NULL,
            action TEXT NOT NULL,
            account_id TEXT NOT NULL,
            subject TEXT NOT NULL,
            reason TEXT NOT NULL,
            outcome TEXT NOT NULL
        );
        CREATE INDEX admin_actions_by_account ON admin_actions (account_id, id);
        """
    }

    static func challenges(integer: String) -> String {
        """
        CREATE TABLE challenges (
            id TEXT PRIMARY KEY CHECK (length(id) = 32),
            challenger_id TEXT NOT NULL CHECK (length(challenger_id) = 16),
            friend_id TEXT NOT NULL CHECK (length(friend_id) = 16 AND friend_id <> challenger_id),
            product_id TEXT NOT NULL,
            pack_name TEXT NOT NULL,
            category TEXT NOT NULL,
            word TEXT NOT NULL,
            clue TEXT,
            language TEXT NOT NULL,
            lives \(integer) NOT NULL CHECK (lives > 0),
            hard TEXT,
            candidates TEXT,
            own_word \(integer) NOT NULL CHECK (own_word IN (0, 1)),
            created_date \(integer) NOT NULL,
            expires_date \(integer) NOT NULL,
            challenger_result TEXT,
            friend_result TEXT
        );
        CREATE INDEX challenges_by_challenger ON challenges (challenger_id, expires_date);
        CREATE INDEX challenges_by_friend ON challenges (friend_id, expires_date);
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

    /// Accounts made per day of days `$1...$2` (days since 1970): the day and the count.
    public static func accountsMadeQuery(placeholders p: [String]) -> String {
        """
        SELECT created_date / 86400000 AS day, count(*) FROM accounts
        WHERE created_date >= CAST(\(p[0]) AS BIGINT) * 86400000 AND created_date < (CAST(\(p[1]) AS BIGINT) + 1) * 86400000
        GROUP BY created_date / 86400000 ORDER BY day
        """
    }
}
