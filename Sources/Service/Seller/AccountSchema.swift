import PackServiceAPI
import SQLite

/// The account's database: transactions, entitlements, the hint ledger and the test controls.
///
/// It lives apart from the device's state, so that deleting the device ("deleting the app")
/// keeps purchases and the hint balance. Migrations are named and ordered; never edit one that
/// has shipped, add the next.
enum AccountSchema {
    static let migrator: Migrator = {
        var migrator = Migrator()
        migrator.register("1-account", sql: """
            CREATE TABLE transactions (
                id TEXT PRIMARY KEY CHECK (length(id) = 16),
                product_id TEXT NOT NULL,
                consumable INTEGER NOT NULL CHECK (consumable IN (0, 1)),
                quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10),
                state TEXT NOT NULL CHECK (state IN ('purchasing', 'purchased', 'failed', 'deferred', 'interrupted', 'delivered', 'finished')),
                failure_reason TEXT,
                hints_credited INTEGER NOT NULL DEFAULT 0 CHECK (hints_credited >= 0),
                purchase_date INTEGER NOT NULL,
                updated_date INTEGER NOT NULL,
                revocation_date INTEGER
            );
            -- A pack can be bought once: one live (not failed, not refunded) purchase per non-consumable,
            -- even when two processes buy at the same moment.
            CREATE UNIQUE INDEX one_live_purchase_per_pack ON transactions(product_id)
                WHERE consumable = 0 AND state <> 'failed' AND revocation_date IS NULL;
            CREATE INDEX transactions_unfinished ON transactions(state) WHERE state IN ('purchasing', 'purchased', 'delivered');

            CREATE TABLE entitlements (
                product_id TEXT PRIMARY KEY,
                transaction_id TEXT NOT NULL REFERENCES transactions(id),
                granted_date INTEGER NOT NULL,
                revoked_date INTEGER
            );

            -- Append-only: a row is never changed; the balance is the last row's balance_after,
            -- which can never be negative.
            CREATE TABLE hint_ledger (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                entry_key TEXT NOT NULL UNIQUE,
                amount INTEGER NOT NULL CHECK (amount <> 0),
                reason TEXT NOT NULL CHECK (reason IN ('purchase', 'spend', 'refund')),
                transaction_id TEXT REFERENCES transactions(id),
                balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
                created_date INTEGER NOT NULL
            );
            CREATE TRIGGER hint_ledger_append_only BEFORE UPDATE ON hint_ledger
            BEGIN
                SELECT RAISE(ABORT, 'the hint ledger is append-only');
            END;

            CREATE TABLE controls (
                name TEXT PRIMARY KEY CHECK (name IN ('fail-purchases', 'ask-to-buy', 'interrupt-purchases')),
                enabled INTEGER NOT NULL CHECK (enabled IN (0, 1))
            );
            """)
        // What a consumable purchase owes is fixed when it is made: a later catalog change
        // (a product retired, a HintCount changed) never alters what was paid for.
        migrator.register("2-hints-owed", sql: """
            ALTER TABLE transactions ADD COLUMN hints_owed INTEGER NOT NULL DEFAULT 0 CHECK (hints_owed >= 0);
            """)
        migrator.register("3-purchase-request-keys", sql: """
            -- The client's idempotency key for a purchase: a retry with the same key finds this
            -- transaction instead of charging again.
            ALTER TABLE transactions ADD COLUMN request_key TEXT CHECK (request_key IS NULL OR length(request_key) BETWEEN 1 AND 200);
            CREATE UNIQUE INDEX transactions_by_request_key ON transactions(request_key) WHERE request_key IS NOT NULL;
            """)
        migrator.register("4-subscriptions", sql: """
            -- A subscription's transactions: the first one's id (its own for the first), the end of
            -- the period or access it paid for, the period's number (auto-renewable: 0 the first),
            -- and a free trial's offer.
            ALTER TABLE transactions ADD COLUMN original_transaction_id TEXT;
            ALTER TABLE transactions ADD COLUMN expires_date INTEGER;
            ALTER TABLE transactions ADD COLUMN period INTEGER CHECK (period IS NULL OR period >= 0);
            ALTER TABLE transactions ADD COLUMN offer TEXT CHECK (offer IS NULL OR offer = 'free-trial');
            -- An upgraded period's refund for its unused part, in cents of the catalog's currency.
            ALTER TABLE transactions ADD COLUMN refund_cents INTEGER CHECK (refund_cents IS NULL OR refund_cents >= 0);
            -- Each period of a subscription is charged once, however many processes see it due.
            CREATE UNIQUE INDEX one_transaction_per_period ON transactions(original_transaction_id, period) WHERE period IS NOT NULL;
            -- One live purchase per pack or feature; a subscription is bought again (renewals, a
            -- pass extended), so its rows are not held to it.
            DROP INDEX one_live_purchase_per_pack;
            CREATE UNIQUE INDEX one_live_purchase_per_pack ON transactions(product_id)
                WHERE consumable = 0 AND original_transaction_id IS NULL AND state <> 'failed' AND revocation_date IS NULL;

            -- One row per auto-renewable subscription: where it stands now.
            CREATE TABLE subscriptions (
                original_transaction_id TEXT PRIMARY KEY REFERENCES transactions(id),
                group_name TEXT NOT NULL,
                product_id TEXT NOT NULL,
                period INTEGER NOT NULL CHECK (period >= 0),
                in_trial INTEGER NOT NULL CHECK (in_trial IN (0, 1)),
                period_start INTEGER NOT NULL,
                expires_date INTEGER NOT NULL,
                will_auto_renew INTEGER NOT NULL CHECK (will_auto_renew IN (0, 1)),
                renews_to TEXT,
                billing_retry_since INTEGER,
                end_date INTEGER,
                end_reason TEXT CHECK (end_reason IS NULL OR end_reason IN ('expired', 'upgraded', 'billing', 'refunded')),
                updated_date INTEGER NOT NULL,
                CHECK ((end_date IS NULL) = (end_reason IS NULL))
            );
            -- At most one live subscription per group.
            CREATE UNIQUE INDEX one_live_subscription_per_group ON subscriptions(group_name) WHERE end_date IS NULL;

            -- The store's clock runs this far ahead of the real one (test controls move it).
            CREATE TABLE store_clock (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                offset_ms INTEGER NOT NULL CHECK (offset_ms >= 0)
            );

            -- 'fail-renewals' joins the switches (SQLite cannot change a CHECK: the table is remade).
            CREATE TABLE controls_4 (
                name TEXT PRIMARY KEY CHECK (name IN ('fail-purchases', 'ask-to-buy', 'interrupt-purchases', 'fail-renewals')),
                enabled INTEGER NOT NULL CHECK (enabled IN (0, 1))
            );
            INSERT INTO controls_4 (name, enabled) SELECT name, enabled FROM controls;
            DROP TABLE controls;
            ALTER TABLE controls_4 RENAME TO controls;
            """)
        migrator.register("5-storefronts", sql: """
            -- What each purchase charged: the amount in minor units of its currency (cents; yen
            -- have none), the currency, and the storefront it was bought in. NULL on rows made
            -- before storefronts (priced then in the catalog's one currency). 'refund_cents' is
            -- in the minor units of the row's currency from now on.
            ALTER TABLE transactions ADD COLUMN price_minor INTEGER CHECK (price_minor IS NULL OR price_minor >= 0);
            ALTER TABLE transactions ADD COLUMN currency TEXT CHECK (currency IS NULL OR length(currency) = 3);
            ALTER TABLE transactions ADD COLUMN storefront TEXT CHECK (storefront IS NULL OR length(storefront) = 3);
            -- The account's storefront: chosen when the account is made, changed for future purchases.
            CREATE TABLE account_storefront (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                storefront TEXT NOT NULL CHECK (length(storefront) = 3)
            );
            """)
        migrator.register("6-spend-in-one-call", sql: """
            -- PostgreSQL's spend in one call (ledger_spend_hint). An SQLite ledger is in this
            -- process: AccountLedger.spend runs the same rule over statements prepared once per
            -- account store, in one transaction, so nothing changes here; the name keeps both
            -- engines' migrations the same list.
            SELECT 1;
            """, olderProgramsMayRun: true)
        migrator.register("7-spend-checking-its-token", sql: """
            -- PostgreSQL's spend that checks the request's token in the same call. A server on
            -- SQLite ledgers looks the token up in its accounts file first (no round trip to
            -- save), so nothing changes here; the name keeps both engines' migrations the same list.
            SELECT 1;
            """, olderProgramsMayRun: true)
        migrator.register("8-writes-in-one-call", sql: """
            -- PostgreSQL's purchase writes in one call each. An SQLite ledger is in this process
            -- (no round trips): AccountLedger runs the same rules over its statements; the name
            -- keeps both engines' migrations the same list.
            SELECT 1;
            """, olderProgramsMayRun: true)
        migrator.register("9-storefront-moves", sql: """
            -- When the account's storefront last moved (store time, milliseconds): moves are
            -- spaced by the catalog's StorefrontMoveDays. NULL: never moved since it was chosen.
            ALTER TABLE account_storefront ADD COLUMN moved_date INTEGER;
            -- 1: the server made the account past its address block's free trials for the day.
            ALTER TABLE account_storefront ADD COLUMN trials_withheld INTEGER CHECK (trials_withheld IS NULL OR trials_withheld = 1);
            """, olderProgramsMayRun: true)
        migrator.register("10-served-games", sql: """
            -- Games the service plays with the account: the word stays here. One live game at a
            -- time (a partial unique index); a game's moves are appended, never changed, and
            -- replayed to answer the next one.
            CREATE TABLE games (
                id TEXT PRIMARY KEY CHECK (length(id) = 32),
                product_id TEXT NOT NULL,
                pack_name TEXT NOT NULL,
                category TEXT NOT NULL,
                word TEXT NOT NULL CHECK (length(word) BETWEEN 1 AND 200),
                clue TEXT,
                language TEXT NOT NULL,
                lives INTEGER NOT NULL CHECK (lives BETWEEN 1 AND 26),
                state TEXT NOT NULL CHECK (state IN ('playing', 'won', 'lost', 'abandoned')),
                score INTEGER NOT NULL DEFAULT 0 CHECK (score >= 0),
                started_date INTEGER NOT NULL,
                ended_date INTEGER,
                CHECK ((state = 'playing') = (ended_date IS NULL))
            );
            CREATE UNIQUE INDEX one_live_game ON games(state) WHERE state = 'playing';
            CREATE TABLE game_moves (
                game_id TEXT NOT NULL REFERENCES games(id),
                seq INTEGER NOT NULL CHECK (seq >= 1),
                kind TEXT NOT NULL CHECK (kind IN ('guess', 'hint')),
                value TEXT NOT NULL,
                -- A hint's Idempotency-Key: the same key again answers the same letter.
                request_key TEXT,
                created_date INTEGER NOT NULL,
                PRIMARY KEY (game_id, seq),
                UNIQUE (game_id, request_key)
            );
            CREATE TRIGGER game_moves_append_only BEFORE UPDATE ON game_moves
                BEGIN SELECT RAISE(ABORT, 'game moves are append-only'); END;
            """)
        migrator.register("11-daily-words", sql: dailyWordColumns + """
            CREATE UNIQUE INDEX one_live_game ON games(state) WHERE state = 'playing' AND daily IS NULL;
            CREATE UNIQUE INDEX one_daily_game ON games(daily, language) WHERE daily IS NOT NULL;
            """)
        migrator.register("12-notifications", sql: NotificationSchema.tables(account: "", integer: "INTEGER"), olderProgramsMayRun: true)
        migrator.register("13-notification-payloads", sql: NotificationSchema.payloads, olderProgramsMayRun: true)
        // PostgreSQL's ledger is keyed by (account_id, seq) from here; an account's own file is
        // keyed by seq already. Recorded, so that both engines name the same migrations.
        migrator.register("14-hint-ledger-keyed-by-account", sql: "", olderProgramsMayRun: true)
        migrator.register("15-game-totals", sql: gameTotals(account: "", integer: "INTEGER"), olderProgramsMayRun: true)
        migrator.register("16-renewal-extensions", sql: renewalExtensions(account: "", integer: "INTEGER"), olderProgramsMayRun: true)
        migrator.register("17-app-account-tokens", sql: appAccountTokens(account: ""), olderProgramsMayRun: true)
        migrator.register("18-app-transaction", sql: appTransaction(account: "", integer: "INTEGER"), olderProgramsMayRun: true)
        migrator.register("19-refund-cases", sql: refundCases(account: "", integer: "INTEGER"), olderProgramsMayRun: true)
        migrator.register("20-signed-offers", sql: signedOffers(account: "", integer: "INTEGER"), olderProgramsMayRun: true)
        migrator.register("21-mass-extensions", sql: massExtensions(account: "", integer: "INTEGER"), olderProgramsMayRun: true)
        migrator.register("22-price-agreements", sql: priceAgreements(account: "", integer: "INTEGER"), olderProgramsMayRun: true)
        migrator.register("23-notification-order", sql: NotificationSchema.sqliteOrder, olderProgramsMayRun: true)
        migrator.register("24-archive-games", sql: archiveGames)
        migrator.register("25-hard-games", sql: hardGames)
        migrator.register("26-challenge-games", sql: challengeGames + """
            CREATE UNIQUE INDEX one_live_game ON games(state) WHERE state = 'playing' AND daily IS NULL AND challenge IS NULL;
            CREATE UNIQUE INDEX one_challenge_game ON games(challenge) WHERE challenge IS NOT NULL;
            """)
        migrator.register("27-streak-freezes", sql: streakFreezes(account: "", integer: "INTEGER"))
        migrator.register("28-hard-daily-words", sql: """
            DROP INDEX one_daily_game;
            CREATE UNIQUE INDEX one_daily_game ON games(daily, language, (hard IS NULL)) WHERE daily IS NOT NULL;
            """)
        migrator.register("29-sales-days", sql: SalesAggregates.schema(.sqlite), olderProgramsMayRun: true)
        // The seller's customer search by an app account token.
        migrator.register("30-app-account-token-search", sql: "CREATE INDEX app_account_tokens_by_token ON app_account_tokens (app_account_token);", olderProgramsMayRun: true)
        migrator.register("31-grants", sql: grants(account: "", integer: "INTEGER"), olderProgramsMayRun: true)
        // The seller's delivery log: the notifications not delivered, newest first, from an index.
        migrator.register("32-undelivered-notifications", sql: "CREATE INDEX notifications_undelivered ON notifications (created_date) WHERE delivered_date IS NULL;", olderProgramsMayRun: true)
        // The service's own events for the seller's feed, written by triggers with each change.
        migrator.register("33-events", sql: EventFeed.schema(postgreSQL: false), olderProgramsMayRun: true)
        // Customers by the month they first paid in (CohortAggregates), kept by triggers as the numbers above.
        migrator.register("34-cohorts", sql: CohortAggregates.schema(.sqlite), olderProgramsMayRun: true)
        // The players' numbers per day (PlayerAggregates), kept by triggers on the games served, the hint ledger and the grants.
        migrator.register("35-player-days", sql: PlayerAggregates.schema(.sqlite), olderProgramsMayRun: true)
        return migrator
    }()

