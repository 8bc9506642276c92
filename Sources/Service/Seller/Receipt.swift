import Messages
import PropertyList
import Signing
import WordPacks

extension ReceiptPayload {
    var propertyList: PropertyList {
        var fields: [String: PropertyList] = [
            "BundleIdentifier": .string(bundleIdentifier),
            "CreationDate": .integer(creationDate),
            "Environment": .string(environment.rawValue),
            "Transactions": .array(transactions.map { transaction in
                var dict: [String: PropertyList] = [
                    "TransactionIdentifier": .string(transaction.id), "ProductIdentifier": .string(transaction.productID),
                    "Quantity": .integer(Int64(transaction.quantity)), "State": .string(transaction.state),
                    "PurchaseDate": .integer(transaction.purchaseDate),
                ]
                if let revoked = transaction.revocationDate { dict["RevocationDate"] = .integer(revoked) }
                if let original = transaction.originalTransactionID { dict["OriginalTransactionIdentifier"] = .string(original) }
                if let expires = transaction.expiresDate { dict["ExpiresDate"] = .integer(expires) }
                if let trial = transaction.isTrial { dict["IsTrialPeriod"] = .boolean(trial) }
                if let price = transaction.price { dict["Price"] = .string(price) }
                if let currency = transaction.currency { dict["Currency"] = .string(currency) }
                if let storefront = transaction.storefront { dict["Storefront"] = .string(storefront) }
                return .dictionary(dict)
            }),
        ]
        if !renewals.isEmpty {
            fields["PendingRenewals"] = .array(renewals.map { renewal in
                var dict: [String: PropertyList] = [
                    "OriginalTransactionIdentifier": .string(renewal.originalTransactionID), "ProductIdentifier": .string(renewal.productID),
                    "AutoRenewStatus": .boolean(renewal.autoRenewStatus), "AutoRenewProductIdentifier": .string(renewal.autoRenewProductID),
                    "IsInBillingRetryPeriod": .boolean(renewal.isInBillingRetryPeriod),
                ]
                if let grace = renewal.gracePeriodExpiresDate { dict["GracePeriodExpiresDate"] = .integer(grace) }
                if let intent = renewal.expirationIntent { dict["ExpirationIntent"] = .string(intent) }
                return .dictionary(dict)
            })
        }
        if let accountID { fields["AccountIdentifier"] = .string(accountID) }
        return .dictionary(fields)
    }

