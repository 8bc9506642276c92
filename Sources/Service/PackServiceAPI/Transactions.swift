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
    /// The transaction's id (`TransactionID.number` is how people and Apple's shapes read it).
    public var id: TransactionID
    /// The product bought.
    public var productID: ProductID
    /// It buys hints (consumed, never restored).
    public var isConsumable: Bool
    /// How many (hints bought several at once).
    public var quantity: Int
    /// Where it stands: purchasing, purchased, delivered, finished, failed, deferred, revoked...
    public var state: TransactionState
    /// Why a failed transaction failed.
    public var failureReason: String?
    /// Milliseconds since 1970.
    public var purchaseDate: Int64
    /// When its state last changed (milliseconds since 1970).
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
    /// The UUID the app gave the purchase (StoreKit's `appAccountToken` purchase option) or the
    /// developer's server set on it later, lowercase; a subscription's renewals carry their
    /// original's. `nil`: none given.
    public var appAccountToken: String?
    /// The promotional offer this transaction was charged under (its identifier in the catalog's
    /// `PromotionalOffers`), when the developer's server signed one for the subscription.
    public var promotionalOffer: String?
    /// The purchase, or the subscription it renews, was made with an offer code: the code's
    /// offer (a subscription's offer identifier, or a one-time product's batch name).
    public var offerCode: String?

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

    /// A transaction as the ledger records it.
    public init(
        id: TransactionID, productID: ProductID, isConsumable: Bool, quantity: Int, state: TransactionState, failureReason: String?,
        purchaseDate: Int64, updatedDate: Int64, revocationDate: Int64?, hintsCredited: Int, originalTransactionID: TransactionID? = nil,
        expiresDate: Int64? = nil, isTrial: Bool = false, refundAmount: String? = nil, price: Money? = nil, storefront: String? = nil,
        appAccountToken: String? = nil, promotionalOffer: String? = nil, offerCode: String? = nil
    ) {
        self.appAccountToken = appAccountToken
        self.promotionalOffer = promotionalOffer
        self.offerCode = offerCode
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
    /// The product the account may use.
    public var productID: ProductID
    /// The purchase that gave it.
    public var transactionID: TransactionID
    /// When it was given (milliseconds since 1970).
    public var grantedDate: Int64
    /// Set when the purchase was refunded (the pack is locked again), or when the subscription
    /// that opened it ended.
    public var revokedDate: Int64?
    /// The subscription that opens the pack, for a pack not bought outright.
    public var subscriptionProductID: ProductID?
    /// When the subscription's access ends, as of the answer (its grace period's end while in
    /// it): a pack opened by a subscription plays offline until then, never after.
    public var expiresDate: Int64?
    /// Not revoked: the account may use it (for a subscription's pack, see ``isActive(at:)``).
    public var isActive: Bool { revokedDate == nil }

    /// Active, and not past its subscription's end at `now`.
    public func isActive(at now: Int64) -> Bool {
        isActive && (expiresDate.map { now < $0 } ?? true)
    }

    /// An entitlement to `productID` from `transactionID`.
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

    /// The outcome's name, on the wire (`"outcome"`) and in the metrics.
    public var name: String {
        switch self {
        case .purchased: "purchased"
        case .alreadyOwned: "already-owned"
        case .alreadySubscribed: "already-subscribed"
        case .changeScheduled: "change-scheduled"
        case .failed: "failed"
        case .deferred: "deferred"
        case .interrupted: "interrupted"
        }
    }
}

/// On the wire an outcome is named, with what it carries under its own key:
/// `{"outcome":"purchased","transaction":{...}}`, `{"outcome":"already-owned","entitlement":{...}}`,
/// `{"outcome":"already-subscribed","subscription":{...}}`. Answers kept in the form Swift's
/// synthesized coding wrote (`{"purchased":{"_0":{...}}}`, replayed for an `Idempotency-Key` or sent
/// by an older server) still decode.
extension PurchaseOutcome {
    private enum CodingKeys: String, CodingKey {
        case outcome, transaction, entitlement, subscription
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .outcome)
        switch self {
        case .purchased(let transaction), .failed(let transaction), .deferred(let transaction), .interrupted(let transaction):
            try container.encode(transaction, forKey: .transaction)
        case .alreadyOwned(let entitlement):
            try container.encode(entitlement, forKey: .entitlement)
        case .alreadySubscribed(let status), .changeScheduled(let status):
            try container.encode(status, forKey: .subscription)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let name = try container.decodeIfPresent(String.self, forKey: .outcome) else {
            self = try Self(synthesizedFrom: decoder)
            return
        }
        switch name {
        case "purchased": self = .purchased(try container.decode(StoreTransaction.self, forKey: .transaction))
        case "failed": self = .failed(try container.decode(StoreTransaction.self, forKey: .transaction))
        case "deferred": self = .deferred(try container.decode(StoreTransaction.self, forKey: .transaction))
        case "interrupted": self = .interrupted(try container.decode(StoreTransaction.self, forKey: .transaction))
        case "already-owned": self = .alreadyOwned(try container.decode(Entitlement.self, forKey: .entitlement))
        case "already-subscribed": self = .alreadySubscribed(try container.decode(SubscriptionStatus.self, forKey: .subscription))
        case "change-scheduled": self = .changeScheduled(try container.decode(SubscriptionStatus.self, forKey: .subscription))
        default:
            throw DecodingError.dataCorruptedError(forKey: .outcome, in: container, debugDescription: "'\(name)' is not a purchase outcome")
        }
    }