    /// Migration 15, the same in both engines' ledgers but for the account column (`account`:
    /// empty in an account's own file) and the integer type: an account's games summed as they
    /// end (`game_totals`: `all` its served games, `daily` its daily words per language, each the
    /// record's JSON), so that statistics never replay the games and ended games can be let go;
    /// the games served per day (`served_days`, filled from the games there), which the seller's
    /// numbers read; and the ended games by when they ended, the oldest of which are let go.
    /// Migration 16: each renewal-date extension of a subscription, so that Apple's limits hold
    /// (two per subscription in 365 days). The same in both engines but for the account column.
    static func renewalExtensions(account: String, integer: String) -> String {
        let column = account.isEmpty ? "" : "account_id TEXT NOT NULL REFERENCES ledgers(account_id),\n"
        let key = account.isEmpty ? "" : "account_id, "
        return """
            CREATE TABLE renewal_extensions (
                \(column)original_transaction_id TEXT NOT NULL,
                extended_date \(integer) NOT NULL,
                days INTEGER NOT NULL CHECK (days BETWEEN 1 AND 90)
            );
            CREATE INDEX renewal_extensions_by_subscription ON renewal_extensions (\(key)original_transaction_id, extended_date);
            """
    }

    /// Migration 17: each purchase's app account token (StoreKit's purchase option, or the one a
    /// developer's server set), by its original transaction, so a subscription's renewals carry
    /// it. The same in both engines but for the account column.
    static func appAccountTokens(account: String) -> String {
        let column = account.isEmpty ? "" : "account_id TEXT NOT NULL REFERENCES ledgers(account_id),\n"
        let key = account.isEmpty ? "" : "account_id, "
        return """
            CREATE TABLE app_account_tokens (
                \(column)original_transaction_id TEXT NOT NULL,
                app_account_token TEXT NOT NULL CHECK (length(app_account_token) = 36),
                PRIMARY KEY (\(key)original_transaction_id)
            );
            """
    }

