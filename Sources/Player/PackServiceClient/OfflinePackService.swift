import Messages
import PackServiceWire
import Signing
import SystemCalls

/// The pack service when its server cannot be reached: the last catalog and account statement
/// the server signed (checked again against the pinned key), so that installed packs the account
/// owns still play. Everything that needs the server (a hint, a purchase, a download) answers
/// `unavailable`, saying so.
public final class OfflinePackService: PackService, StoreTestControls, Sendable {
    /// The last catalog the server signed.
    public let catalog: Catalog
    private let statement: AccountStatement
    /// The newest balance the server signed: its statement's, or a later spend's.
    private let lastBalance: SignedHintBalance?
    /// Why the server cannot be reached: the error of the request that found out.
    public let reason: ServiceError
    /// This device's clock: a subscription's packs lock when it passes the subscription's end.
    private let clock: Clock

    /// The service as last seen, from the signed documents kept in `folder`; `nil` when there are
    /// none, or they are not signed by the pinned key.
    public init?(credentials: ServiceCredentials, folder: String, reason: ServiceError, clock: Clock = .system) {
        self.clock = clock
        guard let catalog = Self.keptCatalog(in: folder, credentials: credentials),
            let statement = Self.keptStatement(in: folder, credentials: credentials)
        else { return nil }
        self.catalog = catalog.catalog
        self.statement = statement
        lastBalance = Self.keptHintBalance(in: folder, credentials: credentials)
        self.reason = reason
    }

    /// The newest hint balance the server signed for this account: the last statement's, or the
    /// last spend's when that came later.
    static func keptHintBalance(in folder: String, credentials: ServiceCredentials) -> SignedHintBalance? {
        let statement = keptStatement(in: folder, credentials: credentials).map { SignedHintBalance(hints: $0.hintBalance, issued: $0.issued) }
        let spend = kept(HTTPPackService.spendCache, HintSpendStatement.self, in: folder, credentials: credentials)
            .flatMap { $0.accountID == credentials.accountID ? SignedHintBalance(hints: $0.balance, issued: $0.issued) : nil }
        return [statement, spend].compactMap { $0 }.max { $0.issued < $1.issued }
    }

    /// The last catalog kept in `folder`, when the pinned key signed it.
    static func keptCatalog(in folder: String, credentials: ServiceCredentials) -> CatalogDocument? {
        kept(HTTPPackService.catalogCache, CatalogDocument.self, in: folder, credentials: credentials)
    }

    /// The last account statement kept in `folder`, when the pinned key signed it for this account.
    static func keptStatement(in folder: String, credentials: ServiceCredentials) -> AccountStatement? {
        guard let statement = kept(HTTPPackService.statementCache, AccountStatement.self, in: folder, credentials: credentials),
            statement.accountID == credentials.accountID
        else { return nil }
        return statement
    }

    private static func kept<T: Decodable>(_ name: String, _ type: T.Type, in folder: String, credentials: ServiceCredentials) -> T? {
        guard let bytes = try? FileSystem.readFile(atPath: folder + "/" + name, limit: 16 << 20),
            let signed = try? Wire.decode(SignedDocument.self, from: bytes)
        else { return nil }
        return try? signed.open(type, trusting: credentials.publicKey)
    }

    /// The request's refusal: what needs the server, and why it cannot be had.
    private func unavailable(_ what: String) -> ServiceError {
        ServiceError(.unavailable, L10n.text("%s needs the pack server, and %s", what, reason.message))
    }

