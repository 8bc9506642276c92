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

/// The switches of the store's test environment, kept with the account.
public struct StoreControls: Sendable, Equatable, Codable {
    /// Every purchase fails.
    public var failPurchases = false
    /// Every purchase waits for approval.
    public var askToBuy = false
    /// Every purchase is interrupted until resolved.
    public var interruptPurchases = false
    /// Every renewal of an auto-renewable subscription fails: grace period, then billing retry.
    public var failRenewals = false

    public init(failPurchases: Bool = false, askToBuy: Bool = false, interruptPurchases: Bool = false, failRenewals: Bool = false) {
        self.failPurchases = failPurchases
        self.askToBuy = askToBuy
        self.interruptPurchases = interruptPurchases
        self.failRenewals = failRenewals
    }

    private enum CodingKeys: String, CodingKey {
        case failPurchases, askToBuy, interruptPurchases, failRenewals
    }

    /// `failRenewals` may be absent (a document written before it existed): off.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        failPurchases = try container.decode(Bool.self, forKey: .failPurchases)
        askToBuy = try container.decode(Bool.self, forKey: .askToBuy)
        interruptPurchases = try container.decode(Bool.self, forKey: .interruptPurchases)
        failRenewals = try container.decodeIfPresent(Bool.self, forKey: .failRenewals) ?? false
    }
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

/// Where a crash can be injected, to prove that recovery delivers exactly once.
public enum CrashPoint: String, Sendable, CaseIterable {
    /// The payment is recorded; nothing is delivered yet.
    case afterCharge = "after-charge"
    /// Delivered; the transaction is not finished yet.
    case afterDeliver = "after-deliver"
    /// A renewal is charged (its transaction recorded); its period's hints are not credited yet.
    case afterRenewalCharge = "after-renewal-charge"
}

/// Why the store could not do what was asked.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible, Codable {
    public enum Kind: String, Sendable, Codable {
        /// The catalog does not sell that product.
        case unknownProduct = "unknown-product"
        /// A bad argument (a quantity out of range, say).
        case invalidRequest = "invalid-request"
        /// No such transaction.
        case unknownTransaction = "unknown-transaction"
        /// The transaction is not in a state that allows this.
        case wrongState = "wrong-state"
        /// Not enough hints.
        case notEnoughHints = "not-enough-hints"
        /// The account does not own the product.
        case notEntitled = "not-entitled"
        /// The product is in the catalog but cannot be sold or downloaded now: its pack is missing or damaged.
        case productUnavailable = "product-unavailable"
        /// A purchase of the same pack is already in progress or waiting for approval: try again later.
        case purchaseInProgress = "purchase-in-progress"
        /// The account's database or key could not be used.
        case storage
        /// The service cannot be reached, or answered with a failure of its own.
        case unavailable = "service-unavailable"
        /// The service does not know this account's token.
        case unauthorized
        /// The service's answer is not signed by the key pinned for it, or is older than one already seen.
        case untrusted = "untrusted-response"
        /// No such resource: a path the service does not serve, or a token the account does not have.
        case notFound = "not-found"
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
