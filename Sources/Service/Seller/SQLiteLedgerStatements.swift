import SQLite
import WordPacks

/// The account's records in a SQLite file of their own: the ledger's statements in SQLite's
/// dialect. Its one connection is the transaction, so the engine hands the rules itself; every
/// write is one `BEGIN IMMEDIATE` transaction, so that a process killed at any moment leaves
/// either the state before or the state after.
final class SQLiteLedgerStatements: LedgerEngine, LedgerStatements {
    let db: Database

    init(path: String) throws(ServiceError) {
        do {
            db = try Database.openState(path: path, migrator: AccountSchema.migrator)
        } catch {
            throw Self.failure(error, path: path, opening: true)
        }
    }

    func write<T>(_ body: (any LedgerStatements) throws -> T) throws(ServiceError) -> T {
        try run(.immediate, body)
    }

    func read<T>(_ body: (any LedgerStatements) throws -> T) throws(ServiceError) -> T {
        try run(.deferred, body)
    }

    /// Runs `body` in one transaction of `kind`, mapping SQLite's errors to `ServiceError`.
    private func run<T>(_ kind: TransactionKind, _ body: (any LedgerStatements) throws -> T) throws(ServiceError) -> T {
        do {
            return try db.transaction(kind) { _ in try body(self) }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw Self.failure(error, path: db.path, opening: false)
        }
    }

    /// What a failure of the account database means: a damaged file is named, kept, and what to
    /// do is said; it is never replaced by an empty account.
    static func failure(_ error: any Error, path: String, opening: Bool) -> ServiceError {
        ServiceError(.storage, SQLiteError.sentence(
            for: error, "the account database", at: path, opening: opening,
            whenDamaged: "It holds the account's purchases and hints: restore it from a backup (with its -wal file, or made by sqlite3's "
                + ".backup). Moving it away starts a new, empty account (a log it leaves behind is set aside as -wal.orphaned-...)"))
    }

    // MARK: - Transactions

    private static let columns =
        "id, product_id, consumable, quantity, state, failure_reason, hints_credited, purchase_date, updated_date, revocation_date, original_transaction_id, expires_date, offer, refund_cents, price_minor, currency, storefront, "
        + "(SELECT app_account_token FROM app_account_tokens AS a WHERE a.original_transaction_id = coalesce(transactions.original_transaction_id, transactions.id)), "
        + "(SELECT offer_identifier FROM transaction_offers AS o WHERE o.transaction_id = transactions.id), "
        + "(SELECT offer_identifier FROM signed_offers AS s WHERE s.transaction_id = coalesce(transactions.original_transaction_id, transactions.id) AND s.audience = 'offer-code')"

    private static func transaction(_ row: Row) throws -> StoreTransaction {
        guard let id = TransactionID(rawValue: try row.string(0)), let product = ProductID(rawValue: try row.string(1)),
            let state = TransactionState(rawValue: try row.string(4))
        else { throw ServiceError(.storage, "the account database holds a malformed transaction row") }
        var original: TransactionID?
        if let text = try row[10].stringValue {
            guard let parsed = TransactionID(rawValue: text) else { throw ServiceError(.storage, "the account database holds a malformed transaction row") }
            original = parsed
        }
        return StoreTransaction(
            id: id, productID: product, isConsumable: try row.bool(2), quantity: try row.int(3), state: state,
            failureReason: try row[5].stringValue, purchaseDate: try row.int64(7), updatedDate: try row.int64(8),
            revocationDate: try row[9].int64Value, hintsCredited: try row.int(6), originalTransactionID: original,
            expiresDate: try row[11].int64Value, isTrial: try row[12].stringValue == "free-trial",
            refundAmount: try row[13].int64Value.map { Money(minorUnits: $0, currency: try row[15].stringValue ?? Catalog.defaultCurrency).decimal },
            price: try row[14].int64Value.flatMap { amount in try row[15].stringValue.map { Money(minorUnits: amount, currency: $0) } },
            storefront: try row[16].stringValue, appAccountToken: try row[17].stringValue, promotionalOffer: try row[18].stringValue,
            offerCode: try row[19].stringValue)
    }

    func transaction(_ id: TransactionID) throws -> StoreTransaction? {
        try db.query("SELECT \(Self.columns) FROM transactions WHERE id = ?", .text(id.rawValue)).first.map(Self.transaction)
    }

    func transaction(requestKey: String) throws -> StoreTransaction? {
        try db.query("SELECT \(Self.columns) FROM transactions WHERE request_key = ?", .text(requestKey)).first.map(Self.transaction)
    }

    func activity() throws -> [PlayerActivity] {
        let games = try db.query("SELECT day, games - daily_games, daily_games FROM served_days").flatMap { row throws in
            let date = try row.int64(0) * 86_400_000
            return [PlayerActivity(account: "", date: date, kind: .game, count: try row.int(1)),
                    PlayerActivity(account: "", date: date, kind: .dailyGame, count: try row.int(2))].filter { $0.count > 0 }
        }
        // A grant's hints were given, not sold.
        let hints = try db.query(
            "SELECT created_date, reason, amount FROM hint_ledger AS h WHERE reason IN ('purchase', 'spend') AND NOT \(PlayerAggregates.granted("h", .sqlite))"
        ).map { row throws in
            let amount = try row.int(2)
            return PlayerActivity(account: "", date: try row.int64(0), kind: amount > 0 ? .hintsCredited : .hintsSpent, count: abs(amount))
        }
        return games + hints
    }

    func transactions() throws -> [StoreTransaction] {
        try db.query("SELECT \(Self.columns) FROM transactions ORDER BY purchase_date, rowid").map(Self.transaction)
    }

