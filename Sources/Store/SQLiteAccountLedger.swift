import SQLite
import WordPacks

/// The account's records, in SQLite: every write is one `BEGIN IMMEDIATE` transaction, so that
/// a process killed at any moment leaves either the state before or the state after.
final class SQLiteAccountLedger: AccountLedger {
    let db: Database

    init(path: String) throws(StoreError) {
        do {
            db = try Database.openState(path: path, migrator: AccountSchema.migrator)
        } catch {
            throw Self.failure(error, path: path, opening: true)
        }
    }

    /// Runs `body` in one immediate transaction, mapping SQLite's errors to `StoreError`.
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try db.transaction(.immediate, body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.failure(error, path: db.path, opening: false)
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try db.transaction(.deferred, body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.failure(error, path: db.path, opening: false)
        }
    }

    /// What a failure of the account database means: a damaged file is named, kept, and what to
    /// do is said; it is never replaced by an empty account.
    static func failure(_ error: any Error, path: String, opening: Bool) -> StoreError {
        if let error = error as? SQLiteError, error.code.primary == .corrupt || error.code.primary == .notADatabase {
            return StoreError(
                .storage,
                "the account database \(path) is damaged (\(error.message)); it was left as it is. It holds the account's "
                    + "purchases and hints: restore it from a backup (with its -wal file, or made by sqlite3's .backup). Moving it away "
                    + "starts a new, empty account (a log it leaves behind is set aside as -wal.orphaned-...)")
        }
        if let error = error as? SQLiteError {
            return StoreError(.storage, opening ? "cannot open the account database \(path): \(error.message)" : "the account database \(path) failed: \(error.message)")
        }
        return StoreError(.storage, "the account database \(path) failed: \(error)")
    }

    // MARK: - Transactions

    static let columns = "id, product_id, consumable, quantity, state, failure_reason, hints_credited, purchase_date, updated_date, revocation_date"

    static func transaction(_ row: Row) throws -> StoreTransaction {
        guard let id = TransactionID(rawValue: try row.string(0)), let product = ProductID(rawValue: try row.string(1)),
            let state = TransactionState(rawValue: try row.string(4))
        else { throw StoreError(.storage, "the account database holds a malformed transaction row") }
        return StoreTransaction(
            id: id, productID: product, isConsumable: try row.bool(2), quantity: try row.int(3), state: state,
            failureReason: try row[5].stringValue, purchaseDate: try row.int64(7), updatedDate: try row.int64(8),
            revocationDate: try row[9].int64Value, hintsCredited: try row.int(6))
    }

    /// The transaction a purchase request key made, if any.
    func transaction(requestKey: String) throws(StoreError) -> StoreTransaction? {
        try read { db in
            try db.query("SELECT \(Self.columns) FROM transactions WHERE request_key = ?", .text(requestKey)).first.map(Self.transaction)
        }
    }

    func transaction(_ id: TransactionID) throws(StoreError) -> StoreTransaction? {
        try read { db in
            try db.query("SELECT \(Self.columns) FROM transactions WHERE id = ?", .text(id.rawValue)).first.map(Self.transaction)
        }
    }

    func transactions() throws(StoreError) -> [StoreTransaction] {
        try read { db in
            try db.query("SELECT \(Self.columns) FROM transactions ORDER BY purchase_date, rowid").map(Self.transaction)
        }
    }

    /// Transactions that a crash left between two steps.
    func unfinished() throws(StoreError) -> [StoreTransaction] {
        try read { db in
            try db.query("SELECT \(Self.columns) FROM transactions WHERE state IN ('purchasing', 'purchased', 'delivered') ORDER BY rowid")
                .map(Self.transaction)
        }
    }

    /// Records a new purchase in state `purchasing`; returns `nil` if the id is taken.
    /// Throws `wrongState` when the product is a pack with a live purchase already.
    func insertPurchasing(_ id: TransactionID, product: Product, quantity: Int, requestKey: String?, now: Int64) throws(StoreError) -> Bool {
        try write { db in
            do {
                var owed = 0
                if case .consumable(let each) = product.kind { owed = each * quantity }
                try db.execute(
                    "INSERT INTO transactions (id, product_id, consumable, quantity, state, purchase_date, updated_date, hints_owed, request_key) VALUES (?, ?, ?, ?, 'purchasing', ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING",
                    .text(id.rawValue), .text(product.id.rawValue), .integer(product.isConsumable ? 1 : 0), .integer(Int64(quantity)),
                    .integer(now), .integer(now), .integer(Int64(owed)), requestKey.map(SQLValue.text) ?? .null)
                return db.changes == 1
            } catch let error as SQLiteError where error.code == .constraintUnique {
                throw StoreError(.purchaseInProgress, "a purchase of \(product.id) is already in progress or waiting for approval: try again later, or see 'hangman transactions'")
            }
        }
    }

