import PostgreSQL
import SystemCalls
import WordPacks

/// The ledgers of every account in one PostgreSQL database, shared by several servers: the
/// connection pool and the schema, migrated once when opened.
///
/// ```swift
/// let ledgers = try PostgreSQLLedgers(connectionString: "postgresql://hangman@db/hangman")
/// let service = try AccountService(catalog: catalog, packsFolder: "Packs", ledgers: ledgers, account: id, signingKey: key)
/// ```
public final class PostgreSQLLedgers: Sendable {
    /// The connections every account's ledger borrows from.
    public let pool: ConnectionPool
    /// Every rule run in Swift over the plain statements, none in the database's one-call
    /// functions: for the contract tests that run each rule down both paths and compare.
    let rulesInSwift: Bool

    /// Connects and brings the schema up to date (several servers starting at once take turns).
    /// `connections` bounds the connections this process opens.
    public convenience init(connectionString: String, connections: Int = 8) throws(ServiceError) {
        try self.init(connectionString: connectionString, connections: connections, rulesInSwift: false)
    }

    init(connectionString: String, connections: Int, rulesInSwift: Bool) throws(ServiceError) {
        self.rulesInSwift = rulesInSwift
        pool = ConnectionPool(connectionString: connectionString, capacity: connections)
        do {
            try PostgreSQLLedgerSchema.migrations.migrate(pool)
        } catch {
            throw PostgreSQLLedgerEngine.failure(error, opening: true)
        }
    }

    /// The migrations this program applies, by name (the same names as the SQLite account schema's).
    public static var migrationNames: [String] { PostgreSQLLedgerSchema.migrations.names }

    /// Accounts with notifications due at `now` that no server holds (at most `limit`), and how
    /// many notifications wait in all (due or scheduled).
    public func notificationsDue(now: Int64, limit: Int) throws(ServiceError) -> (accounts: [String], pending: Int) {
        try autocommit { connection in
            let due = try connection.execute(
                """
                SELECT DISTINCT account_id FROM notifications WHERE next_attempt_date <= $1 AND (lease_until IS NULL OR lease_until <= $1) LIMIT $2
                """, [String(now), String(limit)]
            ).rows.compactMap { $0.first ?? nil }
            let pending = try connection.execute("SELECT count(*) FROM notifications WHERE next_attempt_date IS NOT NULL").scalar.flatMap(Int.init) ?? 0
            return (due, pending)
        }
    }

    /// Every account's refund cases, with their consumption answers, in one query.
    public func allRefundCases() throws(ServiceError) -> [AccountRefundCase] {
        try autocommit { connection in
            try connection.execute(RefundCase.selectWithConsumption(account: nil)).rows.map { row throws in
                AccountRefundCase(
                    account: row[0] ?? "", refundCase: try RefundCase(columns: Array(row.dropFirst().prefix(7))),
                    productID: row.count > 8 ? row[8].flatMap(ProductID.init(rawValue:)) : nil, storefront: row.count > 9 ? row[9] : nil)
            }
        }
    }

    /// The seller's kept numbers of days `firstDay...lastDay` (``SalesAggregates``), of one
    /// storefront or every one: two queries over the rows of those days, whatever the ledgers hold.
    public func salesDays(firstDay: Int64, lastDay: Int64, storefront: String?) throws(ServiceError) -> SalesDays {
        try autocommit { connection in
            let rows = try connection.execute(
                SalesAggregates.rangeQuery(placeholders: ["$1", "$2", "$3"]), [String(firstDay), String(lastDay), storefront ?? ""]
            ).rows.map { row throws in
                guard row.count == 6 + SalesAggregates.sums.count, let day = row[0].flatMap(Int64.init), let storefront = row[1], let currency = row[2], let product = row[3],
                    let unitPrice = row[4].flatMap(Int64.init), let renewal = row[5].flatMap(Int64.init)
                else { throw ServiceError(.storage, "the ledger database holds a malformed row of the seller's numbers") }
                return SalesDay(
                    keys: (day, storefront, currency, product, unitPrice, renewal), sums: row.dropFirst(6).map { $0.flatMap(Int64.init) ?? 0 })
            }
            var live: [String: Int64] = [:]
            for row in try connection.execute(SalesAggregates.liveQuery(placeholders: ["$1", "$2"]), [String(firstDay), storefront ?? ""]).rows {
                if let product = row[0] ?? nil, let count = row[1].flatMap(Int64.init) { live[product] = count }
            }
            var mrr: [String: Int64] = [:]
            for row in try connection.execute(SalesAggregates.mrrQuery(placeholders: ["$1", "$2"]), [String(firstDay), storefront ?? ""]).rows {
                if let currency = row[0] ?? nil, let amount = row[1].flatMap(Int64.init) { mrr[currency] = amount }
            }
            let months = CohortAggregates.cohorts(firstDay: firstDay, lastDay: lastDay)
            let cohorts = try connection.execute(CohortAggregates.postgreSQLRangeQuery(), [String(months.first), String(months.last)]).rows.map { row throws in
                let numbers = [row[0], row[1], row[3], row[4], row[5]].map { $0.flatMap(Int64.init) }
                guard row.count == 6, let currency = row[2], numbers.allSatisfy({ $0 != nil }) else {
                    throw ServiceError(.storage, "the ledger database holds a malformed row of the seller's cohorts")
                }
                return CohortMonth(
                    cohort: Int(numbers[0]!), month: Int(numbers[1]!), currency: currency, customers: numbers[2]!, revenue: numbers[3]!, refunds: numbers[4]!)
            }
            return SalesDays(rows: rows, liveBefore: live, mrrBefore: mrr, cohorts: cohorts)
        }
    }

    /// The players' kept numbers of days `firstDay...lastDay` (``PlayerAggregates``): one query
    /// over the rows of those days.
    public func playerDays(firstDay: Int64, lastDay: Int64) throws(ServiceError) -> [PlayerDay] {
        // What settled since the servers' last fold first, so that the rows read unfolded are few.
        try foldPlayerNumbers(now: RealtimeClock.millisecondsSince1970())
        return try snapshot { connection in
            // The last seq folded first (in the same snapshot as the rows): those after it are
            // read by the hint ledger's key.
            let folded = try connection.execute("SELECT folded_seq FROM player_rollup WHERE id = 1").scalar ?? "0"
            return try connection.execute(
                PlayerAggregates.rangeQuery(placeholders: ["$1", "$2", "$3"], dialect: .postgreSQL), [String(firstDay), String(lastDay), folded]
            ).rows.map { row throws in
                let numbers = row.map { $0.flatMap(Int64.init) }
                guard numbers.count == 1 + PlayerAggregates.sums.count, numbers.allSatisfy({ $0 != nil }) else {
                    throw ServiceError(.storage, "the ledger database holds a malformed row of the players' numbers")
                }
                return PlayerDay(day: numbers[0]!, sums: numbers.dropFirst().map { $0! })
            }
        }
    }

    /// Folds the players' hint rows a settle time old into their kept numbers
    /// (``PlayerAggregates``): a server does it every ten seconds; a fold in flight elsewhere is
    /// left to finish.
    public func foldPlayerNumbers(now: Int64) throws(ServiceError) {
        try autocommit { connection in
            _ = try connection.execute("SELECT player_days_fold($1, $2)", [String(now), String(PlayerAggregates.settle)])
        }
    }

    /// Accounts made per day of `firstDay...lastDay`, from the directory's index of their dates.
    public func accountsMade(firstDay: Int64, lastDay: Int64) throws(ServiceError) -> [Int64: Int] {
        try autocommit { connection in
            // A database of ledgers alone (no server made its accounts yet) has made none.
            let exists = try connection.execute("SELECT to_regclass('accounts') IS NOT NULL").rows.first?.first ?? nil
            guard exists == "t" else { return [:] }
            var made: [Int64: Int] = [:]
            for row in try connection.execute(AccountsSchema.accountsMadeQuery(placeholders: ["$1", "$2"]), [String(firstDay), String(lastDay)]).rows {
                if let day = row[0].flatMap(Int64.init), let count = row[1].flatMap(Int.init) { made[day] = count }
            }
            return made
        }
    }