    /// Migration 18: the account's app transaction (``AppTransactionRecord``), one row: made when
    /// first asked for, its id claimed as a transaction's is.
    static func appTransaction(account: String, integer: String) -> String {
        let key = account.isEmpty ? "only INTEGER PRIMARY KEY CHECK (only = 1)" : "account_id TEXT PRIMARY KEY REFERENCES ledgers(account_id)"
        return """
            CREATE TABLE app_transaction (
                \(key),
                app_transaction_id TEXT NOT NULL CHECK (length(app_transaction_id) = 16),
                original_purchase_date \(integer) NOT NULL
            );
            """
    }

    /// Migration 19: each purchase's refund, from the customer's request to the App Store's
    /// decision and a reversal (``RefundCase``); one row per purchase. A refund made without a
    /// request (the store's test control) has no reason; the consumption the developer's server
    /// reported is kept as the decision saw it.
    static func refundCases(account: String, integer: String) -> String {
        let column = account.isEmpty ? "" : "account_id TEXT NOT NULL REFERENCES ledgers(account_id),\n"
        let key = account.isEmpty ? "" : "account_id, "
        let reasons = RefundReason.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        return """
            CREATE TABLE refund_cases (
                \(column)transaction_id TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('requested', 'granted', 'declined', 'reversed')),
                reason TEXT CHECK (reason IS NULL OR reason IN (\(reasons))),
                requested_date \(integer),
                decided_date \(integer),
                reversed_date \(integer),
                consumption TEXT,
                PRIMARY KEY (\(key)transaction_id),
                CHECK ((state = 'requested') = (decided_date IS NULL)),
                CHECK ((state = 'reversed') = (reversed_date IS NOT NULL))
            );
            """
    }