    func unfinished() throws -> [StoreTransaction] {
        try db.query("SELECT \(Self.columns) FROM transactions WHERE state IN ('purchasing', 'purchased', 'delivered') ORDER BY rowid")
            .map(Self.transaction)
    }

    func insertPurchasing(
        _ id: TransactionID, product: ProductID, isConsumable: Bool, quantity: Int, hintsOwed: Int, requestKey: String?,
        subscription: SubscriptionFields?, charge: Charge, now: Int64
    ) throws -> TransactionInsert {
        do {
            try db.execute(
                sql: """
                    INSERT INTO transactions (id, product_id, consumable, quantity, state, purchase_date, updated_date, hints_owed, request_key,
                        original_transaction_id, period, expires_date, offer, price_minor, currency, storefront)
                    VALUES (?, ?, ?, ?, 'purchasing', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING
                    """,
                arguments: [
                    .text(id.rawValue), .text(product.rawValue), .integer(isConsumable ? 1 : 0), .integer(Int64(quantity)),
                    .integer(now), .integer(now), .integer(Int64(hintsOwed)), requestKey.map(SQLValue.text) ?? .null,
                ] + Self.subscriptionValues(subscription) + Self.chargeValues(charge))
            return db.changes == 1 ? .inserted : .idTaken
        } catch {
            guard error.code == .constraintUnique else { throw error }
            return .duplicate
        }
    }

    private static func subscriptionValues(_ fields: SubscriptionFields?) -> [SQLValue] {
        guard let fields else { return [.null, .null, .null, .null] }
        return [
            .text(fields.originalTransactionID.rawValue), fields.period.map { .integer(Int64($0)) } ?? .null, .integer(fields.expiresDate),
            fields.isTrial ? .text("free-trial") : .null,
        ]
    }

    private static func chargeValues(_ charge: Charge) -> [SQLValue] {
        [.integer(charge.amount.minorUnits), .text(charge.amount.currency), .text(charge.storefront)]
    }

    func insertRenewal(
        _ id: TransactionID, product: ProductID, fields: SubscriptionFields, start: Int64, hintsOwed: Int, charge: Charge, now: Int64
    ) throws -> Bool {
        try db.execute(
            sql: """
                INSERT INTO transactions (id, product_id, consumable, quantity, state, purchase_date, updated_date, hints_owed, request_key,
                    original_transaction_id, period, expires_date, offer, price_minor, currency, storefront)
                VALUES (?, ?, 0, 1, 'purchased', ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """,
            arguments: [.text(id.rawValue), .text(product.rawValue), .integer(start), .integer(now), .integer(Int64(hintsOwed))]
                + Self.subscriptionValues(fields) + Self.chargeValues(charge))
        return db.changes == 1
    }

    func transaction(original: TransactionID, period: Int) throws -> StoreTransaction? {
        try db.query("SELECT \(Self.columns) FROM transactions WHERE original_transaction_id = ? AND period = ?", .text(original.rawValue), .integer(Int64(period)))
            .first.map(Self.transaction)
    }

    func setUpgradeRefund(_ cents: Int64, for id: TransactionID, now: Int64) throws {
        try db.execute(
            "UPDATE transactions SET refund_cents = ?, revocation_date = ?, updated_date = ? WHERE id = ?",
            .integer(cents), .integer(now), .integer(now), .text(id.rawValue))
    }

    func setSubscriptionDates(_ id: TransactionID, purchaseDate: Int64, expiresDate: Int64, isTrial: Bool) throws {
        try db.execute(
            "UPDATE transactions SET purchase_date = ?, expires_date = ?, offer = ?, price_minor = CASE WHEN ? THEN 0 ELSE price_minor END WHERE id = ?",
            .integer(purchaseDate), .integer(expiresDate), isTrial ? .text("free-trial") : .null, .integer(isTrial ? 1 : 0), .text(id.rawValue))
    }

    func subscriptions() throws -> [SubscriptionRow] {
        try db.query(
            """
            SELECT original_transaction_id, group_name, product_id, period, in_trial, expires_date, will_auto_renew, renews_to,
                billing_retry_since, end_date, end_reason, period_start
            FROM subscriptions ORDER BY rowid
            """
        ).map { row in
            guard let original = TransactionID(rawValue: try row.string(0)), let product = ProductID(rawValue: try row.string(2)) else {
                throw ServiceError(.storage, "the account database holds a malformed subscription row")
            }
            return SubscriptionRow(
                originalTransactionID: original, group: try row.string(1), productID: product, period: try row.int(3), inTrial: try row.bool(4),
                periodStart: try row.int64(11), expiresDate: try row.int64(5), willAutoRenew: try row.bool(6), renewsTo: try row[7].stringValue.flatMap(ProductID.init(rawValue:)),
                billingRetrySince: try row[8].int64Value, endDate: try row[9].int64Value, endReason: try row[10].stringValue)
        }
    }

