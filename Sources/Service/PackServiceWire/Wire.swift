import Base64
import FoundationEssentials
@_exported import PackServiceAPI
import Signing

/// The JSON the pack service and its clients exchange under `/v1/`: one definition for both
/// sides. Values the client acts on travel signed (`SignedDocument`).
public enum Wire {
    /// Sorted keys: the same value always gives the same bytes (``WireJSONEncoder``). A value
    /// that cannot be written is an error, never an empty document (one would be signed).
    public static func encode(_ value: some Encodable) throws(ServiceError) -> [UInt8] {
        do {
            return try WireJSONEncoder.encode(value)
        } catch {
            throw ServiceError(.storage, "cannot write \(type(of: value)) as JSON: \(error)")
        }
    }

    /// Decodes `bytes`, or says what is wrong with them.
    /// A key given twice in one object is refused: two readers could keep different values.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(ServiceError) -> T {
        // Most requests: a flat object, read without Foundation's decoder.
        if let flat = FlatJSON.decode(type, from: bytes) { return flat }
        if let key = JSONKeys.firstDuplicate(in: bytes) {
            throw ServiceError(.invalidRequest, "not a valid \(T.self) document: the key '\(key)' appears twice in one object")
        }
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            throw ServiceError(.invalidRequest, "not a valid \(T.self) document: \(describe(error))")
        } catch {
            throw ServiceError(.invalidRequest, "not a valid \(T.self) document: \(error)")
        }
    }

    /// A decoding failure in words: which field, and what is wrong with it (not Swift's dump of
    /// coding paths and contexts).
    static func describe(_ error: DecodingError) -> String {
        func field(_ path: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let names = (path + [last].compactMap { $0 }).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            let joined = names.reduce("") { text, name in name.hasPrefix("[") || text.isEmpty ? text + name : text + "." + name }
            return joined.isEmpty ? "the document" : "'\(joined)'"
        }
        func typeName(_ type: Any.Type) -> String {
            switch type {
            case is String.Type: "a string"
            case is Int.Type, is Int64.Type, is Int32.Type, is UInt64.Type: "a whole number"
            case is Bool.Type: "true or false"
            case is Double.Type: "a number"
            default: "\(type)".hasPrefix("Array") ? "an array" : "an object"
            }
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(field(context.codingPath, key)) is missing"
        case .valueNotFound(let type, let context): return "\(field(context.codingPath)) is null, where \(typeName(type)) is expected"
        case .typeMismatch(let type, let context): return "\(field(context.codingPath)) is not \(typeName(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, context.underlyingError != nil || context.debugDescription.hasPrefix("The given data was not valid JSON") {
                return "it is not JSON"
            }
            return "\(field(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// The header that carries a request's idempotency key.
    public static let idempotencyHeader = "Idempotency-Key"
    /// On every `/v1/` answer: the version of the catalog the server sells from. A client that
    /// holds that version (signed, not expired) does not ask for the catalog.
    public static let catalogVersionHeader = "Hangman-Catalog-Version"
    /// Asked for on a request about an account (any value): the answer says how many of its
    /// purchases a crash left unfinished (that `POST /v1/recover` would complete now). A client
    /// asks on its first request and recovers only when it is not 0; other requests cost no read.
    public static let unfinishedHeader = "Hangman-Unfinished"
    /// Beside a redirect to a download link: the account's download key, which the client sends
    /// under the same name with the link (a link works only with its account's key).
    public static let downloadKeyHeader = "Hangman-Download-Key"
}

/// A document signed with the service's Ed25519 key: the exact JSON bytes signed, and the
/// signature over them.
public struct SignedDocument: Codable, Sendable, Equatable {
    /// Base64 of the signed JSON.
    public var payload: String
    /// Base64 of the 64-byte Ed25519 signature.
    public var signature: String
    public var keyID: String

    /// Signs `value`'s JSON with `key`.
    public init(signing value: some Encodable, with key: SigningKey) throws(ServiceError) {
        let bytes = try Wire.encode(value)
        payload = Base64.encode(bytes)
        signature = Base64.encode(key.sign(bytes))
        keyID = key.publicKey.keyID
    }

    /// The value, once the signature is found to be `key`'s; otherwise `untrusted`.
    public func open<T: Decodable>(_ type: T.Type, trusting key: SigningPublicKey) throws(ServiceError) -> T {
        guard let bytes = Base64.decode(payload), let signature = Base64.decode(signature), signature.count == 64 else {
            throw ServiceError(.untrusted, "the service's signed document is malformed")
        }
        guard key.isValidSignature(signature, for: bytes) else {
            // The key id is the document's own claim: it names the key only when it differs.
            let claim = keyID == key.keyID
                ? "its signature does not match: altered on the way, or forged under the key's name"
                : "it claims key \(keyID)"
            throw ServiceError(.untrusted, "the service's answer is not signed by its pinned key \(key.keyID) (\(claim)): refusing it")
        }
        return try Wire.decode(type, from: bytes)
    }
}

