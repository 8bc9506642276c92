import PackServiceAPI
import PackServiceWire

/// The App Store Server API's requests and answers that are not a signed payload, with Apple's names.

/// `HistoryResponse` and `RefundHistoryResponse` (the latter reads the fields it knows).
public struct TransactionPage: Encodable, Sendable {
    public var revision: String
    public var hasMore: Bool
    public var bundleId: String
    public var appAppleId: Int64?
    public var environment: String
    public var signedTransactions: [String]

    public init(revision: String, hasMore: Bool, bundleId: String, appAppleId: Int64?, environment: String, signedTransactions: [String]) {
        self.revision = revision
        self.hasMore = hasMore
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.signedTransactions = signedTransactions
    }
}

public struct StatusItem: Encodable, Sendable {
    public var status: Int
    public var originalTransactionId: String
    public var signedTransactionInfo: String
    public var signedRenewalInfo: String

    public init(status: Int, originalTransactionId: String, signedTransactionInfo: String, signedRenewalInfo: String) {
        self.status = status
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}

public struct StatusGroup: Encodable, Sendable {
    public var subscriptionGroupIdentifier: String
    public var lastTransactions: [StatusItem]

    public init(subscriptionGroupIdentifier: String, lastTransactions: [StatusItem]) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.lastTransactions = lastTransactions
    }
}

/// `StatusResponse`.
public struct StatusAnswer: Encodable, Sendable {
    public var environment: String
    public var bundleId: String
    public var appAppleId: Int64?
    public var data: [StatusGroup]

    public init(environment: String, bundleId: String, appAppleId: Int64?, data: [StatusGroup]) {
        self.environment = environment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.data = data
    }
}

/// `ConsumptionRequest`: a JSON object, its fields kept as sent (those read here checked for type).
public struct ConsumptionReport: Decodable, Sendable {
    public var customerConsented: Bool?
    public var sampleContentProvided: Bool?
    public var deliveryStatus: AnyScalar?
    public var consumptionStatus: Int?

    /// A field Apple has typed two ways over its versions (a number, then a string).
    public enum AnyScalar: Decodable, Sendable {
        case number(Int), text(String)
        public init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let number = try? value.decode(Int.self) { self = .number(number) } else { self = .text(try value.decode(String.self)) }
        }
    }
}

/// Send Consumption Information v2's `ConsumptionRequest`, checked as Apple checks it: the
/// customer's consent and whether a sample was provided (both required), the delivery status (one
/// of Apple's five), the share consumed in milliunits (0 to 100,000) and the refund preferred.
public struct ConsumptionRequestV2: Decodable, Sendable {
    public var customerConsented: Bool?
    public var sampleContentProvided: Bool?
    public var deliveryStatus: String?
    public var consumptionPercentage: Int?
    public var refundPreference: String?

    public static let deliveryStatuses = ["DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER"]
    public static let refundPreferences = ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"]

    /// The body read and checked, or Apple's error for it.
    public static func parse(_ body: [UInt8]) -> Result<ConsumptionRequestV2, AppStoreAPIError> {
        guard body.count <= 4096, let request = try? Wire.decode(ConsumptionRequestV2.self, from: body) else { return .failure(.generalBadRequest) }
        guard request.customerConsented != nil else { return .failure(.invalidCustomerConsented) }
        guard request.sampleContentProvided != nil else { return .failure(.invalidSampleContentProvided) }
        guard let status = request.deliveryStatus, deliveryStatuses.contains(status) else { return .failure(.invalidDeliveryStatus) }
        if let share = request.consumptionPercentage, !(0...100_000).contains(share) { return .failure(.generalBadRequest) }
        if let preference = request.refundPreference, !refundPreferences.contains(preference) { return .failure(.generalBadRequest) }
        return .success(request)
    }
}

/// `OrderLookupResponse`: 0 and the order's signed transactions, or 1 for an order id that is not one.
public struct OrderLookupAnswer: Encodable, Sendable {
    public var status: Int
    public var signedTransactions: [String]

    public init(status: Int, signedTransactions: [String]) {
        self.status = status
        self.signedTransactions = signedTransactions
    }
}

/// `ExtendRenewalDateRequest`.
public struct ExtendRequest: Decodable, Sendable {
    public var extendByDays: Int?
    public var extendReasonCode: Int?
    public var requestIdentifier: String?

    public init(extendByDays: Int?, extendReasonCode: Int?, requestIdentifier: String?) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }
}

/// `MassExtendRenewalDateRequest`.
public struct MassExtendRequest: Decodable, Sendable {
    public var extendByDays: Int?
    public var extendReasonCode: Int?
    public var requestIdentifier: String?
    public var storefrontCountryCodes: [String]?
    public var productId: String?