    func saveSubscription(_ row: SubscriptionRow, now: Int64) throws {
        try db.execute(
            sql: """
                INSERT INTO subscriptions (original_transaction_id, group_name, product_id, period, in_trial, expires_date, will_auto_renew,
                    renews_to, billing_retry_since, end_date, end_reason, updated_date, period_start)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(original_transaction_id) DO UPDATE SET product_id = excluded.product_id, period = excluded.period,
                    in_trial = excluded.in_trial, period_start = excluded.period_start, expires_date = excluded.expires_date, will_auto_renew = excluded.will_auto_renew,
                    renews_to = excluded.renews_to, billing_retry_since = excluded.billing_retry_since, end_date = excluded.end_date,
                    end_reason = excluded.end_reason, updated_date = excluded.updated_date
                """,
            arguments: [
                .text(row.originalTransactionID.rawValue), .text(row.group), .text(row.productID.rawValue), .integer(Int64(row.period)),
                .integer(row.inTrial ? 1 : 0), .integer(row.expiresDate), .integer(row.willAutoRenew ? 1 : 0),
                row.renewsTo.map { .text($0.rawValue) } ?? .null, row.billingRetrySince.map(SQLValue.integer) ?? .null,
                row.endDate.map(SQLValue.integer) ?? .null, row.endReason.map(SQLValue.text) ?? .null, .integer(now), .integer(row.periodStart),
            ])
    }

    func storeClock() throws -> (offset: Int64, nextDue: Int64?) {
        let row = try db.prepareCached(
            "SELECT (SELECT offset_ms FROM store_clock WHERE id = 1), (SELECT min(expires_date) FROM subscriptions WHERE end_date IS NULL)"
        ).query().first
        return (try row?[0].int64Value ?? 0, try row?[1].int64Value)
    }

    func setClockOffset(_ offset: Int64) throws {
        try db.execute(
            "INSERT INTO store_clock (id, offset_ms) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET offset_ms = excluded.offset_ms", .integer(offset))
    }

    func storefront() throws -> String? {
        try db.query("SELECT storefront FROM account_storefront WHERE id = 1").first.map { try $0.string(0) }
    }

    func setStorefront(_ code: String) throws {
        try db.execute(
            "INSERT INTO account_storefront (id, storefront) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET storefront = excluded.storefront", .text(code))
    }

    func freeTrialsWithheld() throws -> Bool {
        try db.query("SELECT trials_withheld FROM account_storefront WHERE id = 1").first.flatMap { try $0[0].int64Value } == 1
    }

    func withholdFreeTrials() throws {
        try db.execute("UPDATE account_storefront SET trials_withheld = 1 WHERE id = 1")
    }

    func storefrontMovedDate() throws -> Int64? {
        try db.query("SELECT moved_date FROM account_storefront WHERE id = 1").first.flatMap { try $0[0].int64Value }
    }

    func moveStorefront(_ code: String, now: Int64) throws {
        try db.execute(
            "INSERT INTO account_storefront (id, storefront, moved_date) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET storefront = excluded.storefront, moved_date = excluded.moved_date",
            .text(code), .integer(now))
    }

    func updateState(_ id: TransactionID, from: [TransactionState], to: TransactionState, reason: String?, now: Int64) throws -> Bool {
        let placeholders = from.map { _ in "?" }.joined(separator: ", ")
        try db.execute(
            sql: "UPDATE transactions SET state = ?, failure_reason = coalesce(?, failure_reason), updated_date = ? WHERE id = ? AND state IN (\(placeholders))",
            arguments: [.text(to.rawValue), reason.map(SQLValue.text) ?? .null, .integer(now), .text(id.rawValue)] + from.map { .text($0.rawValue) })
        return db.changes == 1
    }

    func hintsOwed(_ id: TransactionID) throws -> Int {
        Int(try db.int64("SELECT hints_owed FROM transactions WHERE id = ?", .text(id.rawValue)) ?? 0)
    }

    func setHintsCredited(_ hints: Int, for id: TransactionID) throws {
        try db.execute("UPDATE transactions SET hints_credited = ? WHERE id = ?", .integer(Int64(hints)), .text(id.rawValue))
    }

    func setRevocationDate(_ date: Int64?, for id: TransactionID, now: Int64) throws {
        try db.execute("UPDATE transactions SET revocation_date = ?, updated_date = ? WHERE id = ?", Self.value(date), .integer(now), .text(id.rawValue))
    }

    // MARK: - Entitlements

    func grant(_ product: ProductID, by transaction: TransactionID, now: Int64) throws {
        try db.execute(
            """
            INSERT INTO entitlements (product_id, transaction_id, granted_date) VALUES (?, ?, ?)
            ON CONFLICT(product_id) DO UPDATE SET transaction_id = excluded.transaction_id, granted_date = excluded.granted_date, revoked_date = NULL
            """,
            .text(product.rawValue), .text(transaction.rawValue), .integer(now))
    }

    func revoke(_ product: ProductID, grantedBy transaction: TransactionID, now: Int64) throws {
        try db.execute(
            "UPDATE entitlements SET revoked_date = ? WHERE product_id = ? AND transaction_id = ?",
            .integer(now), .text(product.rawValue), .text(transaction.rawValue))
    }

    func entitlements() throws -> [Entitlement] {
        try db.query("SELECT product_id, transaction_id, granted_date, revoked_date FROM entitlements ORDER BY product_id").map { row in
            guard let product = ProductID(rawValue: try row.string(0)), let id = TransactionID(rawValue: try row.string(1)) else {
                throw ServiceError(.storage, "the account database holds a malformed entitlement row")
            }
            return Entitlement(productID: product, transactionID: id, grantedDate: try row.int64(2), revokedDate: try row[3].int64Value)
        }
    }

    // MARK: - Hints

    /// Compiled once per connection, with the append below: a hint spent is these two statements.
    func balance() throws -> Int {
        Int(try db.prepareCached("SELECT balance_after FROM hint_ledger ORDER BY seq DESC LIMIT 1").int64() ?? 0)
    }

