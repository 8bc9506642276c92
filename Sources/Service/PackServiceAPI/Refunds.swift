import PackIdentifiers

/// Why a customer asks for a refund, in Apple's words (the `consumptionRequestReason` of a
/// `CONSUMPTION_REQUEST` notification).
public enum RefundReason: String, Sendable, Equatable, Codable, CaseIterable {
    case unintendedPurchase = "UNINTENDED_PURCHASE"
    case fulfillmentIssue = "FULFILLMENT_ISSUE"
    case unsatisfiedWithPurchase = "UNSATISFIED_WITH_PURCHASE"
    case legal = "LEGAL"
    case other = "OTHER"

    /// How a command line names it: `unintended-purchase`, `fulfillment-issue`, `unsatisfied`,
    /// `legal`, `other`.
    public var argument: String {
        switch self {
        case .unintendedPurchase: "unintended-purchase"
        case .fulfillmentIssue: "fulfillment-issue"
        case .unsatisfiedWithPurchase: "unsatisfied"
        case .legal: "legal"
        case .other: "other"
        }
    }

    /// A reason from its command-line name or Apple's (any case).
    public init?(argument: String) {
        let asked = argument.lowercased()
        guard let reason = Self.allCases.first(where: { $0.argument == asked || $0.rawValue.lowercased() == asked }) else { return nil }
        self = reason
    }
}

/// What the App Store decides of a refund request, and what it may do later to a granted one.
public enum RefundDecision: String, Sendable, Equatable, Codable, CaseIterable {
    /// The refund is granted: `REFUND`, and the ledger takes back what the purchase gave.
    case grant
    /// The refund is declined: `REFUND_DECLINED`; nothing changes.
    case decline
    /// A granted refund is reversed: `REFUND_REVERSED`, and what it took comes back, once.
    case reverse
}

/// One purchase's refund, from the customer's request to the App Store's decision.
public struct RefundCase: Sendable, Equatable, Codable {
    /// Where it stands.
    public enum State: String, Sendable, Equatable, Codable {
        /// Asked; the App Store has not decided.
        case requested
        /// Refunded.
        case granted
        /// Refused.
        case declined
        /// Refunded, then reversed: the purchase counts again.
        case reversed
    }

    /// The purchase.
    public var transactionID: TransactionID
    public var state: State
    /// Why the customer asked (`nil`: refunded without a request, by the store's test control).
    public var reason: RefundReason?
    /// When the customer asked (store time, milliseconds since 1970).
    public var requestedDate: Int64?
    /// When it was granted or declined.
    public var decidedDate: Int64?
    /// When a granted refund was reversed.
    public var reversedDate: Int64?
    /// What the developer's server told of the purchase's use before the decision (its Send
    /// Consumption Information body), as the decision saw it.
    public var consumption: String?

    public init(
        transactionID: TransactionID, state: State, reason: RefundReason?, requestedDate: Int64?, decidedDate: Int64? = nil, reversedDate: Int64? = nil,
        consumption: String? = nil
    ) {
        self.transactionID = transactionID
        self.state = state
        self.reason = reason
        self.requestedDate = requestedDate
        self.decidedDate = decidedDate
        self.reversedDate = reversedDate
        self.consumption = consumption
    }
}

/// What a refund decision did: the case after it, the purchase after it, and the hints it moved
/// (taken back by a grant, given back by a reversal).
public struct RefundOutcome: Sendable, Equatable, Codable {
    public var refundCase: RefundCase
    public var transaction: StoreTransaction
    public var hints: Int

    public init(refundCase: RefundCase, transaction: StoreTransaction, hints: Int) {
        self.refundCase = refundCase
        self.transaction = transaction
        self.hints = hints
    }
}