    /// Every account's notifications not delivered, newest first (`limit` at most), each with
    /// its last attempt: from their index, whatever the history holds.
    public func undeliveredNotifications(limit: Int) throws(ServiceError) -> [UndeliveredNotification] {
        try autocommit { connection in
            try connection.execute(
                """
                SELECT n.account_id, \(OutboxNotification.columns.split(separator: ",").map { "n." + $0.trimmingWhitespace() }.joined(separator: ", ")),
                    a.attempted_date, a.result, a.http_status
                FROM (SELECT * FROM notifications WHERE delivered_date IS NULL ORDER BY created_date DESC LIMIT $1) AS n
                LEFT JOIN LATERAL (SELECT attempted_date, result, http_status FROM notification_attempts AS x
                                   WHERE x.account_id = n.account_id AND x.uuid = n.uuid ORDER BY seq DESC LIMIT 1) AS a ON true
                ORDER BY n.created_date DESC
                """, [String(limit)]
            ).rows.map { row throws in
                UndeliveredNotification(
                    account: row[0] ?? "", notification: try OutboxNotification(columns: Array(row[1...10])),
                    lastAttempt: row[11] == nil ? nil : try NotificationAttempt(columns: Array(row[11...13])))
            }
        }
    }

    /// Makes the seller's numbers again from every transaction, while writers wait (a share lock
    /// on the transactions): for an upgrade, or after ``salesAggregateDifferences()`` found some.
    public func rebuildSalesAggregates() throws(ServiceError) {
        try whileWritersWait { connection in
            try connection.executeScript(
                [SalesAggregates.rebuild(dialect: .postgreSQL), CohortAggregates.rebuild(dialect: .postgreSQL), PlayerAggregates.rebuild(dialect: .postgreSQL)]
                    .joined(separator: ";\n"))
        }
    }

    /// The kept numbers that a sum of every transaction disagrees with (at most 20 rows, each
    /// as its columns); none when they are right. Writers wait while it reads.
    public func salesAggregateDifferences() throws(ServiceError) -> [String] {
        try whileWritersWait { connection in
            try (connection.execute(SalesAggregates.differences(dialect: .postgreSQL)).rows
                + connection.execute(CohortAggregates.differences(dialect: .postgreSQL)).rows
                + connection.execute(PlayerAggregates.differences(dialect: .postgreSQL)).rows).map { $0.map { $0 ?? "null" }.joined(separator: " ") }
        }
    }

    /// `body` in a transaction that holds the transactions still (a share lock), as long as it
    /// takes: an operator's command reads every transaction.
    private func whileWritersWait<T>(_ body: (PostgreSQL.Connection) throws -> T) throws(ServiceError) -> T {
        do {
            return try pool.transaction { connection in
                try connection.execute("SET LOCAL statement_timeout = 0")
                try connection.execute("LOCK TABLE transactions IN SHARE MODE")
                return try body(connection)
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw PostgreSQLLedgerEngine.failure(error, opening: false)
        }
    }

    /// Every account's auto-renewable subscriptions that were live or ended at `endedSince` or
    /// later, each in its state at `now` on the account's own clock (a sandbox account's test
    /// controls move it ahead), with its first purchase's storefront, in one query.
    public func allSubscriptions(catalog: Catalog, now: Int64, endedSince: Int64 = 0) throws(ServiceError) -> [SubscriptionFact] {
        let offsets = try clockOffsets()
        return try autocommit { connection in
            try connection.execute(
                """
                SELECT s.account_id, \(PostgreSQLLedgerStatements.subscriptionColumns.split(separator: ",").map { "s." + $0.trimmingWhitespace() }.joined(separator: ", ")),
                    t.storefront
                FROM subscriptions AS s LEFT JOIN transactions AS t ON t.account_id = s.account_id AND t.id = s.original_transaction_id
                WHERE s.end_date IS NULL OR s.end_date >= $1
                """, [String(endedSince)]
            ).rows.map { row throws in
                let account = row[0] ?? ""
                return SubscriptionFact(
                    account: account, row: try PostgreSQLLedgerStatements.subscriptionRow(Array(row.dropFirst().dropLast())), now: now + (offsets[account] ?? 0),
                    catalog: catalog, storefront: row.last.flatMap { $0 })
            }
        }
    }

    /// How far each account's clock runs ahead of the real one (accounts whose clock was moved).
    public func clockOffsets() throws(ServiceError) -> [String: Int64] {
        try autocommit { connection in
            var offsets: [String: Int64] = [:]
            for row in try connection.execute("SELECT account_id, offset_ms FROM store_clock WHERE offset_ms <> 0").rows {
                if let account = row[0] ?? nil, let text = row[1] ?? nil, let offset = Int64(text) { offsets[account] = offset }
            }
            return offsets
        }
    }

    /// Every account that has a notification, sorted.
    public func notifiedAccounts() throws(ServiceError) -> [String] {
        try autocommit { connection in
            try connection.execute("SELECT DISTINCT account_id FROM notifications ORDER BY account_id").rows.compactMap { $0.first ?? nil }
        }
    }

    /// Whether `account` has a ledger.
    public func hasLedger(_ account: String) throws(ServiceError) -> Bool {
        try autocommit { connection in try connection.execute("SELECT 1 FROM ledgers WHERE account_id = $1", [account]).rows.count == 1 }
    }

    /// The accounts that have a ledger after `after`, sorted, `limit` at most: a page of them by
    /// the primary key, whatever their number.
    public func accounts(after: String, limit: Int) throws(ServiceError) -> [String] {
        try autocommit { connection in
            try connection.execute("SELECT account_id FROM ledgers WHERE account_id > $1 ORDER BY account_id LIMIT $2", [after, String(limit)]).rows
                .compactMap { $0.first ?? nil }
        }
    }

    /// Every account that has a ledger, sorted.
    public func accounts() throws(ServiceError) -> [String] {
        try autocommit { connection in
            try connection.execute("SELECT account_id FROM ledgers ORDER BY account_id").rows.compactMap { $0.first ?? nil }
        }
    }

    /// `body` in one read-only transaction that sees one snapshot; a failure said as the ledger's.
    private func snapshot<T>(_ body: (PostgreSQL.Connection) throws -> T) throws(ServiceError) -> T {
        do {
            return try pool.transaction(isolation: "REPEATABLE READ READ ONLY", body)
        } catch let error as ServiceError {
            throw error
        } catch {
            throw PostgreSQLLedgerEngine.failure(error, opening: false)
        }
    }

    /// `body` on a connection of the pool, outside a transaction; a failure said as the ledger's.
    private func autocommit<T>(_ body: (PostgreSQL.Connection) throws -> T) throws(ServiceError) -> T {
        do {
            return try pool.autocommit(body)
        } catch let error as ServiceError {
            throw error
        } catch {
            throw PostgreSQLLedgerEngine.failure(error, opening: false)
        }
    }

    /// The ledger of `account`, made on first use.
    func ledger(account: String, now: Int64) throws(ServiceError) -> AccountLedger {
        let engine = PostgreSQLLedgerEngine(pool: pool, account: account, rulesInSwift: rulesInSwift)
        try engine.create(now: now)
        return AccountLedger(engine)
    }
}

/// One account's transactions in the shared PostgreSQL database. Every write first locks the
/// account's `ledgers` row (`SELECT ... FOR UPDATE`): writes of one account take turns across
/// servers; different accounts never wait for each other.
final class PostgreSQLLedgerEngine: LedgerEngine {
    let pool: ConnectionPool
    let account: String