    public func fetchCatalog() throws(ServiceError) -> Catalog { catalog }
    public func recoverUnfinished() throws(ServiceError) -> [StoreTransaction] { [] }
    public func buy(_ product: ProductID, quantity: Int, options: PurchaseOptions) throws(ServiceError) -> PurchaseOutcome { throw unavailable("buying") }
    public func redeem(offerCode: String) throws(ServiceError) -> PurchaseOutcome { throw unavailable("redeeming an offer code") }
    public func restore() throws(ServiceError) -> [Entitlement] { try entitlements().filter(\.isActive) }
    public func transactions() throws(ServiceError) -> [StoreTransaction] { throw unavailable("the list of transactions") }
    /// The statement's, with every pack a subscription opened locked from the subscription's end
    /// on, on the store's clock as the statement set it against this device's.
    public func entitlements() throws(ServiceError) -> [Entitlement] {
        let now = clock.now() + ((statement.storeTime ?? statement.issued) - statement.issued)
        return statement.entitlements.map { entitlement in
            var checked = entitlement
            if let ends = entitlement.expiresDate, entitlement.isActive, now >= ends { checked.revokedDate = ends }
            return checked
        }
    }
    public func subscriptions() throws(ServiceError) -> [SubscriptionStatus] { throw unavailable("the list of subscriptions") }
    public func setAutoRenew(_ product: ProductID, on: Bool) throws(ServiceError) -> SubscriptionStatus { throw unavailable("changing a subscription") }
    public func consentToPriceIncrease(_ product: ProductID) throws(ServiceError) -> SubscriptionStatus { throw unavailable("consenting to a price") }
    public func subscriptionChange(to product: ProductID) throws(ServiceError) -> SubscriptionChange { throw unavailable("changing a subscription") }
    public func storeClock() throws(ServiceError) -> Int64 { throw unavailable("the store's clock") }
    public func moveClock(by duration: StoreClockStep) throws(ServiceError) -> StoreClockMove { throw unavailable("the store's clock") }
    /// Never the last signed balance as if it were current: `lastSignedHintBalance()` says when it was signed.
    public func hintBalance() throws(ServiceError) -> Int { throw unavailable("the hint balance") }
    /// As the last statement said.
    public func storefront() throws(ServiceError) -> String { statement.storefront ?? Storefront.defaultCode }
    /// As the last statement said.
    public func appTransaction() throws(ServiceError) -> AppTransactionRecord {
        guard let app = statement.appTransaction else { throw unavailable("the app transaction") }
        return app
    }
    public func setStorefront(_ code: String) throws(ServiceError) -> String { throw unavailable("changing the storefront") }
    /// The last signed catalog's prices in the last signed statement's storefront; whether a free
    /// trial would start is the service's to say, and is not said offline.
    public func offers() throws(ServiceError) -> Offers {
        let storefront = try storefront()
        return Offers(storefront: storefront, offers: catalog.products.compactMap { product in product.salePrice(in: storefront).map { Offer(productID: product.id, price: $0) } })
    }
    public func lastSignedHintBalance() -> SignedHintBalance? { lastBalance }
    public var offlineReason: ServiceError? { reason }
    public func spendHint(idempotencyKey: String) throws(ServiceError) -> HintSpend { throw unavailable("a hint") }
    public func packArchive(_ product: ProductID) throws(ServiceError) -> [UInt8] { throw unavailable("downloading \(product)") }
    public func receipt() throws(ServiceError) -> Receipt { throw unavailable("a receipt") }
    public func refundCase(_ id: TransactionID) throws(ServiceError) -> RefundCase? { throw unavailable("a refund") }
    public func requestRefund(_ id: TransactionID, reason: RefundReason) throws(ServiceError) -> RefundCase { throw unavailable("a refund request") }
    public func verifyReceipt(_ bytes: [UInt8]) -> ReceiptVerification { verifyReceipt(bytes, password: nil) }
    public func verifyReceipt(_ bytes: [UInt8], password: String?) -> ReceiptVerification {
        ReceiptVerification(status: .temporarilyUnavailable, message: unavailable("checking a receipt").message)
    }
    public func controls() throws(ServiceError) -> StoreControls { throw unavailable("the store's test controls") }
    public func setControls(_ controls: StoreControls) throws(ServiceError) { throw unavailable("the store's test controls") }
    public func approve(_ id: TransactionID) throws(ServiceError) -> StoreTransaction { throw unavailable("the store's test controls") }
    public func decline(_ id: TransactionID) throws(ServiceError) -> StoreTransaction { throw unavailable("the store's test controls") }
    public func resolve(_ id: TransactionID) throws(ServiceError) -> StoreTransaction { throw unavailable("the store's test controls") }
    public func refund(_ id: TransactionID) throws(ServiceError) -> (transaction: StoreTransaction, hintsTakenBack: Int) { throw unavailable("the store's test controls") }
    public func decideRefund(_ id: TransactionID, _ decision: RefundDecision) throws(ServiceError) -> RefundOutcome { throw unavailable("the store's test controls") }
    public func causeNotification(_ type: String, subtype: String?) throws(ServiceError) -> NotificationCause { throw unavailable("the store's test controls") }
    public func clear() throws(ServiceError) { throw unavailable("the store's test controls") }
    public func reset() throws(ServiceError) { throw unavailable("the store's test controls") }
}