    static func parse(_ value: PropertyList) -> ReceiptPayload? {
        guard case .dictionary(let dict) = value, case .string(let bundle)? = dict["BundleIdentifier"],
            case .integer(let created)? = dict["CreationDate"], case .array(let items)? = dict["Transactions"]
        else { return nil }
        var transactions: [Transaction] = []
        for item in items {
            guard case .dictionary(let fields) = item, case .string(let id)? = fields["TransactionIdentifier"],
                case .string(let product)? = fields["ProductIdentifier"], case .integer(let quantity)? = fields["Quantity"],
                case .string(let state)? = fields["State"], case .integer(let purchased)? = fields["PurchaseDate"]
            else { return nil }
            var revoked: Int64?
            if let value = fields["RevocationDate"] {
                guard case .integer(let date) = value else { return nil }
                revoked = date
            }
            var original: String?
            if let value = fields["OriginalTransactionIdentifier"] {
                guard case .string(let text) = value else { return nil }
                original = text
            }
            var expires: Int64?
            if let value = fields["ExpiresDate"] {
                guard case .integer(let date) = value else { return nil }
                expires = date
            }
            var trial: Bool?
            if let value = fields["IsTrialPeriod"] {
                guard case .boolean(let flag) = value else { return nil }
                trial = flag
            }
            var texts: [String: String] = [:]
            for key in ["Price", "Currency", "Storefront"] {
                guard let value = fields[key] else { continue }
                guard case .string(let text) = value else { return nil }
                texts[key] = text
            }
            transactions.append(Transaction(
                id: id, productID: product, quantity: Int(quantity), state: state, purchaseDate: purchased, revocationDate: revoked,
                originalTransactionID: original, expiresDate: expires, isTrial: trial,
                price: texts["Price"], currency: texts["Currency"], storefront: texts["Storefront"]))
        }
        var renewals: [Renewal] = []
        if let value = dict["PendingRenewals"] {
            guard case .array(let items) = value else { return nil }
            for item in items {
                guard case .dictionary(let fields) = item, case .string(let original)? = fields["OriginalTransactionIdentifier"],
                    case .string(let product)? = fields["ProductIdentifier"], case .boolean(let autoRenew)? = fields["AutoRenewStatus"],
                    case .string(let next)? = fields["AutoRenewProductIdentifier"], case .boolean(let retry)? = fields["IsInBillingRetryPeriod"]
                else { return nil }
                var grace: Int64?
                if let value = fields["GracePeriodExpiresDate"] {
                    guard case .integer(let date) = value else { return nil }
                    grace = date
                }
                var intent: String?
                if let value = fields["ExpirationIntent"] {
                    guard case .string(let text) = value else { return nil }
                    intent = text
                }
                renewals.append(Renewal(
                    originalTransactionID: original, productID: product, autoRenewStatus: autoRenew, autoRenewProductID: next,
                    isInBillingRetryPeriod: retry, gracePeriodExpiresDate: grace, expirationIntent: intent))
            }
        }
        var environment = ReceiptEnvironment.sandbox
        if let value = dict["Environment"] {
            guard case .string(let text) = value, let known = ReceiptEnvironment(rawValue: text) else { return nil }
            environment = known
        }
        var accountID: String?
        if let value = dict["AccountIdentifier"] {
            guard case .string(let text) = value else { return nil }
            accountID = text
        }
        return ReceiptPayload(
            bundleIdentifier: bundle, creationDate: created, transactions: transactions, environment: environment, accountID: accountID,
            renewals: renewals)
    }
}

/// Signs and checks receipts with the service's key.
public struct ReceiptSigner: Sendable {
    public var key: SigningKey
    public var bundleIdentifier: String
    public var knownProducts: Set<ProductID>
    /// The receipts this signer makes, and the only ones it calls valid.
    public var environment: ReceiptEnvironment

    public init(key: SigningKey, catalog: Catalog, environment: ReceiptEnvironment = .sandbox) {
        self.key = key
        bundleIdentifier = catalog.bundleIdentifier
        knownProducts = Set(catalog.products.map(\.id))
        self.environment = environment
    }

    /// Signs the payload.
    /// The largest receipt signed, and verified: what `/verifyReceipt` takes is this, in base64,
    /// with room for the request around it (``verifyRequestLimit``), so a receipt the service
    /// signs is always one it can check (some 13,000 transactions).
    public static let maxReceiptSize = 12 << 20

    /// The largest `/verifyReceipt` body: a receipt of ``maxReceiptSize`` in base64, its JSON and a password.
    public static let verifyRequestLimit = (maxReceiptSize + 2) / 3 * 4 + (64 << 10)

    public func sign(_ payload: ReceiptPayload) throws(ServiceError) -> Receipt {
        let payloadBytes = PropertyListEncoding.xml(payload.propertyList)
        let file = PropertyList.dictionary([
            "Algorithm": .string("Ed25519"), "KeyID": .string(key.publicKey.keyID),
            "Payload": .data(payloadBytes), "Signature": .data(key.sign(payloadBytes)),
            "Environment": .string(payload.environment.rawValue),
        ])
        let bytes = PropertyListEncoding.xml(file)
        guard bytes.count <= Self.maxReceiptSize else {
            throw ServiceError(
                .unavailable,
                L10n.text("the account's receipt would be %s bytes (%s transactions), over the %s MiB a receipt may be to be verified: its transactions are in 'hangman transactions --json'", bytes.count, payload.transactions.count, Self.maxReceiptSize >> 20))
        }
        return Receipt(bytes: bytes, payload: payload)
    }

