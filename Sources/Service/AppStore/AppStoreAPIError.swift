/// The App Store Server API's errors as Apple names them (Apple's `APIError`): each its
/// `errorCode`, its `errorMessage`, and the HTTP status it comes with (the code's first three
/// digits). A backend's code that switches on Apple's codes reads these unchanged.
public enum AppStoreAPIError: Int, Error, Sendable, CaseIterable {
    case generalBadRequest = 4_000_000
    case invalidRequestRevision = 4_000_005
    case invalidTransactionId = 4_000_006
    case invalidOriginalTransactionId = 4_000_008
    case invalidExtendByDays = 4_000_009
    case invalidExtendReasonCode = 4_000_010
    case invalidRequestIdentifier = 4_000_011
    case startDateAfterEndDate = 4_000_013
    case invalidPaginationToken = 4_000_014
    case invalidStartDate = 4_000_015
    case invalidEndDate = 4_000_016
    case invalidNotificationType = 4_000_018
    case multipleFiltersSupplied = 4_000_019
    case invalidSort = 4_000_021
    case invalidProductType = 4_000_022
    case invalidProductId = 4_000_023
    case invalidStorefrontCountryCode = 4_000_028
    case invalidRevoked = 4_000_030
    case invalidCustomerConsented = 4_000_035
    case invalidDeliveryStatus = 4_000_036
    case invalidSampleContentProvided = 4_000_041
    case invalidTransactionNotConsumable = 4_000_043
    case invalidAppAccountTokenUUID = 4_000_183
    case transactionIdIsNotOriginalTransactionId = 4_000_187
    case subscriptionExtensionIneligible = 4_030_004
    case subscriptionMaxExtension = 4_030_005
    case originalTransactionIdNotFound = 4_040_005
    case serverNotificationUrlNotFound = 4_040_007
    case testNotificationNotFound = 4_040_008
    case transactionIdNotFound = 4_040_010
    case rateLimitExceeded = 4_290_000

    /// The HTTP status: 400, 403, 404 or 429.
    public var status: Int { rawValue / 10_000 }

    /// Apple's `errorMessage`.
    public var message: String {
        switch self {
        case .generalBadRequest: "Bad request."
        case .invalidRequestRevision: "Invalid request revision."
        case .invalidTransactionId: "Invalid transaction id."
        case .invalidOriginalTransactionId: "Invalid original transaction id."
        case .invalidExtendByDays: "Invalid extend by days value."
        case .invalidExtendReasonCode: "Invalid extend reason code."
        case .invalidRequestIdentifier: "Invalid request identifier."
        case .startDateAfterEndDate: "Start date after end date."
        case .invalidPaginationToken: "Invalid pagination token."
        case .invalidStartDate: "Invalid start date."
        case .invalidEndDate: "Invalid end date."
        case .invalidNotificationType: "Invalid notification type."
        case .multipleFiltersSupplied: "Multiple filters supplied."
        case .invalidSort: "Invalid sort."
        case .invalidProductType: "Invalid product type."
        case .invalidProductId: "Invalid product id."
        case .invalidStorefrontCountryCode: "Invalid storefront country code."
        case .invalidRevoked: "Invalid revoked."
        case .invalidCustomerConsented: "Invalid customer consented."
        case .invalidDeliveryStatus: "Invalid delivery status."
        case .invalidSampleContentProvided: "Invalid sample content provided."
        case .invalidTransactionNotConsumable: "Invalid transaction, not consumable."
        case .invalidAppAccountTokenUUID: "Invalid app account token UUID."
        case .transactionIdIsNotOriginalTransactionId: "Transaction id is not original transaction id."
        case .subscriptionExtensionIneligible: "Subscription extension ineligible."
        case .subscriptionMaxExtension: "Subscription max extension."
        case .originalTransactionIdNotFound: "Original transaction id not found."
        case .serverNotificationUrlNotFound: "Server notification URL not found."
        case .testNotificationNotFound: "Test notification not found."
        case .transactionIdNotFound: "Transaction id not found."
        case .rateLimitExceeded: "Rate limit exceeded."
        }
    }

    /// The answer's body: `{"errorCode": 4000006, "errorMessage": "Invalid transaction id."}`.
    public var body: [UInt8] {
        Array("{\"errorCode\":\(rawValue),\"errorMessage\":\"\(message)\"}".utf8)
    }
}
