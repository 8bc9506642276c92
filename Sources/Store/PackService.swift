import WordPacks

/// The seller side of the game, behind one boundary: what StoreKit and a receipt-validation server
/// give a game. `EmbeddedPackService` runs it in-process; the same calls can go over a network.
public protocol PackService {
    /// What is for sale.
    var catalog: Catalog { get }

    /// Completes, exactly once, every purchase a crash left charged but not finished.
    func recoverUnfinished() throws(StoreError) -> [StoreTransaction]

    /// Buys `quantity` of a product: purchasing -> purchased | failed | deferred -> delivered -> finished.
    func buy(_ product: ProductID, quantity: Int) throws(StoreError) -> PurchaseOutcome

    /// Every non-consumable the account owns and that was not refunded. Safe to call any number of times.
    func restore() throws(StoreError) -> [Entitlement]

    /// The account's transactions, oldest first, consumables included.
    func transactions() throws(StoreError) -> [StoreTransaction]

    /// Every entitlement, refunded ones included.
    func entitlements() throws(StoreError) -> [Entitlement]

    /// The hint balance.
    func hintBalance() throws(StoreError) -> Int

    /// Spends one hint; a retry with the same key never spends twice.
    func spendHint(idempotencyKey: String) throws(StoreError) -> HintSpend

    /// The pack archive of a non-consumable the account owns (or of a base pack).
    func packArchive(_ product: ProductID) throws(StoreError) -> [UInt8]

    /// The account's transactions, signed.
    func receipt() throws(StoreError) -> Receipt

    /// Checks a receipt's signature and contents.
    func verifyReceipt(_ bytes: [UInt8]) -> ReceiptVerification
}

/// StoreKit Testing's switches and actions, for the test environment.
public protocol StoreTestControls {
    func controls() throws(StoreError) -> StoreControls
    func setControls(_ controls: StoreControls) throws(StoreError)
    /// A parent approves a deferred purchase: it is charged and delivered.
    func approve(_ id: TransactionID) throws(StoreError) -> StoreTransaction
    /// A parent declines a deferred purchase: it fails.
    func decline(_ id: TransactionID) throws(StoreError) -> StoreTransaction
    /// The buyer resolves an interrupted purchase: it is charged and delivered.
    func resolve(_ id: TransactionID) throws(StoreError) -> StoreTransaction
    /// Refunds a purchase: the pack locks again, or its hints are taken back as far as the balance allows.
    func refund(_ id: TransactionID) throws(StoreError) -> (transaction: StoreTransaction, hintsTakenBack: Int)
    /// An empty purchase history.
    func clear() throws(StoreError)
    /// The default switches.
    func reset() throws(StoreError)
}