    /// The older form: `{"CASE":{"_0":VALUE}}`.
    private init(synthesizedFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: NamedCodingKey.self)
        guard let key = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'outcome' is missing"))
        }
        let value = try container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: key)
        let only = NamedCodingKey(stringValue: "_0")
        switch key.stringValue {
        case "purchased": self = .purchased(try value.decode(StoreTransaction.self, forKey: only))
        case "failed": self = .failed(try value.decode(StoreTransaction.self, forKey: only))
        case "deferred": self = .deferred(try value.decode(StoreTransaction.self, forKey: only))
        case "interrupted": self = .interrupted(try value.decode(StoreTransaction.self, forKey: only))
        case "alreadyOwned": self = .alreadyOwned(try value.decode(Entitlement.self, forKey: only))
        case "alreadySubscribed": self = .alreadySubscribed(try value.decode(SubscriptionStatus.self, forKey: only))
        case "changeScheduled": self = .changeScheduled(try value.decode(SubscriptionStatus.self, forKey: only))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'outcome' is missing"))
        }
    }
}

/// The result of spending a hint.
public struct HintSpend: Sendable, Equatable, Codable {
    /// The balance after the spend.
    public var balance: Int
    /// The key had already been spent: nothing was taken this time.
    public var wasAlreadySpent: Bool

    /// A spend that left `balance`, or found its key spent already.
    public init(balance: Int, wasAlreadySpent: Bool) {
        self.balance = balance
        self.wasAlreadySpent = wasAlreadySpent
    }
}


/// A coding key by name alone, for keys known only when coding (`_0` of Swift's synthesized
/// coding, a key chosen by the caller).
public struct NamedCodingKey: CodingKey, Sendable {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

/// What a purchase may carry beside its product and quantity, as StoreKit's purchase options do.
public struct PurchaseOptions: Sendable, Equatable {
    /// A UUID the app relates the purchase to its own account with (``AppAccountToken``).
    public var appAccountToken: String?
    /// StoreKit's `introductoryOfferEligibility(compactJWS:)`: the developer's server's signed word
    /// (Apple's `IntroductoryOfferEligibilitySignatureCreator`) on whether this purchase starts
    /// the product's introductory offer, in place of the App Store's own rule. A pack server with
    /// the developer's keys (`serve --api-key`) checks it.
    public var introductoryOfferEligibility: String?
    /// StoreKit's `promotionalOffer(_:compactJWS:)`: a promotional offer of the subscription,
    /// signed by the developer's server (Apple's `PromotionalOfferV2SignatureCreator`); a pack
    /// server with the developer's keys checks it.
    public var promotionalOffer: String?
    /// StoreKit's `winBackOffer(_:)`: a win-back offer of the subscription (the catalog's
    /// `WinBackOffers`) the account is eligible for, by its identifier; no signature.
    public var winBackOffer: String?

    public init(appAccountToken: String? = nil, introductoryOfferEligibility: String? = nil, promotionalOffer: String? = nil, winBackOffer: String? = nil) {
        self.winBackOffer = winBackOffer
        self.appAccountToken = appAccountToken
        self.introductoryOfferEligibility = introductoryOfferEligibility
        self.promotionalOffer = promotionalOffer
    }
}

/// A promotional offer as a pack server checked its signature: which offer, and the
/// signature's nonce (used once).
public struct PromotionalOfferDecision: Sendable, Equatable {
    /// The signature's audience (`aud`), as Apple's `PromotionalOfferV2SignatureCreator` signs it.
    public static let audience = "promotional-offer"

    /// The offer's identifier, as the catalog declares it for the product.
    public var identifier: String
    public var nonce: String

    public init(identifier: String, nonce: String) {
        self.identifier = identifier
        self.nonce = nonce
    }
}

/// An introductory offer's eligibility as a pack server checked it: what the developer's server
/// decided, and the signature's nonce (used once).
public struct IntroductoryOfferDecision: Sendable, Equatable {
    /// The signature's audience (`aud`), as Apple's `IntroductoryOfferEligibilitySignatureCreator` signs it.
    public static let audience = "introductory-offer-eligibility"

    public var allowed: Bool
    public var nonce: String

    public init(allowed: Bool, nonce: String) {
        self.allowed = allowed
        self.nonce = nonce
    }
}

/// An app account token: a UUID (8-4-4-4-12 hex digits), kept lowercase as Apple's shapes write it.
public enum AppAccountToken {
    /// `text` as an app account token, lowercase; `nil` when it is not a UUID.
    public static func parse(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte) else { return nil }
            }
        }
        return text.lowercased()
    }

    /// Said when a text is not one.
    public static let problem = "an app account token is a UUID, like 7e3fb20b-4cdb-47cc-936d-99d65f608138"
}

/// The account's app transaction, as StoreKit's `AppTransaction` and Apple's shapes have it: the
/// app's "download" by this customer, one per account and stable for it, its id a transaction
/// number claimed as every other, so that any endpoint that names a customer takes it.
public struct AppTransactionRecord: Sendable, Equatable, Codable {
    public var id: TransactionID
    /// When the account first had the app: its first purchase, or when its app transaction was made.
    public var originalPurchaseDate: Int64

    public init(id: TransactionID, originalPurchaseDate: Int64) {
        self.id = id
        self.originalPurchaseDate = originalPurchaseDate
    }
}