/// `GET /v1/catalog`, signed: the catalog, when it was issued and until when it may be trusted.
public struct CatalogDocument: Codable, Sendable, Equatable {
    public var catalog: Catalog
    /// Milliseconds since 1970.
    public var issued: Int64
    /// After this, a client refuses the document (a frozen catalog is an attack).
    public var expires: Int64

    public init(catalog: Catalog, issued: Int64, expires: Int64) {
        self.catalog = catalog
        self.issued = issued
        self.expires = expires
    }
}

/// `GET /v1/account`, signed: what the account owns and holds, as of `issued`.
public struct AccountStatement: Codable, Sendable, Equatable {
    public var accountID: String
    public var hintBalance: Int
    public var entitlements: [Entitlement]
    public var issued: Int64
    /// The store's time when it was issued (ahead of `issued` when test controls moved the store
    /// clock): a subscription's `expiresDate` is on that clock.
    public var storeTime: Int64?
    /// The account's storefront (`DEU`); `nil` from a server before storefronts (`USA`).
    public var storefront: String?
    /// The account's app transaction; `nil` from a server before app transactions.
    public var appTransaction: AppTransactionRecord?

    public init(
        accountID: String, hintBalance: Int, entitlements: [Entitlement], issued: Int64, storeTime: Int64? = nil, storefront: String? = nil,
        appTransaction: AppTransactionRecord? = nil
    ) {
        self.storefront = storefront
        self.appTransaction = appTransaction
        self.accountID = accountID
        self.hintBalance = hintBalance
        self.entitlements = entitlements
        self.issued = issued
        self.storeTime = storeTime
    }
}

/// `POST /v1/subscriptions/auto-renew`: turn auto-renew of a product's group on or off.
public struct AutoRenewRequest: Codable, Sendable, Equatable {
    public var productID: ProductID
    public var autoRenew: Bool

    public init(productID: ProductID, autoRenew: Bool) {
        self.productID = productID
        self.autoRenew = autoRenew
    }
}

/// `POST /v1/subscriptions/change`: what buying an auto-renewable would do (nothing is bought).
public struct SubscriptionChangeRequest: Codable, Sendable, Equatable {
    public var productID: ProductID

    public init(productID: ProductID) { self.productID = productID }
}

/// `GET /v1/test/clock` and `POST /v1/test/clock/advance`'s answer: the store's time.
public struct StoreClockDocument: Codable, Sendable, Equatable {
    public var now: Int64
    /// After a move: the renewals charged on the way (absent from older servers).
    public var renewals: Int?

    public init(now: Int64, renewals: Int? = nil) {
        self.now = now
        self.renewals = renewals
    }
}

/// `POST /v1/test/clock/advance`: how far to move the store's time.
public struct ClockAdvance: Codable, Sendable, Equatable {
    public var duration: StoreClockStep

    public init(duration: StoreClockStep) { self.duration = duration }
}

/// `POST /v1/hints/spend`'s answer, signed: a letter is revealed only for a spend the service
/// vouches for (the account, the key it was asked under, the balance after it).
public struct HintSpendStatement: Codable, Sendable, Equatable {
    public var accountID: String
    public var key: String
    public var balance: Int
    public var wasAlreadySpent: Bool
    public var issued: Int64

    public init(accountID: String, key: String, spend: HintSpend, issued: Int64) {
        self.accountID = accountID
        self.key = key
        balance = spend.balance
        wasAlreadySpent = spend.wasAlreadySpent
        self.issued = issued
    }
}

/// `GET /v1/service-key`: the key a client pins when it creates its account.
public struct ServiceKeyDocument: Codable, Sendable, Equatable {
    /// Base64 of the 32-byte Ed25519 public key.
    public var publicKey: String
    public var keyID: String
    public var environment: ReceiptEnvironment

    public init(publicKey: String, keyID: String, environment: ReceiptEnvironment) {
        self.publicKey = publicKey
        self.keyID = keyID
        self.environment = environment
    }
}

/// `POST /v1/accounts`: a new account and its bearer token (shown once; the service keeps a hash).
public struct NewAccount: Codable, Sendable, Equatable {
    public var accountID: String
    public var token: String

    public init(accountID: String, token: String) {
        self.accountID = accountID
        self.token = token
    }
}

