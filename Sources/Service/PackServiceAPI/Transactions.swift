/// The records of a purchase and what it gives, as the service reports them.

/// Where a purchase is in its lifecycle:
/// purchasing -> purchased | failed | deferred | interrupted -> delivered -> finished.
public enum TransactionState: String, Sendable, CaseIterable, Codable {
    /// Recorded, not yet charged.
    case purchasing
    /// Charged; the product is about to be delivered.
    case purchased
    /// Refused by the store, declined by a parent, or cut short before payment.
    case failed
    /// Waiting for a parent's approval (ask to buy).
    case deferred
    /// Waiting for the buyer to act (interrupted purchase, such as accepting new terms).
    case interrupted
    /// Hints credited or pack unlocked; not yet acknowledged.
    case delivered
    /// Delivered and acknowledged: done.
    case finished
}

/// One transaction of the account, consumables included.
public struct StoreTransaction: Sendable, Equatable, Codable {
    public var id: TransactionID
    public var productID: ProductID
    public var isConsumable: Bool
    public var quantity: Int
    public var state: TransactionState
    /// Why a failed transaction failed.
    public var failureReason: String?
    /// Milliseconds since 1970.
    public var purchaseDate: Int64
    public var updatedDate: Int64
    /// Set when refunded.
    public var revocationDate: Int64?
    /// Hints this transaction credited (consumables, and each paid period of a subscription).
    public var hintsCredited: Int
    /// A subscription's: the first transaction of the subscription (itself for the first).
    public var originalTransactionID: TransactionID?
    /// A subscription's: when the period (or the access) this transaction paid for ends.
    public var expiresDate: Int64?
    /// An auto-renewable's period in a free trial.
    public var isTrial: Bool = false
    /// An upgraded period's refund for its unused part (`2.24`), in the transaction's currency.
    public var refundAmount: String?
    /// What the purchase charged (the price times the quantity; 0 for a free trial), in the
    /// storefront's currency; `nil` for a purchase made before storefronts.
    public var price: Money?
    /// The storefront it was bought in (`DEU`); `nil` before storefronts.
    public var storefront: String?

    /// ``refundAmount`` as money, in the currency the period was charged in; `nil` when there
    /// is none, or the period was charged before storefronts recorded a currency.
    public var refund: Money? {
        guard let refundAmount, let currency = price?.currency else { return nil }
        return Money(decimal: refundAmount, currency: currency)
    }

    /// Charged and not refunded.
    public var isPaid: Bool {
        [.purchased, .delivered, .finished].contains(state) && revocationDate == nil
    }

    public init(
        id: TransactionID, productID: ProductID, isConsumable: Bool, quantity: Int, state: TransactionState, failureReason: String?,
        purchaseDate: Int64, updatedDate: Int64, revocationDate: Int64?, hintsCredited: Int, originalTransactionID: TransactionID? = nil,
        expiresDate: Int64? = nil, isTrial: Bool = false, refundAmount: String? = nil, price: Money? = nil, storefront: String? = nil
    ) {
        self.refundAmount = refundAmount
        self.price = price
        self.storefront = storefront
        self.originalTransactionID = originalTransactionID
        self.expiresDate = expiresDate
        self.isTrial = isTrial
        self.id = id
        self.productID = productID
        self.isConsumable = isConsumable
        self.quantity = quantity
        self.state = state
        self.failureReason = failureReason
        self.purchaseDate = purchaseDate
        self.updatedDate = updatedDate
        self.revocationDate = revocationDate
        self.hintsCredited = hintsCredited
    }
}

/// A non-consumable the account owns, or a pack a subscription opens.
public struct Entitlement: Sendable, Equatable, Codable {
    public var productID: ProductID
    public var transactionID: TransactionID
    public var grantedDate: Int64
    /// Set when the purchase was refunded (the pack is locked again), or when the subscription
    /// that opened it ended.
    public var revokedDate: Int64?
    /// The subscription that opens the pack, for a pack not bought outright.
    public var subscriptionProductID: ProductID?
    /// When the subscription's access ends, as of the answer (its grace period's end while in
    /// it): a pack opened by a subscription plays offline until then, never after.
    public var expiresDate: Int64?
    public var isActive: Bool { revokedDate == nil }

    /// Active, and not past its subscription's end at `now`.
    public func isActive(at now: Int64) -> Bool {
        isActive && (expiresDate.map { now < $0 } ?? true)
    }

    public init(
        productID: ProductID, transactionID: TransactionID, grantedDate: Int64, revokedDate: Int64?, subscriptionProductID: ProductID? = nil,
        expiresDate: Int64? = nil
    ) {
        self.productID = productID
        self.transactionID = transactionID
        self.grantedDate = grantedDate
        self.revokedDate = revokedDate
        self.subscriptionProductID = subscriptionProductID
        self.expiresDate = expiresDate
    }
}

/// How a purchase ended, as far as the buyer is concerned.
public enum PurchaseOutcome: Sendable, Equatable, Codable {
    /// Charged and delivered.
    case purchased(StoreTransaction)
    /// A non-consumable the account already owns: nothing charged.
    case alreadyOwned(Entitlement)
    /// An auto-renewable the account is already subscribed to: nothing charged.
    case alreadySubscribed(SubscriptionStatus)
    /// A lower level of the group's live subscription: it takes over at the next renewal
    /// (`renewsToProductID`); nothing charged now.
    case changeScheduled(SubscriptionStatus)
    /// The store refused the payment.
    case failed(StoreTransaction)
    /// Waiting for a parent's approval.
    case deferred(StoreTransaction)
    /// Waiting for the buyer to act.
    case interrupted(StoreTransaction)
}

/// The result of spending a hint.
public struct HintSpend: Sendable, Equatable, Codable {
    /// The balance after the spend.
    public var balance: Int
    /// The key had already been spent: nothing was taken this time.
    public var wasAlreadySpent: Bool

    public init(balance: Int, wasAlreadySpent: Bool) {
        self.balance = balance
        self.wasAlreadySpent = wasAlreadySpent
    }
}