    /// Migration 20: the offer each purchase was made with (the developer's server's word on an
    /// introductory offer, a promotional or a win-back offer), written in the purchase's own
    /// transaction and keyed by its nonce (a signature's, used once), read back by the transaction.
    static func signedOffers(account: String, integer: String) -> String {
        let column = account.isEmpty ? "" : "account_id TEXT NOT NULL REFERENCES ledgers(account_id),\n"
        let key = account.isEmpty ? "" : "account_id, "
        return """
            CREATE TABLE signed_offers (
                \(column)nonce TEXT NOT NULL CHECK (length(nonce) = 36),
                transaction_id TEXT NOT NULL,
                audience TEXT NOT NULL,
                allow_introductory_offer INTEGER CHECK (allow_introductory_offer IN (0, 1)),
                offer_identifier TEXT,
                -- The offer's terms as the purchase was charged for them (a later catalog may drop it).
                offer_kind TEXT CHECK (offer_kind IS NULL OR offer_kind IN ('FREE_TRIAL', 'PAY_AS_YOU_GO', 'PAY_UP_FRONT')),
                offer_periods INTEGER CHECK (offer_periods IS NULL OR offer_periods BETWEEN 1 AND 12),
                used_date \(integer) NOT NULL,
                PRIMARY KEY (\(key)nonce)
            );
            CREATE INDEX signed_offers_by_transaction ON signed_offers (\(key)transaction_id);
            -- The promotional offer a transaction was charged under: the subscription's first,
            -- and each renewal the offer covers.
            CREATE TABLE transaction_offers (
                \(column)transaction_id TEXT NOT NULL,
                offer_identifier TEXT NOT NULL,
                PRIMARY KEY (\(key)transaction_id)
            );
            """
    }

