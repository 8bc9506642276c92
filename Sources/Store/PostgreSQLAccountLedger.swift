import PostgreSQL
import WordPacks

/// The ledgers of every account in one PostgreSQL database, shared by several servers: the
/// connection pool and the schema, migrated once when opened.
///
/// ```swift
/// let ledgers = try PostgreSQLLedgers(connectionString: "postgresql://hangman@db/hangman")
/// let service = try EmbeddedPackService(catalog: catalog, packsFolder: "Packs", ledgers: ledgers, account: id, signingKey: key)
/// ```
public final class PostgreSQLLedgers: Sendable {
    /// The connections every account's ledger borrows from.
    public let pool: ConnectionPool

    /// Connects and brings the schema up to date (several servers starting at once take turns).
    /// `connections` bounds the connections this process opens.
    public init(connectionString: String, connections: Int = 8) throws(StoreError) {
        pool = ConnectionPool(connectionString: connectionString, capacity: connections)
        do {
            try PostgreSQLLedgerSchema.migrations.migrate(pool)
        } catch {
            throw PostgreSQLAccountLedger.failure(error, opening: true)
        }
    }

    /// The migrations this program applies, by name (the same names as the SQLite account schema's).
    public static var migrationNames: [String] { PostgreSQLLedgerSchema.migrations.names }

    /// The ledger of `account`, made on first use.
    func ledger(account: String, now: Int64) throws(StoreError) -> PostgreSQLAccountLedger {
        let ledger = PostgreSQLAccountLedger(pool: pool, account: account)
        try ledger.create(now: now)
        return ledger
    }
}

/// One account's records in the shared PostgreSQL database. Every write is one transaction that
/// first locks the account's `ledgers` row (`SELECT ... FOR UPDATE`): writes of one account take
/// turns across servers; different accounts never wait for each other. Parameters are always
/// bound (`PQexecParams`).
final class PostgreSQLAccountLedger: AccountLedger {
    let pool: ConnectionPool
    let account: String

    init(pool: ConnectionPool, account: String) {
        self.pool = pool
        self.account = account
    }

    func create(now: Int64) throws(StoreError) {
        try run(locking: false) { connection in
            try connection.execute(
                "INSERT INTO ledgers (account_id, created_date) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING", [account, String(now)])
        }
    }