    /// Moves a transaction from one of `from` to `to`; `false` when it was in another state.
    func move(_ id: TransactionID, from: [TransactionState], to: TransactionState, reason: String?, now: Int64) throws(StoreError) -> Bool {
        try write { db in
            let placeholders = from.map { _ in "?" }.joined(separator: ", ")
            try db.execute(
                sql: "UPDATE transactions SET state = ?, failure_reason = coalesce(?, failure_reason), updated_date = ? WHERE id = ? AND state IN (\(placeholders))",
                arguments: [.text(to.rawValue), reason.map(SQLValue.text) ?? .null, .integer(now), .text(id.rawValue)] + from.map { .text($0.rawValue) })
            return db.changes == 1
        }
    }

    /// Delivers a charged transaction exactly once: credits the hints it owes or grants the pack,
    /// and marks it delivered, in one database transaction. `false` when it was not waiting for delivery.
    /// `legacyHints` is credited for a row written before `hints_owed` existed (it owes 0 there).
    func deliver(_ id: TransactionID, legacyHints: Int, now: Int64) throws(StoreError) -> Bool {
        try write { db in
            guard let row = try db.query("SELECT \(Self.columns) FROM transactions WHERE id = ?", .text(id.rawValue)).first else {
                return false
            }
            let transaction = try Self.transaction(row)
            guard transaction.state == .purchased else { return false }
            if transaction.isConsumable {
                let owed = Int(try db.int64("SELECT hints_owed FROM transactions WHERE id = ?", .text(id.rawValue)) ?? 0)
                let hints = owed > 0 ? owed : legacyHints
                if hints > 0 {
                    try Self.appendHints(db, key: "credit:\(id)", amount: hints, reason: "purchase", transaction: id, now: now)
                }
                try db.execute("UPDATE transactions SET hints_credited = ? WHERE id = ?", .integer(Int64(hints)), .text(id.rawValue))
            } else {
                try db.execute(
                    """
                    INSERT INTO entitlements (product_id, transaction_id, granted_date) VALUES (?, ?, ?)
                    ON CONFLICT(product_id) DO UPDATE SET transaction_id = excluded.transaction_id, granted_date = excluded.granted_date, revoked_date = NULL
                    """,
                    .text(transaction.productID.rawValue), .text(id.rawValue), .integer(now))
            }
            try db.execute("UPDATE transactions SET state = 'delivered', updated_date = ? WHERE id = ?", .integer(now), .text(id.rawValue))
            return true
        }
    }

    /// Refunds a paid transaction: revokes the pack, or takes back the hints it credited as far as
    /// the balance allows. Returns the hints taken back.
    func refund(_ id: TransactionID, now: Int64) throws(StoreError) -> Int {
        try write { db in
            guard let row = try db.query("SELECT \(Self.columns) FROM transactions WHERE id = ?", .text(id.rawValue)).first else {
                throw StoreError(.unknownTransaction, "no transaction \(id): see 'hangman transactions'")
            }
            let transaction = try Self.transaction(row)
            guard transaction.revocationDate == nil else { throw StoreError(.wrongState, "transaction \(id) is already refunded") }
            guard [.delivered, .finished].contains(transaction.state) else {
                throw StoreError(.wrongState, "transaction \(id) is \(transaction.state.rawValue); only a delivered purchase can be refunded")
            }
            try db.execute("UPDATE transactions SET revocation_date = ?, updated_date = ? WHERE id = ?", .integer(now), .integer(now), .text(id.rawValue))
            if transaction.isConsumable {
                let clawback = min(try Self.balance(db), transaction.hintsCredited)
                if clawback > 0 {
                    try Self.appendHints(db, key: "refund:\(id)", amount: -clawback, reason: "refund", transaction: id, now: now)
                }
                return clawback
            }
            try db.execute("UPDATE entitlements SET revoked_date = ? WHERE product_id = ? AND transaction_id = ?",
                .integer(now), .text(transaction.productID.rawValue), .text(id.rawValue))
            return 0
        }
    }

