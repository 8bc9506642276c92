import PackServiceWire
import CivilCalendar

/// `POST /verifyReceipt` as Apple's App Store answered it: the request and the response in
/// Apple's own keys and types (dates three ways, numbers as strings), so that server code written
/// for Apple's endpoint reads this one unchanged. The rest of the API keeps this project's names.

extension API {
    /// `POST /verifyReceipt`, in Apple's shapes.
    public static let verifyReceipt = Endpoint<AppleVerifyRequest, AppleVerifyResponse>(.verifyReceipt)
}

/// The request: `{"receipt-data": base64, "password": shared secret, "exclude-old-transactions": bool}`.
public struct AppleVerifyRequest: Codable, Sendable, Equatable {
    public var receiptData: String
    /// The shared secret (`hangman serve --shared-secret-file`): needed for a receipt that holds
    /// an auto-renewable subscription.
    public var password: String?
    /// Only the latest transaction of each subscription in `latest_receipt_info`.
    public var excludeOldTransactions: Bool?

    enum CodingKeys: String, CodingKey {
        case receiptData = "receipt-data"
        case password
        case excludeOldTransactions = "exclude-old-transactions"
    }

    public init(receiptData: String, password: String? = nil, excludeOldTransactions: Bool? = nil) {
        self.receiptData = receiptData
        self.password = password
        self.excludeOldTransactions = excludeOldTransactions
    }
}

/// The response, HTTP 200 whatever the status.
public struct AppleVerifyResponse: Codable, Sendable, Equatable {
    public var status: Int
    /// `Sandbox` or `Production`.
    public var environment: String?
    public var receipt: AppleReceipt?
    /// The account's receipt as it stands now (base64), for a receipt with subscriptions.
    public var latestReceipt: String?
    /// Every transaction of every subscription, newest first.
    public var latestReceiptInfo: [AppleInApp]?
    public var pendingRenewalInfo: [ApplePendingRenewal]?
    /// Set where Apple sets it: the request may succeed later.
    public var isRetryable: Bool?

    enum CodingKeys: String, CodingKey {
        case status, environment, receipt
        case latestReceipt = "latest_receipt"
        case latestReceiptInfo = "latest_receipt_info"
        case pendingRenewalInfo = "pending_renewal_info"
        case isRetryable = "is-retryable"
    }

    public init(
        status: Int, environment: String?, receipt: AppleReceipt? = nil, latestReceipt: String? = nil, latestReceiptInfo: [AppleInApp]? = nil,
        pendingRenewalInfo: [ApplePendingRenewal]? = nil, isRetryable: Bool? = nil
    ) {
        self.status = status
        self.environment = environment
        self.receipt = receipt
        self.latestReceipt = latestReceipt
        self.latestReceiptInfo = latestReceiptInfo
        self.pendingRenewalInfo = pendingRenewalInfo
        self.isRetryable = isRetryable
    }
}

/// The `receipt` object.
public struct AppleReceipt: Codable, Sendable, Equatable {
    /// `ProductionSandbox` or `Production`.
    public var receiptType: String
    public var bundleID: String
    public var applicationVersion: String
    public var originalApplicationVersion: String
    public var receiptCreationDate: String
    public var receiptCreationDateMs: String
    public var receiptCreationDatePst: String
    public var requestDate: String
    public var requestDateMs: String
    public var requestDatePst: String
    public var originalPurchaseDate: String
    public var originalPurchaseDateMs: String
    public var originalPurchaseDatePst: String
    public var inApp: [AppleInApp]

    enum CodingKeys: String, CodingKey {
        case receiptType = "receipt_type"
        case bundleID = "bundle_id"
        case applicationVersion = "application_version"
        case originalApplicationVersion = "original_application_version"
        case receiptCreationDate = "receipt_creation_date"
        case receiptCreationDateMs = "receipt_creation_date_ms"
        case receiptCreationDatePst = "receipt_creation_date_pst"
        case requestDate = "request_date"
        case requestDateMs = "request_date_ms"
        case requestDatePst = "request_date_pst"
        case originalPurchaseDate = "original_purchase_date"
        case originalPurchaseDateMs = "original_purchase_date_ms"
        case originalPurchaseDatePst = "original_purchase_date_pst"
        case inApp = "in_app"
    }