    /// The request as Extend a Subscription Renewal Date checks the same fields.
    public var single: ExtendRequest {
        ExtendRequest(extendByDays: extendByDays, extendReasonCode: extendReasonCode, requestIdentifier: requestIdentifier)
    }
}

/// `MassExtendRenewalDateStatusResponse`.
public struct MassExtendStatus: Encodable, Sendable {
    public var requestIdentifier: String
    public var complete: Bool
    public var completeDate: Int64?
    public var succeededCount: Int
    public var failedCount: Int

    public init(requestIdentifier: String, complete: Bool, completeDate: Int64?, succeededCount: Int, failedCount: Int) {
        self.requestIdentifier = requestIdentifier
        self.complete = complete
        self.completeDate = completeDate
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}

/// `ExtendRenewalDateResponse`.
public struct ExtendAnswer: Encodable, Sendable {
    public var originalTransactionId: String
    public var webOrderLineItemId: String
    public var success: Bool
    public var effectiveDate: Int64

    public init(originalTransactionId: String, webOrderLineItemId: String, success: Bool, effectiveDate: Int64) {
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.success = success
        self.effectiveDate = effectiveDate
    }
}

/// `CheckTestNotificationResponse`.
public struct TestNotificationStatus: Encodable, Sendable {
    public var signedPayload: String
    public var sendAttempts: [AppStoreSendAttempt]

    public init(signedPayload: String, sendAttempts: [AppStoreSendAttempt]) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}

/// `NotificationHistoryRequest`.
public struct NotificationHistoryRequest: Decodable, Sendable {
    public var startDate: Int64?
    public var endDate: Int64?
    public var notificationType: String?
    public var notificationSubtype: String?
    public var transactionId: String?
    public var onlyFailures: Bool?
}

public struct NotificationHistoryItem: Encodable, Sendable {
    public var signedPayload: String
    public var sendAttempts: [AppStoreSendAttempt]

    public init(signedPayload: String, sendAttempts: [AppStoreSendAttempt]) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}

/// `NotificationHistoryResponse`.
public struct NotificationHistoryAnswer: Encodable, Sendable {
    public var paginationToken: String?
    public var hasMore: Bool
    public var notificationHistory: [NotificationHistoryItem]

    public init(paginationToken: String?, hasMore: Bool, notificationHistory: [NotificationHistoryItem]) {
        self.paginationToken = paginationToken
        self.hasMore = hasMore
        self.notificationHistory = notificationHistory
    }
}

extension StatusAnswer {
    /// Get All Subscription Statuses as Apple answers it: the account's auto-renewable
    /// subscriptions by subscription group (sorted), each with its status number (those in
    /// `wanted`, or all), its latest period's transaction and its renewal info, signed.
    public init(
        _ subscriptions: [SubscriptionStatus], transactions: [StoreTransaction], wanted: Set<Int>, catalog: Catalog, appTransactionID: TransactionID?,
        environment: ReceiptEnvironment, now: Int64, signTransaction: (StoreTransaction) throws(ServiceError) -> String,
        signRenewal: (AppStoreRenewalInfo) throws(ServiceError) -> String
    ) throws(ServiceError) {
        var groups: [String: [StatusItem]] = [:]
        for status in subscriptions where status.isAutoRenewable {
            guard let group = catalog.product(status.productID)?.autoRenewable?.group else { continue }
            let number = AppStoreSubscriptionStatus.number(status.state)
            guard wanted.isEmpty || wanted.contains(number) else { continue }
            let periods = transactions.filter { $0.originalTransactionID == status.originalTransactionID }
            guard let latest = periods.max(by: { $0.purchaseDate < $1.purchaseDate }) else { continue }
            let first = periods.min(by: { $0.purchaseDate < $1.purchaseDate })?.purchaseDate
            let renewal = AppStoreRenewalInfo(status, appTransactionID: appTransactionID, firstPurchase: first, environment: environment, signedDate: now)
            groups[group, default: []].append(
                StatusItem(
                    status: number, originalTransactionId: status.originalTransactionID.number,
                    signedTransactionInfo: try signTransaction(latest), signedRenewalInfo: try signRenewal(renewal)))
        }
        self.init(
            environment: AppStoreTransaction.environmentName(environment), bundleId: catalog.bundleIdentifier, appAppleId: catalog.appAppleID,
            data: groups.sorted { $0.key < $1.key }.map { StatusGroup(subscriptionGroupIdentifier: $0.key, lastTransactions: $0.value) })
    }
}
