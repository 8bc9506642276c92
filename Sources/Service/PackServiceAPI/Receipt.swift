/// The account's transactions, signed with the service's Ed25519 key.
///
/// The file is a property list `{Algorithm, KeyID, Payload, Signature}`; `Payload` holds the exact
/// bytes that were signed: an XML property list `{BundleIdentifier, CreationDate, Transactions}`.
public struct Receipt: Sendable {
    /// The receipt file's bytes.
    public var bytes: [UInt8]
    /// What the receipt says, read back from its bytes.
    public var payload: ReceiptPayload

    /// A receipt of `bytes`, whose contents are `payload`.
    public init(bytes: [UInt8], payload: ReceiptPayload) {
        self.bytes = bytes
        self.payload = payload
    }
}

/// What a receipt says.
public struct ReceiptPayload: Sendable, Equatable, Codable {
    /// One purchase in a receipt.
    public struct Transaction: Sendable, Equatable, Codable {
        /// The transaction's id.
        public var id: String
        /// The product bought.
        public var productID: String
        /// How many (hints bought several at once).
        public var quantity: Int
        /// Its state: `purchased`, `finished`, `revoked`...
        public var state: String
        /// When it was bought (milliseconds since 1970).
        public var purchaseDate: Int64
        /// When it was refunded, if it was.
        public var revocationDate: Int64?
        /// A subscription's: its first transaction, the end of the period it paid for, a trial.
        public var originalTransactionID: String?
        /// When a subscription's period ends.
        public var expiresDate: Int64?
        /// The period is a free trial.
        public var isTrial: Bool?
        /// What it charged, a decimal string in `currency`, and the storefront it was bought in
        /// (absent for a purchase made before storefronts).
        public var price: String?
        /// The currency it was charged in.
        public var currency: String?
        /// The storefront it was bought in.
        public var storefront: String?

        /// A purchase as a receipt lists it.
        public init(
            id: String, productID: String, quantity: Int, state: String, purchaseDate: Int64, revocationDate: Int64?,
            originalTransactionID: String? = nil, expiresDate: Int64? = nil, isTrial: Bool? = nil,
            price: String? = nil, currency: String? = nil, storefront: String? = nil
        ) {
            self.price = price
            self.currency = currency
            self.storefront = storefront
            self.id = id
            self.productID = productID
            self.quantity = quantity
            self.state = state
            self.purchaseDate = purchaseDate
            self.revocationDate = revocationDate
            self.originalTransactionID = originalTransactionID
            self.expiresDate = expiresDate
            self.isTrial = isTrial
        }
    }

    /// Where an auto-renewable subscription stands, as Apple's `pending_renewal_info` says.
    public struct Renewal: Sendable, Equatable, Codable {
        /// The subscription's first transaction: its id across renewals.
        public var originalTransactionID: String
        /// The subscription's product now.
        public var productID: String
        /// Renews at the period's end.
        public var autoRenewStatus: Bool
        /// The product of the next period (another level after a downgrade).
        public var autoRenewProductID: String
        /// A renewal failed and the store keeps trying.
        public var isInBillingRetryPeriod: Bool
        /// When the grace period ends, while in one.
        public var gracePeriodExpiresDate: Int64?
        /// Why it ended, when it did: `expired`, `upgraded`, `billing`, `refunded`.
        public var expirationIntent: String?

        /// A subscription's renewal, as a receipt lists it.
        public init(
            originalTransactionID: String, productID: String, autoRenewStatus: Bool, autoRenewProductID: String, isInBillingRetryPeriod: Bool,
            gracePeriodExpiresDate: Int64?, expirationIntent: String?
        ) {
            self.originalTransactionID = originalTransactionID
            self.productID = productID
            self.autoRenewStatus = autoRenewStatus
            self.autoRenewProductID = autoRenewProductID
            self.isInBillingRetryPeriod = isInBillingRetryPeriod
            self.gracePeriodExpiresDate = gracePeriodExpiresDate
            self.expirationIntent = expirationIntent
        }
    }

    /// The game the receipt is for.
    public var bundleIdentifier: String
    /// When the receipt was made (milliseconds since 1970).
    public var creationDate: Int64
    /// Every purchase of the account, oldest first.
    public var transactions: [Transaction]
    /// Where the purchases were made: the embedded store is a sandbox.
    public var environment: ReceiptEnvironment
    /// The pack server's account whose history this is, signed in: a receipt cannot be passed off
    /// as another account's, and its server calls it valid only while the account exists. `nil`
    /// for the embedded store's (one player, no accounts).
    public var accountID: String?
    /// Every auto-renewable subscription's renewal state.
    public var renewals: [Renewal]

    /// A receipt's contents.
    public init(
        bundleIdentifier: String, creationDate: Int64, transactions: [Transaction], environment: ReceiptEnvironment = .sandbox,
        accountID: String? = nil, renewals: [Renewal] = []
    ) {
        self.renewals = renewals
        self.bundleIdentifier = bundleIdentifier
        self.creationDate = creationDate
        self.transactions = transactions
        self.environment = environment
        self.accountID = accountID
    }
}

/// A receipt check's answer, in the spirit of Apple's verifyReceipt.
public struct ReceiptVerification: Sendable, Codable {
    /// The verdict, as Apple's verifyReceipt numbers it.
    public enum Status: Int, Sendable, Codable {
        /// Valid.
        case valid = 0
        /// The request was not one: not JSON, not POST, no receipt data.
        case badRequest = 21000
        /// Not a receipt, or its contents do not hold together.
        case malformed = 21002
        /// The signature is not the service's, or the receipt is for another game.
        case notAuthenticated = 21003
        /// A sandbox receipt sent to a production service: send it to the sandbox.
        case sandboxReceiptSentToProduction = 21007
        /// A production receipt sent to a sandbox service: send it to production.
        case productionReceiptSentToSandbox = 21008
        /// A receipt with an auto-renewable subscription, and no shared secret or another one.
        case sharedSecretMismatch = 21004
        /// The service could not look the receipt's account up (its database is away): try again.
        case temporarilyUnavailable = 21005
        /// The receipt's account is not one of this service's.
        case accountNotFound = 21010
    }

    /// The verdict.
    public var status: Status
    /// What is wrong, or a summary when valid.
    public var message: String
    /// The contents, when the signature is valid.
    public var payload: ReceiptPayload?

    /// A verdict with its sentence, and the contents when the signature is valid.
    public init(status: Status, message: String, payload: ReceiptPayload? = nil) {
        self.status = status
        self.message = message
        self.payload = payload
    }
}


/// Where a receipt's purchases were made, as Apple's receipts say.
public enum ReceiptEnvironment: String, Sendable, Equatable, CaseIterable, Codable {
    /// StoreKit Testing and the sandbox: nothing is charged.
    case sandbox = "Sandbox"
    /// The App Store.
    case production = "Production"
}