/// `POST /v1/purchases`.
public struct PurchaseRequest: Codable, Sendable, Equatable {
    public var productID: ProductID
    public var quantity: Int
    /// The kinds of pack the client can install (`["Words", "Theme"]`); absent from a client from
    /// before themes, which installs words only.
    public var packKinds: [PackKind]?
    /// StoreKit's purchase option: a UUID the app relates the purchase to (``AppAccountToken``).
    public var appAccountToken: String?
    /// StoreKit's introductory offer eligibility, signed by the developer's server (a compact JWS).
    public var introductoryOfferEligibility: String?
    /// StoreKit's promotional offer, signed by the developer's server (a compact JWS).
    public var promotionalOffer: String?
    /// StoreKit's win-back offer, by its identifier in the catalog.
    public var winBackOffer: String?

    public init(
        productID: ProductID, quantity: Int, packKinds: [PackKind]? = PackKind.allCases, appAccountToken: String? = nil,
        introductoryOfferEligibility: String? = nil, promotionalOffer: String? = nil, winBackOffer: String? = nil
    ) {
        self.winBackOffer = winBackOffer
        self.promotionalOffer = promotionalOffer
        self.productID = productID
        self.quantity = quantity
        self.packKinds = packKinds
        self.appAccountToken = appAccountToken
        self.introductoryOfferEligibility = introductoryOfferEligibility
    }

    /// What the client installs: words alone when it does not say.
    public var installs: Set<PackKind> { Set(packKinds ?? [.words]) }
}

/// `POST /v1/hints/spend`.
public struct HintSpendRequest: Codable, Sendable, Equatable {
    public var key: String

    public init(key: String) { self.key = key }
}

/// `GET /v1/hints`.
public struct HintBalance: Codable, Sendable, Equatable {
    public var hints: Int

    public init(hints: Int) { self.hints = hints }
}

/// `POST /v1/test/refunds/{id}`'s answer.
public struct RefundResult: Codable, Sendable, Equatable {
    public var transaction: StoreTransaction
    public var hintsTakenBack: Int

    public init(transaction: StoreTransaction, hintsTakenBack: Int) {
        self.transaction = transaction
        self.hintsTakenBack = hintsTakenBack
    }
}

/// `POST /v1/transactions/{id}/refund`'s body: why the customer asks.
/// `POST /v1/friends`: a friend's invitation as the player typed it.
public struct FriendRequest: Codable, Sendable, Equatable {
    public var code: String

    public init(code: String) {
        self.code = code
    }
}

/// `POST /v1/offer-codes/redemptions`: a code as the player typed it.
public struct OfferCodeRedemption: Codable, Sendable, Equatable {
    public var code: String

    public init(code: String) {
        self.code = code
    }
}

public struct RefundRequest: Codable, Sendable, Equatable {
    public var reason: RefundReason

    public init(reason: RefundReason) {
        self.reason = reason
    }
}

/// `GET /v1/transactions/{id}/refund`'s answer: the purchase's refund, if it has one.
public struct RefundCaseDocument: Codable, Sendable, Equatable {
    public var refundCase: RefundCase?

    public init(refundCase: RefundCase?) {
        self.refundCase = refundCase
    }
}

/// `POST /v1/test/transactions/{id}/refund-decision`'s body: what the App Store decides.
/// `POST /v1/test/notifications`: the notification to cause, in Apple's names.
public struct NotificationCauseRequest: Codable, Sendable, Equatable {
    public var type: String
    public var subtype: String?

    public init(type: String, subtype: String?) {
        self.type = type
        self.subtype = subtype
    }
}

public struct RefundDecisionRequest: Codable, Sendable, Equatable {
    public var decision: RefundDecision

    public init(decision: RefundDecision) {
        self.decision = decision
    }
}

/// Any failure: the store's error kind and its message.
public struct ErrorBody: Codable, Sendable, Equatable {
    public var error: ServiceError.Kind
    public var message: String
    /// ``ServiceError/Reason``, when the refusal has one.
    public var reason: String?

    public init(_ error: ServiceError) {
        self.error = error.kind
        message = error.message
        reason = error.reason?.rawValue
    }

    /// The refusal as this client knows it (a reason it does not know is left out).
    public var serviceError: ServiceError { ServiceError(error, message, reason: reason.flatMap(ServiceError.Reason.init(rawValue:))) }

    /// A kind this client does not know (a newer server's) keeps its message, as a refusal of the
    /// service's: the sentence is what a player reads.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        error = ServiceError.Kind(rawValue: try container.decode(String.self, forKey: .error)) ?? .unavailable
        message = try container.decode(String.self, forKey: .message)
        reason = try? container.decodeIfPresent(String.self, forKey: .reason)
    }
}

/// `GET /v1/receipt`, and the body of `POST /verifyReceipt`, as Apple's verifyReceipt takes it.
public struct ReceiptData: Codable, Sendable, Equatable {
    public var receiptData: String
    /// What the receipt says (in `GET /v1/receipt`'s answer only; the signed bytes are the receipt).
    public var receipt: ReceiptPayload?

