import PostgreSQL

/// The ledger's tables in PostgreSQL: the SQLite account schema's migrations, by the same names,
/// in PostgreSQL's dialect, with an `account_id` in every key because one database holds every
/// account. The same rules live in SQL: the balance never below zero (CHECK), the hint ledger
/// append-only (a trigger), one live purchase per pack per account (a partial unique index),
/// idempotency keys unique per account. Never edit a migration that has shipped; add the next.
enum PostgreSQLLedgerSchema {
    static let migrations: Migrations = {
        var migrations = Migrations(set: "ledger")
        migrations.register("1-account", sql: """
            -- One row per account: writes of an account lock it (SELECT ... FOR UPDATE), so they
            -- take turns across every server, as SQLite's BEGIN IMMEDIATE does for one file.
            CREATE TABLE ledgers (
                account_id TEXT PRIMARY KEY CHECK (length(account_id) BETWEEN 1 AND 64),
                created_date BIGINT NOT NULL
            );
            CREATE TABLE transactions (
                account_id TEXT NOT NULL REFERENCES ledgers(account_id),
                id TEXT NOT NULL CHECK (length(id) = 16),
                product_id TEXT NOT NULL,
                consumable INTEGER NOT NULL CHECK (consumable IN (0, 1)),
                quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10),
                state TEXT NOT NULL CHECK (state IN ('purchasing', 'purchased', 'failed', 'deferred', 'interrupted', 'delivered', 'finished')),
                failure_reason TEXT,
                hints_credited INTEGER NOT NULL DEFAULT 0 CHECK (hints_credited >= 0),
                purchase_date BIGINT NOT NULL,
                updated_date BIGINT NOT NULL,
                revocation_date BIGINT,
                seq BIGSERIAL NOT NULL,
                PRIMARY KEY (account_id, id)
            );
            -- A pack can be bought once: one live (not failed, not refunded) purchase per non-consumable.
            CREATE UNIQUE INDEX one_live_purchase_per_pack ON transactions(account_id, product_id)
                WHERE consumable = 0 AND state <> 'failed' AND revocation_date IS NULL;
            CREATE INDEX transactions_unfinished ON transactions(account_id, state) WHERE state IN ('purchasing', 'purchased', 'delivered');

            CREATE TABLE entitlements (
                account_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                granted_date BIGINT NOT NULL,
                revoked_date BIGINT,
                PRIMARY KEY (account_id, product_id),
                FOREIGN KEY (account_id, transaction_id) REFERENCES transactions(account_id, id)
            );

            -- Append-only: a row is never changed; the balance is the account's last row's
            -- balance_after, which can never be negative.
            CREATE TABLE hint_ledger (
                seq BIGSERIAL PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES ledgers(account_id),
                entry_key TEXT NOT NULL,
                amount INTEGER NOT NULL CHECK (amount <> 0),
                reason TEXT NOT NULL CHECK (reason IN ('purchase', 'spend', 'refund')),
                transaction_id TEXT,
                balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
                created_date BIGINT NOT NULL,
                UNIQUE (account_id, entry_key),
                FOREIGN KEY (account_id, transaction_id) REFERENCES transactions(account_id, id)
            );
            CREATE INDEX hint_ledger_latest ON hint_ledger(account_id, seq);
            CREATE FUNCTION hint_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'the hint ledger is append-only';
            END
            $$;
            CREATE TRIGGER hint_ledger_append_only BEFORE UPDATE ON hint_ledger
                FOR EACH ROW EXECUTE FUNCTION hint_ledger_append_only();

            CREATE TABLE controls (
                account_id TEXT NOT NULL REFERENCES ledgers(account_id),
                name TEXT NOT NULL CHECK (name IN ('fail-purchases', 'ask-to-buy', 'interrupt-purchases')),
                enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
                PRIMARY KEY (account_id, name)
            );
            """)
        migrations.register("2-hints-owed", sql: """
            ALTER TABLE transactions ADD COLUMN hints_owed INTEGER NOT NULL DEFAULT 0 CHECK (hints_owed >= 0);
            """)
        migrations.register("3-purchase-request-keys", sql: """
            ALTER TABLE transactions ADD COLUMN request_key TEXT CHECK (request_key IS NULL OR length(request_key) BETWEEN 1 AND 200);
            CREATE UNIQUE INDEX transactions_by_request_key ON transactions(account_id, request_key) WHERE request_key IS NOT NULL;
            """)
        migrations.register("4-subscriptions", sql: """
            ALTER TABLE transactions ADD COLUMN original_transaction_id TEXT;
            ALTER TABLE transactions ADD COLUMN expires_date BIGINT;
            ALTER TABLE transactions ADD COLUMN period INTEGER CHECK (period IS NULL OR period >= 0);
            ALTER TABLE transactions ADD COLUMN offer TEXT CHECK (offer IS NULL OR offer = 'free-trial');
            ALTER TABLE transactions ADD COLUMN refund_cents BIGINT CHECK (refund_cents IS NULL OR refund_cents >= 0);
            CREATE UNIQUE INDEX one_transaction_per_period ON transactions(account_id, original_transaction_id, period) WHERE period IS NOT NULL;
            DROP INDEX one_live_purchase_per_pack;
            CREATE UNIQUE INDEX one_live_purchase_per_pack ON transactions(account_id, product_id)
                WHERE consumable = 0 AND original_transaction_id IS NULL AND state <> 'failed' AND revocation_date IS NULL;

            CREATE TABLE subscriptions (
                account_id TEXT NOT NULL,
                original_transaction_id TEXT NOT NULL,
                group_name TEXT NOT NULL,
                product_id TEXT NOT NULL,
                period INTEGER NOT NULL CHECK (period >= 0),
                in_trial INTEGER NOT NULL CHECK (in_trial IN (0, 1)),
                period_start BIGINT NOT NULL,
                expires_date BIGINT NOT NULL,
                will_auto_renew INTEGER NOT NULL CHECK (will_auto_renew IN (0, 1)),
                renews_to TEXT,
                billing_retry_since BIGINT,
                end_date BIGINT,
                end_reason TEXT CHECK (end_reason IS NULL OR end_reason IN ('expired', 'upgraded', 'billing', 'refunded')),
                updated_date BIGINT NOT NULL,
                CHECK ((end_date IS NULL) = (end_reason IS NULL)),
                PRIMARY KEY (account_id, original_transaction_id),
                FOREIGN KEY (account_id, original_transaction_id) REFERENCES transactions(account_id, id)
            );
            CREATE UNIQUE INDEX one_live_subscription_per_group ON subscriptions(account_id, group_name) WHERE end_date IS NULL;

            CREATE TABLE store_clock (
                account_id TEXT PRIMARY KEY REFERENCES ledgers(account_id),
                offset_ms BIGINT NOT NULL CHECK (offset_ms >= 0)
            );

            ALTER TABLE controls DROP CONSTRAINT controls_name_check;
            ALTER TABLE controls ADD CONSTRAINT controls_name_check
                CHECK (name IN ('fail-purchases', 'ask-to-buy', 'interrupt-purchases', 'fail-renewals'));
            """)
        migrations.register("5-storefronts", sql: """
            ALTER TABLE transactions ADD COLUMN price_minor BIGINT CHECK (price_minor IS NULL OR price_minor >= 0);
            ALTER TABLE transactions ADD COLUMN currency TEXT CHECK (currency IS NULL OR length(currency) = 3);
            ALTER TABLE transactions ADD COLUMN storefront TEXT CHECK (storefront IS NULL OR length(storefront) = 3);
            -- NULL until chosen: an account made before storefronts is in USA.
            ALTER TABLE ledgers ADD COLUMN storefront TEXT CHECK (storefront IS NULL OR length(storefront) = 3);
            """)
        migrations.register("6-spend-in-one-call", sql: """
            -- AccountLedger.spend's rule in one call, so that a spend is one round trip: the
            -- account's row locked first (as every write), then, each statement with its own
            -- snapshot taken after the lock is granted (READ COMMITTED), the balance read once,
            -- one row appended unless the key was spent before (the unique key), and, with no
            -- hint left, whether the key was spent before. The schema's rules still hold under it
            -- (balance_after >= 0, append-only, unique keys). 'has_ledger' is false for an account
            -- without a ledger. Servers of the migration before keep working: nothing else changed.
            CREATE FUNCTION ledger_spend_hint(p_account TEXT, p_entry_key TEXT, p_now BIGINT,
                OUT has_ledger BOOLEAN, OUT spent BOOLEAN, OUT already_spent BOOLEAN, OUT balance INTEGER)
            LANGUAGE plpgsql AS $$
            DECLARE
                current INTEGER;
            BEGIN
                has_ledger := false; spent := false; already_spent := false; balance := 0;
                PERFORM 1 FROM ledgers WHERE account_id = p_account FOR UPDATE;
                IF NOT FOUND THEN RETURN; END IF;
                has_ledger := true;
                SELECT balance_after INTO current FROM hint_ledger WHERE account_id = p_account ORDER BY seq DESC LIMIT 1;
                balance := coalesce(current, 0);
                IF balance >= 1 THEN
                    INSERT INTO hint_ledger (account_id, entry_key, amount, reason, transaction_id, balance_after, created_date)
                    VALUES (p_account, p_entry_key, -1, 'spend', NULL, balance - 1, p_now)
                    ON CONFLICT (account_id, entry_key) DO NOTHING;
                    IF FOUND THEN
                        spent := true;
                        balance := balance - 1;
                    ELSE
                        already_spent := true;
                    END IF;
                    RETURN;
                END IF;
                already_spent := EXISTS (SELECT 1 FROM hint_ledger WHERE account_id = p_account AND entry_key = p_entry_key);
            END
            $$;
            """, olderProgramsMayRun: true)
        migrations.register("7-spend-checking-its-token", sql: """
            -- A spend that checks the request's token in the same call: one round trip for a
            -- request that would otherwise look its token up first. The token must be live (the
            -- accounts' view 'live_tokens', the rule's one statement) and the account's own, or
            -- nothing is read or written: token_live is false. Then the spend above, unchanged.
            -- The function of the migration before stays for servers that do not check here.
            CREATE FUNCTION ledger_spend_hint(p_account TEXT, p_entry_key TEXT, p_now BIGINT, p_token_id TEXT, p_token_sha256 TEXT,
                OUT token_live BOOLEAN, OUT has_ledger BOOLEAN, OUT spent BOOLEAN, OUT already_spent BOOLEAN, OUT balance INTEGER)
            LANGUAGE plpgsql AS $$
            BEGIN
                has_ledger := false; spent := false; already_spent := false; balance := 0;
                token_live := EXISTS (SELECT 1 FROM live_tokens
                    WHERE token_id = p_token_id AND account_id = p_account AND token_sha256 = p_token_sha256);
                IF NOT token_live THEN RETURN; END IF;
                SELECT s.has_ledger, s.spent, s.already_spent, s.balance INTO has_ledger, spent, already_spent, balance
                    FROM ledger_spend_hint(p_account, p_entry_key, p_now) AS s;
            END
            $$;
            """, olderProgramsMayRun: true)
        migrations.register("8-writes-in-one-call", sql: """
            -- AccountLedger's writes of a purchase in one call each (a round trip instead of BEGIN,
            -- the lock, the reads and writes, COMMIT): the same statements in the same order as
            -- the ledger runs them over its statements, the account's row locked first. A
            -- subscription's period is delivered and refunded by the ledger itself ('subscription':
            -- nothing was done here). has_ledger is false for an account without a ledger.

            -- AccountLedger.move: a transaction from one of p_from to p_to.
            CREATE FUNCTION ledger_move(p_account TEXT, p_id TEXT, p_from TEXT[], p_to TEXT, p_reason TEXT, p_now BIGINT,
                OUT has_ledger BOOLEAN, OUT moved BOOLEAN)
            LANGUAGE plpgsql AS $$
            BEGIN
                moved := false;
                PERFORM 1 FROM ledgers WHERE account_id = p_account FOR UPDATE;
                has_ledger := FOUND;
                IF NOT has_ledger THEN RETURN; END IF;
                UPDATE transactions SET state = p_to, failure_reason = coalesce(p_reason, failure_reason), updated_date = p_now
                    WHERE account_id = p_account AND id = p_id AND state = ANY (p_from);
                moved := FOUND;
            END
            $$;

            -- AccountLedger.insertPurchasing, for a product that is not a subscription:
            -- 'inserted', 'id-taken', or 'duplicate' (the request key made another transaction,
            -- or the pack has a live purchase).
            CREATE FUNCTION ledger_insert_purchasing(p_account TEXT, p_id TEXT, p_product TEXT, p_consumable INTEGER, p_quantity INTEGER,
                p_hints_owed INTEGER, p_request_key TEXT, p_price_minor BIGINT, p_currency TEXT, p_storefront TEXT, p_now BIGINT,
                OUT has_ledger BOOLEAN, OUT outcome TEXT)
            LANGUAGE plpgsql AS $$
            BEGIN
                outcome := '';
                PERFORM 1 FROM ledgers WHERE account_id = p_account FOR UPDATE;
                has_ledger := FOUND;
                IF NOT has_ledger THEN RETURN; END IF;
                BEGIN
                    INSERT INTO transactions (account_id, id, product_id, consumable, quantity, state, purchase_date, updated_date, hints_owed,
                        request_key, price_minor, currency, storefront)
                    VALUES (p_account, p_id, p_product, p_consumable, p_quantity, 'purchasing', p_now, p_now, p_hints_owed, p_request_key,
                        p_price_minor, p_currency, p_storefront)
                    ON CONFLICT (account_id, id) DO NOTHING;
                    outcome := CASE WHEN FOUND THEN 'inserted' ELSE 'id-taken' END;
                EXCEPTION WHEN unique_violation THEN
                    outcome := 'duplicate';
                END;
            END
            $$;

            -- AccountLedger.deliver, for a transaction that is not a subscription's period:
            -- 'delivered', 'not-waiting' (not in 'purchased'), or 'subscription'.
            CREATE FUNCTION ledger_deliver(p_account TEXT, p_id TEXT, p_legacy_hints INTEGER, p_now BIGINT,
                OUT has_ledger BOOLEAN, OUT outcome TEXT)
            LANGUAGE plpgsql AS $$
            DECLARE
                t RECORD;
                hints INTEGER;
                current INTEGER;
            BEGIN
                outcome := '';
                PERFORM 1 FROM ledgers WHERE account_id = p_account FOR UPDATE;
                has_ledger := FOUND;
                IF NOT has_ledger THEN RETURN; END IF;
                SELECT state, consumable, product_id, original_transaction_id, coalesce(hints_owed, 0) AS owed INTO t
                    FROM transactions WHERE account_id = p_account AND id = p_id;
                IF NOT FOUND OR t.state <> 'purchased' THEN outcome := 'not-waiting'; RETURN; END IF;
                IF t.original_transaction_id IS NOT NULL THEN outcome := 'subscription'; RETURN; END IF;
                IF t.consumable = 1 THEN
                    hints := CASE WHEN t.owed > 0 THEN t.owed ELSE p_legacy_hints END;
                    IF hints > 0 THEN
                        SELECT balance_after INTO current FROM hint_ledger WHERE account_id = p_account ORDER BY seq DESC LIMIT 1;
                        INSERT INTO hint_ledger (account_id, entry_key, amount, reason, transaction_id, balance_after, created_date)
                        VALUES (p_account, 'credit:' || p_id, hints, 'purchase', p_id, coalesce(current, 0) + hints, p_now)
                        ON CONFLICT (account_id, entry_key) DO NOTHING;
                    END IF;
                    UPDATE transactions SET hints_credited = hints WHERE account_id = p_account AND id = p_id;
                ELSE
                    INSERT INTO entitlements (account_id, product_id, transaction_id, granted_date) VALUES (p_account, t.product_id, p_id, p_now)
                    ON CONFLICT (account_id, product_id) DO UPDATE
                        SET transaction_id = excluded.transaction_id, granted_date = excluded.granted_date, revoked_date = NULL;
                END IF;
                UPDATE transactions SET state = 'delivered', updated_date = p_now WHERE account_id = p_account AND id = p_id AND state = 'purchased';
                outcome := 'delivered';
            END
            $$;

            -- AccountLedger.refund, for a transaction that is not a subscription's period:
            -- 'refunded' with the hints taken back, 'unknown', 'already-refunded', 'wrong-state'
            -- (with the state), or 'subscription'.
            CREATE FUNCTION ledger_refund(p_account TEXT, p_id TEXT, p_now BIGINT,
                OUT has_ledger BOOLEAN, OUT outcome TEXT, OUT state TEXT, OUT taken_back INTEGER)
            LANGUAGE plpgsql AS $$
            DECLARE
                t RECORD;
                current INTEGER;
            BEGIN
                outcome := ''; taken_back := 0;
                PERFORM 1 FROM ledgers WHERE account_id = p_account FOR UPDATE;
                has_ledger := FOUND;
                IF NOT has_ledger THEN RETURN; END IF;
                SELECT x.state, x.consumable, x.product_id, x.original_transaction_id, x.revocation_date, x.hints_credited INTO t
                    FROM transactions AS x WHERE x.account_id = p_account AND x.id = p_id;
                IF NOT FOUND THEN outcome := 'unknown'; RETURN; END IF;
                IF t.revocation_date IS NOT NULL THEN outcome := 'already-refunded'; RETURN; END IF;
                IF t.state NOT IN ('delivered', 'finished') THEN outcome := 'wrong-state'; state := t.state; RETURN; END IF;
                IF t.original_transaction_id IS NOT NULL THEN outcome := 'subscription'; RETURN; END IF;
                UPDATE transactions SET revocation_date = p_now, updated_date = p_now WHERE account_id = p_account AND id = p_id;
                IF t.consumable = 1 THEN
                    SELECT balance_after INTO current FROM hint_ledger WHERE account_id = p_account ORDER BY seq DESC LIMIT 1;
                    current := coalesce(current, 0);
                    taken_back := least(current, t.hints_credited);
                    IF taken_back > 0 THEN
                        INSERT INTO hint_ledger (account_id, entry_key, amount, reason, transaction_id, balance_after, created_date)
                        VALUES (p_account, 'refund:' || p_id, -taken_back, 'refund', p_id, current - taken_back, p_now)
                        ON CONFLICT (account_id, entry_key) DO NOTHING;
                    END IF;
                ELSE
                    UPDATE entitlements SET revoked_date = p_now WHERE account_id = p_account AND product_id = t.product_id AND transaction_id = p_id;
                END IF;
                outcome := 'refunded';
            END
            $$;
            """, olderProgramsMayRun: true)
        migrations.register("9-storefront-moves", sql: """
            -- When the account's storefront last moved (store time, milliseconds): moves are
            -- spaced by the catalog's StorefrontMoveDays. NULL: never moved since it was chosen.
            ALTER TABLE ledgers ADD COLUMN storefront_moved_date BIGINT;
            -- true: the server made the account past its address block's free trials for the day.
            ALTER TABLE ledgers ADD COLUMN free_trials_withheld BOOLEAN NOT NULL DEFAULT false;
            """, olderProgramsMayRun: true)
        migrations.register("10-served-games", sql: """
            -- Games the service plays with the account: the word stays here. One live game per
            -- account (a partial unique index); a game's moves are appended, never changed, and
            -- replayed to answer the next one, under the account's row lock.
            CREATE TABLE games (
                account_id TEXT NOT NULL REFERENCES ledgers(account_id),
                id TEXT NOT NULL CHECK (length(id) = 32),
                product_id TEXT NOT NULL,
                pack_name TEXT NOT NULL,
                category TEXT NOT NULL,
                word TEXT NOT NULL CHECK (length(word) BETWEEN 1 AND 200),
                clue TEXT,
                language TEXT NOT NULL,
                lives INTEGER NOT NULL CHECK (lives BETWEEN 1 AND 26),
                state TEXT NOT NULL CHECK (state IN ('playing', 'won', 'lost', 'abandoned')),
                score INTEGER NOT NULL DEFAULT 0 CHECK (score >= 0),
                started_date BIGINT NOT NULL,
                ended_date BIGINT,
                CHECK ((state = 'playing') = (ended_date IS NULL)),
                PRIMARY KEY (account_id, id)
            );
            CREATE UNIQUE INDEX one_live_game ON games(account_id) WHERE state = 'playing';
            CREATE TABLE game_moves (
                account_id TEXT NOT NULL,
                game_id TEXT NOT NULL,
                seq INTEGER NOT NULL CHECK (seq >= 1),
                kind TEXT NOT NULL CHECK (kind IN ('guess', 'hint')),
                value TEXT NOT NULL,
                -- A hint's Idempotency-Key: the same key again answers the same letter.
                request_key TEXT,
                created_date BIGINT NOT NULL,
                PRIMARY KEY (account_id, game_id, seq),
                UNIQUE (account_id, game_id, request_key),
                FOREIGN KEY (account_id, game_id) REFERENCES games(account_id, id)
            );
            CREATE FUNCTION game_moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'game moves are append-only';
            END $$;
            CREATE TRIGGER game_moves_append_only BEFORE UPDATE ON game_moves
                FOR EACH ROW EXECUTE FUNCTION game_moves_append_only();
            """)
        migrations.register("11-daily-words", sql: AccountSchema.dailyWordColumns + """
            CREATE UNIQUE INDEX one_live_game ON games(account_id) WHERE state = 'playing' AND daily IS NULL;
            CREATE UNIQUE INDEX one_daily_game ON games(account_id, daily, language) WHERE daily IS NOT NULL;
            """)
        migrations.register("12-notifications", sql: NotificationSchema.tables(account: "account_id", integer: "BIGINT"), olderProgramsMayRun: true)
        migrations.register("13-notification-payloads", sql: NotificationSchema.payloads, olderProgramsMayRun: true)
        // An account's balance is its last row's: read by the newest row of (account_id, seq).
        // With seq alone as the primary key, PostgreSQL's cached plan walked that key backwards
        // and filtered by account (it expects an account's rows spread evenly), so an account
        // that had written nothing while others wrote 200,000 rows waited 25 ms for its balance,
        // under the account's lock. Keyed by (account_id, seq), there is no other way to read it.
        migrations.register("14-hint-ledger-keyed-by-account", sql: """
            ALTER TABLE hint_ledger DROP CONSTRAINT hint_ledger_pkey;
            DROP INDEX hint_ledger_latest;
            ALTER TABLE hint_ledger ADD PRIMARY KEY (account_id, seq);
            """, olderProgramsMayRun: true)
        migrations.register("15-game-totals", sql: AccountSchema.gameTotals(account: "account_id", integer: "BIGINT"), olderProgramsMayRun: true)
        migrations.register("16-renewal-extensions", sql: AccountSchema.renewalExtensions(account: "account_id", integer: "BIGINT"), olderProgramsMayRun: true)
        migrations.register("17-app-account-tokens", sql: AccountSchema.appAccountTokens(account: "account_id"), olderProgramsMayRun: true)
        migrations.register("18-app-transaction", sql: AccountSchema.appTransaction(account: "account_id", integer: "BIGINT"), olderProgramsMayRun: true)
        migrations.register("19-refund-cases", sql: AccountSchema.refundCases(account: "account_id", integer: "BIGINT"), olderProgramsMayRun: true)
        migrations.register("20-signed-offers", sql: AccountSchema.signedOffers(account: "account_id", integer: "BIGINT"), olderProgramsMayRun: true)
        migrations.register("21-mass-extensions", sql: AccountSchema.massExtensions(account: "account_id", integer: "BIGINT"), olderProgramsMayRun: true)
        migrations.register("22-price-agreements", sql: AccountSchema.priceAgreements(account: "account_id", integer: "BIGINT"), olderProgramsMayRun: true)
        migrations.register("23-notification-order", sql: NotificationSchema.postgreSQLOrder, olderProgramsMayRun: true)
        migrations.register("24-archive-games", sql: AccountSchema.archiveGames)
        migrations.register("25-hard-games", sql: AccountSchema.hardGames)
        migrations.register("26-challenge-games", sql: AccountSchema.challengeGames + """
            CREATE UNIQUE INDEX one_live_game ON games(account_id) WHERE state = 'playing' AND daily IS NULL AND challenge IS NULL;
            CREATE UNIQUE INDEX one_challenge_game ON games(account_id, challenge) WHERE challenge IS NOT NULL;
            """)
        migrations.register("27-streak-freezes", sql: AccountSchema.streakFreezes(account: "account_id", integer: "BIGINT"))
        // A daily word in hard mode is a game of its own beside the day's word, once a day and language.
        migrations.register("28-hard-daily-words", sql: """
            DROP INDEX one_daily_game;
            CREATE UNIQUE INDEX one_daily_game ON games(account_id, daily, language, (hard IS NULL)) WHERE daily IS NOT NULL;
            """)
        // The seller's numbers kept with the ledger (SalesAggregates); an older server's writes keep them too.
        migrations.register("29-sales-days", sql: SalesAggregates.schema(.postgreSQL), olderProgramsMayRun: true)
        // The seller's customer search by an app account token.
        migrations.register("30-app-account-token-search", sql: "CREATE INDEX app_account_tokens_by_token ON app_account_tokens (app_account_token);", olderProgramsMayRun: true)
        migrations.register("31-grants", sql: AccountSchema.grants(account: "account_id", integer: "BIGINT"), olderProgramsMayRun: true)
        // The seller's delivery log: the notifications not delivered, newest first, from an index.
        migrations.register("32-undelivered-notifications", sql: "CREATE INDEX notifications_undelivered ON notifications (created_date) WHERE delivered_date IS NULL;", olderProgramsMayRun: true)
        // The service's own events for the seller's feed, written by triggers with each change.
        migrations.register("33-events", sql: EventFeed.schema(postgreSQL: true), olderProgramsMayRun: true)
        // Customers by the month they first paid in (CohortAggregates), kept by triggers as the numbers above.
        migrations.register("34-cohorts", sql: CohortAggregates.schema(.postgreSQL), olderProgramsMayRun: true)
        // The players' numbers per day (PlayerAggregates), kept by triggers on the games served, the hint ledger and the grants.
        migrations.register("35-player-days", sql: PlayerAggregates.schema(.postgreSQL), olderProgramsMayRun: true)
        return migrations
    }()
}
