import Messages
@_exported import PackIdentifiers
@_exported import HangmanGame

/// The seller side of the game behind one boundary: what StoreKit and a receipt server give a
/// game. The embedded store implements it in-process; an HTTP client implements the same calls
/// over the network, which is why every call is `async`. Everything here is a value.
///
/// ```swift
/// let catalog = try await service.fetchCatalog()
/// let outcome = try await service.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1)
/// ```
public protocol PackService {
    /// What is for sale, with each pack archive's recorded digest.
    func fetchCatalog() async throws(ServiceError) -> Catalog

    /// Completes, exactly once, every purchase a crash left charged but not finished.
    func recoverUnfinished() async throws(ServiceError) -> [StoreTransaction]

    /// Buys `quantity` of a product: purchasing -> purchased | failed | deferred -> delivered -> finished.
    func buy(_ product: ProductID, quantity: Int, options: PurchaseOptions) async throws(ServiceError) -> PurchaseOutcome

    /// Redeems an offer code the seller made (StoreKit's offer code redemption sheet): the code's
    /// product, free or under the subscription's offer. Redeeming it again on this account
    /// answers the purchase it made; another account's code is refused.
    func redeem(offerCode: String) async throws(ServiceError) -> PurchaseOutcome

    /// Every non-consumable the account owns and that was not refunded. Safe to call any number of times.
    func restore() async throws(ServiceError) -> [Entitlement]

    /// The account's transactions, oldest first, consumables included.
    func transactions() async throws(ServiceError) -> [StoreTransaction]

    /// Every entitlement, refunded ones included.
    func entitlements() async throws(ServiceError) -> [Entitlement]

    /// The hint balance.
    func hintBalance() async throws(ServiceError) -> Int

    /// The account's storefront (`DEU`): prices are its, in its currency.
    func storefront() async throws(ServiceError) -> String

    /// The account's app transaction (StoreKit's `AppTransaction`), made when first asked for.
    func appTransaction() async throws(ServiceError) -> AppTransactionRecord

    /// What the account's storefront sells it, at what price, with which free trial.
    func offers() async throws(ServiceError) -> Offers

    /// Moves the account to another storefront the catalog lists: future purchases and renewals
    /// are priced there. Returns the storefront now.
    func setStorefront(_ code: String) async throws(ServiceError) -> String

    /// The last hint balance the service signed, and when: what a player is shown, marked as
    /// such, when the service cannot be reached. `nil` for a service that is always at hand.
    func lastSignedHintBalance() -> SignedHintBalance?

    /// Spends one hint; a retry with the same key never spends twice.
    func spendHint(idempotencyKey: String) async throws(ServiceError) -> HintSpend

    /// The pack archive of a non-consumable the account owns (or of a base pack).
    func packArchive(_ product: ProductID) async throws(ServiceError) -> [UInt8]

    /// The same, calling `progress` with the number of bytes received so far as they arrive
    /// (a service that reads a local file answers at once and may never call it).
    func packArchive(_ product: ProductID, progress: ((Int) -> Void)?) async throws(ServiceError) -> [UInt8]

    /// Every subscription the account ever had, as it stands now (renewals that fell due are
    /// processed first).
    func subscriptions() async throws(ServiceError) -> [SubscriptionStatus]

    /// What buying the auto-renewable `product` would do to the account's subscription in its
    /// group: start one, nothing, an upgrade (with its refund), a downgrade.
    func subscriptionChange(to product: ProductID) async throws(ServiceError) -> SubscriptionChange

    /// Turns auto-renew of the live subscription in `product`'s group off (access stays until the
    /// period ends) or back on.
    func setAutoRenew(_ product: ProductID, on: Bool) async throws(ServiceError) -> SubscriptionStatus

    /// Consents to the higher price of the plan the live subscription in `product`'s group renews
    /// to (``SubscriptionStatus/priceIncrease``); without consent it ends at the renewal after the
    /// subscriber was told.
    func consentToPriceIncrease(_ product: ProductID) async throws(ServiceError) -> SubscriptionStatus

    /// The account's transactions, signed.
    func receipt() async throws(ServiceError) -> Receipt

    /// Asks the App Store for a refund of a delivered purchase (StoreKit's `beginRefundRequest`),
    /// for `reason`: the request is recorded, and the App Store decides later. Asking again
    /// while it is open answers the same request.
    func requestRefund(_ id: TransactionID, reason: RefundReason) async throws(ServiceError) -> RefundCase

    /// The purchase's refund, from its request to its decision; `nil` when it has none.
    func refundCase(_ id: TransactionID) async throws(ServiceError) -> RefundCase?

    /// The account's app transaction as StoreKit's `AppTransaction.shared` gives it: Apple's
    /// `AppTransaction`, signed by the service's certificate chain (a compact JWS).
    func signedAppTransaction() async throws(ServiceError) -> String

    /// Checks a receipt's signature and contents.
    func verifyReceipt(_ bytes: [UInt8]) async -> ReceiptVerification

    /// The same, with the shared secret a receipt with an auto-renewable subscription needs
    /// (`password`, as Apple's verifyReceipt takes it): the same verdict at every store.
    func verifyReceipt(_ bytes: [UInt8], password: String?) async -> ReceiptVerification

    /// The shared secret of a store that is its own seller (the embedded sandbox), which its
    /// player may use; `nil` at a pack server, whose secret is its operator's.
    func ownSharedSecret() async -> SharedSecret?

