import WordPacks

/// One account's records: its transactions, entitlements, append-only hint ledger and test
/// controls. Two engines keep them, with the same named migrations and the same rules in SQL
/// (balance never below zero, the hint ledger append-only, one live purchase per pack, unique
/// idempotency keys): ``SQLiteAccountLedger`` (a file per account, the default) and
/// ``PostgreSQLAccountLedger`` (one database shared by several servers).
///
/// Every method is one database transaction: a process killed at any moment leaves the state
/// before or the state after. Writes of one account are serialized by the engine (SQLite's
/// `BEGIN IMMEDIATE`, PostgreSQL's row lock on the account), also across processes.
protocol AccountLedger: AnyObject {
    /// The transaction a purchase request key made, if any.
    func transaction(requestKey: String) throws(StoreError) -> StoreTransaction?
    func transaction(_ id: TransactionID) throws(StoreError) -> StoreTransaction?
    /// Every transaction, oldest first.
    func transactions() throws(StoreError) -> [StoreTransaction]
    /// Transactions that a crash left between two steps.
    func unfinished() throws(StoreError) -> [StoreTransaction]
    /// Records a new purchase in state `purchasing`; returns `false` if the id is taken.
    /// Throws `purchaseInProgress` when the product is a pack with a live purchase already, or the
    /// request key made another transaction meanwhile.
    func insertPurchasing(_ id: TransactionID, product: Product, quantity: Int, requestKey: String?, now: Int64) throws(StoreError) -> Bool
    /// Moves a transaction from one of `from` to `to`; `false` when it was in another state.
    func move(_ id: TransactionID, from: [TransactionState], to: TransactionState, reason: String?, now: Int64) throws(StoreError) -> Bool
    /// Delivers a charged transaction exactly once (hints credited or the pack granted, and the
    /// state `delivered`, together); `false` when it was not waiting for delivery.
    func deliver(_ id: TransactionID, legacyHints: Int, now: Int64) throws(StoreError) -> Bool
    /// Refunds a delivered purchase; returns the hints taken back.
    func refund(_ id: TransactionID, now: Int64) throws(StoreError) -> Int
    func entitlements() throws(StoreError) -> [Entitlement]
    func balance() throws(StoreError) -> Int
    /// Spends one hint under `key`; a key already spent takes nothing again.
    func spend(key: String, now: Int64) throws(StoreError) -> HintSpend
    func controls() throws(StoreError) -> StoreControls
    func setControls(_ controls: StoreControls) throws(StoreError)
    /// An empty purchase history: no transactions, entitlements or hints.
    func clear() throws(StoreError)
}

extension AccountLedger {
    func move(_ id: TransactionID, from: [TransactionState], to: TransactionState, now: Int64) throws(StoreError) -> Bool {
        try move(id, from: from, to: to, reason: nil, now: now)
    }
}

extension StoreControls {
    /// The switches as (name, enabled) pairs, in the ledgers' `controls` table's names.
    var named: [(String, Bool)] {
        [("fail-purchases", failPurchases), ("ask-to-buy", askToBuy), ("interrupt-purchases", interruptPurchases)]
    }

    mutating func set(_ name: String, _ enabled: Bool) {
        switch name {
        case "fail-purchases": failPurchases = enabled
        case "ask-to-buy": askToBuy = enabled
        case "interrupt-purchases": interruptPurchases = enabled
        default: break
        }
    }
}