    // MARK: - Entitlements

    func entitlements() throws(StoreError) -> [Entitlement] {
        try read { db in
            try db.query("SELECT product_id, transaction_id, granted_date, revoked_date FROM entitlements ORDER BY product_id").map { row in
                guard let product = ProductID(rawValue: try row.string(0)), let id = TransactionID(rawValue: try row.string(1)) else {
                    throw StoreError(.storage, "the account database holds a malformed entitlement row")
                }
                return Entitlement(productID: product, transactionID: id, grantedDate: try row.int64(2), revokedDate: try row[3].int64Value)
            }
        }
    }

    // MARK: - Hints

    func balance() throws(StoreError) -> Int {
        try read { db in try Self.balance(db) }
    }

    static func balance(_ db: Database) throws -> Int {
        Int(try db.prepareCached(balanceSQL).int64() ?? 0)
    }

    /// Spends one hint under `key`; a key already spent takes nothing again.
    ///
    /// One transaction of two statements, each compiled once per connection: the balance, read
    /// once, and an insert that does nothing when the key was spent before (the same statements
    /// as `sqlite3` would run). Only with no hint left is the key looked up, to answer a retry.
    func spend(key: String, now: Int64) throws(StoreError) -> HintSpend {
        let entryKey = "spend:\(key)"
        return try write { db in
            let balance = Int(try db.prepareCached(Self.balanceSQL).int64() ?? 0)
            if balance >= 1 {
                try db.prepareCached(Self.appendSQL).execute { values in
                    values.bind(entryKey, at: 1)
                    values.bind(-1, at: 2)
                    values.bind("spend", at: 3)
                    values.bindNull(at: 4)
                    values.bind(balance - 1, at: 5)
                    values.bind(now, at: 6)
                }
                return db.changes == 1
                    ? HintSpend(balance: balance - 1, wasAlreadySpent: false) : HintSpend(balance: balance, wasAlreadySpent: true)
            }
            let spent = try db.prepareCached("SELECT count(*) FROM hint_ledger WHERE entry_key = ?").int64 { $0.bind(entryKey, at: 1) }
            guard spent == 1 else { throw StoreError(.notEnoughHints, "no hints left") }
            return HintSpend(balance: balance, wasAlreadySpent: true)
        }
    }

    private static let balanceSQL = "SELECT balance_after FROM hint_ledger ORDER BY seq DESC LIMIT 1"
    private static let appendSQL = "INSERT INTO hint_ledger (entry_key, amount, reason, transaction_id, balance_after, created_date) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(entry_key) DO NOTHING"

    /// Appends a ledger row; the running balance can never go below zero (a CHECK constraint).
    static func appendHints(_ db: Database, key: String, amount: Int, reason: String, transaction: TransactionID?, now: Int64) throws {
        let after = try balance(db) + amount
        try db.prepareCached(appendSQL).execute { values in
            values.bind(key, at: 1)
            values.bind(amount, at: 2)
            values.bind(reason, at: 3)
            values.bind(transaction?.rawValue, at: 4)
            values.bind(after, at: 5)
            values.bind(now, at: 6)
        }
    }

    // MARK: - Test controls

    func controls() throws(StoreError) -> StoreControls {
        try read { db in
            var controls = StoreControls()
            for row in try db.query("SELECT name, enabled FROM controls") {
                let enabled = try row.bool(1)
                switch try row.string(0) {
                case "fail-purchases": controls.failPurchases = enabled
                case "ask-to-buy": controls.askToBuy = enabled
                case "interrupt-purchases": controls.interruptPurchases = enabled
                default: break
                }
            }
            return controls
        }
    }

    func setControls(_ controls: StoreControls) throws(StoreError) {
        try write { db in
            for (name, enabled) in [("fail-purchases", controls.failPurchases), ("ask-to-buy", controls.askToBuy), ("interrupt-purchases", controls.interruptPurchases)] {
                try db.execute("INSERT INTO controls (name, enabled) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET enabled = excluded.enabled", .text(name), .integer(enabled ? 1 : 0))
            }
        }
    }

    /// An empty purchase history: no transactions, entitlements or hints.
    func clear() throws(StoreError) {
        try write { db in
            try db.execute("DELETE FROM hint_ledger")
            try db.execute("DELETE FROM entitlements")
            try db.execute("DELETE FROM transactions")
        }
    }
}