    public init(
        receiptType: String, bundleID: String, applicationVersion: String, originalApplicationVersion: String, created: AppleDate, requested: AppleDate,
        originalPurchase: AppleDate, inApp: [AppleInApp]
    ) {
        self.receiptType = receiptType
        self.bundleID = bundleID
        self.applicationVersion = applicationVersion
        self.originalApplicationVersion = originalApplicationVersion
        (receiptCreationDate, receiptCreationDateMs, receiptCreationDatePst) = (created.gmt, created.milliseconds, created.pst)
        (requestDate, requestDateMs, requestDatePst) = (requested.gmt, requested.milliseconds, requested.pst)
        (originalPurchaseDate, originalPurchaseDateMs, originalPurchaseDatePst) = (originalPurchase.gmt, originalPurchase.milliseconds, originalPurchase.pst)
        self.inApp = inApp
    }
}

/// One purchase, in `in_app` and `latest_receipt_info`.
public struct AppleInApp: Codable, Sendable, Equatable {
    public var productID: String
    public var transactionID: String
    public var originalTransactionID: String
    /// A string of digits, as Apple sends it.
    public var quantity: String
    public var purchaseDate: String
    public var purchaseDateMs: String
    public var purchaseDatePst: String
    public var originalPurchaseDate: String
    public var originalPurchaseDateMs: String
    public var originalPurchaseDatePst: String
    public var expiresDate: String?
    public var expiresDateMs: String?
    public var expiresDatePst: String?
    public var cancellationDate: String?
    public var cancellationDateMs: String?
    public var cancellationDatePst: String?
    /// `0` (another reason, a refund asked for) or `1` (an issue in the app); with a cancellation.
    public var cancellationReason: String?
    /// `true` or `false`, as strings; subscriptions only.
    public var isTrialPeriod: String?
    public var isInIntroOfferPeriod: String?
    public var webOrderLineItemID: String?
    /// `PURCHASED`.
    public var inAppOwnershipType: String
    /// An upgraded subscription's: `true`.
    public var isUpgraded: String?

    enum CodingKeys: String, CodingKey {
        case productID = "product_id"
        case transactionID = "transaction_id"
        case originalTransactionID = "original_transaction_id"
        case quantity
        case purchaseDate = "purchase_date"
        case purchaseDateMs = "purchase_date_ms"
        case purchaseDatePst = "purchase_date_pst"
        case originalPurchaseDate = "original_purchase_date"
        case originalPurchaseDateMs = "original_purchase_date_ms"
        case originalPurchaseDatePst = "original_purchase_date_pst"
        case expiresDate = "expires_date"
        case expiresDateMs = "expires_date_ms"
        case expiresDatePst = "expires_date_pst"
        case cancellationDate = "cancellation_date"
        case cancellationDateMs = "cancellation_date_ms"
        case cancellationDatePst = "cancellation_date_pst"
        case cancellationReason = "cancellation_reason"
        case isTrialPeriod = "is_trial_period"
        case isInIntroOfferPeriod = "is_in_intro_offer_period"
        case webOrderLineItemID = "web_order_line_item_id"
        case inAppOwnershipType = "in_app_ownership_type"
        case isUpgraded = "is_upgraded"
    }

    public init(
        productID: String, transactionID: String, originalTransactionID: String, quantity: Int, purchased: AppleDate, originalPurchase: AppleDate,
        expires: AppleDate?, cancelled: AppleDate?, cancellationReason: String?, isTrial: Bool?, webOrderLineItemID: String?, isUpgraded: Bool
    ) {
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.quantity = String(quantity)
        (purchaseDate, purchaseDateMs, purchaseDatePst) = (purchased.gmt, purchased.milliseconds, purchased.pst)
        (originalPurchaseDate, originalPurchaseDateMs, originalPurchaseDatePst) = (originalPurchase.gmt, originalPurchase.milliseconds, originalPurchase.pst)
        (expiresDate, expiresDateMs, expiresDatePst) = (expires?.gmt, expires?.milliseconds, expires?.pst)
        (cancellationDate, cancellationDateMs, cancellationDatePst) = (cancelled?.gmt, cancelled?.milliseconds, cancelled?.pst)
        self.cancellationReason = cancelled == nil ? nil : cancellationReason
        isTrialPeriod = isTrial.map { $0 ? "true" : "false" }
        isInIntroOfferPeriod = isTrial.map { _ in "false" }
        self.webOrderLineItemID = webOrderLineItemID
        inAppOwnershipType = "PURCHASED"
        self.isUpgraded = isUpgraded ? "true" : nil
    }
}

