import FoundationEssentials
import SystemCalls

/// The pack service in-process, for `make play` and the sandbox: ``PackService`` over one
/// ``AccountService`` (the catalog from a packs folder, the account in SQLite under the home,
/// receipts signed with a key kept beside the account). Every rule is the account service's.
///
/// ```swift
/// let service = try EmbeddedPackService(catalog: Catalog.load(folder: "Packs"), packsFolder: "Packs", accountFolder: home + "/account")
/// let outcome = try await service.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1)
/// ```
public final class EmbeddedPackService: PackService, StoreTestControls {
    /// The account behind it: the one door into its ledger.
    public let account: AccountService
    /// What is for sale: the packs folder's catalog.
    public var catalog: Catalog { account.catalog }

    /// Opens (creating if needed) the account in `accountFolder`; a new account's storefront is
    /// the player's region's (`preferredStorefront`) when the catalog sells there.
    /// `sharedSecret`: the one a subscription's receipt needs here; `nil`: the store's own
    /// (``AccountService/ownSharedSecret()``).
    public init(
        catalog: Catalog, packsFolder: String, accountFolder: String, clock: Clock = .system, preferredStorefront: String? = nil,
        sharedSecret: SharedSecret? = nil, crash: @escaping @Sendable (CrashPoint) -> Void = { _ in }
    ) throws(StoreError) {
        account = try AccountService(catalog: catalog, packsFolder: packsFolder, accountFolder: accountFolder, clock: clock, crash: crash)
        account.receiptPolicy = sharedSecret.map(ReceiptPolicy.init(sharedSecret:))
        try account.chooseStorefront(AccountService.newAccountStorefront(required: nil, preferred: preferredStorefront, in: catalog))
    }

    public func fetchCatalog() throws(StoreError) -> Catalog { account.catalog }
    public func recoverUnfinished() throws(StoreError) -> [StoreTransaction] { try account.recoverUnfinished() }
    public func buy(_ product: ProductID, quantity: Int) throws(StoreError) -> PurchaseOutcome { try account.buy(product, quantity: quantity) }
    public func restore() throws(StoreError) -> [Entitlement] { try account.restore() }
    public func transactions() throws(StoreError) -> [StoreTransaction] { try account.transactions() }
    public func entitlements() throws(StoreError) -> [Entitlement] { try account.entitlements() }
    public func hintBalance() throws(StoreError) -> Int { try account.hintBalance() }
    public func storefront() throws(StoreError) -> String { try account.storefront() }
    public func offers() throws(StoreError) -> Offers { try account.offers() }
    public func setStorefront(_ code: String) throws(StoreError) -> String { try account.setStorefront(code) }
    public func spendHint(idempotencyKey: String) throws(StoreError) -> HintSpend { try account.spendHint(idempotencyKey: idempotencyKey) }
    public func packArchive(_ product: ProductID) throws(StoreError) -> [UInt8] { try account.packArchive(product) }
    public func subscriptions() throws(StoreError) -> [SubscriptionStatus] { try account.subscriptions() }
    public func subscriptionChange(to product: ProductID) throws(StoreError) -> SubscriptionChange { try account.subscriptionChange(to: product) }
    public func setAutoRenew(_ product: ProductID, on: Bool) throws(StoreError) -> SubscriptionStatus { try account.setAutoRenew(product, on: on) }
    public func receipt() throws(StoreError) -> Receipt { try account.receipt() }
    public func verifyReceipt(_ bytes: [UInt8]) -> ReceiptVerification { account.verifyReceipt(bytes, password: nil) }
    public func verifyReceipt(_ bytes: [UInt8], password: String?) -> ReceiptVerification { account.verifyReceipt(bytes, password: password) }
    public func ownSharedSecret() -> SharedSecret? { try? account.ownSharedSecret() }

    public func controls() throws(StoreError) -> StoreControls { try account.controls() }
    public func setControls(_ controls: StoreControls) throws(StoreError) { try account.setControls(controls) }
    public func approve(_ id: TransactionID) throws(StoreError) -> StoreTransaction { try account.approve(id) }
    public func decline(_ id: TransactionID) throws(StoreError) -> StoreTransaction { try account.decline(id) }
    public func resolve(_ id: TransactionID) throws(StoreError) -> StoreTransaction { try account.resolve(id) }
    public func refund(_ id: TransactionID) throws(StoreError) -> (transaction: StoreTransaction, hintsTakenBack: Int) { try account.refund(id) }
    public func clear() throws(StoreError) { try account.clear() }
    public func reset() throws(StoreError) { try account.reset() }
    public func storeClock() throws(StoreError) -> Int64 { try account.storeClock() }
    public func advanceClock(by duration: StoreDuration) throws(StoreError) -> Int64 { try account.advanceClock(by: duration) }
    public func moveClock(by duration: StoreClockStep) throws(StoreError) -> StoreClockMove { try account.moveClock(by: duration) }
}