    func appendHints(
        key: String, amount: Int, reason: HintReason, transaction: TransactionID?, balanceAfter: Int, now: Int64
    ) throws -> Bool {
        try db.prepareCached(
            "INSERT INTO hint_ledger (entry_key, amount, reason, transaction_id, balance_after, created_date) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(entry_key) DO NOTHING"
        ).execute { values in
            values.bind(key, at: 1)
            values.bind(amount, at: 2)
            values.bind(reason.rawValue, at: 3)
            values.bind(transaction?.rawValue, at: 4)
            values.bind(balanceAfter, at: 5)
            values.bind(now, at: 6)
        }
        return db.changes == 1
    }

    func hintEntryAmount(key: String) throws -> Int? {
        try db.int64("SELECT amount FROM hint_ledger WHERE entry_key = ?", .text(key)).map { Int($0) }
    }

    func hasHintEntry(key: String) throws -> Bool {
        try db.prepareCached("SELECT count(*) FROM hint_ledger WHERE entry_key = ?").int64 { $0.bind(key, at: 1) } == 1
    }

    // MARK: - Test controls

    func controls() throws -> [(name: String, enabled: Bool)] {
        try db.query("SELECT name, enabled FROM controls").map { row in (try row.string(0), try row.bool(1)) }
    }

    func setControl(_ name: String, _ enabled: Bool) throws {
        try db.execute(
            "INSERT INTO controls (name, enabled) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET enabled = excluded.enabled", .text(name), .integer(enabled ? 1 : 0))
    }

    func deleteHistory() throws {
        try db.execute("DELETE FROM game_moves")
        try db.execute("DELETE FROM games")
        try db.execute("DELETE FROM game_totals")
        try db.execute("DELETE FROM served_days")
        try db.execute("DELETE FROM subscriptions")
        try db.execute("DELETE FROM hint_ledger")
        try db.execute("DELETE FROM entitlements")
        try db.execute("DELETE FROM transactions")
        // The ledger's kept numbers are this account's alone, and none are left to count.
        try db.execute("DELETE FROM sales_days")
    }

    // MARK: - Served games

    func liveGame() throws -> GameRow? {
        try db.query("SELECT \(GameRow.columns) FROM games WHERE state = 'playing' AND daily IS NULL AND challenge IS NULL").first.map { row throws in
            try GameRow(columns: row.texts)
        }
    }

    func streakFreezes() throws -> Int {
        Int(try db.int64("SELECT balance_after FROM streak_freezes ORDER BY seq DESC LIMIT 1") ?? 0)
    }