    /// ``PostgreSQLLedgers/rulesInSwift``: the one-call functions are not used.
    let rulesInSwift: Bool

    init(pool: ConnectionPool, account: String, rulesInSwift: Bool = false) {
        self.pool = pool
        self.account = account
        self.rulesInSwift = rulesInSwift
    }

    /// Makes the account's `ledgers` row, the one its writes lock, unless it is there.
    func create(now: Int64) throws(ServiceError) {
        try run(locking: false) { connection in
            _ = try connection.execute(
                "INSERT INTO ledgers (account_id, created_date) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING", [account, String(now)])
        }
    }

    func write<T>(_ body: (any LedgerStatements) throws -> T) throws(ServiceError) -> T {
        try run(locking: true) { connection in try body(PostgreSQLLedgerStatements(connection: connection, account: account)) }
    }

    func read<T>(_ body: (any LedgerStatements) throws -> T) throws(ServiceError) -> T {
        try run(locking: false) { connection in try body(PostgreSQLLedgerStatements(connection: connection, account: account)) }
    }

    var checksTokensInOneCall: Bool { !rulesInSwift }

    /// One statement in its own transaction (no BEGIN or COMMIT of ours): one round trip, the
    /// token's check included when there is one (migration `7-spend-checking-its-token`).
    func spendInOneCall(entryKey: String, now: Int64, checking token: PresentedToken?) throws(ServiceError) -> SpendInOneCall? {
        if rulesInSwift { return nil }
        var row: [String?]
        do {
            row = try pool.autocommit { connection in
                if let token {
                    return try connection.execute(
                        "SELECT token_live, has_ledger, spent, already_spent, balance FROM ledger_spend_hint($1, $2, $3, $4, $5)",
                        [account, entryKey, String(now), token.tokenID, token.sha256]
                    ).rows.first ?? []
                }
                return ["t"] + (try connection.execute(
                    "SELECT has_ledger, spent, already_spent, balance FROM ledger_spend_hint($1, $2, $3)", [account, entryKey, String(now)]
                ).rows.first ?? [])
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw Self.failure(error, opening: false)
        }
        guard row.count == 5, let balance = row[4].flatMap(Int.init) else {
            throw ServiceError(.storage, "the ledger database answered a spend with a malformed row")
        }
        guard row[0] == "t" else { return .tokenNotLive }
        guard row[1] == "t" else { throw ServiceError(.storage, "the ledger of account \(account) is missing from the database") }
        if row[2] == "t" { return .spent(balance: balance) }
        return row[3] == "t" ? .alreadySpent(balance: balance) : .noHints
    }

    /// One function call (no transaction of ours), its first row; `has_ledger`, its first column,
    /// checked. `again`: the call may be made again on a fresh connection when the first one
    /// turns out dead, as after a database restart (a move or a delivery: the second call finds
    /// the work done and says so). Otherwise a lost connection is an error (503: the client
    /// sends the request again with its key), and the pool's idle connections are dropped.
    private func call(_ sql: String, _ arguments: [String?], again: Bool) throws(ServiceError) -> [String?] {
        let row: [String?]
        do {
            let body = { (connection: Connection) throws -> [String?] in try connection.execute(sql, arguments).rows.first ?? [] }
            if again {
                row = try pool.autocommit(body)
            } else {
                do {
                    row = try pool.withConnection(body)
                } catch let error as PostgreSQLError where error.isConnectionLost {
                    pool.dropIdleConnections()
                    throw error
                }
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw Self.failure(error, opening: false)
        }
        guard let first = row.first else { throw ServiceError(.storage, "the ledger database answered a call with no row") }
        guard first == "t" else { throw ServiceError(.storage, "the ledger of account \(account) is missing from the database") }
        return Array(row.dropFirst())
    }

    func moveInOneCall(_ id: TransactionID, from: [TransactionState], to: TransactionState, reason: String?, now: Int64) throws(ServiceError) -> Bool? {
        if rulesInSwift { return nil }
        let array = "{" + from.map(\.rawValue).joined(separator: ",") + "}"
        let row = try call(
            "SELECT has_ledger, moved FROM ledger_move($1, $2, $3, $4, $5, $6)", [account, id.rawValue, array, to.rawValue, reason, String(now)], again: true)
        return row.first == "t"
    }

    func insertPurchasingInOneCall(
        _ id: TransactionID, product: ProductID, isConsumable: Bool, quantity: Int, hintsOwed: Int, requestKey: String?, charge: Charge, now: Int64
    ) throws(ServiceError) -> TransactionInsert? {
        if rulesInSwift { return nil }
        let row = try call(
            "SELECT has_ledger, outcome FROM ledger_insert_purchasing($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            [
                account, id.rawValue, product.rawValue, isConsumable ? "1" : "0", String(quantity), String(hintsOwed), requestKey,
                String(charge.amount.minorUnits), charge.amount.currency, charge.storefront, String(now),
            ], again: false)
        switch row.first ?? nil {
        case "inserted": return .inserted
        case "id-taken": return .idTaken
        case "duplicate": return .duplicate
        case let other: throw ServiceError(.storage, "the ledger database answered a purchase with '\(other ?? "nothing")'")
        }
    }

    func deliverInOneCall(_ id: TransactionID, legacyHints: Int, now: Int64) throws(ServiceError) -> WriteInOneCall<Bool>? {
        if rulesInSwift { return nil }
        let row = try call("SELECT has_ledger, outcome FROM ledger_deliver($1, $2, $3, $4)", [account, id.rawValue, String(legacyHints), String(now)], again: true)
        switch row.first ?? nil {
        case "delivered": return .done(true)
        case "not-waiting": return .done(false)
        case "subscription": return .subscription
        case let other: throw ServiceError(.storage, "the ledger database answered a delivery with '\(other ?? "nothing")'")
        }
    }

    /// A write: `body` in one transaction, after locking the account's row. A read: `body`'s
    /// statements each on its own, with no BEGIN or COMMIT (two round trips fewer): in a READ
    /// COMMITTED transaction each statement takes its own snapshot too, so a transaction would
    /// give a read nothing more. A read is safe to run again on a fresh connection.
    private func run<T>(locking: Bool, _ body: (Connection) throws -> T) throws(ServiceError) -> T {
        do {
            guard locking else { return try pool.autocommit(body) }
            return try pool.transaction { connection in
                guard try connection.execute("SELECT 1 FROM ledgers WHERE account_id = $1 FOR UPDATE", [account]).rows.count == 1 else {
                    throw ServiceError(.storage, "the ledger of account \(account) is missing from the database")
                }
                return try body(connection)
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw Self.failure(error, opening: false)
        }
    }

    /// What a failure of the database means: gone away (503, try again) or broken (500).
    static func failure(_ error: any Error, opening: Bool) -> ServiceError {
        if let error = error as? PostgreSQLError {
            if error.isConnectionLost {
                // Opening is the operator's to fix; a request's, the client's to send again.
                if opening { return ServiceError(.unavailable, "the ledger database cannot be reached (\(error.message))") }
                return ServiceError(.unavailable, "the ledger database is unavailable (\(error.message)): the change may not have been made; the same request (with its key) is safe to send again")
            }
            return ServiceError(.storage, (opening ? "cannot prepare the ledger database: " : "the ledger database failed: ") + error.description)
        }
        return ServiceError(.storage, "the ledger database failed: \(error)")
    }
}

/// The ledger's statements in PostgreSQL's dialect, on one connection inside one transaction:
/// every statement names the account (`$1`), and parameters are always bound (`PQexecParams`).
struct PostgreSQLLedgerStatements: LedgerStatements {
    let connection: Connection
    let account: String

    /// Runs `sql` with the account as `$1` and `arguments` from `$2` on.
    @discardableResult
    private func execute(_ sql: String, _ arguments: [String?] = []) throws -> QueryResult {
        try connection.execute(sql, [account] + arguments)
    }

    // MARK: - Transactions

    static let columns =
        "id, product_id, consumable, quantity, state, failure_reason, hints_credited, purchase_date, updated_date, revocation_date, original_transaction_id, expires_date, offer, refund_cents, price_minor, currency, storefront, "
        + "(SELECT app_account_token FROM app_account_tokens AS a WHERE a.account_id = transactions.account_id "
        + "AND a.original_transaction_id = coalesce(transactions.original_transaction_id, transactions.id)), "
        + "(SELECT offer_identifier FROM transaction_offers AS o WHERE o.account_id = transactions.account_id AND o.transaction_id = transactions.id), "
        + "(SELECT offer_identifier FROM signed_offers AS s WHERE s.account_id = transactions.account_id "
        + "AND s.transaction_id = coalesce(transactions.original_transaction_id, transactions.id) AND s.audience = 'offer-code')"

    static func transaction(_ row: [String?]) throws -> StoreTransaction {
        guard row.count == 20, let id = row[0].flatMap(TransactionID.init(rawValue:)), let product = row[1].flatMap(ProductID.init(rawValue:)),
            let consumable = row[2].flatMap(Int.init), let quantity = row[3].flatMap(Int.init), let state = row[4].flatMap(TransactionState.init(rawValue:)),
            let credited = row[6].flatMap(Int.init), let purchased = row[7].flatMap(Int64.init), let updated = row[8].flatMap(Int64.init)
        else { throw ServiceError(.storage, "the ledger database holds a malformed transaction row") }
        var original: TransactionID?
        if let text = row[10] {
            guard let parsed = TransactionID(rawValue: text) else { throw ServiceError(.storage, "the ledger database holds a malformed transaction row") }
            original = parsed
        }
        return StoreTransaction(
            id: id, productID: product, isConsumable: consumable == 1, quantity: quantity, state: state, failureReason: row[5],
            purchaseDate: purchased, updatedDate: updated, revocationDate: row[9].flatMap(Int64.init), hintsCredited: credited,
            originalTransactionID: original, expiresDate: row[11].flatMap(Int64.init), isTrial: row[12] == "free-trial",
            refundAmount: row[13].flatMap(Int64.init).map { Money(minorUnits: $0, currency: row[15] ?? Catalog.defaultCurrency).decimal },
            price: row[14].flatMap(Int64.init).flatMap { amount in row[15].map { Money(minorUnits: amount, currency: $0) } }, storefront: row[16],
            appAccountToken: row[17], promotionalOffer: row[18], offerCode: row[19])
    }

    private func select(_ condition: String, _ arguments: [String?]) throws -> [StoreTransaction] {
        try execute("SELECT \(Self.columns) FROM transactions WHERE account_id = $1 \(condition)", arguments).rows.map(Self.transaction)
    }

    func activity() throws -> [PlayerActivity] {
        try Self.activity(execute("SELECT account_id, day, games - daily_games, daily_games FROM served_days WHERE account_id = $1").rows,
            execute(
                "SELECT h.account_id, h.created_date, h.amount FROM hint_ledger AS h WHERE h.account_id = $1 AND h.reason IN ('purchase', 'spend') AND NOT \(PlayerAggregates.granted("h", .postgreSQL))"
            ).rows)
    }

    /// Rows of `served_days` (account, day, games that are not daily words, daily words) and of
    /// `hint_ledger` (account, created, amount) as activity.
    static func activity(_ games: [[String?]], _ hints: [[String?]]) throws -> [PlayerActivity] {
        func number(_ text: String?) throws -> Int64 {
            guard let value = text.flatMap(Int64.init) else { throw ServiceError(.storage, "the ledger database holds a malformed activity row") }
            return value
        }
        return try games.flatMap { row throws in
            let date = try number(row[1]) * 86_400_000
            return [PlayerActivity(account: row[0] ?? "", date: date, kind: .game, count: Int(try number(row[2]))),
                    PlayerActivity(account: row[0] ?? "", date: date, kind: .dailyGame, count: Int(try number(row[3])))].filter { $0.count > 0 }
        } + hints.map { row throws in
            let amount = try number(row[2])
            return PlayerActivity(account: row[0] ?? "", date: try number(row[1]), kind: amount > 0 ? .hintsCredited : .hintsSpent, count: Int(abs(amount)))
        }
    }

    func transaction(_ id: TransactionID) throws -> StoreTransaction? {
        try select("AND id = $2", [id.rawValue]).first
    }

    func transaction(requestKey: String) throws -> StoreTransaction? {
        try select("AND request_key = $2", [requestKey]).first
    }

    func transactions() throws -> [StoreTransaction] {
        try select("ORDER BY purchase_date, seq", [])
    }

    func unfinished() throws -> [StoreTransaction] {
        try select("AND state IN ('purchasing', 'purchased', 'delivered') ORDER BY seq", [])
    }

    func insertPurchasing(
        _ id: TransactionID, product: ProductID, isConsumable: Bool, quantity: Int, hintsOwed: Int, requestKey: String?,
        subscription: SubscriptionFields?, charge: Charge, now: Int64
    ) throws -> TransactionInsert {
        do {
            let inserted = try execute(
                """
                INSERT INTO transactions (account_id, id, product_id, consumable, quantity, state, purchase_date, updated_date, hints_owed, request_key,
                    original_transaction_id, period, expires_date, offer, price_minor, currency, storefront)
                VALUES ($1, $2, $3, $4, $5, 'purchasing', $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) ON CONFLICT (account_id, id) DO NOTHING
                """,
                [id.rawValue, product.rawValue, isConsumable ? "1" : "0", String(quantity), String(now), String(now), String(hintsOwed), requestKey]
                    + Self.subscriptionValues(subscription) + Self.chargeValues(charge)
            ).affectedRows == 1
            return inserted ? .inserted : .idTaken
        } catch let error as PostgreSQLError where error.state == .uniqueViolation {
            return .duplicate
        }
    }

    private static func subscriptionValues(_ fields: SubscriptionFields?) -> [String?] {
        guard let fields else { return [nil, nil, nil, nil] }
        return [fields.originalTransactionID.rawValue, fields.period.map(String.init), String(fields.expiresDate), fields.isTrial ? "free-trial" : nil]
    }

    private static func chargeValues(_ charge: Charge) -> [String?] {
        [String(charge.amount.minorUnits), charge.amount.currency, charge.storefront]
    }

    func insertRenewal(
        _ id: TransactionID, product: ProductID, fields: SubscriptionFields, start: Int64, hintsOwed: Int, charge: Charge, now: Int64
    ) throws -> Bool {
        try execute(
            """
            INSERT INTO transactions (account_id, id, product_id, consumable, quantity, state, purchase_date, updated_date, hints_owed, request_key,
                original_transaction_id, period, expires_date, offer, price_minor, currency, storefront)
            VALUES ($1, $2, $3, 0, 1, 'purchased', $4, $5, $6, NULL, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING
            """,
            [id.rawValue, product.rawValue, String(start), String(now), String(hintsOwed)] + Self.subscriptionValues(fields) + Self.chargeValues(charge)
        ).affectedRows == 1
    }

    func storefront() throws -> String? {
        try execute("SELECT storefront FROM ledgers WHERE account_id = $1").rows.first?.first ?? nil
    }

    func setStorefront(_ code: String) throws {
        try execute("UPDATE ledgers SET storefront = $2 WHERE account_id = $1", [code])
    }

    func freeTrialsWithheld() throws -> Bool {
        (try execute("SELECT free_trials_withheld FROM ledgers WHERE account_id = $1").rows.first?.first ?? nil) == "t"
    }

    func withholdFreeTrials() throws {
        try execute("UPDATE ledgers SET free_trials_withheld = true WHERE account_id = $1")
    }

    func storefrontMovedDate() throws -> Int64? {
        (try execute("SELECT storefront_moved_date FROM ledgers WHERE account_id = $1").rows.first?.first ?? nil).flatMap { Int64($0) }
    }

    func moveStorefront(_ code: String, now: Int64) throws {
        try execute("UPDATE ledgers SET storefront = $2, storefront_moved_date = $3 WHERE account_id = $1", [code, String(now)])
    }

    func transaction(original: TransactionID, period: Int) throws -> StoreTransaction? {
        try select("AND original_transaction_id = $2 AND period = $3", [original.rawValue, String(period)]).first
    }

    func setUpgradeRefund(_ cents: Int64, for id: TransactionID, now: Int64) throws {
        try execute(
            "UPDATE transactions SET refund_cents = $3, revocation_date = $4, updated_date = $4 WHERE account_id = $1 AND id = $2",
            [id.rawValue, String(cents), String(now)])
    }

    func setSubscriptionDates(_ id: TransactionID, purchaseDate: Int64, expiresDate: Int64, isTrial: Bool) throws {
        try execute(
            """
            UPDATE transactions SET purchase_date = $3, expires_date = $4, offer = $5,
                price_minor = CASE WHEN $5::text IS NULL THEN price_minor ELSE 0 END
            WHERE account_id = $1 AND id = $2
            """,
            [id.rawValue, String(purchaseDate), String(expiresDate), isTrial ? "free-trial" : nil])
    }

    static let subscriptionColumns = """
        original_transaction_id, group_name, product_id, period, in_trial, expires_date, will_auto_renew, renews_to,
            billing_retry_since, end_date, end_reason, period_start
        """

    func subscriptions() throws -> [SubscriptionRow] {
        try execute(
            "SELECT \(Self.subscriptionColumns) FROM subscriptions WHERE account_id = $1 ORDER BY expires_date, original_transaction_id"
        ).rows.map(Self.subscriptionRow)
    }

    static func subscriptionRow(_ row: [String?]) throws -> SubscriptionRow {
            guard row.count == 12, let original = row[0].flatMap(TransactionID.init(rawValue:)), let group = row[1],
                let product = row[2].flatMap(ProductID.init(rawValue:)), let period = row[3].flatMap(Int.init),
                let expires = row[5].flatMap(Int64.init), let start = row[11].flatMap(Int64.init)
            else { throw ServiceError(.storage, "the ledger database holds a malformed subscription row") }
            return SubscriptionRow(
                originalTransactionID: original, group: group, productID: product, period: period, inTrial: row[4] == "1", periodStart: start, expiresDate: expires,
                willAutoRenew: row[6] == "1", renewsTo: row[7].flatMap(ProductID.init(rawValue:)), billingRetrySince: row[8].flatMap(Int64.init),
                endDate: row[9].flatMap(Int64.init), endReason: row[10])
    }

    func saveSubscription(_ row: SubscriptionRow, now: Int64) throws {
        try execute(
            """
            INSERT INTO subscriptions (account_id, original_transaction_id, group_name, product_id, period, in_trial, expires_date, will_auto_renew,
                renews_to, billing_retry_since, end_date, end_reason, updated_date, period_start)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
            ON CONFLICT (account_id, original_transaction_id) DO UPDATE SET product_id = excluded.product_id, period = excluded.period,
                in_trial = excluded.in_trial, period_start = excluded.period_start, expires_date = excluded.expires_date, will_auto_renew = excluded.will_auto_renew,
                renews_to = excluded.renews_to, billing_retry_since = excluded.billing_retry_since, end_date = excluded.end_date,
                end_reason = excluded.end_reason, updated_date = excluded.updated_date
            """,
            [
                row.originalTransactionID.rawValue, row.group, row.productID.rawValue, String(row.period), row.inTrial ? "1" : "0",
                String(row.expiresDate), row.willAutoRenew ? "1" : "0", row.renewsTo?.rawValue, row.billingRetrySince.map(String.init),
                row.endDate.map(String.init), row.endReason, String(now), String(row.periodStart),
            ])
    }

    func storeClock() throws -> (offset: Int64, nextDue: Int64?) {
        let row = try execute(
            """
            SELECT (SELECT offset_ms FROM store_clock WHERE account_id = $1),
                (SELECT min(expires_date) FROM subscriptions WHERE account_id = $1 AND end_date IS NULL)
            """
        ).rows.first
        return (row?[0].flatMap(Int64.init) ?? 0, row?[1].flatMap(Int64.init))
    }

    func setClockOffset(_ offset: Int64) throws {
        try execute(
            "INSERT INTO store_clock (account_id, offset_ms) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET offset_ms = excluded.offset_ms",
            [String(offset)])
    }

    func updateState(_ id: TransactionID, from: [TransactionState], to: TransactionState, reason: String?, now: Int64) throws -> Bool {
        let placeholders = from.indices.map { "$\($0 + 6)" }.joined(separator: ", ")
        return try execute(
            "UPDATE transactions SET state = $2, failure_reason = coalesce($3, failure_reason), updated_date = $4 WHERE account_id = $1 AND id = $5 AND state IN (\(placeholders))",
            [to.rawValue, reason, String(now), id.rawValue] + from.map(\.rawValue)
        ).affectedRows == 1
    }

    func hintsOwed(_ id: TransactionID) throws -> Int {
        Int(try execute("SELECT hints_owed FROM transactions WHERE account_id = $1 AND id = $2", [id.rawValue]).scalar ?? "0") ?? 0
    }

    func setHintsCredited(_ hints: Int, for id: TransactionID) throws {
        try execute("UPDATE transactions SET hints_credited = $3 WHERE account_id = $1 AND id = $2", [id.rawValue, String(hints)])
    }

    func setRevocationDate(_ date: Int64?, for id: TransactionID, now: Int64) throws {
        try execute("UPDATE transactions SET revocation_date = $3, updated_date = $4 WHERE account_id = $1 AND id = $2", [id.rawValue, date.map(String.init), String(now)])
    }

    // MARK: - Entitlements

    func grant(_ product: ProductID, by transaction: TransactionID, now: Int64) throws {
        try execute(
            """
            INSERT INTO entitlements (account_id, product_id, transaction_id, granted_date) VALUES ($1, $2, $3, $4)
            ON CONFLICT (account_id, product_id) DO UPDATE SET transaction_id = excluded.transaction_id, granted_date = excluded.granted_date, revoked_date = NULL
            """,
            [product.rawValue, transaction.rawValue, String(now)])
    }

    func revoke(_ product: ProductID, grantedBy transaction: TransactionID, now: Int64) throws {
        try execute(
            "UPDATE entitlements SET revoked_date = $4 WHERE account_id = $1 AND product_id = $2 AND transaction_id = $3",
            [product.rawValue, transaction.rawValue, String(now)])
    }

    func entitlements() throws -> [Entitlement] {
        try execute("SELECT product_id, transaction_id, granted_date, revoked_date FROM entitlements WHERE account_id = $1 ORDER BY product_id")
            .rows.map { row in
                guard row.count == 4, let product = row[0].flatMap(ProductID.init(rawValue:)), let id = row[1].flatMap(TransactionID.init(rawValue:)),
                    let granted = row[2].flatMap(Int64.init)
                else { throw ServiceError(.storage, "the ledger database holds a malformed entitlement row") }
                return Entitlement(productID: product, transactionID: id, grantedDate: granted, revokedDate: row[3].flatMap(Int64.init))
            }
    }

    // MARK: - Hints

    func balance() throws -> Int {
        Int(try execute("SELECT balance_after FROM hint_ledger WHERE account_id = $1 ORDER BY seq DESC LIMIT 1").scalar ?? "0") ?? 0
    }

    func appendHints(
        key: String, amount: Int, reason: HintReason, transaction: TransactionID?, balanceAfter: Int, now: Int64
    ) throws -> Bool {
        try execute(
            """
            INSERT INTO hint_ledger (account_id, entry_key, amount, reason, transaction_id, balance_after, created_date)
            VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (account_id, entry_key) DO NOTHING
            """,
            [key, String(amount), reason.rawValue, transaction?.rawValue, String(balanceAfter), String(now)]
        ).affectedRows == 1
    }

    func hintEntryAmount(key: String) throws -> Int? {
        try execute("SELECT amount FROM hint_ledger WHERE account_id = $1 AND entry_key = $2", [key]).scalar.flatMap { Int($0) }
    }

    func hasHintEntry(key: String) throws -> Bool {
        try execute("SELECT 1 FROM hint_ledger WHERE account_id = $1 AND entry_key = $2", [key]).rows.count == 1
    }

    // MARK: - Test controls

    func controls() throws -> [(name: String, enabled: Bool)] {
        try execute("SELECT name, enabled FROM controls WHERE account_id = $1").rows.compactMap { row in
            row[0].map { ($0, row[1] == "1") }
        }
    }

    func setControl(_ name: String, _ enabled: Bool) throws {
        try execute(
            "INSERT INTO controls (account_id, name, enabled) VALUES ($1, $2, $3) ON CONFLICT (account_id, name) DO UPDATE SET enabled = excluded.enabled",
            [name, enabled ? "1" : "0"])
    }

    func deleteHistory() throws {
        try execute("DELETE FROM game_moves WHERE account_id = $1")
        try execute("DELETE FROM games WHERE account_id = $1")
        try execute("DELETE FROM game_totals WHERE account_id = $1")
        try execute("DELETE FROM served_days WHERE account_id = $1")
        try execute("DELETE FROM subscriptions WHERE account_id = $1")
        try execute("DELETE FROM hint_ledger WHERE account_id = $1")
        try execute("DELETE FROM entitlements WHERE account_id = $1")
        // The seller's kept numbers take each row's facts away as it goes, and a subscription's
        // later period reads the one before it (and its first): periods go newest first.
        while let top = try execute("SELECT max(period) FROM transactions WHERE account_id = $1 AND period >= 1").scalar.flatMap(Int.init) {
            try execute("DELETE FROM transactions WHERE account_id = $1 AND period = $2", [String(top)])
        }
        try execute("DELETE FROM transactions WHERE account_id = $1")
    }

    // MARK: - Served games

    func liveGame() throws -> GameRow? {
        try execute("SELECT \(GameRow.columns) FROM games WHERE account_id = $1 AND state = 'playing' AND daily IS NULL AND challenge IS NULL").rows.first.map { row throws in
            try GameRow(columns: row)
        }
    }

    func streakFreezes() throws -> Int {
        Int(try execute("SELECT balance_after FROM streak_freezes WHERE account_id = $1 ORDER BY seq DESC LIMIT 1").rows.first?.first.flatMap { $0 } ?? "0") ?? 0
    }

    func appendStreakFreezes(key: String, amount: Int, reason: String, transaction: TransactionID?, language: String?, coveredDay: String?, now: Int64) throws -> Bool {
        // The account's rows are under its ledger's lock (the transaction took it): the newest is read once.
        let last = try execute("SELECT seq, balance_after FROM streak_freezes WHERE account_id = $1 ORDER BY seq DESC LIMIT 1").rows.first
        let seq = (last?[0].flatMap { Int64($0) } ?? 0) + 1
        let balance = (last?[1].flatMap { Int64($0) } ?? 0) + Int64(amount)
        return try execute(
            """
            INSERT INTO streak_freezes (account_id, seq, key, amount, reason, transaction_id, language, covered_day, balance_after, created_date)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (account_id, key) DO NOTHING
            """, [String(seq), key, String(amount), reason, transaction?.rawValue, language, coveredDay, String(balance), String(now)]
        ).affectedRows == 1
    }

    func streakFreezeAmount(key: String) throws -> Int? {
        try execute("SELECT amount FROM streak_freezes WHERE account_id = $1 AND key = $2", [key]).rows.first?.first.flatMap { $0 }.flatMap { Int($0) }
    }

    func coveredDays(language: String, limit: Int) throws -> [String] {
        try execute(
            "SELECT covered_day FROM streak_freezes WHERE account_id = $1 AND language = $2 AND covered_day IS NOT NULL ORDER BY covered_day DESC LIMIT $3",
            [language, String(limit)]
        ).rows.compactMap { $0.first.flatMap { $0 } }
    }

    func challengeGame(_ challenge: String) throws -> GameRow? {
        try execute("SELECT \(GameRow.columns) FROM games WHERE account_id = $1 AND challenge = $2", [challenge]).rows.first.map { row throws in
            try GameRow(columns: row)
        }
    }

    func dailyGame(date: String, language: String, hard: Bool) throws -> GameRow? {
        try execute(
            "SELECT \(GameRow.columns) FROM games WHERE account_id = $1 AND daily = $2 AND language = $3 AND (hard IS NOT NULL) = ($4 = '1')",
            [date, language, hard ? "1" : "0"]
        ).rows.first.map {
            row throws in try GameRow(columns: row)
        }
    }

    func endedGames() throws -> [GameRow] {
        try execute("SELECT \(GameRow.columns) FROM games WHERE account_id = $1 AND state <> 'playing' ORDER BY ended_date, started_date, id").rows.map {
            row throws in try GameRow(columns: row)
        }
    }

    func game(_ id: String) throws -> GameRow? {
        try execute("SELECT \(GameRow.columns) FROM games WHERE account_id = $1 AND id = $2", [id]).rows.first.map { row throws in
            try GameRow(columns: row)
        }
    }

    func gameMoves(_ id: String) throws -> [GameMoveRow] {
        try execute("SELECT \(GameMoveRow.columns) FROM game_moves WHERE account_id = $1 AND game_id = $2 ORDER BY seq", [id]).rows.map { row throws in
            try GameMoveRow(columns: row)
        }
    }

    func insertGame(_ row: GameRow) throws {
        try execute(
            "INSERT INTO games (account_id, \(GameRow.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, NULL, $13, NULL, NULL, $14, $15, $16, $17)",
            [row.id, row.productID.rawValue, row.packName, row.category, row.word, row.clue, row.language, String(row.lives), row.state.rawValue,
             String(row.score), String(row.startedDate), row.daily, row.archive ? "1" : "0", row.hardText, try row.candidatesText, row.challenge])
    }

    func narrowHardGame(_ row: GameRow) throws {
        try execute(
            "UPDATE games SET word = $3, clue = $4, candidates = $5 WHERE account_id = $1 AND id = $2 AND state = 'playing'",
            [row.id, row.word, row.clue, try row.candidatesText])
    }

    func appendGameMove(_ id: String, seq: Int, _ move: GameMoveRow, now: Int64) throws {
        try execute(
            "INSERT INTO game_moves (account_id, game_id, seq, kind, value, request_key, created_date) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [id, String(seq), move.kind.rawValue, move.value, move.requestKey, String(now)])
    }

    func gameTotals(kind: String, language: String) throws -> String? {
        try execute("SELECT record FROM game_totals WHERE account_id = $1 AND kind = $2 AND language = $3", [kind, language]).rows.first?.first ?? nil
    }

    func setGameTotals(kind: String, language: String, record: String) throws {
        try execute(
            """
            INSERT INTO game_totals (account_id, kind, language, record) VALUES ($1, $2, $3, $4)
            ON CONFLICT (account_id, kind, language) DO UPDATE SET record = excluded.record
            """, [kind, language, record])
    }

    func countServedGame(day: Int64, daily: Bool) throws {
        try execute(
            """
            INSERT INTO served_days (account_id, day, games, daily_games) VALUES ($1, $2, 1, $3)
            ON CONFLICT (account_id, day) DO UPDATE SET games = served_days.games + 1, daily_games = served_days.daily_games + excluded.daily_games
            """, [String(day), daily ? "1" : "0"])
    }

    func letGoOfEndedGames(keeping kept: Int) throws -> Int {
        let old = """
            SELECT id FROM games WHERE account_id = $1 AND daily IS NULL AND state <> 'playing' ORDER BY ended_date DESC, id DESC LIMIT ALL OFFSET $2
            """
        try execute("DELETE FROM game_moves WHERE account_id = $1 AND game_id IN (\(old))", [String(kept)])
        return try execute("DELETE FROM games WHERE account_id = $1 AND id IN (\(old))", [String(kept)]).affectedRows
    }

    func endGame(_ id: String, state: ServedGame.State, score: Int, misses: Int, hints: Int, now: Int64) throws {
        try execute(
            "UPDATE games SET state = $3, score = $4, misses = $5, hints = $6, ended_date = $7 WHERE account_id = $1 AND id = $2 AND state = 'playing'",
            [id, state.rawValue, String(score), String(misses), String(hints), String(now)])
    }

    // MARK: - Notifications

    func insertNotification(_ n: OutboxNotification) throws {
        try execute(
            "INSERT INTO notifications (account_id, \(OutboxNotification.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            [n.uuid, n.type, n.subtype, n.transaction?.rawValue, n.originalTransaction?.rawValue, String(n.created), n.nextAttempt.map(String.init),
             n.delivered.map(String.init), String(n.attempts), n.signedPayload])
    }

    func dueNotifications(now: Int64, limit: Int) throws -> [OutboxNotification] {
        try execute(
            """
            SELECT \(OutboxNotification.columns) FROM notifications WHERE account_id = $1 AND next_attempt_date <= $2
                AND (lease_until IS NULL OR lease_until <= $2) ORDER BY next_attempt_date, created_date, seq LIMIT $3
            """, [String(now), String(limit)]
        ).rows.map { row throws in try OutboxNotification(columns: row) }
    }

    func leaseNotification(_ uuid: String, until: Int64, now: Int64) throws -> Bool {
        try execute(
            """
            UPDATE notifications SET lease_until = $3 WHERE account_id = $1 AND uuid = $2 AND next_attempt_date <= $4
                AND (lease_until IS NULL OR lease_until <= $4)
            """, [uuid, String(until), String(now)]
        ).affectedRows == 1
    }

    func renewalExtensions(original: TransactionID, since: Int64) throws -> Int {
        Int(try execute(
            "SELECT count(*) FROM renewal_extensions WHERE account_id = $1 AND original_transaction_id = $2 AND extended_date >= $3 AND request_identifier IS NULL",
            [original.rawValue, String(since)]
        ).rows.first?.first??.description ?? "") ?? 0
    }

    func recordRenewalExtension(original: TransactionID, days: Int, now: Int64, request: String?, failed: Bool) throws -> Bool {
        try execute(
            """
            INSERT INTO renewal_extensions (account_id, original_transaction_id, extended_date, days, request_identifier, outcome)
            VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1
            """, [original.rawValue, String(now), String(days), request, request == nil ? nil : failed ? "failed" : "extended"]
        ).rows.count == 1
    }

    func massExtensionOutcome(original: TransactionID, request: String) throws -> String? {
        try execute(
            "SELECT outcome FROM renewal_extensions WHERE account_id = $1 AND original_transaction_id = $2 AND request_identifier = $3", [original.rawValue, request]
        ).scalar
    }

    func massExtension(_ requestIdentifier: String) throws -> MassExtension? {
        try execute("SELECT \(MassExtension.columns) FROM mass_extensions WHERE account_id = $1 AND request_identifier = $2", [requestIdentifier]).rows.first
            .map { row throws in try MassExtension(columns: row) }
    }

    func insertMassExtension(_ request: MassExtension) throws -> Bool {
        try execute(
            """
            INSERT INTO mass_extensions (account_id, request_identifier, product_id, days, reason, storefronts, requested_date) VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (account_id, request_identifier) DO NOTHING RETURNING 1
            """,
            [
                request.requestIdentifier, request.productID.rawValue, String(request.days), String(request.reason),
                request.storefronts.isEmpty ? nil : request.storefronts.joined(separator: ","), String(request.requestedDate),
            ]
        ).rows.count == 1
    }

    func claimMassExtension(now: Int64, until: Int64) throws -> MassExtension? {
        try execute(
            """
            UPDATE mass_extensions SET lease_until = $3 WHERE account_id = $1 AND request_identifier = (
                SELECT request_identifier FROM mass_extensions WHERE account_id = $1 AND complete_date IS NULL AND (lease_until IS NULL OR lease_until <= $2)
                ORDER BY requested_date, request_identifier LIMIT 1)
            RETURNING \(MassExtension.columns)
            """, [String(now), String(until)]
        ).rows.first.map { row throws in try MassExtension(columns: row) }
    }

    func hasIncompleteMassExtension() throws -> Bool {
        try execute("SELECT 1 FROM mass_extensions WHERE account_id = $1 AND complete_date IS NULL LIMIT 1").rows.count == 1
    }

    func saveMassExtension(_ request: MassExtension, heldUntil: Int64) throws -> Bool {
        try execute(
            """
            UPDATE mass_extensions SET last_account = $3, succeeded = $4, failed = $5, complete_date = $6, lease_until = NULL
            WHERE account_id = $1 AND request_identifier = $2 AND lease_until = $7 RETURNING 1
            """,
            [request.requestIdentifier, request.lastAccount, String(request.succeeded), String(request.failed), request.completeDate.map(String.init), String(heldUntil)]
        ).rows.count == 1
    }

    func insertGrant(_ id: TransactionID, reason: String, by: String, now: Int64) throws {
        try execute(
            "INSERT INTO grants (account_id, transaction_id, reason, granted_by, granted_date) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id, transaction_id) DO NOTHING",
            [id.rawValue, reason, by, String(now)])
    }

    func grant(_ id: TransactionID) throws -> GrantRecord? {
        guard let row = try execute("SELECT reason, granted_by, granted_date FROM grants WHERE account_id = $1 AND transaction_id = $2", [id.rawValue]).rows.first
        else { return nil }
        guard let reason = row[0], let by = row[1], let date = row[2].flatMap(Int64.init) else {
            throw ServiceError(.storage, "the ledger database holds a malformed grant")
        }
        return GrantRecord(reason: reason, grantedBy: by, grantedDate: date)
    }

    func setAppAccountToken(original: TransactionID, token: String, replacing: Bool) throws {
        try execute(
            "INSERT INTO app_account_tokens (account_id, original_transaction_id, app_account_token) VALUES ($1, $2, $3) "
                + "ON CONFLICT (account_id, original_transaction_id) DO " + (replacing ? "UPDATE SET app_account_token = excluded.app_account_token" : "NOTHING"),
            [original.rawValue, token])
    }

    func appTransaction() throws -> AppTransactionRecord? {
        guard let row = try execute("SELECT app_transaction_id, original_purchase_date FROM app_transaction WHERE account_id = $1").rows.first else { return nil }
        guard let id = row[0].flatMap(TransactionID.init(rawValue:)), let date = row[1].flatMap(Int64.init) else {
            throw ServiceError(.storage, "the ledger database holds a malformed app transaction")
        }
        return AppTransactionRecord(id: id, originalPurchaseDate: date)
    }

    func insertAppTransaction(_ record: AppTransactionRecord) throws {
        try execute(
            "INSERT INTO app_transaction (account_id, app_transaction_id, original_purchase_date) VALUES ($1, $2, $3) ON CONFLICT (account_id) DO NOTHING",
            [record.id.rawValue, String(record.originalPurchaseDate)])
    }

    func dropNotificationPayloads(deliveredBefore before: Int64) throws {
        try execute(
            "UPDATE notifications SET signed_payload = NULL WHERE account_id = $1 AND delivered_date < $2 AND signed_payload IS NOT NULL", [String(before)])
    }

    func recordAttempt(_ uuid: String, _ attempt: NotificationAttempt, delivered: Bool, nextAttempt: Int64?, payload: String?) throws {
        _ = try execute(
            """
            INSERT INTO notification_attempts (account_id, uuid, seq, attempted_date, result, http_status)
            VALUES ($1, $2, (SELECT count(*) + 1 FROM notification_attempts WHERE account_id = $1 AND uuid = $2), $3, $4, $5)
            """, [uuid, String(attempt.date), attempt.result, attempt.httpStatus.map(String.init)])
        _ = try execute(
            """
            UPDATE notifications SET attempts = attempts + 1, lease_until = NULL, next_attempt_date = $3,
                delivered_date = CASE WHEN $4 THEN $5::bigint ELSE delivered_date END, signed_payload = coalesce(signed_payload, $6)
                WHERE account_id = $1 AND uuid = $2
            """, [uuid, nextAttempt.map(String.init), delivered ? "true" : "false", String(attempt.date), payload])
    }

    func notifications() throws -> [OutboxNotification] {
        try execute("SELECT \(OutboxNotification.columns) FROM notifications WHERE account_id = $1 ORDER BY created_date, seq").rows.map { row throws in
            try OutboxNotification(columns: row)
        }
    }

    func notificationAttempts(_ uuid: String) throws -> [NotificationAttempt] {
        try execute("SELECT \(NotificationAttempt.columns) FROM notification_attempts WHERE account_id = $1 AND uuid = $2 ORDER BY seq", [uuid]).rows
            .map { row throws in try NotificationAttempt(columns: row) }
    }

    func retryNotification(_ uuid: String, now: Int64) throws -> Bool {
        try execute(
            "UPDATE notifications SET next_attempt_date = $3, lease_until = NULL WHERE account_id = $1 AND uuid = $2 AND delivered_date IS NULL RETURNING uuid",
            [uuid, String(now)]
        ).rows.count == 1
    }

    func nextNotificationDue() throws -> Int64? {
        try execute("SELECT min(next_attempt_date) FROM notifications WHERE account_id = $1 AND next_attempt_date IS NOT NULL").scalar.flatMap(Int64.init)
    }

    func setExpiresDate(_ date: Int64, for id: TransactionID) throws {
        _ = try execute("UPDATE transactions SET expires_date = $2 WHERE account_id = $1 AND id = $3", [String(date), id.rawValue])
    }

    func saveConsumption(_ transaction: TransactionID, body: String, now: Int64) throws {
        _ = try execute(
            """
            INSERT INTO consumption_reports (account_id, transaction_id, received_date, body) VALUES ($1, $2, $3, $4)
            ON CONFLICT (account_id, transaction_id) DO UPDATE SET received_date = excluded.received_date, body = excluded.body
            """, [transaction.rawValue, String(now), body])
    }

    func useOffer(_ offer: OfferUse, for id: TransactionID, now: Int64) throws -> Bool {
        try execute(
            """
            INSERT INTO signed_offers (account_id, nonce, transaction_id, audience, allow_introductory_offer, offer_identifier, offer_kind, offer_periods, used_date)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (account_id, nonce) DO NOTHING RETURNING 1
            """,
            [
                offer.nonce, id.rawValue, offer.audience, offer.allowIntroductoryOffer.map { $0 ? "1" : "0" }, offer.identifier, offer.offer?.kind.rawValue,
                offer.offer.map { String($0.periods) }, String(now),
            ]
        ).rows.count == 1
    }

    func introductoryOfferAllowed(_ id: TransactionID) throws -> Bool? {
        try execute(
            """
            SELECT allow_introductory_offer FROM signed_offers WHERE account_id = $1 AND transaction_id = $2 AND allow_introductory_offer IS NOT NULL
            """, [id.rawValue]).scalar.map { $0 == "1" }
    }

    func purchaseOffer(_ id: TransactionID) throws -> PromotionalOffer? {
        try execute(
            "SELECT offer_identifier, offer_kind, offer_periods FROM signed_offers WHERE account_id = $1 AND transaction_id = $2 AND offer_kind IS NOT NULL",
            [id.rawValue]
        ).rows.first.map { row throws in try PromotionalOffer(columns: row) }
    }

    func markOffer(_ identifier: String, on id: TransactionID) throws {
        _ = try execute(
            "INSERT INTO transaction_offers (account_id, transaction_id, offer_identifier) VALUES ($1, $2, $3) ON CONFLICT (account_id, transaction_id) DO NOTHING",
            [id.rawValue, identifier])
    }

    func consumption(_ transaction: TransactionID) throws -> String? {
        try execute("SELECT body FROM consumption_reports WHERE account_id = $1 AND transaction_id = $2", [transaction.rawValue]).scalar
    }

    func refundCase(_ transaction: TransactionID) throws -> RefundCase? {
        try execute("SELECT \(RefundCase.columns) FROM refund_cases WHERE account_id = $1 AND transaction_id = $2", [transaction.rawValue]).rows.first
            .map { row throws in try RefundCase(columns: row) }
    }

    func priceAgreement(_ original: TransactionID) throws -> PriceAgreement? {
        try execute("SELECT \(PriceAgreement.columns) FROM price_agreements WHERE account_id = $1 AND original_transaction_id = $2", [original.rawValue]).rows
            .first.map { row throws in try PriceAgreement(columns: row) }
    }

    func priceAgreements() throws -> [PriceAgreement] {
        try execute("SELECT \(PriceAgreement.columns) FROM price_agreements WHERE account_id = $1").rows.map { row throws in try PriceAgreement(columns: row) }
    }

    func savePriceAgreement(_ agreement: PriceAgreement) throws {
        _ = try execute(
            """
            INSERT INTO price_agreements (account_id, \(PriceAgreement.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            ON CONFLICT (account_id, original_transaction_id) DO UPDATE SET product_id = excluded.product_id, currency = excluded.currency,
                agreed_minor = excluded.agreed_minor, told_minor = excluded.told_minor, told_date = excluded.told_date, consented_date = excluded.consented_date,
                ended_date = excluded.ended_date
            """, agreement.values)
    }

    func dailyGames(language: String) throws -> [GameRow] {
        try execute("SELECT \(GameRow.columns) FROM games WHERE account_id = $1 AND daily IS NOT NULL AND hard IS NULL AND language = $2 ORDER BY daily", [language]).rows.map {
            row throws in try GameRow(columns: row)
        }
    }

    func refundCases() throws -> [RefundCase] {
        try execute(RefundCase.selectWithConsumption(account: "$1")).rows.map { row throws in try RefundCase(columns: row) }
    }

    func saveRefundCase(_ refundCase: RefundCase) throws {
        _ = try execute(
            """
            INSERT INTO refund_cases (account_id, \(RefundCase.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            ON CONFLICT (account_id, transaction_id) DO UPDATE SET state = excluded.state, reason = excluded.reason, requested_date = excluded.requested_date,
                decided_date = excluded.decided_date, reversed_date = excluded.reversed_date, consumption = excluded.consumption
            """,
            [
                refundCase.transactionID.rawValue, refundCase.state.rawValue, refundCase.reason?.rawValue, refundCase.requestedDate.map(String.init),
                refundCase.decidedDate.map(String.init), refundCase.reversedDate.map(String.init), refundCase.consumption,
            ])
    }
}
