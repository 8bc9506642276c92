/// Why a subscription's renewal date is not extended, as Apple's App Store Server API tells it.
public enum RenewalExtensionRefusal: Error, Sendable, Equatable {
    /// Not active, or in a free trial (4030004).
    case ineligible(String)
    /// Extended twice in the last 365 days already (4030005).
    case tooMany
}

/// The account's outbox, for the server that delivers it (Server Notifications V2) and the App
/// Store Server API that reads it; the rules are the ledger's (``AccountLedger``).
extension AccountService {
    /// Whether changes to the account's purchases are written to the outbox.
    public var notifies: Bool {
        get { ledger.notifies }
        set { ledger.notifies = newValue }
    }

    /// Holds up to `limit` notifications due at `now` (the real clock) until `until`.
    public func claimNotifications(now: Int64, until: Int64, limit: Int) throws(ServiceError) -> [OutboxNotification] {
        try ledger.claimNotifications(now: now, until: until, limit: limit)
    }

    /// Records an attempt and when the next is due (`nil`: no more).
    /// `payload`: the JWS sent, kept the first time (a retry sends the kept one), and let go
    /// `payloadRetention` (milliseconds) after its delivery.
    public func recordNotificationAttempt(
        _ uuid: String, _ attempt: NotificationAttempt, delivered: Bool, nextAttempt: Int64?, payload: String? = nil,
        payloadRetention: Int64 = AccountService.notificationPayloadRetention
    ) throws(ServiceError) {
        try ledger.recordAttempt(uuid, attempt, delivered: delivered, nextAttempt: nextAttempt, payload: payload, retention: payloadRetention)
    }

    /// How long a delivered notification keeps its payload by default: 180 days, as Apple keeps
    /// its notification history.
    public static let notificationPayloadRetention: Int64 = 180 * 86_400_000

    /// Makes the notification `uuid`, not delivered, due now (the seller's retry from the
    /// delivery log); `false` when the account has no such notification waiting.
    public func retryNotification(_ uuid: String) throws(ServiceError) -> Bool {
        try ledger.retryNotification(uuid, now: clock.now())
    }

    /// Every notification of the account, oldest first, with its attempts.
    public func notificationHistory() throws(ServiceError) -> [(notification: OutboxNotification, attempts: [NotificationAttempt])] {
        try ledger.notificationHistory()
    }

    /// When the account's next notification is due (the real clock), if any is.
    public func nextNotificationDue() throws(ServiceError) -> Int64? {
        try ledger.nextNotificationDue()
    }

    /// Adds a TEST notification; its UUID (the test notification's token).
    public func requestTestNotification() throws(ServiceError) -> String {
        try ledger.insertTestNotification(now: clock.now())
    }

    /// The status of the subscription `original` (auto-renewable or a pass), after the renewals due.
    public func subscriptionStatus(_ original: TransactionID) throws(ServiceError) -> SubscriptionStatus? {
        try subscriptions().first { $0.originalTransactionID == original }
    }

    /// Extends the renewal date of the live auto-renewable `original` by `days` (1 to 90, as
    /// Apple allows), as Apple does: never during a free trial, at most twice in 365 days.
    public func extendRenewal(_ original: TransactionID, days: Int) throws(ServiceError) -> Result<SubscriptionStatus, RenewalExtensionRefusal> {
        guard (1...90).contains(days) else { throw ServiceError(.invalidRequest, "a renewal date is extended by 1 to 90 days, not \(days)") }
        let now = try settleSubscriptions()
        switch try ledger.extendRenewal(original: original, days: days, now: now) {
        case .success: return .success(try status(of: original, now: now))
        case .failure(let refusal): return .failure(refusal)
        }
    }

    /// The account's transactions as the App Store Server API shows them: those paid for, and
    /// those refunded (Apple shows no purchase that was never charged).
    public func transactionsAppleShows() throws(ServiceError) -> [StoreTransaction] {
        try transactions().filter { $0.isPaid || $0.revocationDate != nil }
    }

    /// Whether `transaction` is the original transaction of an auto-renewable subscription: what
    /// Apple extends a renewal date of.
    public func isSubscriptionsOriginal(_ transaction: StoreTransaction) -> Bool {
        transaction.originalTransactionID == transaction.id && catalog.product(transaction.productID)?.autoRenewable != nil
    }

    /// The account's app transaction (StoreKit's `AppTransaction`): made the first time it is
    /// asked for, its id claimed as a transaction's (so Apple's endpoints take it for the customer),
    /// dated at the account's first purchase, or now when it has none.
    public func appTransaction() throws(ServiceError) -> AppTransactionRecord {
        if let made = try ledger.appTransaction() { return made }
        let first = try ledger.transactions().map(\.purchaseDate).min()
        let now = clock.now()
        return try ledger.makeAppTransaction(AppTransactionRecord(id: try newTransactionID(), originalPurchaseDate: min(first ?? now, now)))
    }

    /// Apple's Set App Account Token: the purchase `original` (a subscription's renewals with it)
    /// carries `token` from now on, in place of any it had. `original` is a purchase's first
    /// transaction (the caller checks it is one).
    public func setAppAccountToken(_ original: TransactionID, token: String) throws(ServiceError) {
        guard let parsed = AppAccountToken.parse(token) else { throw ServiceError(.invalidRequest, AppAccountToken.problem) }
        try ledger.setAppAccountToken(original: original, token: parsed, replacing: true)
    }

    /// Keeps what a backend said of a consumable's use (`body`, its JSON as sent).
    public func saveConsumption(_ transaction: TransactionID, body: String) throws(ServiceError) {
        try ledger.saveConsumption(transaction, body: body, now: clock.now())
    }
}

extension AccountService {
    /// Carries out a mass extension for this account (``AccountLedger/extendForAll(_:now:)``), at
    /// the store's time.
    public func extendForAll(_ request: MassExtension) throws(ServiceError) -> MassExtensionStep {
        try ledger.extendForAll(request, now: try settleSubscriptions())
    }

    /// The service's ledger: keeps a new mass extension; `false` when its identifier was taken.
    public func insertMassExtension(_ request: MassExtension) throws(ServiceError) -> Bool {
        try ledger.insertMassExtension(request)
    }

    /// The service's ledger: a mass extension, by its request identifier.
    public func massExtension(_ requestIdentifier: String) throws(ServiceError) -> MassExtension? {
        try ledger.massExtension(requestIdentifier)
    }

    /// The service's ledger: the oldest incomplete mass extension no server holds, held for this
    /// caller until `until` (milliseconds since 1970, the real clock); when none, whether one is
    /// held by another server (it may be left to this one later).
    public func claimMassExtension(until: Int64) throws(ServiceError) -> (held: MassExtension?, waiting: Bool) {
        try ledger.claimMassExtension(now: clock.now(), until: until)
    }

    /// The service's ledger: how far a mass extension went, and, once complete, its summary
    /// notification (signed by the caller), if the caller's hold (to `heldUntil`) is still its own.
    public func saveMassExtension(_ request: MassExtension, heldUntil: Int64, summary: (uuid: String, payload: String)?) throws(ServiceError) {
        try ledger.saveMassExtension(request, heldUntil: heldUntil, summary: summary)
    }
}
