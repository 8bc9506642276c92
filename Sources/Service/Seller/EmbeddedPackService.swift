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
    ) throws(ServiceError) {
        account = try AccountService(catalog: catalog, packsFolder: packsFolder, accountFolder: accountFolder, clock: clock, crash: crash)
        account.receiptPolicy = sharedSecret.map(ReceiptPolicy.init(sharedSecret:))
        try account.chooseStorefront(AccountService.newAccountStorefront(required: nil, preferred: preferredStorefront, in: catalog))
    }

    public func fetchCatalog() throws(ServiceError) -> Catalog { account.catalog }
    public func recoverUnfinished() throws(ServiceError) -> [StoreTransaction] { try account.recoverUnfinished() }
    public func buy(_ product: ProductID, quantity: Int) throws(ServiceError) -> PurchaseOutcome { try account.buy(product, quantity: quantity) }
    public func restore() throws(ServiceError) -> [Entitlement] { try account.restore() }
    public func transactions() throws(ServiceError) -> [StoreTransaction] { try account.transactions() }
    public func entitlements() throws(ServiceError) -> [Entitlement] { try account.entitlements() }
    public func hintBalance() throws(ServiceError) -> Int { try account.hintBalance() }
    public func storefront() throws(ServiceError) -> String { try account.storefront() }
    public func offers() throws(ServiceError) -> Offers { try account.offers() }
    public func setStorefront(_ code: String) throws(ServiceError) -> String { try account.setStorefront(code) }
    public func spendHint(idempotencyKey: String) throws(ServiceError) -> HintSpend { try account.spendHint(idempotencyKey: idempotencyKey) }
    public func packArchive(_ product: ProductID) throws(ServiceError) -> [UInt8] { try account.packArchive(product) }
    public func subscriptions() throws(ServiceError) -> [SubscriptionStatus] { try account.subscriptions() }
    public func subscriptionChange(to product: ProductID) throws(ServiceError) -> SubscriptionChange { try account.subscriptionChange(to: product) }
    public func setAutoRenew(_ product: ProductID, on: Bool) throws(ServiceError) -> SubscriptionStatus { try account.setAutoRenew(product, on: on) }
    public func receipt() throws(ServiceError) -> Receipt { try account.receipt() }
    public func verifyReceipt(_ bytes: [UInt8]) -> ReceiptVerification { account.verifyReceipt(bytes, password: nil) }
    public func verifyReceipt(_ bytes: [UInt8], password: String?) -> ReceiptVerification { account.verifyReceipt(bytes, password: password) }
    public func ownSharedSecret() -> SharedSecret? { try? account.ownSharedSecret() }

    public func controls() throws(ServiceError) -> StoreControls { try account.controls() }
    public func setControls(_ controls: StoreControls) throws(ServiceError) { try account.setControls(controls) }
    public func approve(_ id: TransactionID) throws(ServiceError) -> StoreTransaction { try account.approve(id) }
    public func decline(_ id: TransactionID) throws(ServiceError) -> StoreTransaction { try account.decline(id) }
    public func resolve(_ id: TransactionID) throws(ServiceError) -> StoreTransaction { try account.resolve(id) }
    public func refund(_ id: TransactionID) throws(ServiceError) -> (transaction: StoreTransaction, hintsTakenBack: Int) { try account.refund(id) }
    public func clear() throws(ServiceError) { try account.clear() }
    public func reset() throws(ServiceError) { try account.reset() }
    public func storeClock() throws(ServiceError) -> Int64 { try account.storeClock() }
    public func advanceClock(by duration: StoreDuration) throws(ServiceError) -> Int64 { try account.advanceClock(by: duration) }
    public func moveClock(by duration: StoreClockStep) throws(ServiceError) -> StoreClockMove { try account.moveClock(by: duration) }
}
