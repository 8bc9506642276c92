import PackServiceWire
/// A transaction as Apple's App Store Server API signs it (`JWSTransactionDecodedPayload`): the
/// ledger's transaction read in Apple's field names, never a second record of it.
///
/// Its ids are the transactions' numbers (``TransactionID/number``), global as Apple's are: the
/// service claims each id across its accounts (``AppStoreTransactionID``).
public struct AppStoreTransaction: Sendable, Equatable, Codable {
    public var transactionId: String
    public var originalTransactionId: String
    public var webOrderLineItemId: String?
    public var bundleId: String
    public var productId: String
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: Int64
    public var originalPurchaseDate: Int64
    public var expiresDate: Int64?
    public var quantity: Int
    /// `Consumable`, `Non-Consumable`, `Auto-Renewable Subscription`, `Non-Renewing Subscription`.
    public var type: String
    public var inAppOwnershipType: String
    public var signedDate: Int64
    /// `Sandbox` or `Production`.
    public var environment: String
    /// `PURCHASE` or `RENEWAL`.
    public var transactionReason: String
    /// ISO 3166-1 alpha-3.
    public var storefront: String?
    public var storefrontId: String?
    /// The UUID the app or the developer's server related the purchase to.
    public var appAccountToken: String?
    /// The customer's app transaction (``AppTransactionRecord``), by its number.
    public var appTransactionId: String?
    /// In milliunits of `currency`.
    public var price: Int64?
    public var currency: String?
    /// 1 an introductory offer (the free trial), 2 a promotional offer, 4 a win-back offer.
    public var offerType: Int?
    /// A promotional offer's identifier.
    public var offerIdentifier: String?
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`.
    public var offerDiscountType: String?
    /// How long the offer lasts (ISO 8601).
    public var offerPeriod: String?
    public var revocationDate: Int64?
    /// 0: another reason (a refund asked for); 1: a problem in the app.
    public var revocationReason: Int?

    /// `Sandbox` or `Production`, as Apple's payloads name an environment.
    public static func environmentName(_ environment: ReceiptEnvironment) -> String {
        environment == .sandbox ? "Sandbox" : "Production"
    }

    /// Apple's storefront ids for the alpha-3 codes a catalog sells in.
    public static let storefrontIDs: [String: String] = [
        "USA": "143441", "GBR": "143444", "DEU": "143443", "FRA": "143442", "ESP": "143454", "MEX": "143468", "JPN": "143462", "BRA": "143503",
        "CAN": "143455", "AUS": "143460", "ITA": "143450", "NLD": "143452", "CHE": "143459", "SWE": "143456", "KOR": "143466", "CHN": "143465",
    ]

    /// The ledger's `transaction`, as Apple's payload, signed at `signedDate`; `appTransactionID`
    /// is its customer's app transaction.
    public init(
        _ transaction: StoreTransaction, appTransactionID: TransactionID?, catalog: Catalog, environment: ReceiptEnvironment, signedDate: Int64
    ) {
        appTransactionId = appTransactionID?.number
        let product = catalog.product(transaction.productID)
        let original = transaction.originalTransactionID ?? transaction.id
        transactionId = transaction.id.number
        originalTransactionId = original.number
        bundleId = catalog.bundleIdentifier
        productId = transaction.productID.rawValue
        purchaseDate = transaction.purchaseDate
        originalPurchaseDate = transaction.purchaseDate
        expiresDate = transaction.expiresDate
        quantity = transaction.quantity
        inAppOwnershipType = "PURCHASED"
        self.signedDate = signedDate
        self.environment = Self.environmentName(environment)
        transactionReason = transaction.originalTransactionID.map { $0 != transaction.id } == true ? "RENEWAL" : "PURCHASE"
        storefront = transaction.storefront
        appAccountToken = transaction.appAccountToken
        storefrontId = transaction.storefront.flatMap { Self.storefrontIDs[$0] }
        if let price = transaction.price {
            let digits = Currency.minorUnits[price.currency] ?? 2
            self.price = price.minorUnits * (0..<max(0, 3 - digits)).reduce(1) { value, _ in value * 10 }
            currency = price.currency
        }
        offerType = transaction.isTrial ? 1 : nil
        if let identifier = transaction.promotionalOffer {
            // 2: a promotional offer; 3: an offer code's; 4: a win-back offer.
            offerType = transaction.offerCode == nil ? 2 : 3
            offerIdentifier = identifier
            if let terms = product?.autoRenewable, let offer = terms.promotionalOffer(identifier) {
                if offer.winBack != nil { offerType = 4 }
                offerDiscountType = offer.kind.rawValue
                offerPeriod = offer.duration(of: terms.period).description
            }
        } else if let batch = transaction.offerCode, transaction.originalTransactionID == nil {
            // A one-time product's code: the product itself, free.
            offerType = 3
            offerIdentifier = batch
            offerDiscountType = "ONE_TIME"
        } else if let trial = product?.autoRenewable?.freeTrial, transaction.isTrial {
            offerDiscountType = "FREE_TRIAL"
            offerPeriod = trial.description
        }
        revocationDate = transaction.revocationDate
        revocationReason = transaction.revocationDate == nil ? nil : 0
        switch product?.kind {
        case .consumable?: type = "Consumable"
        case .autoRenewable(let terms)?:
            type = "Auto-Renewable Subscription"
            subscriptionGroupIdentifier = terms.group
            webOrderLineItemId = transactionId
        case .nonRenewing?: type = "Non-Renewing Subscription"
        default: type = "Non-Consumable"
        }
        if product == nil { type = transaction.isConsumable ? "Consumable" : "Non-Consumable" }
    }
}

/// An id in a request to Apple's endpoints: a transaction's number (``TransactionID/number``,
/// the one id the player, receipts and Apple's shapes read), or the form this service gave
/// Apple's shapes before, 32 hex digits (the account's 16, then the transaction's), still taken
/// from a backend that kept it.
public enum AppStoreTransactionID: Sendable, Equatable {
    /// A transaction's number: its account is the one that claimed it.
    case number(TransactionID)
    /// The older form, which names its account.
    case accountAndTransaction(account: String, transaction: TransactionID)

    /// What `text` names; `nil` for anything that is neither form.
    public static func parse(_ text: String) -> AppStoreTransactionID? {
        if let number = TransactionID(number: text) { return .number(number) }
        guard text.utf8.count == 32, let transaction = TransactionID(rawValue: String(text.suffix(16))) else { return nil }
        let account = String(text.prefix(16))
        guard TransactionID(rawValue: account) != nil else { return nil }
        return .accountAndTransaction(account: account, transaction: transaction)
    }

    public var transaction: TransactionID {
        switch self {
        case .number(let id), .accountAndTransaction(_, let id): id
        }
    }
}

/// A customer's app transaction as Apple signs it (`JWSAppTransactionDecodedPayload`, StoreKit's
/// `AppTransaction`): the account's ``AppTransactionRecord`` in Apple's field names.
public struct AppStoreAppTransaction: Sendable, Equatable, Codable {
    /// `Sandbox` or `Production`.
    public var receiptType: String
    public var appAppleId: Int64?
    public var bundleId: String
    /// The catalog's version, as `/verifyReceipt`'s `application_version` gives it.
    public var applicationVersion: String
    public var receiptCreationDate: Int64
    public var originalPurchaseDate: Int64
    public var originalApplicationVersion: String
    public var appTransactionId: String
    public var originalPlatform: String
    public var signedDate: Int64

    public init(_ record: AppTransactionRecord, catalog: Catalog, catalogVersion: Int, environment: ReceiptEnvironment, signedDate: Int64) {
        receiptType = AppStoreTransaction.environmentName(environment)
        appAppleId = catalog.appAppleID
        bundleId = catalog.bundleIdentifier
        applicationVersion = String(catalogVersion)
        receiptCreationDate = signedDate
        originalPurchaseDate = record.originalPurchaseDate
        originalApplicationVersion = "1.0"
        appTransactionId = record.id.number
        originalPlatform = "iOS"
        self.signedDate = signedDate
    }
}
