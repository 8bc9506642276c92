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

    /// The switches, each off unless asked.
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

/// Where the store's time was moved to, and the renewals charged as it passed their dates.
public struct StoreClockMove: Sendable, Equatable, Codable {
    /// The store's time after the move (milliseconds since 1970).
    public var now: Int64
    /// The renewals charged on the way.
    public var renewals: Int

    /// A move to `now`, with the `renewals` it charged.
    public init(now: Int64, renewals: Int) {
        self.now = now
        self.renewals = renewals
    }
}

/// A notification a sandbox test control caused for the account (`hangman store notify`), by the
/// state change it tells of.
public struct NotificationCause: Sendable, Equatable, Codable {
    /// Apple's `notificationType` and `subtype`.
    public var type: String
    public var subtype: String?
    /// What changed, in a sentence; the other notifications the change told besides, if any.
    public var change: String
    /// The transaction it tells of, if any.
    public var transactionID: TransactionID?

    public init(type: String, subtype: String?, change: String, transactionID: TransactionID?) {
        self.type = type
        self.subtype = subtype
        self.change = change
        self.transactionID = transactionID
    }

    /// `TYPE` or `TYPE/SUBTYPE`.
    public var name: String { subtype.map { type + "/" + $0 } ?? type }

    /// What a test control causes (``StoreTestControls/causeNotification(_:subtype:)``), and what to do for the rest (`TYPE` or `TYPE/SUBTYPE`).
    public static let causes: [(name: String, change: String)] = [
        ("ONE_TIME_CHARGE", "buys the catalog's first consumable, one"),
        ("SUBSCRIBED/INITIAL_BUY", "subscribes to the group's first plan, when the account never had the group"),
        ("SUBSCRIBED/RESUBSCRIBE", "subscribes again, when a subscription of the group ended"),
        ("DID_RENEW", "moves the store's clock to the live subscription's renewal"),
        ("DID_RENEW/BILLING_RECOVERY", "turns fail-renewals off: a subscription in its grace period or billing retry renews"),
        ("DID_FAIL_TO_RENEW/GRACE_PERIOD", "turns fail-renewals on and moves the clock to the renewal"),
        ("DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "turns auto-renew off"),
        ("DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED", "turns auto-renew back on"),
        ("DID_CHANGE_RENEWAL_PREF/UPGRADE", "buys the group's level above the live one"),
        ("DID_CHANGE_RENEWAL_PREF/DOWNGRADE", "chooses the level below for the next renewal"),
        ("EXPIRED/VOLUNTARY", "turns auto-renew off and moves the clock past the period's end"),
        ("EXPIRED/BILLING_RETRY", "turns fail-renewals on and moves the clock past 60 days of billing retry"),
        ("RENEWAL_EXTENDED", "extends the live subscription's renewal date by a day"),
        ("CONSUMPTION_REQUEST", "asks for a refund of the newest delivered purchase"),
        ("REFUND", "refunds the newest paid purchase"),
        ("REFUND_DECLINED", "asks for a refund of the newest delivered purchase, and declines it"),
        ("REFUND_REVERSED", "asks for a refund of the newest delivered purchase, grants it, and reverses it"),
        ("TEST", "Apple's test notification"),
    ]

    /// The notifications no account change here causes alone, and what causes them.
    public static let causedElsewhere: [String: String] = [
        "OFFER_REDEEMED": "redeem an offer code for a subscription: 'hangman catalog offer-codes' makes them, 'hangman redeem CODE' redeems one",
        "PRICE_INCREASE": "raise the plan's price in Catalog.plist, publish it ('hangman catalog update', then SIGHUP for a server) and move the clock to the renewal; 'hangman subscriptions consent' tells ACCEPTED",
        "EXPIRED/PRICE_INCREASE": "a price increase not consented to ends the subscription at the renewal after PRICE_INCREASE PENDING",
        "EXPIRED/PRODUCT_NOT_FOR_SALE": "take the plan out of Catalog.plist, publish it, and move the clock to the renewal",
        "RENEWAL_EXTENSION": "a backend asks Apple's Extend Subscription Renewal Dates for All Active Subscribers (POST /inApps/v1/subscriptions/extend/mass)",
        "GRACE_PERIOD_EXPIRED": "this service does not tell it: billing retry follows the grace period without a notification",
    ]
}