    enum CodingKeys: String, CodingKey {
        case receiptData = "receipt-data"
        case receipt
    }

    public init(_ bytes: [UInt8], payload: ReceiptPayload? = nil) {
        receiptData = Base64.encode(bytes)
        receipt = payload
    }
}

/// One token of the account (`GET /v1/account/tokens`): never its secret.
public struct AccountTokenInfo: Codable, Sendable, Equatable {
    public var tokenID: String
    /// The device's name (``DeviceName``); absent for a token made without one.
    public var deviceName: String?
    /// Milliseconds since 1970.
    public var createdDate: Int64
    public var lastUsedDate: Int64?
    public var revokedDate: Int64?
    /// The token this request was made with.
    public var current: Bool

    public init(tokenID: String, deviceName: String? = nil, createdDate: Int64, lastUsedDate: Int64?, revokedDate: Int64?, current: Bool) {
        self.tokenID = tokenID
        self.deviceName = deviceName
        self.createdDate = createdDate
        self.lastUsedDate = lastUsedDate
        self.revokedDate = revokedDate
        self.current = current
    }
}

/// A token just made (`POST /v1/account/tokens`, `.../rotate`): shown this once.
public struct NewToken: Codable, Sendable, Equatable {
    public var accountID: String
    public var tokenID: String
    public var token: String

    public init(accountID: String, tokenID: String, token: String) {
        self.accountID = accountID
        self.tokenID = tokenID
        self.token = token
    }
}

/// `POST /v1/accounts` (optional body) and `PUT /v1/account/storefront`: a storefront code.
/// A new account may name one it must have (`storefront`: refused when the store does not sell
/// there), or one it would like (`preferred`, the player's region: the default storefront when
/// the store does not sell there).
public struct StorefrontRequest: Codable, Sendable, Equatable {
    public var storefront: String?
    public var preferred: String?
    /// On `POST /v1/accounts`: the name of the device the first token is for (``DeviceName``).
    public var deviceName: String?

    public init(storefront: String?, preferred: String? = nil, deviceName: String? = nil) {
        self.storefront = storefront
        self.preferred = preferred
        self.deviceName = deviceName
    }
}

/// `POST /v1/account/tokens`: the device a new token is for, by its name (``DeviceName``). A
/// request with no body makes a token with no name, as clients before names did.
public struct NewTokenRequest: Codable, Sendable, Equatable {
    public var deviceName: String?

    public init(deviceName: String?) { self.deviceName = deviceName }
}

/// A device's name, as `hangman account tokens` lists it beside its token ("ana-laptop"): what a
/// player tells their devices apart by, given by the device when its token is made (its host
/// name, unless the player names it) and kept through rotations.
public enum DeviceName {
    public static let maxLength = 40

    /// `text` as a device's name, or why it is not one: 1 to 40 characters (Unicode scalars, as
    /// the databases count them), no control,
    /// format, separator-of-lines or unassigned character, no space at either end.
    public static func check(_ text: String) -> Result<String, DeviceNameProblem> {
        guard !text.isEmpty, text.unicodeScalars.count <= maxLength, text.trimmingSpaces == text, text.unicodeScalars.allSatisfy(isAllowed) else {
            return .failure(DeviceNameProblem())
        }
        return .success(text)
    }

    /// A name made fit from any text (the machine's host name, a name a server sent): the
    /// characters ``check`` refuses dropped, cut to 40; `nil` when nothing is left.
    public static func fitted(_ text: String) -> String? {
        var kept = String(String.UnicodeScalarView(text.unicodeScalars.filter(isAllowed))).trimmingSpaces
        if kept.unicodeScalars.count > maxLength { kept = String(String.UnicodeScalarView(kept.unicodeScalars.prefix(maxLength))).trimmingSpaces }
        return kept.isEmpty ? nil : kept
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: false
        default: true
        }
    }
}

/// Why a device's name was refused, in a sentence.
public struct DeviceNameProblem: Error, Sendable, Equatable {
    public var message: String {
        "a device's name is 1 to \(DeviceName.maxLength) characters, with no control character and no space at either end"
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// `POST /v1/service-key/proof`: a client's challenge, and what the server signs of it. A server
/// proves the service's key by signing the client's fresh nonce: a copy of the signed catalog,
/// which anyone can fetch, proves nothing.
public struct KeyProof: Codable, Sendable, Equatable {
    /// 16 to 128 characters the client chose.
    public var nonce: String
    /// The addresses the service is reached at, as its operator named them (`hangman serve
    /// --public-url`), signed with the nonce: a client that dialled another address is talking
    /// to something that passed the challenge on (a relay), and sends it nothing secret. `nil`
    /// or empty: the service names none.
    public var addresses: [String]?

    public init(nonce: String, addresses: [String]? = nil) {
        self.nonce = nonce
        self.addresses = addresses
    }
}