    /// The newest catalog this service holds as its seller signed it (a server's client keeps the
    /// last one it was sent); `nil`: the one it was opened with is the newest.
    var heldCatalog: Catalog? { get }

    /// Why the service answers from what it last held rather than from its seller (the pack
    /// server cannot be reached), or `nil` when it answers itself.
    var offlineReason: ServiceError? { get }

    /// `handler` is told of what the service does on its own that its user should hear of.
    func observe(_ handler: @escaping @Sendable (ServiceEvent) -> Void)

    /// Games the service plays with the account, the word kept on its side (a pack server);
    /// `nil`: games are played on the device (the embedded store, offline).
    var servedGames: (any GameService)? { get }

    /// Where the daily word is played: a pack server's served games (its word, boards and
    /// streaks shared by every player), or the embedded store's own daily word (drawn by the same
    /// rule, on no leaderboard); `nil` offline.
    var dailyWords: (any GameService)? { get }
}

/// What a service did on its own that its user should hear of.
public enum ServiceEvent: Sendable {
    /// The server asked to be asked again later, and the client waits `seconds` (`total` with
    /// the waits before it in this client), for `reason`.
    case waiting(seconds: Int, total: Int, reason: String)
    /// Purchases a crash left unfinished, completed now.
    case recovered([StoreTransaction])
    /// The server cannot be reached: reads are answered from what it last signed.
    case offline(ServiceError)
    /// Something the player should be told once (an older catalog offered during a deploy).
    case note(String)
}

/// StoreKit Testing's switches and actions, for the test environment.
public protocol StoreTestControls {
    /// The switches as they are.
    func controls() async throws(ServiceError) -> StoreControls
    /// Sets the switches.
    func setControls(_ controls: StoreControls) async throws(ServiceError)
    /// A parent approves a deferred purchase: it is charged and delivered.
    func approve(_ id: TransactionID) async throws(ServiceError) -> StoreTransaction
    /// A parent declines a deferred purchase: it fails.
    func decline(_ id: TransactionID) async throws(ServiceError) -> StoreTransaction
    /// The buyer resolves an interrupted purchase: it is charged and delivered.
    func resolve(_ id: TransactionID) async throws(ServiceError) -> StoreTransaction
    /// Refunds a purchase: the pack locks again, or its hints are taken back as far as the balance allows.
    func refund(_ id: TransactionID) async throws(ServiceError) -> (transaction: StoreTransaction, hintsTakenBack: Int)
    /// Decides a refund as the App Store would: grants or declines a request, or reverses a
    /// granted refund. The same decision again answers the case as it is.
    func decideRefund(_ id: TransactionID, _ decision: RefundDecision) async throws(ServiceError) -> RefundOutcome
    /// Causes the notification Apple would send as `type` (`subtype`), by the state change it
    /// tells of (a purchase, a renewal, auto-renew turned off, a refund...): what changed.
    func causeNotification(_ type: String, subtype: String?) async throws(ServiceError) -> NotificationCause
    /// An empty purchase history.
    func clear() async throws(ServiceError)
    /// The default switches.
    func reset() async throws(ServiceError)
    /// The store's time (milliseconds since 1970).
    func storeClock() async throws(ServiceError) -> Int64
    /// Moves the store's time forward and processes whatever fell due, in order; the new time,
    /// and the renewals charged on the way.
    func moveClock(by duration: StoreClockStep) async throws(ServiceError) -> StoreClockMove
}

/// A hint balance as the service signed it, at `issued` (milliseconds since 1970).
public struct SignedHintBalance: Sendable, Equatable {
    /// The balance.
    public var hints: Int
    /// When the service signed it (milliseconds since 1970).
    public var issued: Int64

    /// `hints` as signed at `issued`.
    public init(hints: Int, issued: Int64) {
        self.hints = hints
        self.issued = issued
    }
}

extension PackService {
    public func lastSignedHintBalance() -> SignedHintBalance? { nil }

    public func ownSharedSecret() async -> SharedSecret? { nil }
    public var heldCatalog: Catalog? { nil }
    public var offlineReason: ServiceError? { nil }
    /// A service that does nothing on its own tells nothing.
    public func observe(_ handler: @escaping @Sendable (ServiceEvent) -> Void) {}
    public var servedGames: (any GameService)? { nil }
    public var dailyWords: (any GameService)? { nil }
    /// Only a pack server signs in Apple's shapes (with the chain `serve --print-root-certificate` prints).
    public func signedAppTransaction() async throws(ServiceError) -> String {
        throw ServiceError(.unavailable, L10n.text("a signed app transaction comes from a pack server (its certificate chain signs Apple's shapes): this store has none"))
    }

    public func packArchive(_ product: ProductID, progress: ((Int) -> Void)?) async throws(ServiceError) -> [UInt8] {
        try await packArchive(product)
    }
}

extension StoreTestControls {
    /// ``moveClock(by:)``'s new time.
    public func advanceClock(by duration: StoreDuration) async throws(ServiceError) -> Int64 {
        try await moveClock(by: StoreClockStep(duration)).now
    }
}

extension PackService {
    /// Buys `quantity` of a product, with no purchase option.
    public func buy(_ product: ProductID, quantity: Int) async throws(ServiceError) -> PurchaseOutcome {
        try await buy(product, quantity: quantity, options: PurchaseOptions())
    }
}