    /// Runs `body` in one transaction, after locking the account's row when it writes.
    @discardableResult
    private func run<T>(locking: Bool = true, _ body: (Connection) throws -> T) throws(StoreError) -> T {
        do {
            return try pool.transaction { connection in
                if locking {
                    guard try connection.execute("SELECT 1 FROM ledgers WHERE account_id = $1 FOR UPDATE", [account]).rows.count == 1 else {
                        throw StoreError(.storage, "the ledger of account \(account) is missing from the database")
                    }
                }
                return try body(connection)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.failure(error, opening: false)
        }
    }

    private func read<T>(_ body: (Connection) throws -> T) throws(StoreError) -> T {
        try run(locking: false, body)
    }

    /// What a failure of the database means: gone away (503, try again) or broken (500).
    static func failure(_ error: any Error, opening: Bool) -> StoreError {
        if let error = error as? PostgreSQLError {
            if error.isConnectionLost {
                return StoreError(.unavailable, "the ledger database is unavailable (\(error.message)): the change may not have been made; the same request (with its key) is safe to send again")
            }
            return StoreError(.storage, (opening ? "cannot prepare the ledger database: " : "the ledger database failed: ") + error.description)
        }
        return StoreError(.storage, "the ledger database failed: \(error)")
    }

    // MARK: - Transactions

    static let columns = "id, product_id, consumable, quantity, state, failure_reason, hints_credited, purchase_date, updated_date, revocation_date"

    static func transaction(_ row: [String?]) throws -> StoreTransaction {
        guard row.count == 10, let id = row[0].flatMap(TransactionID.init(rawValue:)), let product = row[1].flatMap(ProductID.init(rawValue:)),
            let consumable = row[2].flatMap(Int.init), let quantity = row[3].flatMap(Int.init), let state = row[4].flatMap(TransactionState.init(rawValue:)),
            let credited = row[6].flatMap(Int.init), let purchased = row[7].flatMap(Int64.init), let updated = row[8].flatMap(Int64.init)
        else { throw StoreError(.storage, "the ledger database holds a malformed transaction row") }
        return StoreTransaction(
            id: id, productID: product, isConsumable: consumable == 1, quantity: quantity, state: state, failureReason: row[5],
            purchaseDate: purchased, updatedDate: updated, revocationDate: row[9].flatMap(Int64.init), hintsCredited: credited)
    }

    private func select(_ connection: Connection, _ condition: String, _ arguments: [String?]) throws -> [StoreTransaction] {
        try connection.execute("SELECT \(Self.columns) FROM transactions WHERE account_id = $1 \(condition)", [account] + arguments)
            .rows.map(Self.transaction)
    }

    func transaction(requestKey: String) throws(StoreError) -> StoreTransaction? {
        try read { connection in try select(connection, "AND request_key = $2", [requestKey]).first }
    }

    func transaction(_ id: TransactionID) throws(StoreError) -> StoreTransaction? {
        try read { connection in try select(connection, "AND id = $2", [id.rawValue]).first }
    }

    func transactions() throws(StoreError) -> [StoreTransaction] {
        try read { connection in try select(connection, "ORDER BY purchase_date, seq", []) }
    }

    func unfinished() throws(StoreError) -> [StoreTransaction] {
        try read { connection in try select(connection, "AND state IN ('purchasing', 'purchased', 'delivered') ORDER BY seq", []) }
    }

    func insertPurchasing(_ id: TransactionID, product: Product, quantity: Int, requestKey: String?, now: Int64) throws(StoreError) -> Bool {
        try run { connection in
            var owed = 0
            if case .consumable(let each) = product.kind { owed = each * quantity }
            do {
                return try connection.execute(
                    """
                    INSERT INTO transactions (account_id, id, product_id, consumable, quantity, state, purchase_date, updated_date, hints_owed, request_key)
                    VALUES ($1, $2, $3, $4, $5, 'purchasing', $6, $7, $8, $9) ON CONFLICT (account_id, id) DO NOTHING
                    """,
                    [account, id.rawValue, product.id.rawValue, product.isConsumable ? "1" : "0", String(quantity), String(now), String(now), String(owed), requestKey]
                ).affectedRows == 1
            } catch let error as PostgreSQLError where error.state == .uniqueViolation {
                throw StoreError(.purchaseInProgress, "a purchase of \(product.id) is already in progress or waiting for approval: try again later, or see 'hangman transactions'")
            }
        }
    }

    func move(_ id: TransactionID, from: [TransactionState], to: TransactionState, reason: String?, now: Int64) throws(StoreError) -> Bool {
        try run { connection in
            let placeholders = from.indices.map { "$\($0 + 6)" }.joined(separator: ", ")
            return try connection.execute(
                "UPDATE transactions SET state = $2, failure_reason = coalesce($3, failure_reason), updated_date = $4 WHERE account_id = $1 AND id = $5 AND state IN (\(placeholders))",
                [account, to.rawValue, reason, String(now), id.rawValue] + from.map(\.rawValue)
            ).affectedRows == 1
        }
    }

    func deliver(_ id: TransactionID, legacyHints: Int, now: Int64) throws(StoreError) -> Bool {
        try run { connection in
            guard let transaction = try select(connection, "AND id = $2", [id.rawValue]).first, transaction.state == .purchased else {
                return false
            }
            if transaction.isConsumable {
                let owed = Int(try connection.execute("SELECT hints_owed FROM transactions WHERE account_id = $1 AND id = $2", [account, id.rawValue]).scalar ?? "0") ?? 0
                let hints = owed > 0 ? owed : legacyHints
                if hints > 0 {
                    try appendHints(connection, key: "credit:\(id)", amount: hints, reason: "purchase", transaction: id, now: now)
                }
                try connection.execute("UPDATE transactions SET hints_credited = $3 WHERE account_id = $1 AND id = $2", [account, id.rawValue, String(hints)])
            } else {
                try connection.execute(
                    """
                    INSERT INTO entitlements (account_id, product_id, transaction_id, granted_date) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (account_id, product_id) DO UPDATE SET transaction_id = excluded.transaction_id, granted_date = excluded.granted_date, revoked_date = NULL
                    """,
                    [account, transaction.productID.rawValue, id.rawValue, String(now)])
            }
            try connection.execute("UPDATE transactions SET state = 'delivered', updated_date = $3 WHERE account_id = $1 AND id = $2", [account, id.rawValue, String(now)])
            return true
        }
    }

    func refund(_ id: TransactionID, now: Int64) throws(StoreError) -> Int {
        try run { connection in
            guard let transaction = try select(connection, "AND id = $2", [id.rawValue]).first else {
                throw StoreError(.unknownTransaction, "no transaction \(id): see 'hangman transactions'")
            }
            guard transaction.revocationDate == nil else { throw StoreError(.wrongState, "transaction \(id) is already refunded") }
            guard [.delivered, .finished].contains(transaction.state) else {
                throw StoreError(.wrongState, "transaction \(id) is \(transaction.state.rawValue); only a delivered purchase can be refunded")
            }
            try connection.execute(
                "UPDATE transactions SET revocation_date = $3, updated_date = $3 WHERE account_id = $1 AND id = $2", [account, id.rawValue, String(now)])
            if transaction.isConsumable {
                let clawback = min(try balance(connection), transaction.hintsCredited)
                if clawback > 0 {
                    try appendHints(connection, key: "refund:\(id)", amount: -clawback, reason: "refund", transaction: id, now: now)
                }
                return clawback
            }
            try connection.execute(
                "UPDATE entitlements SET revoked_date = $4 WHERE account_id = $1 AND product_id = $2 AND transaction_id = $3",
                [account, transaction.productID.rawValue, id.rawValue, String(now)])
            return 0
        }
    }

    // MARK: - Entitlements

    func entitlements() throws(StoreError) -> [Entitlement] {
        try read { connection in
            try connection.execute(
                "SELECT product_id, transaction_id, granted_date, revoked_date FROM entitlements WHERE account_id = $1 ORDER BY product_id", [account]
            ).rows.map { row in
                guard row.count == 4, let product = row[0].flatMap(ProductID.init(rawValue:)), let id = row[1].flatMap(TransactionID.init(rawValue:)),
                    let granted = row[2].flatMap(Int64.init)
                else { throw StoreError(.storage, "the ledger database holds a malformed entitlement row") }
                return Entitlement(productID: product, transactionID: id, grantedDate: granted, revokedDate: row[3].flatMap(Int64.init))
            }
        }
    }

    // MARK: - Hints

    func balance() throws(StoreError) -> Int {
        try read { connection in try balance(connection) }
    }

    private func balance(_ connection: Connection) throws -> Int {
        Int(try connection.execute(
            "SELECT balance_after FROM hint_ledger WHERE account_id = $1 ORDER BY seq DESC LIMIT 1", [account]).scalar ?? "0") ?? 0
    }

    func spend(key: String, now: Int64) throws(StoreError) -> HintSpend {
        try run { connection in
            if try connection.execute("SELECT 1 FROM hint_ledger WHERE account_id = $1 AND entry_key = $2", [account, "spend:\(key)"]).rows.count == 1 {
                return HintSpend(balance: try balance(connection), wasAlreadySpent: true)
            }
            guard try balance(connection) >= 1 else { throw StoreError(.notEnoughHints, "no hints left") }
            try appendHints(connection, key: "spend:\(key)", amount: -1, reason: "spend", transaction: nil, now: now)
            return HintSpend(balance: try balance(connection), wasAlreadySpent: false)
        }
    }

    /// Appends a ledger row; the running balance can never go below zero (a CHECK constraint).
    private func appendHints(_ connection: Connection, key: String, amount: Int, reason: String, transaction: TransactionID?, now: Int64) throws {
        let after = try balance(connection) + amount
        try connection.execute(
            """
            INSERT INTO hint_ledger (account_id, entry_key, amount, reason, transaction_id, balance_after, created_date)
            VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (account_id, entry_key) DO NOTHING
            """,
            [account, key, String(amount), reason, transaction?.rawValue, String(after), String(now)])
    }

    // MARK: - Test controls

    func controls() throws(StoreError) -> StoreControls {
        try read { connection in
            var controls = StoreControls()
            for row in try connection.execute("SELECT name, enabled FROM controls WHERE account_id = $1", [account]).rows {
                if let name = row[0] { controls.set(name, row[1] == "1") }
            }
            return controls
        }
    }

    func setControls(_ controls: StoreControls) throws(StoreError) {
        try run { connection in
            for (name, enabled) in controls.named {
                try connection.execute(
                    "INSERT INTO controls (account_id, name, enabled) VALUES ($1, $2, $3) ON CONFLICT (account_id, name) DO UPDATE SET enabled = excluded.enabled",
                    [account, name, enabled ? "1" : "0"])
            }
        }
    }

    func clear() throws(StoreError) {
        try run { connection in
            try connection.execute("DELETE FROM hint_ledger WHERE account_id = $1", [account])
            try connection.execute("DELETE FROM entitlements WHERE account_id = $1", [account])
            try connection.execute("DELETE FROM transactions WHERE account_id = $1", [account])
        }
    }
}