    func appendStreakFreezes(key: String, amount: Int, reason: String, transaction: TransactionID?, language: String?, coveredDay: String?, now: Int64) throws -> Bool {
        guard try db.int64("SELECT count(*) FROM streak_freezes WHERE key = ?", .text(key)) == 0 else { return false }
        let last = try db.query("SELECT seq, balance_after FROM streak_freezes ORDER BY seq DESC LIMIT 1").first
        let seq = (try last?.int64(0) ?? 0) + 1
        let balance = (try last?.int64(1) ?? 0) + Int64(amount)
        try db.execute(
            """
            INSERT INTO streak_freezes (seq, key, amount, reason, transaction_id, language, covered_day, balance_after, created_date)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, .integer(seq), .text(key), .integer(Int64(amount)), .text(reason), Self.value(transaction?.rawValue), Self.value(language),
            Self.value(coveredDay), .integer(balance), .integer(now))
        return true
    }

    func streakFreezeAmount(key: String) throws -> Int? {
        try db.int64("SELECT amount FROM streak_freezes WHERE key = ?", .text(key)).map { Int($0) }
    }

    func coveredDays(language: String, limit: Int) throws -> [String] {
        try db.query(
            "SELECT covered_day FROM streak_freezes WHERE language = ? AND covered_day IS NOT NULL ORDER BY covered_day DESC LIMIT ?", .text(language),
            .integer(Int64(limit))
        ).map { try $0.string(0) }
    }

    func challengeGame(_ challenge: String) throws -> GameRow? {
        try db.query("SELECT \(GameRow.columns) FROM games WHERE challenge = ?", .text(challenge)).first.map { row throws in try GameRow(columns: row.texts) }
    }

    func dailyGame(date: String, language: String, hard: Bool) throws -> GameRow? {
        try db.query(
            "SELECT \(GameRow.columns) FROM games WHERE daily = ? AND language = ? AND (hard IS NOT NULL) = ?", .text(date), .text(language),
            .integer(hard ? 1 : 0)
        ).first.map { row throws in
            try GameRow(columns: row.texts)
        }
    }

    func endedGames() throws -> [GameRow] {
        try db.query("SELECT \(GameRow.columns) FROM games WHERE state <> 'playing' ORDER BY ended_date, started_date, id").map { row throws in
            try GameRow(columns: row.texts)
        }
    }

    func game(_ id: String) throws -> GameRow? {
        try db.query("SELECT \(GameRow.columns) FROM games WHERE id = ?", .text(id)).first.map { row throws in try GameRow(columns: row.texts) }
    }

    func gameMoves(_ id: String) throws -> [GameMoveRow] {
        try db.query("SELECT \(GameMoveRow.columns) FROM game_moves WHERE game_id = ? ORDER BY seq", .text(id)).map { row throws in
            try GameMoveRow(columns: row.texts)
        }
    }

    func insertGame(_ row: GameRow) throws {
        try db.execute(
            "INSERT INTO games (\(GameRow.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, NULL, ?, ?, ?, ?)", .text(row.id),
            .text(row.productID.rawValue), .text(row.packName), .text(row.category), .text(row.word), row.clue.map(SQLValue.text) ?? .null,
            .text(row.language), .integer(Int64(row.lives)), .text(row.state.rawValue), .integer(Int64(row.score)), .integer(row.startedDate),
            row.daily.map(SQLValue.text) ?? .null, .integer(row.archive ? 1 : 0), Self.value(row.hardText), Self.value(try row.candidatesText),
            Self.value(row.challenge))
    }

    func narrowHardGame(_ row: GameRow) throws {
        try db.execute(
            "UPDATE games SET word = ?, clue = ?, candidates = ? WHERE id = ? AND state = 'playing'", .text(row.word), Self.value(row.clue),
            Self.value(try row.candidatesText), .text(row.id))
    }

    func appendGameMove(_ id: String, seq: Int, _ move: GameMoveRow, now: Int64) throws {
        try db.execute(
            "INSERT INTO game_moves (game_id, seq, kind, value, request_key, created_date) VALUES (?, ?, ?, ?, ?, ?)", .text(id), .integer(Int64(seq)),
            .text(move.kind.rawValue), .text(move.value), move.requestKey.map(SQLValue.text) ?? .null, .integer(now))
    }

    func gameTotals(kind: String, language: String) throws -> String? {
        try db.string("SELECT record FROM game_totals WHERE kind = ? AND language = ?", .text(kind), .text(language))
    }

    func setGameTotals(kind: String, language: String, record: String) throws {
        try db.execute(
            "INSERT INTO game_totals (kind, language, record) VALUES (?, ?, ?) ON CONFLICT (kind, language) DO UPDATE SET record = excluded.record",
            .text(kind), .text(language), .text(record))
    }

    func countServedGame(day: Int64, daily: Bool) throws {
        try db.execute(
            """
            INSERT INTO served_days (day, games, daily_games) VALUES (?, 1, ?)
            ON CONFLICT (day) DO UPDATE SET games = games + 1, daily_games = daily_games + excluded.daily_games
            """, .integer(day), .integer(daily ? 1 : 0))
    }

    func letGoOfEndedGames(keeping kept: Int) throws -> Int {
        let old = "SELECT id FROM games WHERE daily IS NULL AND state <> 'playing' ORDER BY ended_date DESC, id DESC LIMIT -1 OFFSET ?"
        try db.execute("DELETE FROM game_moves WHERE game_id IN (\(old))", .integer(Int64(kept)))
        try db.execute("DELETE FROM games WHERE id IN (\(old))", .integer(Int64(kept)))
        return db.changes
    }

    func endGame(_ id: String, state: ServedGame.State, score: Int, misses: Int, hints: Int, now: Int64) throws {
        try db.execute(
            "UPDATE games SET state = ?, score = ?, misses = ?, hints = ?, ended_date = ? WHERE id = ? AND state = 'playing'", .text(state.rawValue),
            .integer(Int64(score)), .integer(Int64(misses)), .integer(Int64(hints)), .integer(now), .text(id))
    }

    // MARK: - Notifications

    private static func value(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }
    private static func value(_ number: Int64?) -> SQLValue { number.map(SQLValue.integer) ?? .null }

    func insertNotification(_ n: OutboxNotification) throws {
        try db.execute(
            "INSERT INTO notifications (\(OutboxNotification.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", .text(n.uuid), .text(n.type),
            Self.value(n.subtype), Self.value(n.transaction?.rawValue), Self.value(n.originalTransaction?.rawValue), .integer(n.created),
            Self.value(n.nextAttempt), Self.value(n.delivered), .integer(Int64(n.attempts)), Self.value(n.signedPayload))
    }

    func dueNotifications(now: Int64, limit: Int) throws -> [OutboxNotification] {
        try db.query(
            """
            SELECT \(OutboxNotification.columns) FROM notifications WHERE next_attempt_date <= ? AND (lease_until IS NULL OR lease_until <= ?)
            ORDER BY next_attempt_date, created_date, rowid LIMIT ?
            """, .integer(now), .integer(now), .integer(Int64(limit))
        ).map { row throws in try OutboxNotification(columns: row.texts) }
    }

    func leaseNotification(_ uuid: String, until: Int64, now: Int64) throws -> Bool {
        try db.execute(
            "UPDATE notifications SET lease_until = ? WHERE uuid = ? AND next_attempt_date <= ? AND (lease_until IS NULL OR lease_until <= ?)",
            .integer(until), .text(uuid), .integer(now), .integer(now))
        return db.changes == 1
    }

    func renewalExtensions(original: TransactionID, since: Int64) throws -> Int {
        Int(
            try db.int64(
                "SELECT count(*) FROM renewal_extensions WHERE original_transaction_id = ? AND extended_date >= ? AND request_identifier IS NULL",
                .text(original.rawValue), .integer(since)) ?? 0)
    }

    func recordRenewalExtension(original: TransactionID, days: Int, now: Int64, request: String?, failed: Bool) throws -> Bool {
        try db.execute(
            """
            INSERT INTO renewal_extensions (original_transaction_id, extended_date, days, request_identifier, outcome) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """, .text(original.rawValue), .integer(now), .integer(Int64(days)), Self.value(request),
            request == nil ? .null : .text(failed ? "failed" : "extended"))
        return db.changes == 1
    }

    func massExtensionOutcome(original: TransactionID, request: String) throws -> String? {
        try db.query(
            "SELECT outcome FROM renewal_extensions WHERE original_transaction_id = ? AND request_identifier = ?", .text(original.rawValue), .text(request)
        ).first.map { try $0.string(0) }
    }

    func massExtension(_ requestIdentifier: String) throws -> MassExtension? {
        try db.query("SELECT \(MassExtension.columns) FROM mass_extensions WHERE request_identifier = ?", .text(requestIdentifier)).first.map { row throws in
            try MassExtension(columns: row.texts)
        }
    }

    func insertMassExtension(_ request: MassExtension) throws -> Bool {
        try db.execute(
            """
            INSERT INTO mass_extensions (request_identifier, product_id, days, reason, storefronts, requested_date) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (request_identifier) DO NOTHING
            """, .text(request.requestIdentifier), .text(request.productID.rawValue), .integer(Int64(request.days)), .integer(Int64(request.reason)),
            request.storefronts.isEmpty ? .null : .text(request.storefronts.joined(separator: ",")), .integer(request.requestedDate))
        return db.changes == 1
    }

    func claimMassExtension(now: Int64, until: Int64) throws -> MassExtension? {
        guard
            let found = try db.query(
                """
                SELECT \(MassExtension.columns) FROM mass_extensions WHERE complete_date IS NULL AND (lease_until IS NULL OR lease_until <= ?)
                ORDER BY requested_date, request_identifier LIMIT 1
                """, .integer(now)
            ).first.map({ row throws in try MassExtension(columns: row.texts) })
        else { return nil }
        try db.execute("UPDATE mass_extensions SET lease_until = ? WHERE request_identifier = ?", .integer(until), .text(found.requestIdentifier))
        return found
    }

    func hasIncompleteMassExtension() throws -> Bool {
        try db.int64("SELECT count(*) FROM mass_extensions WHERE complete_date IS NULL") ?? 0 > 0
    }

    func saveMassExtension(_ request: MassExtension, heldUntil: Int64) throws -> Bool {
        try db.execute(
            """
            UPDATE mass_extensions SET last_account = ?, succeeded = ?, failed = ?, complete_date = ?, lease_until = NULL
            WHERE request_identifier = ? AND lease_until = ?
            """, Self.value(request.lastAccount), .integer(Int64(request.succeeded)), .integer(Int64(request.failed)), Self.value(request.completeDate),
            .text(request.requestIdentifier), .integer(heldUntil))
        return db.changes == 1
    }

    func insertGrant(_ id: TransactionID, reason: String, by: String, now: Int64) throws {
        try db.execute(
            "INSERT INTO grants (transaction_id, reason, granted_by, granted_date) VALUES (?, ?, ?, ?) ON CONFLICT (transaction_id) DO NOTHING",
            .text(id.rawValue), .text(reason), .text(by), .integer(now))
    }

    func grant(_ id: TransactionID) throws -> GrantRecord? {
        try db.query("SELECT reason, granted_by, granted_date FROM grants WHERE transaction_id = ?", .text(id.rawValue)).first.map { row in
            GrantRecord(reason: try row.string(0), grantedBy: try row.string(1), grantedDate: try row.int64(2))
        }
    }

    func setAppAccountToken(original: TransactionID, token: String, replacing: Bool) throws {
        try db.execute(
            "INSERT INTO app_account_tokens (original_transaction_id, app_account_token) VALUES (?, ?) ON CONFLICT(original_transaction_id) DO "
                + (replacing ? "UPDATE SET app_account_token = excluded.app_account_token" : "NOTHING"),
            .text(original.rawValue), .text(token))
    }

    func appTransaction() throws -> AppTransactionRecord? {
        try db.query("SELECT app_transaction_id, original_purchase_date FROM app_transaction").first.map { row throws in
            guard let id = TransactionID(rawValue: try row.string(0)) else { throw ServiceError(.storage, "the account database holds a malformed app transaction") }
            return AppTransactionRecord(id: id, originalPurchaseDate: try row.int64(1))
        }
    }

    func insertAppTransaction(_ record: AppTransactionRecord) throws {
        try db.execute(
            "INSERT INTO app_transaction (only, app_transaction_id, original_purchase_date) VALUES (1, ?, ?) ON CONFLICT(only) DO NOTHING",
            .text(record.id.rawValue), .integer(record.originalPurchaseDate))
    }

    func dropNotificationPayloads(deliveredBefore before: Int64) throws {
        try db.execute("UPDATE notifications SET signed_payload = NULL WHERE delivered_date < ? AND signed_payload IS NOT NULL", .integer(before))
    }

    func recordAttempt(_ uuid: String, _ attempt: NotificationAttempt, delivered: Bool, nextAttempt: Int64?, payload: String?) throws {
        try db.execute(
            """
            INSERT INTO notification_attempts (uuid, seq, attempted_date, result, http_status)
            VALUES (?, (SELECT count(*) + 1 FROM notification_attempts WHERE uuid = ?), ?, ?, ?)
            """, .text(uuid), .text(uuid), .integer(attempt.date), .text(attempt.result), Self.value(attempt.httpStatus.map(Int64.init)))
        try db.execute(
            """
            UPDATE notifications SET attempts = attempts + 1, lease_until = NULL, next_attempt_date = ?,
                delivered_date = CASE WHEN ? THEN ? ELSE delivered_date END, signed_payload = coalesce(signed_payload, ?) WHERE uuid = ?
            """, Self.value(nextAttempt), .integer(delivered ? 1 : 0), .integer(attempt.date), payload.map { .text($0) } ?? .null, .text(uuid))
    }

    func notifications() throws -> [OutboxNotification] {
        try db.query("SELECT \(OutboxNotification.columns) FROM notifications ORDER BY created_date, rowid").map { row throws in
            try OutboxNotification(columns: row.texts)
        }
    }

    func notificationAttempts(_ uuid: String) throws -> [NotificationAttempt] {
        try db.query("SELECT \(NotificationAttempt.columns) FROM notification_attempts WHERE uuid = ? ORDER BY seq", .text(uuid)).map { row throws in
            try NotificationAttempt(columns: row.texts)
        }
    }

    func retryNotification(_ uuid: String, now: Int64) throws -> Bool {
        try db.execute(
            "UPDATE notifications SET next_attempt_date = ?, lease_until = NULL WHERE uuid = ? AND delivered_date IS NULL", .integer(now), .text(uuid))
        return db.changes > 0
    }

    func nextNotificationDue() throws -> Int64? {
        try db.int64("SELECT min(next_attempt_date) FROM notifications WHERE next_attempt_date IS NOT NULL")
    }

    func setExpiresDate(_ date: Int64, for id: TransactionID) throws {
        try db.execute("UPDATE transactions SET expires_date = ? WHERE id = ?", .integer(date), .text(id.rawValue))
    }

    func saveConsumption(_ transaction: TransactionID, body: String, now: Int64) throws {
        try db.execute(
            "INSERT INTO consumption_reports (transaction_id, received_date, body) VALUES (?, ?, ?) ON CONFLICT (transaction_id) DO UPDATE SET received_date = excluded.received_date, body = excluded.body",
            .text(transaction.rawValue), .integer(now), .text(body))
    }

    func useOffer(_ offer: OfferUse, for id: TransactionID, now: Int64) throws -> Bool {
        try db.execute(
            """
            INSERT INTO signed_offers (nonce, transaction_id, audience, allow_introductory_offer, offer_identifier, offer_kind, offer_periods, used_date)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (nonce) DO NOTHING
            """, .text(offer.nonce), .text(id.rawValue), .text(offer.audience), Self.value(offer.allowIntroductoryOffer.map { $0 ? Int64(1) : 0 }),
            Self.value(offer.identifier), Self.value(offer.offer?.kind.rawValue), Self.value(offer.offer.map { Int64($0.periods) }), .integer(now))
        return db.changes == 1
    }

    func introductoryOfferAllowed(_ id: TransactionID) throws -> Bool? {
        try db.int64(
            """
            SELECT allow_introductory_offer FROM signed_offers WHERE transaction_id = ? AND allow_introductory_offer IS NOT NULL
            """, .text(id.rawValue)).map { $0 == 1 }
    }

    func purchaseOffer(_ id: TransactionID) throws -> PromotionalOffer? {
        try db.query(
            "SELECT offer_identifier, offer_kind, offer_periods FROM signed_offers WHERE transaction_id = ? AND offer_kind IS NOT NULL", .text(id.rawValue)
        ).first.map { row throws in try PromotionalOffer(columns: row.texts) }
    }

    func markOffer(_ identifier: String, on id: TransactionID) throws {
        try db.execute(
            "INSERT INTO transaction_offers (transaction_id, offer_identifier) VALUES (?, ?) ON CONFLICT (transaction_id) DO NOTHING", .text(id.rawValue),
            .text(identifier))
    }

    func consumption(_ transaction: TransactionID) throws -> String? {
        try db.query("SELECT body FROM consumption_reports WHERE transaction_id = ?", .text(transaction.rawValue)).first.map { try $0.string(0) }
    }

    func refundCase(_ transaction: TransactionID) throws -> RefundCase? {
        try db.query("SELECT \(RefundCase.columns) FROM refund_cases WHERE transaction_id = ?", .text(transaction.rawValue)).first.map { row throws in
            try RefundCase(columns: row.texts)
        }
    }

    func priceAgreement(_ original: TransactionID) throws -> PriceAgreement? {
        try db.query("SELECT \(PriceAgreement.columns) FROM price_agreements WHERE original_transaction_id = ?", .text(original.rawValue)).first.map {
            row throws in try PriceAgreement(columns: row.texts)
        }
    }

    func priceAgreements() throws -> [PriceAgreement] {
        try db.query("SELECT \(PriceAgreement.columns) FROM price_agreements").map { row throws in try PriceAgreement(columns: row.texts) }
    }

    func savePriceAgreement(_ agreement: PriceAgreement) throws {
        let values = agreement.values
        try db.execute(
            """
            INSERT INTO price_agreements (\(PriceAgreement.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (original_transaction_id) DO UPDATE SET product_id = excluded.product_id, currency = excluded.currency,
                agreed_minor = excluded.agreed_minor, told_minor = excluded.told_minor, told_date = excluded.told_date, consented_date = excluded.consented_date,
                ended_date = excluded.ended_date
            """, .text(values[0] ?? ""), .text(values[1] ?? ""), .text(values[2] ?? ""), .integer(agreement.agreed.minorUnits),
            Self.value(agreement.told?.minorUnits), Self.value(agreement.toldDate), Self.value(agreement.consentedDate), Self.value(agreement.endedDate))
    }

    func dailyGames(language: String) throws -> [GameRow] {
        try db.query("SELECT \(GameRow.columns) FROM games WHERE daily IS NOT NULL AND hard IS NULL AND language = ? ORDER BY daily", .text(language)).map { row throws in
            try GameRow(columns: row.texts)
        }
    }

    func refundCases() throws -> [RefundCase] {
        try db.query(RefundCase.selectWithConsumption(account: "")).map { row throws in try RefundCase(columns: row.texts) }
    }

    func saveRefundCase(_ refundCase: RefundCase) throws {
        try db.execute(
            """
            INSERT INTO refund_cases (\(RefundCase.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (transaction_id) DO UPDATE SET state = excluded.state, reason = excluded.reason, requested_date = excluded.requested_date,
                decided_date = excluded.decided_date, reversed_date = excluded.reversed_date, consumption = excluded.consumption
            """, .text(refundCase.transactionID.rawValue), .text(refundCase.state.rawValue), refundCase.reason.map { .text($0.rawValue) } ?? .null,
            Self.value(refundCase.requestedDate), Self.value(refundCase.decidedDate), Self.value(refundCase.reversedDate),
            refundCase.consumption.map { .text($0) } ?? .null)
    }
}

// MARK: - The seller's numbers

extension SQLiteLedgerStatements {
    /// This ledger's kept numbers of days `firstDay...lastDay` (``SalesAggregates``), of one
    /// storefront or every one.
    func salesDays(firstDay: Int64, lastDay: Int64, storefront: String?) throws(ServiceError) -> SalesDays {
        try read { _ in
            let rows = try db.query(sql: SalesAggregates.rangeQuery(placeholders: ["?1", "?2", "?3"]), arguments: [.integer(firstDay), .integer(lastDay), .text(storefront ?? "")])
                .map { row throws in
                    SalesDay(
                        keys: (try row.int64(0), try row.string(1), try row.string(2), try row.string(3), try row.int64(4), try row.int64(5)),
                        sums: try (6..<(6 + SalesAggregates.sums.count)).map { index throws in try row.int64(index) })
                }
            var live: [String: Int64] = [:]
            for row in try db.query(sql: SalesAggregates.liveQuery(placeholders: ["?1", "?2"]), arguments: [.integer(firstDay), .text(storefront ?? "")]) {
                live[try row.string(0)] = try row.int64(1)
            }
            var mrr: [String: Int64] = [:]
            for row in try db.query(sql: SalesAggregates.mrrQuery(placeholders: ["?1", "?2"]), arguments: [.integer(firstDay), .text(storefront ?? "")]) {
                mrr[try row.string(0)] = try row.int64(1)
            }
            let months = CohortAggregates.cohorts(firstDay: firstDay, lastDay: lastDay)
            let cohorts = try db.query(sql: CohortAggregates.sqliteRangeQuery(), arguments: [.integer(Int64(months.first)), .integer(Int64(months.last))]).map { row throws in
                CohortMonth(
                    cohort: Int(try row.int64(0)), month: Int(try row.int64(1)), currency: try row.string(2), customers: try row.int64(3), revenue: try row.int64(4),
                    refunds: try row.int64(5))
            }
            return SalesDays(rows: rows, liveBefore: live, mrrBefore: mrr, cohorts: cohorts)
        }
    }

    /// This ledger's players' numbers of days `firstDay...lastDay` (``PlayerAggregates``).
    func playerDays(firstDay: Int64, lastDay: Int64) throws(ServiceError) -> [PlayerDay] {
        try read { _ in
            try db.query(sql: PlayerAggregates.rangeQuery(placeholders: ["?1", "?2"], dialect: .sqlite), arguments: [.integer(firstDay), .integer(lastDay)]).map { row throws in
                PlayerDay(day: try row.int64(0), sums: try (1...PlayerAggregates.sums.count).map { index throws in try row.int64(index) })
            }
        }
    }

    /// Makes the kept numbers again from the ledger's transactions, in one write.
    func rebuildSalesAggregates() throws(ServiceError) {
        try write { _ in
            try db.execute(sql: SalesAggregates.rebuild(dialect: .sqlite))
            try db.execute(sql: CohortAggregates.rebuild(dialect: .sqlite))
            try db.execute(sql: PlayerAggregates.rebuild(dialect: .sqlite))
        }
    }

    /// The kept numbers a sum of the transactions disagrees with (at most 20 rows, each as its columns).
    func salesAggregateDifferences() throws(ServiceError) -> [String] {
        try read { _ in
            try (db.query(SalesAggregates.differences(dialect: .sqlite)) + db.query(CohortAggregates.differences(dialect: .sqlite)) + db.query(PlayerAggregates.differences(dialect: .sqlite))).map { row in
                row.values.map { value in
                    switch value {
                    case .integer(let number): String(number)
                    case .text(let text): text
                    default: "null"
                    }
                }.joined(separator: " ")
            }
        }
    }

    /// The subscriptions live or ended at `endedSince` or later, in their states at `now` on this
    /// account's clock, each with its first purchase's storefront.
    func subscriptionFacts(account: String, catalog: Catalog, now: Int64, endedSince: Int64) throws(ServiceError) -> [SubscriptionFact] {
        try read { statements in
            let accountNow = now + (try statements.storeClock().offset)
            var storefronts: [String: String] = [:]
            for row in try db.query(
                "SELECT s.original_transaction_id, t.storefront FROM subscriptions AS s JOIN transactions AS t ON t.id = s.original_transaction_id WHERE t.storefront IS NOT NULL")
            {
                storefronts[try row.string(0)] = try row.string(1)
            }
            return try statements.subscriptions().filter { ($0.endDate ?? .max) >= endedSince }.map { row in
                SubscriptionFact(account: account, row: row, now: accountNow, catalog: catalog, storefront: storefronts[row.originalTransactionID.rawValue])
            }
        }
    }
}

extension SQLiteLedgerStatements {
    /// This ledger's notifications not delivered, newest first (`limit` at most), each with its last attempt.
    func undeliveredNotifications(limit: Int) throws(ServiceError) -> [(OutboxNotification, NotificationAttempt?)] {
        try read { statements in
            try db.query(
                "SELECT \(OutboxNotification.columns) FROM notifications WHERE delivered_date IS NULL ORDER BY created_date DESC, rowid DESC LIMIT ?",
                .integer(Int64(limit))
            ).map { row throws in
                let notification = try OutboxNotification(columns: row.texts)
                return (notification, try statements.notificationAttempts(notification.uuid).last)
            }
        }
    }
}
