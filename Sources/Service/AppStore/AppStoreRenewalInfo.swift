import PackServiceWire

/// An auto-renewable subscription's renewal as Apple's App Store Server API signs it
/// (`JWSRenewalInfoDecodedPayload`): the ledger's subscription read in Apple's field names.
public struct AppStoreRenewalInfo: Sendable, Equatable, Codable {
    public var originalTransactionId: String
    public var productId: String
    /// The product of the next period (a downgrade chosen, or the same).
    public var autoRenewProductId: String
    /// 1: renews; 0: turned off.
    public var autoRenewStatus: Int
    /// Why it ended or will: 1 turned off, 2 billing failed, 3 a price increase not consented
    /// to, 4 not for sale.
    public var expirationIntent: Int?
    /// A price increase of the plan: 0 not consented to yet, 1 consented.
    public var priceIncreaseStatus: Int?
    public var isInBillingRetryPeriod: Bool?
    public var gracePeriodExpiresDate: Int64?
    /// When the next period would start.
    public var renewalDate: Int64?
    /// The start of the run of periods with no gap up to now.
    public var recentSubscriptionStartDate: Int64?
    public var signedDate: Int64
    public var environment: String
    /// The customer's app transaction, by its number.
    public var appTransactionId: String?

    public init(_ status: SubscriptionStatus, appTransactionID: TransactionID?, firstPurchase: Int64?, environment: ReceiptEnvironment, signedDate: Int64) {
        appTransactionId = appTransactionID?.number
        originalTransactionId = status.originalTransactionID.number
        productId = status.productID.rawValue
        autoRenewProductId = (status.renewsToProductID ?? status.productID).rawValue
        autoRenewStatus = status.willAutoRenew ? 1 : 0
        switch status.endReason {
        case nil: expirationIntent = status.willAutoRenew ? nil : 1
        case "billing"?: expirationIntent = 2
        case "price-increase"?: expirationIntent = 3
        case "expired"?: expirationIntent = status.willAutoRenew ? 4 : 1
        default: expirationIntent = nil
        }
        if [.billingRetry, .gracePeriod].contains(status.state) { isInBillingRetryPeriod = true } else if status.endReason == nil { isInBillingRetryPeriod = false }
        priceIncreaseStatus = status.priceIncrease.map { $0.consented ? 1 : 0 }
        gracePeriodExpiresDate = status.state == .gracePeriod ? status.gracePeriodExpiresDate : nil
        renewalDate = status.endReason == nil ? status.expiresDate : nil
        recentSubscriptionStartDate = firstPurchase
        self.signedDate = signedDate
        self.environment = AppStoreTransaction.environmentName(environment)
    }
}

/// Apple's subscription status numbers (Get All Subscription Statuses, notifications' `status`).
public enum AppStoreSubscriptionStatus {
    /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public static func number(_ state: SubscriptionState) -> Int {
        switch state {
        case .trial, .active: 1
        case .expired: 2
        case .billingRetry: 3
        case .gracePeriod: 4
        case .revoked: 5
        }
    }
}

/// `ResponseBodyV2DecodedPayload`: what a Server Notification V2 signs.
public struct AppStoreNotificationPayload: Sendable, Equatable, Codable {
    public struct Data: Sendable, Equatable, Codable {
        public var bundleId: String
        public var appAppleId: Int64?
        public var environment: String
        public var signedTransactionInfo: String?
        public var signedRenewalInfo: String?
        public var status: Int?
        /// A `CONSUMPTION_REQUEST`'s: why the customer asked for a refund (``RefundReason``).
        public var consumptionRequestReason: String?

        public init(
            bundleId: String, appAppleId: Int64?, environment: String, signedTransactionInfo: String?, signedRenewalInfo: String?, status: Int?,
            consumptionRequestReason: String? = nil
        ) {
            self.bundleId = bundleId
            self.appAppleId = appAppleId
            self.environment = environment
            self.signedTransactionInfo = signedTransactionInfo
            self.signedRenewalInfo = signedRenewalInfo
            self.status = status
            self.consumptionRequestReason = consumptionRequestReason
        }
    }

    /// `RENEWAL_EXTENSION` `SUMMARY`'s: what a mass extension did (in place of `data`).
    public struct Summary: Sendable, Equatable, Codable {
        public var requestIdentifier: String
        public var environment: String
        public var appAppleId: Int64?
        public var bundleId: String
        public var productId: String
        public var storefrontCountryCodes: [String]?
        public var failedCount: Int
        public var succeededCount: Int

        public init(
            requestIdentifier: String, environment: String, appAppleId: Int64?, bundleId: String, productId: String, storefrontCountryCodes: [String]?,
            failedCount: Int, succeededCount: Int
        ) {
            self.requestIdentifier = requestIdentifier
            self.environment = environment
            self.appAppleId = appAppleId
            self.bundleId = bundleId
            self.productId = productId
            self.storefrontCountryCodes = storefrontCountryCodes
            self.failedCount = failedCount
            self.succeededCount = succeededCount
        }
    }

    public var notificationType: String
    public var subtype: String?
    public var notificationUUID: String
    public var version: String
    public var signedDate: Int64
    public var data: Data?
    public var summary: Summary?

    public init(notificationType: String, subtype: String?, notificationUUID: String, signedDate: Int64, data: Data?, summary: Summary? = nil) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        version = "2.0"
        self.signedDate = signedDate
        self.data = data
        self.summary = summary
    }
}

/// One attempt in Apple's history shapes: `{"attemptDate": ms, "sendAttemptResult": "SUCCESS"}`.
public struct AppStoreSendAttempt: Sendable, Equatable, Codable {
    public var attemptDate: Int64
    public var sendAttemptResult: String

    public init(attemptDate: Int64, sendAttemptResult: String) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}