    /// Migration 24: a past day's daily word played from the archive, marked so: it is on no
    /// board and in no streak. An older program would count it in both: it may not run beside.
    static let archiveGames = "ALTER TABLE games ADD COLUMN archive INTEGER NOT NULL DEFAULT 0 CHECK (archive IN (0, 1));"

    /// Migration 27: the account's streak freezes, an append-only ledger as hints are: bought
    /// (a purchase's credit, once per transaction), spent covering a missed day of a language's
    /// daily streak (once per day and language), taken back by a refund. Each row carries the
    /// balance after it, so that the balance is the newest row's, whatever the history.
    /// Migration 31: what the seller gave a customer (``AccountService/grant(_:quantity:reason:by:requestKey:)``):
    /// the transaction at no charge, why, and who gave it (an admin token's id, or the operator's
    /// command line). Written before the transaction is completed; a grant cut short is finished
    /// by its retry with the same key.
    static func grants(account: String, integer: String) -> String {
        let column = account.isEmpty ? "" : "account_id TEXT NOT NULL REFERENCES ledgers(account_id),\n"
        let key = account.isEmpty ? "" : "account_id, "
        return """
            CREATE TABLE grants (
                \(column)transaction_id TEXT NOT NULL,
                reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
                granted_by TEXT NOT NULL CHECK (length(granted_by) BETWEEN 1 AND 100),
                granted_date \(integer) NOT NULL,
                PRIMARY KEY (\(key)transaction_id)
            );
            """
    }

