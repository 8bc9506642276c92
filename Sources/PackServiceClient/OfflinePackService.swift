import PackServiceWire
import Signing
import SystemCalls

/// The pack service when its server cannot be reached: the last catalog and account statement
/// the server signed (checked again against the pinned key), so that installed packs the account
/// owns still play. Everything that needs the server (a hint, a purchase, a download) answers
/// `unavailable`, saying so.
public final class OfflinePackService: PackService, StoreTestControls, @unchecked Sendable {
    private let catalog: Catalog
    private let statement: AccountStatement
    private let reason: String

    /// The service as last seen, from the signed documents kept in `folder`; `nil` when there are
    /// none, or they are not signed by the pinned key.
    public init?(credentials: ServiceCredentials, folder: String, reason: String) {
        func open<T: Decodable>(_ name: String, _ type: T.Type) -> T? {
            guard let bytes = try? FileSystem.readFile(atPath: folder + "/" + name, limit: 16 << 20),
                let signed = try? Wire.decode(SignedDocument.self, from: bytes)
            else { return nil }
            return try? signed.open(type, trusting: credentials.publicKey)
        }
        guard let catalog = open(HTTPPackService.catalogCache, CatalogDocument.self),
            let statement = open(HTTPPackService.statementCache, AccountStatement.self), statement.accountID == credentials.accountID
        else { return nil }
        self.catalog = catalog.catalog
        self.statement = statement
        self.reason = reason
    }

    private func unavailable() -> StoreError {
        StoreError(.unavailable, "the pack server cannot be reached (\(reason)): this needs it")
    }

    public func fetchCatalog() throws(StoreError) -> Catalog { catalog }
    public func recoverUnfinished() throws(StoreError) -> [StoreTransaction] { [] }
    public func buy(_ product: ProductID, quantity: Int) throws(StoreError) -> PurchaseOutcome { throw unavailable() }
    public func restore() throws(StoreError) -> [Entitlement] { statement.entitlements.filter(\.isActive) }
    public func transactions() throws(StoreError) -> [StoreTransaction] { throw unavailable() }
    public func entitlements() throws(StoreError) -> [Entitlement] { statement.entitlements }
    public func hintBalance() throws(StoreError) -> Int { statement.hintBalance }
    public func spendHint(idempotencyKey: String) throws(StoreError) -> HintSpend { throw unavailable() }
    public func packArchive(_ product: ProductID) throws(StoreError) -> [UInt8] { throw unavailable() }
    public func receipt() throws(StoreError) -> Receipt { throw unavailable() }
    public func verifyReceipt(_ bytes: [UInt8]) -> ReceiptVerification {
        ReceiptVerification(status: .malformed, message: "the pack server cannot be reached (\(reason)): a receipt is checked by it")
    }
    public func controls() throws(StoreError) -> StoreControls { throw unavailable() }
    public func setControls(_ controls: StoreControls) throws(StoreError) { throw unavailable() }
    public func approve(_ id: TransactionID) throws(StoreError) -> StoreTransaction { throw unavailable() }
    public func decline(_ id: TransactionID) throws(StoreError) -> StoreTransaction { throw unavailable() }
    public func resolve(_ id: TransactionID) throws(StoreError) -> StoreTransaction { throw unavailable() }
    public func refund(_ id: TransactionID) throws(StoreError) -> (transaction: StoreTransaction, hintsTakenBack: Int) { throw unavailable() }
    public func clear() throws(StoreError) { throw unavailable() }
    public func reset() throws(StoreError) { throw unavailable() }
}