    /// Checks a receipt: its form, its signature, its bundle, its products, and that no transaction repeats.
    public func verify(_ bytes: [UInt8]) -> ReceiptVerification {
        func malformed(_ message: String) -> ReceiptVerification { ReceiptVerification(status: .malformed, message: message) }
        guard bytes.count <= Self.maxReceiptSize else { return malformed("the receipt is larger than \(Self.maxReceiptSize >> 20) MiB") }
        let outer: PropertyList
        do {
            outer = try PropertyListDecoding.decode(bytes, limits: PropertyListLimits(maxDepth: 8, maxObjects: 1_000_000)).value
        } catch {
            return malformed("not a receipt: \(error.message)")
        }
        guard case .dictionary(let fields) = outer else { return malformed("not a receipt: the root is \(outer.typeName)") }
        guard case .string("Ed25519")? = fields["Algorithm"] else { return malformed("'Algorithm' must be Ed25519") }
        guard case .data(let payloadBytes)? = fields["Payload"] else { return malformed("'Payload' (data) is missing") }
        // The environment is read before the signature, as Apple's verifyReceipt does: a sandbox
        // receipt sent to production is told where to go, whoever signed it.
        var claimed = ReceiptEnvironment.sandbox
        if let value = fields["Environment"] {
            guard case .string(let text) = value, let known = ReceiptEnvironment(rawValue: text) else {
                return malformed("'Environment' must be Sandbox or Production")
            }
            claimed = known
        }
        if claimed != environment {
            return ReceiptVerification(
                status: claimed == .sandbox ? .sandboxReceiptSentToProduction : .productionReceiptSentToSandbox,
                message: "a \(claimed.rawValue.lowercased()) receipt sent to a \(environment.rawValue.lowercased()) service: send it to the \(claimed.rawValue.lowercased()) one")
        }
        guard case .data(let signature)? = fields["Signature"], signature.count == 64 else {
            return malformed("'Signature' must be 64 bytes of data")
        }
        guard key.publicKey.isValidSignature(signature, for: payloadBytes) else {
            return ReceiptVerification(status: .notAuthenticated, message: "the signature is not this store's (key \(key.publicKey.keyID)): the receipt was changed or signed by another key")
        }
        let decoded: PropertyList
        do {
            decoded = try PropertyListDecoding.decode(payloadBytes, limits: PropertyListLimits(maxDepth: 8, maxObjects: 1_000_000)).value
        } catch {
            return malformed("the signed payload is not a property list: \(error.message)")
        }
        guard let payload = ReceiptPayload.parse(decoded) else { return malformed("the signed payload lacks required fields") }
        guard payload.environment == claimed else { return malformed("the signed environment differs from the receipt's") }
        guard payload.bundleIdentifier == bundleIdentifier else {
            return ReceiptVerification(status: .notAuthenticated, message: "the receipt is for '\(payload.bundleIdentifier)', not '\(bundleIdentifier)'", payload: payload)
        }
        var seen: Set<String> = []
        for transaction in payload.transactions {
            guard let product = ProductID(rawValue: transaction.productID), knownProducts.contains(product) else {
                return ReceiptVerification(status: .malformed, message: "transaction \(TransactionID.number(ofRawValue: transaction.id)): product '\(transaction.productID)' is not in the catalog", payload: payload)
            }
            guard seen.insert(transaction.id).inserted else {
                return ReceiptVerification(status: .malformed, message: "transaction \(TransactionID.number(ofRawValue: transaction.id)) appears twice", payload: payload)
            }
        }
        let count = payload.transactions.count
        return ReceiptVerification(status: .valid, message: "valid: \(count) transaction\(count == 1 ? "" : "s") for \(payload.bundleIdentifier)", payload: payload)
    }
}