    static func streakFreezes(account: String, integer: String) -> String {
        let column = account.isEmpty ? "" : "account_id TEXT NOT NULL REFERENCES ledgers(account_id),\n"
        let key = account.isEmpty ? "" : "account_id, "
        return """
            CREATE TABLE streak_freezes (
                \(column)seq \(integer) NOT NULL CHECK (seq > 0),
                key TEXT NOT NULL,
                amount \(integer) NOT NULL CHECK (amount <> 0),
                reason TEXT NOT NULL CHECK (reason IN ('purchase', 'cover', 'refund')),
                transaction_id TEXT,
                language TEXT,
                covered_day TEXT CHECK (covered_day IS NULL OR length(covered_day) = 10),
                balance_after \(integer) NOT NULL CHECK (balance_after >= 0),
                created_date \(integer) NOT NULL,
                PRIMARY KEY (\(key)seq),
                UNIQUE (\(key)key)
            );
            CREATE INDEX streak_freezes_covers ON streak_freezes (\(key)language, covered_day) WHERE covered_day IS NOT NULL;
            """
    }

    /// Migration 26's column, the same in both engines' ledgers: a challenge's game is a game of
    /// its own beside the live one and the daily word, once per challenge. Each engine then makes
    /// its own indexes.
    static let challengeGames = """
        ALTER TABLE games ADD COLUMN challenge TEXT CHECK (challenge IS NULL OR length(challenge) = 32);
        DROP INDEX one_live_game;

        """

    /// Migration 25, the same in both engines: a hard game's key (16 hex digits; `NULL` for a
    /// normal game) and its words still consistent with every answer (JSON).
    static let hardGames = """
        ALTER TABLE games ADD COLUMN hard TEXT;
        ALTER TABLE games ADD COLUMN candidates TEXT;
        """

    /// Migration 22: the price each auto-renewable subscriber agreed to for the plan it renews to
    /// (the catalog's when it started, or a higher one consented to), and a higher price the
    /// subscriber was told of (Apple's `PRICE_INCREASE`): a renewal charges more only with consent.
    static func priceAgreements(account: String, integer: String) -> String {
        let column = account.isEmpty ? "" : "account_id TEXT NOT NULL REFERENCES ledgers(account_id),\n"
        let key = account.isEmpty ? "" : "account_id, "
        return """
            CREATE TABLE price_agreements (
                \(column)original_transaction_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                currency TEXT NOT NULL,
                agreed_minor \(integer) NOT NULL CHECK (agreed_minor >= 0),
                told_minor \(integer),
                told_date \(integer),
                consented_date \(integer),
                -- The subscription ended for want of consent (its row says 'expired').
                ended_date \(integer),
                PRIMARY KEY (\(key)original_transaction_id)
            );
            """
    }

