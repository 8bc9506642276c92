import CivilCalendar
import Device
import PackServiceAPI
import PackServiceClient
import SystemCalls
import TerminalText

struct ReceiptJSON: Encodable {
    var bundleIdentifier: String
    /// The pack server's account the receipt belongs to (absent for the embedded store's).
    var accountID: String?
    var creationDate: String
    var transactions: [Transaction]
    /// Each auto-renewable subscription's renewal state.
    var renewals: [Renewal]?

    struct Transaction: Encodable {
        var transactionID: String
        var productID: String
        var quantity: Int
        var state: String
        var purchaseDate: String
        var revocationDate: String?
        var originalTransactionID: String?
        var expiresDate: String?
        var isTrial: Bool?
        /// What it charged (a decimal string in `currency`) and where.
        var price: String?
        var currency: String?
        var storefront: String?
    }

    struct Renewal: Encodable {
        var originalTransactionID: String
        var productID: String
        var autoRenew: Bool
        var autoRenewProductID: String
        var isInBillingRetryPeriod: Bool
        var gracePeriodExpiresDate: String?
        var expirationIntent: String?
    }

    init(_ payload: ReceiptPayload) {
        bundleIdentifier = payload.bundleIdentifier
        accountID = payload.accountID
        creationDate = ISO8601.string(payload.creationDate)
        transactions = payload.transactions.map {
            Transaction(
                transactionID: TransactionID.number(ofRawValue: $0.id), productID: $0.productID, quantity: $0.quantity, state: $0.state, purchaseDate: ISO8601.string($0.purchaseDate),
                revocationDate: $0.revocationDate.map { ISO8601.string($0) }, originalTransactionID: $0.originalTransactionID.map(TransactionID.number(ofRawValue:)),
                expiresDate: $0.expiresDate.map { ISO8601.string($0) }, isTrial: $0.isTrial, price: $0.price, currency: $0.currency,
                storefront: $0.storefront)
        }
        renewals = payload.renewals.isEmpty ? nil : payload.renewals.map {
            Renewal(
                originalTransactionID: TransactionID.number(ofRawValue: $0.originalTransactionID), productID: $0.productID, autoRenew: $0.autoRenewStatus,
                autoRenewProductID: $0.autoRenewProductID, isInBillingRetryPeriod: $0.isInBillingRetryPeriod,
                gracePeriodExpiresDate: $0.gracePeriodExpiresDate.map { ISO8601.string($0) }, expirationIntent: $0.expirationIntent)
        }
    }
}

struct VerificationJSON: Encodable {
    var status: Int
    var message: String
    var receipt: ReceiptJSON?
}