/// One auto-renewable subscription's renewal, in `pending_renewal_info`.
public struct ApplePendingRenewal: Codable, Sendable, Equatable {
    public var productID: String
    public var originalTransactionID: String
    public var autoRenewProductID: String
    /// `1` renews, `0` does not.
    public var autoRenewStatus: String
    /// `1` while a renewal is failing, `0` otherwise.
    public var isInBillingRetryPeriod: String
    public var gracePeriodExpiresDate: String?
    public var gracePeriodExpiresDateMs: String?
    public var gracePeriodExpiresDatePst: String?
    /// Why it expired: `1` cancelled by the customer, `2` a billing error, `5` another reason.
    public var expirationIntent: String?

    enum CodingKeys: String, CodingKey {
        case productID = "product_id"
        case originalTransactionID = "original_transaction_id"
        case autoRenewProductID = "auto_renew_product_id"
        case autoRenewStatus = "auto_renew_status"
        case isInBillingRetryPeriod = "is_in_billing_retry_period"
        case gracePeriodExpiresDate = "grace_period_expires_date"
        case gracePeriodExpiresDateMs = "grace_period_expires_date_ms"
        case gracePeriodExpiresDatePst = "grace_period_expires_date_pst"
        case expirationIntent = "expiration_intent"
    }

    public init(
        productID: String, originalTransactionID: String, autoRenewProductID: String, autoRenew: Bool, inBillingRetry: Bool, graceEnds: AppleDate?,
        expirationIntent: String?
    ) {
        self.productID = productID
        self.originalTransactionID = originalTransactionID
        self.autoRenewProductID = autoRenewProductID
        autoRenewStatus = autoRenew ? "1" : "0"
        isInBillingRetryPeriod = inBillingRetry ? "1" : "0"
        (gracePeriodExpiresDate, gracePeriodExpiresDateMs, gracePeriodExpiresDatePst) = (graceEnds?.gmt, graceEnds?.milliseconds, graceEnds?.pst)
        self.expirationIntent = expirationIntent
    }
}

/// A moment the three ways Apple writes it: `2026-12-01 14:03:11 Etc/GMT`, `1764597791000`, and
/// `2026-12-01 06:03:11 America/Los_Angeles` (Pacific time, daylight saving as the United States
/// keeps it since 2007: from the second Sunday of March, 2:00, to the first Sunday of November,
/// 2:00).
public struct AppleDate: Sendable, Equatable {
    public var gmt: String
    public var milliseconds: String
    public var pst: String

    public init(_ milliseconds: Int64) {
        self.milliseconds = String(milliseconds)
        gmt = Self.format(milliseconds) + " Etc/GMT"
        let standard = milliseconds - 8 * 3_600_000
        let pacific = Self.isDaylightSaving(utc: milliseconds) ? standard + 3_600_000 : standard
        pst = Self.format(pacific) + " America/Los_Angeles"
    }

    /// `yyyy-MM-dd HH:mm:ss` of a UTC moment.
    static func format(_ milliseconds: Int64) -> String {
        UTCDateTime(millisecondsSince1970: milliseconds).dateTimeText
    }

    /// Whether Pacific time is on daylight saving at this UTC moment.
    static func isDaylightSaving(utc milliseconds: Int64) -> Bool {
        let day = UTCDateTime.millisecondsPerDay
        let year = Int64(UTCDateTime(millisecondsSince1970: milliseconds).year)
        // 2:00 PST (10:00 UTC) on the second Sunday of March; 2:00 PDT (9:00 UTC) on the first Sunday of November.
        let starts = nthSunday(2, month: 3, year: year) * day + 10 * 3_600_000
        let ends = nthSunday(1, month: 11, year: year) * day + 9 * 3_600_000
        return milliseconds >= starts && milliseconds < ends
    }

    /// Days since 1970 of the `n`th Sunday of a month.
    static func nthSunday(_ n: Int64, month: Int64, year: Int64) -> Int64 {
        let first = CivilDate.days(fromCivil: year, month, 1)
        let weekday = ((first % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday (4); 0 is Sunday
        return first + (7 - weekday) % 7 + (n - 1) * 7
    }
}