    /// Migration 21: Apple's Extend Subscription Renewal Dates for All Active Subscribers. The
    /// service's own ledger keeps each request and how far it went (the last account it reached,
    /// what succeeded and failed, a server's hold on it); an account's ledger records each
    /// extension with the request's identifier, so that a request run again extends no one twice
    /// (and such extensions count toward no subscription's limit of two a year).
    static func massExtensions(account: String, integer: String) -> String {
        let column = account.isEmpty ? "" : "account_id TEXT NOT NULL REFERENCES ledgers(account_id),\n"
        let key = account.isEmpty ? "" : "account_id, "
        return """
            ALTER TABLE renewal_extensions ADD COLUMN request_identifier TEXT;
            -- A mass extension's outcome for the subscription: 'extended', or 'failed' (its date unmoved).
            ALTER TABLE renewal_extensions ADD COLUMN outcome TEXT CHECK (outcome IS NULL OR outcome IN ('extended', 'failed'));
            CREATE UNIQUE INDEX renewal_extensions_by_request ON renewal_extensions (\(key)original_transaction_id, request_identifier)
                WHERE request_identifier IS NOT NULL;
            CREATE TABLE mass_extensions (
                \(column)request_identifier TEXT NOT NULL CHECK (length(request_identifier) BETWEEN 1 AND 128),
                product_id TEXT NOT NULL,
                days INTEGER NOT NULL CHECK (days BETWEEN 1 AND 90),
                reason INTEGER NOT NULL,
                storefronts TEXT,
                requested_date \(integer) NOT NULL,
                last_account TEXT,
                succeeded INTEGER NOT NULL DEFAULT 0 CHECK (succeeded >= 0),
                failed INTEGER NOT NULL DEFAULT 0 CHECK (failed >= 0),
                lease_until \(integer),
                complete_date \(integer),
                PRIMARY KEY (\(key)request_identifier)
            );
            """
    }

    static func gameTotals(account: String, integer: String) -> String {
        let column = account.isEmpty ? "" : "account_id TEXT NOT NULL REFERENCES ledgers(account_id),\n"
        let key = account.isEmpty ? "" : "account_id, "
        return """
            CREATE TABLE game_totals (
                \(column)kind TEXT NOT NULL CHECK (kind IN ('all', 'daily')),
                language TEXT NOT NULL,
                record TEXT NOT NULL,
                PRIMARY KEY (\(key)kind, language)
            );
            CREATE TABLE served_days (
                \(column)day \(integer) NOT NULL,
                games INTEGER NOT NULL CHECK (games >= 0),
                daily_games INTEGER NOT NULL CHECK (daily_games >= 0),
                PRIMARY KEY (\(key)day)
            );
            INSERT INTO served_days (\(key)day, games, daily_games)
                SELECT \(key)started_date / 86400000, count(*), sum(CASE WHEN daily IS NULL THEN 0 ELSE 1 END) FROM games
                GROUP BY \(key)started_date / 86400000;
            CREATE INDEX games_ended ON games (\(key)ended_date, id) WHERE daily IS NULL AND state <> 'playing';
            """
    }

    /// Migration 11's columns, the same in both engines' ledgers: the daily word is a game of its
    /// own beside the live one, once per day and language; a game's misses and hints are kept
    /// when it ends, for the account's statistics. Each engine then makes its own indexes.
    static let dailyWordColumns = """
        ALTER TABLE games ADD COLUMN daily TEXT CHECK (daily IS NULL OR length(daily) = 10);
        ALTER TABLE games ADD COLUMN misses INTEGER CHECK (misses >= 0);
        ALTER TABLE games ADD COLUMN hints INTEGER CHECK (hints >= 0);
        DROP INDEX one_live_game;

        """
}
