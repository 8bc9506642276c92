import AppStore
import Base64
import FoundationEssentials
import HTTPClient
import Messages
import PackServiceWire
import Signing
import Synchronization
import SystemCalls

/// The pack service over HTTP: the same `PackService` the game uses in-process, spoken to a
/// `hangman serve` with a bearer token.
///
/// It trusts what arrives signed by the key pinned when the account was made: the catalog (and
/// never one older than the newest it has seen, nor an expired one) and the account's
/// entitlements. A request that failed in transit is sent again with the same idempotency key,
/// so a purchase is charged once.
///
/// ```swift
/// let service = HTTPPackService(credentials: credentials)
/// let catalog = try await service.fetchCatalog()
/// ```
public final class HTTPPackService: PackService, StoreTestControls, Sendable {
    public let credentials: ServiceCredentials
    private let clock: Clock
    /// Tries per request when the connection fails (not when the service answers).
    private let attempts: Int
    /// A certificate authority (PEM) to trust for HTTPS besides the system's (`--ca-file`); else
    /// `HANGMAN_CA_FILE`, else `SSL_CERT_FILE`.
    private let caFile: String?
    /// How long one request may wait for its whole answer: a server that does not answer in
    /// that time is not asked again.
    private let timeoutSeconds: Int
    /// Where the highest catalog version seen is kept, so that a rollback is refused later too.
    private let statePath: String?
    /// Where archives are downloaded, so that a broken download resumes where it stopped
    /// (`nil`: in memory, from the start again).
    private let downloadFolder: String?
    /// The last catalog fetched: its digests name the archives (`If-Range`).
    private let lastCatalog = Mutex<Catalog?>(nil)
    /// The version of an older catalog the server offered (a rolling deploy), when this client
    /// used the newer one it holds instead.
    private let olderCatalogServed = Mutex<Int?>(nil)

    /// Set when the server offered an older catalog than one already seen, signed with the
    /// service's key, and the newer one this client holds was used: the server's version.
    public var servedOlderCatalog: Int? { olderCatalogServed.withLock { $0 } }

    /// The storefront of the last statement this process read: one per command is enough.
    private let lastStorefront = Mutex<String?>(nil)
    /// The account's statement this client read (or a purchase's answer carried), until it sends
    /// a change: a command asks for it once.
    private let heldStatement = Mutex<AccountStatement?>(nil)
    /// Whether statements are held at all: a command's client holds them (`holdingStatements`),
    /// one that lives longer asks each time.
    private let holdsStatements: Bool
    /// One connection for this client's requests, kept open between them.
    private let connection = HTTPConnection()
    /// How long, in all, this client waits when the server asks it to (429 or 503 with
    /// `Retry-After`) before it gives up, in seconds.
    private let maxWaitSeconds: Int
    /// What the answers' headers asked of this client, and what it did about it.
    private let followUp = Mutex(FollowUp())
    /// Who is told when this client waits, completes an unfinished purchase, or goes offline.
    private let observer = Mutex<(@Sendable (ServiceEvent) -> Void)?>(nil)
    /// The last catalog and statement the server signed, serving reads once it cannot be reached.
    private let fallback = Mutex<OfflinePackService?>(nil)

    /// What the answers' headers (``Wire/catalogVersionHeader``, ``Wire/unfinishedHeader``) led
    /// to, so that each follow-up happens once per client.
    private struct FollowUp {
        /// Set when the client started from the kept catalog: only then do answers lead anywhere.
        var active = false
        var seconds = 0
        var olderNoted = false
        var catalogChecked = false
        var recovered = false
        var busy = false
    }

    public init(
        credentials: ServiceCredentials, statePath: String? = nil, downloadFolder: String? = nil, clock: Clock = .system, attempts: Int = 4,
        timeoutSeconds: Int = 30, caFile: String? = nil, maxWaitSeconds: Int? = nil, holdingStatements: Bool = false
    ) {
        self.holdsStatements = holdingStatements
        self.maxWaitSeconds = max(0, maxWaitSeconds ?? Self.defaultMaxWait)
        self.caFile = caFile
        self.timeoutSeconds = max(1, timeoutSeconds)
        self.credentials = credentials
        self.statePath = statePath
        self.downloadFolder = downloadFolder
        self.clock = clock
        self.attempts = max(1, attempts)
    }

    // MARK: - Catalog

    public func fetchCatalog() async throws(ServiceError) -> Catalog {
        followUp.withLock { $0.catalogChecked = true }
        let signed = try await send(API.catalog)
        let document = try signed.open(CatalogDocument.self, trusting: credentials.publicKey)
        let now = clock.now()
        guard document.expires > now else {
            throw ServiceError(.untrusted, "the service's catalog expired at \(document.expires) (it is \(now)): refusing a frozen catalog")
        }
        let floor = seenCatalogVersion()
        guard document.catalog.catalogVersion >= floor else {
            // A server of a rolling deploy still on an older catalog, signed with the same key, is
            // no attack: the newest catalog this client holds (kept, checked against the pinned
            // key again, not expired) serves meanwhile. Without one, it is a rollback, refused.
            if let statePath, let kept = OfflinePackService.keptCatalog(in: Self.folder(of: statePath), credentials: credentials),
                kept.catalog.catalogVersion >= floor, kept.expires > now
            {
                olderCatalogServed.withLock { $0 = document.catalog.catalogVersion }
                lastCatalog.withLock { $0 = kept.catalog }
                return kept.catalog
            }
            throw ServiceError(
                .untrusted, "the service offered catalog version \(document.catalog.catalogVersion), older than version \(floor) already seen: refusing a rollback")
        }
        if document.catalog.catalogVersion > floor { recordCatalogVersion(document.catalog.catalogVersion) }
        // Kept for offline play only once trusted: never an expired or rolled-back catalog.
        keep(signed, as: Self.catalogCache)
        lastCatalog.withLock { $0 = document.catalog }
        return document.catalog
    }

    // MARK: - Purchases and the account

    public func recoverUnfinished() async throws(ServiceError) -> [StoreTransaction] {
        followUp.withLock { $0.recovered = true }
        return try await send(API.recover)
    }

    /// The purchase's answer carries the account's statement after it (signed): the balance and
    /// entitlements a command shows next need no request of their own.
    public func buy(_ product: ProductID, quantity: Int, options: PurchaseOptions) async throws(ServiceError) -> PurchaseOutcome {
        let key = Self.newKey()
        let asked = PurchaseRequest(
            productID: product, quantity: quantity, appAccountToken: options.appAccountToken, introductoryOfferEligibility: options.introductoryOfferEligibility,
            promotionalOffer: options.promotionalOffer, winBackOffer: options.winBackOffer)
        let (_, bytes) = try await exchange(.purchase, body: try API.purchase.encode(asked), idempotencyKey: key)
        let outcome = try API.purchase.decodeAnswer(bytes, path: Route.purchase.path())
        adoptCarriedStatement(bytes)
        return outcome
    }

    /// A retry sends the same code: the server answers the purchase it made.
    public func redeem(offerCode: String) async throws(ServiceError) -> PurchaseOutcome {
        let (_, bytes) = try await exchange(.redeemOfferCode, body: try API.redeemOfferCode.encode(OfferCodeRedemption(code: offerCode)))
        let outcome = try API.redeemOfferCode.decodeAnswer(bytes, path: Route.redeemOfferCode.path())
        adoptCarriedStatement(bytes)
        return outcome
    }

    /// The statement a purchase's answer carries beside it, adopted as a statement asked for
    /// would be (a missing or foreign one is not: the next command asks).
    private func adoptCarriedStatement(_ bytes: [UInt8]) {
        if let signed = (try? Wire.decode(StatementCarried.self, from: bytes))?.statement {
            _ = try? adopt(signed)
        }
    }

    public func restore() async throws(ServiceError) -> [Entitlement] {
        try await orOffline({ () async throws(ServiceError) in try await send(API.restore) }, { offline throws(ServiceError) in try offline.restore() })
    }

    public func transactions() async throws(ServiceError) -> [StoreTransaction] {
        try await orOffline({ () async throws(ServiceError) in try await send(API.transactions) }, { offline throws(ServiceError) in try offline.transactions() })
    }

    /// From the account's signed statement: what unlocks packs is never taken unsigned.
    public func entitlements() async throws(ServiceError) -> [Entitlement] {
        try await orOffline({ () async throws(ServiceError) in try await statement().entitlements }, { offline throws(ServiceError) in try offline.entitlements() })
    }

    /// The account's statement, checked against the pinned key: asked for once, until this
    /// client sends a change.
    public func statement() async throws(ServiceError) -> AccountStatement {
        // Held for a command, and for a minute at most (a game played for long asks again).
        if holdsStatements, let held = heldStatement.withLock({ $0 }), clock.now() - held.issued < 60_000 { return held }
        return try adopt(try await send(API.account))
    }

    /// A signed statement from the server, checked (key, account, not a replay), kept for
    /// offline play and held for the rest of the command.
    @discardableResult
    private func adopt(_ signed: SignedDocument) throws(ServiceError) -> AccountStatement {
        let statement = try signed.open(AccountStatement.self, trusting: credentials.publicKey)
        guard statement.accountID == credentials.accountID else {
            throw ServiceError(.untrusted, "the service sent the statement of account \(statement.accountID), not \(credentials.accountID)")
        }
        // An old statement sent again (a pack refunded since, playing again) is a replay. Servers'
        // clocks may differ a little: only a statement older by more than that is refused.
        lastStorefront.withLock { $0 = statement.storefront ?? Storefront.defaultCode }
        if let statePath, let seen = OfflinePackService.keptStatement(in: Self.folder(of: statePath), credentials: credentials) {
            guard statement.issued + Self.clockSkew >= seen.issued else {
                throw ServiceError(
                    .untrusted, "the service sent an account statement issued at \(statement.issued), older than one already seen (\(seen.issued)): refusing a replay")
            }
            if statement.issued >= seen.issued { keep(signed, as: Self.statementCache) }
        } else {
            keep(signed, as: Self.statementCache)
        }
        heldStatement.withLock { $0 = statement }
        return statement
    }

    /// From the account's signed statement (the last one this process read, when it read one).
    public func storefront() async throws(ServiceError) -> String {
        if let known = lastStorefront.withLock({ $0 }) { return known }
        return try await orOffline(
            { () async throws(ServiceError) in try await statement().storefront ?? Storefront.defaultCode }, { offline throws(ServiceError) in try offline.storefront() })
    }

    /// From the account's signed statement.
    public func appTransaction() async throws(ServiceError) -> AppTransactionRecord {
        guard let app = try await statement().appTransaction else {
            throw ServiceError(.unavailable, L10n.text("the service at %s is older than app transactions: it does not say this account's", credentials.service))
        }
        return app
    }

    public func offers() async throws(ServiceError) -> Offers {
        let offers = try await orOffline({ () async throws(ServiceError) in try await send(API.offers) }, { offline throws(ServiceError) in try offline.offers() })
        lastStorefront.withLock { $0 = offers.storefront }
        return offers
    }

    public func setStorefront(_ code: String) async throws(ServiceError) -> String {
        let answer = try await send(API.setStorefront, body: StorefrontRequest(storefront: code))
        let now = answer.storefront ?? code
        lastStorefront.withLock { $0 = now }
        return now
    }

    /// From the account's signed statement, kept for when the server cannot be reached.
    public func hintBalance() async throws(ServiceError) -> Int {
        try await orOffline({ () async throws(ServiceError) in try await statement().hintBalance }, { offline throws(ServiceError) in try offline.hintBalance() })
    }

    /// The newest balance the server signed (a statement, or a spend's answer), and when.
    public func lastSignedHintBalance() -> SignedHintBalance? {
        guard let statePath else { return nil }
        return OfflinePackService.keptHintBalance(in: Self.folder(of: statePath), credentials: credentials)
    }

    /// Taken only signed by the pinned key, for this account and this key: a hint is a letter
    /// revealed, and an unsigned "spent" would reveal it for nothing.
    public func spendHint(idempotencyKey: String) async throws(ServiceError) -> HintSpend {
        // The key goes as the Idempotency-Key too: a spend cut off in transit (a server killed
        // behind a proxy) is sent again, and spends at most once.
        let signed = try await send(API.spendHint, body: HintSpendRequest(key: idempotencyKey), idempotencyKey: idempotencyKey)
        let statement = try signed.open(HintSpendStatement.self, trusting: credentials.publicKey)
        guard statement.accountID == credentials.accountID, statement.key == idempotencyKey else {
            throw ServiceError(
                .untrusted, "the service answered a hint spend for account \(statement.accountID), key '\(statement.key)', not this one: refusing it")
        }
        // The balance after it is signed too: offline, it is the one shown.
        keep(signed, as: Self.spendCache)
        return HintSpend(balance: statement.balance, wasAlreadySpent: statement.wasAlreadySpent)
    }

    public func packArchive(_ product: ProductID) async throws(ServiceError) -> [UInt8] {
        try await packArchive(product, progress: nil)
    }

    /// Downloads into the download folder (resuming what an earlier try left), reporting the
    /// bytes on disk as they arrive.
    public func packArchive(_ product: ProductID, progress: ((Int) -> Void)?) async throws(ServiceError) -> [UInt8] {
        let path = Route.packArchive.path(product.rawValue)
        let (digest, size) = lastCatalog.withLock { catalog in
            (catalog.flatMap { $0.basePack(product)?.sha256 ?? $0.product(product)?.packSHA256 },
             catalog.flatMap { $0.basePack(product)?.size ?? $0.product(product)?.packSize })
        }
        guard let downloadFolder else {
            return try await exchange(.packArchive, id: product.rawValue, maxBody: size ?? Self.maxArchive).1
        }
        let file = downloadFolder + "/" + product.rawValue + ".partial"
        do {
            try FileSystem.createFolder(atPath: downloadFolder, permissions: 0o700)
        } catch {
            throw ServiceError(.storage, "cannot make the download folder \(downloadFolder): \(error)")
        }
        var lastFailure = ""
        var reached = false
        // A link to the archive on the service's static file server, when the service answered with
        // one (a redirect from the archive's route, followed once), and the key it works with.
        var link: (url: String, key: String)?
        var freshLinks = 0
        var attempt = 0
        while attempt < attempts {
            if attempt > 0 { try? await Task.sleep(for: .milliseconds(100 << attempt)) }
            attempt += 1
            do {
                if let link {
                    // A content-addressed file: its name is its digest, so no If-Range is needed.
                    _ = try HTTPClient.download(
                        url: link.url, headers: [(Wire.downloadKeyHeader, link.key)], toFile: file, maxSize: size ?? Self.maxArchive, progress: progress,
                        caFile: caFile)
                } else {
                    _ = try HTTPClient.download(
                        url: credentials.service + path, headers: [("Authorization", "Bearer \(credentials.token)")], toFile: file,
                        etag: digest.map { "\"\($0)\"" }, maxSize: size ?? Self.maxArchive, progress: progress, caFile: caFile,
                        answerHeaders: [Wire.downloadKeyHeader])
                }
            } catch {
                lastFailure = error.message
                if error.isNotConnected && !reached && link == nil { break }
                reached = true
                if error.isTooLarge {
                    // Never more than the signed catalog records: a longer answer is not the pack.
                    try? FileSystem.removeFile(atPath: file)
                    throw ServiceError(
                        .untrusted, "the archive of \(product) from \(credentials.service) is longer than the \(size ?? Self.maxArchive) bytes its signed catalog records: refusing it")
                }
                if link == nil, let status = error.status, [302, 303, 307].contains(status), let location = error.location {
                    // The service's static file server: followed from this route only, to http(s).
                    guard location.hasPrefix("https://") || location.hasPrefix("http://"), let key = error.headers[Wire.downloadKeyHeader.lowercased()] else {
                        throw ServiceError(.unavailable, L10n.text("the service sent the archive of %s to '%s' without a download key: refusing to follow it", product, location.prefix(120)))
                    }
                    link = (location, key)
                    attempt -= 1
                    continue
                }
                if link != nil, error.status == 403, freshLinks < 2 {
                    // An expired link: the service makes a fresh one, and the download resumes.
                    freshLinks += 1
                    link = nil
                    attempt -= 1
                    continue
                }
                if link != nil, let status = error.status, (400..<500).contains(status) {
                    throw ServiceError(
                        .unavailable,
                        L10n.text(
                            "the archive of %s is not at the service's download server (HTTP %d from %s); what arrived is kept in %s", product, status,
                            String(link!.url.prefix { $0 != "?" }), file))
                }
                if link == nil, let status = error.status, (400..<500).contains(status) {
                    // The service's refusal (401, 403, 404): ask again for its words.
                    try? FileSystem.removeFile(atPath: file)
                    return try await exchange(.packArchive, id: product.rawValue).1
                }
                continue
            }
            do {
                let bytes = try FileSystem.readFile(atPath: file, limit: size ?? Self.maxArchive)
                try FileSystem.removeFile(atPath: file)
                return bytes
            } catch {
                throw ServiceError(.storage, "cannot read the downloaded archive \(file): \(error)")
            }
        }
        throw ServiceError(.unavailable, L10n.text("the archive of %s could not be downloaded from %s (%s); what arrived is kept in %s, and the next try resumes there", product, credentials.service, lastFailure, file))
    }

    public func receipt() async throws(ServiceError) -> Receipt {
        let data = try await send(API.receipt)
        guard let bytes = Base64.decode(data.receiptData), let payload = data.receipt else {
            throw ServiceError(.unavailable, L10n.text("the service's receipt is malformed"))
        }
        return Receipt(bytes: bytes, payload: payload)
    }

    public func verifyReceipt(_ bytes: [UInt8]) async -> ReceiptVerification {
        await verifyReceipt(bytes, password: nil)
    }

    /// Through the service's Apple-compatible `/verifyReceipt`: Apple's answer, told in this
    /// project's words, its facts read back from Apple's keys.
    public func verifyReceipt(_ bytes: [UInt8], password: String?) async -> ReceiptVerification {
        let answer: AppleVerifyResponse
        do {
            answer = try await send(API.verifyReceipt, body: AppleVerifyRequest(receiptData: Base64.encode(bytes), password: password))
        } catch {
            return ReceiptVerification(status: .malformed, message: "the service could not check the receipt: \(error.message)")
        }
        guard let status = ReceiptVerification.Status(rawValue: answer.status) else {
            return ReceiptVerification(status: .malformed, message: "the service answered status \(answer.status), which this client does not know")
        }
        let payload = answer.receipt.map {
            ReceiptPayload(apple: $0, environment: answer.environment, renewals: answer.pendingRenewalInfo ?? [], latest: answer.latestReceiptInfo ?? [])
        }
        return ReceiptVerification(status: status, message: Self.sentence(status, payload: payload, environment: answer.environment), payload: payload)
    }

    /// What an Apple status means, in this project's words.
    static func sentence(_ status: ReceiptVerification.Status, payload: ReceiptPayload?, environment: String?) -> String {
        switch status {
        case .valid: "valid: \(payload?.transactions.count ?? 0) transactions for \(payload?.bundleIdentifier ?? "?") (\(environment ?? "?"))"
        case .badRequest: "the service did not take the request as a receipt check"
        case .malformed: "not a receipt, or its contents do not hold together"
        case .notAuthenticated: "the signature is not the service's: the receipt was changed or signed by another key"
        case .sharedSecretMismatch: "the receipt holds an auto-renewable subscription: it needs the service's shared secret (--shared-secret-file)"
        case .temporarilyUnavailable: "the service cannot check it now; try again"
        case .sandboxReceiptSentToProduction: "a sandbox receipt sent to a production service: send it to the sandbox one"
        case .productionReceiptSentToSandbox: "a production receipt sent to a sandbox service: send it to the production one"
        case .accountNotFound: "the receipt's account is not known to this service"
        }
    }

    // MARK: - Test controls

    public func controls() async throws(ServiceError) -> StoreControls {
        try await send(API.testControls)
    }

    public func setControls(_ controls: StoreControls) async throws(ServiceError) {
        _ = try await send(API.setTestControls, body: controls)
    }

    public func approve(_ id: TransactionID) async throws(ServiceError) -> StoreTransaction {
        try await send(API.approve, id: id.rawValue)
    }

    public func decline(_ id: TransactionID) async throws(ServiceError) -> StoreTransaction {
        try await send(API.decline, id: id.rawValue)
    }

    public func resolve(_ id: TransactionID) async throws(ServiceError) -> StoreTransaction {
        try await send(API.resolve, id: id.rawValue)
    }

    public func refund(_ id: TransactionID) async throws(ServiceError) -> (transaction: StoreTransaction, hintsTakenBack: Int) {
        let result = try await send(API.refund, id: id.rawValue)
        return (result.transaction, result.hintsTakenBack)
    }

    public func signedAppTransaction() async throws(ServiceError) -> String {
        guard let signed = try await send(API.signedAppTransaction)["signedAppTransactionInfo"] else {
            throw ServiceError(.unavailable, L10n.text("the pack server answered no signed app transaction"))
        }
        return signed
    }

    public func refundCase(_ id: TransactionID) async throws(ServiceError) -> RefundCase? {
        try await send(API.refundCase, id: id.rawValue).refundCase
    }

    public func requestRefund(_ id: TransactionID, reason: RefundReason) async throws(ServiceError) -> RefundCase {
        try await send(API.requestRefund, id: id.rawValue, body: RefundRequest(reason: reason))
    }

    public func decideRefund(_ id: TransactionID, _ decision: RefundDecision) async throws(ServiceError) -> RefundOutcome {
        try await send(API.decideRefund, id: id.rawValue, body: RefundDecisionRequest(decision: decision))
    }

    public func causeNotification(_ type: String, subtype: String?) async throws(ServiceError) -> NotificationCause {
        try await send(API.causeNotification, body: NotificationCauseRequest(type: type, subtype: subtype))
    }

    public func clear() async throws(ServiceError) {
        _ = try await exchange(.clear)
    }

    public func reset() async throws(ServiceError) {
        _ = try await exchange(.reset)
    }

    public func storeClock() async throws(ServiceError) -> Int64 {
        try await send(API.testClock).now
    }

    public func moveClock(by duration: StoreClockStep) async throws(ServiceError) -> StoreClockMove {
        let moved = try await send(API.advanceClock, body: ClockAdvance(duration: duration))
        return StoreClockMove(now: moved.now, renewals: moved.renewals ?? 0)
    }

    // MARK: - Subscriptions

    public func subscriptions() async throws(ServiceError) -> [SubscriptionStatus] {
        try await orOffline({ () async throws(ServiceError) in try await send(API.subscriptions) }, { offline throws(ServiceError) in try offline.subscriptions() })
    }

    public func subscriptionChange(to product: ProductID) async throws(ServiceError) -> SubscriptionChange {
        try await send(API.subscriptionChange, body: SubscriptionChangeRequest(productID: product))
    }

    public func setAutoRenew(_ product: ProductID, on: Bool) async throws(ServiceError) -> SubscriptionStatus {
        try await send(API.autoRenew, body: AutoRenewRequest(productID: product, autoRenew: on))
    }

    public func consentToPriceIncrease(_ product: ProductID) async throws(ServiceError) -> SubscriptionStatus {
        try await send(API.priceConsent, body: SubscriptionChangeRequest(productID: product))
    }

    // MARK: - Accounts

    // MARK: - Tokens and the account

    /// A new token of this account for another device (the one asking keeps its own), named
    /// `deviceName` in the account's tokens.
    public func addDeviceToken(deviceName: String? = nil) async throws(ServiceError) -> NewToken {
        let made = try await send(API.addToken, body: NewTokenRequest(deviceName: deviceName))
        try Self.checkIssued(made.token, account: made.accountID, expected: credentials.accountID)
        return made
    }

    /// A token the service just issued is one of its own, for this account, before it is kept:
    /// a server's malformed or foreign answer is refused, not saved as this device's secret.
    static func checkIssued(_ token: String, account: String, expected: String?) throws(ServiceError) {
        guard let parsed = BearerToken(parsing: token), parsed.account == account, expected.map({ $0 == account }) ?? true else {
            throw ServiceError(.untrusted, "the service issued a token that is not one of its own for account \(expected ?? account) (\(BearerToken.formatProblem)): it was not kept")
        }
    }

    /// Every token of the account, this one marked `current`; never a secret.
    public func tokens() async throws(ServiceError) -> [AccountTokenInfo] {
        try await send(API.tokens)
    }

    /// Revokes one token of the account: the device holding it is signed out.
    public func revokeToken(_ id: String) async throws(ServiceError) {
        _ = try await exchange(.revokeToken, id: id)
    }

    /// A new token for this device, and this one revoked.
    public func rotateToken() async throws(ServiceError) -> NewToken {
        let made = try await send(API.rotateToken)
        try Self.checkIssued(made.token, account: made.accountID, expected: credentials.accountID)
        return made
    }

    /// Closes the account: every token revoked; its receipts no longer verify (21010).
    public func closeAccount() async throws(ServiceError) {
        _ = try await exchange(.closeAccount)
    }

    /// Joins the account a token of another device belongs to, from this device: pins the
    /// service's key as it is now, and makes this device a token of its own.
    public static func login(at url: String, token: String, deviceName: String? = nil, caFile: String? = nil) async throws(ServiceError) -> ServiceCredentials {
        guard let given = BearerToken(parsing: token) else { throw ServiceError(.invalidRequest, BearerToken.formatProblem) }
        let unauthenticated = HTTPPackService(credentials: ServiceCredentials(service: url, accountID: "", token: "", publicKey: nil), caFile: caFile)
        let key = try await unauthenticated.serviceKey()
        let client = HTTPPackService(credentials: ServiceCredentials(service: url, accountID: given.account, token: token, publicKey: key), caFile: caFile)
        let made = try await client.addDeviceToken(deviceName: deviceName)
        return ServiceCredentials(service: url, accountID: made.accountID, token: made.token, publicKey: key)
    }

    /// That the server at this address holds the pinned key: it signs a nonce made here, now.
    /// Asked before a token goes to an address the service has not proved itself at: a server
    /// that only replays the public signed catalog is refused, and sees no secret. `true` when the
    /// service named its addresses in the proof (`serve --public-url`), this one among them;
    /// `false` when it names none, and a relay could have passed the proof on.
    @discardableResult
    public func proveKey() async throws(ServiceError) -> Bool {
        let nonce = IdempotencyKey.new()
        let proof: KeyProof
        do {
            let signed = try await send(API.proveKey, body: KeyProof(nonce: nonce))
            proof = try signed.open(KeyProof.self, trusting: credentials.publicKey)
        } catch where error.kind == .unavailable && Self.isUnreachable(error) {
            // No server there now: the home plays offline, and nothing was sent.
            throw error
        } catch {
            throw ServiceError(.untrusted, "the server at \(credentials.service) does not prove this home's service key (\(error.message)): nothing secret was sent to it")
        }
        guard proof.nonce == nonce else {
            throw ServiceError(.untrusted, "the server at \(credentials.service) signed another challenge than this one: nothing secret was sent to it")
        }
        // A relay can pass the challenge on to the service; it cannot make the service name the
        // relay's address.
        if let named = proof.addresses?.map(ServiceCredentials.normalized), !named.isEmpty, !named.contains(credentials.service) {
            throw ServiceError(
                .untrusted,
                "the server at \(credentials.service) passes on the service's proof, but the service is reached at \(named.joined(separator: ", ")), not there "
                    + "(a relay would do this): nothing secret was sent to it; use one of the service's addresses")
        }
        return proof.addresses?.isEmpty == false
    }

    /// Whether a failure is the server's absence (no connection, no answer in time), not an answer.
    static func isUnreachable(_ error: ServiceError) -> Bool {
        error.reason == .unreachable
    }

    /// The service's key as it is now, to pin (the key document checked: the key is one, and its id).
    private func serviceKey() async throws(ServiceError) -> SigningPublicKey {
        let keyDocument = try await send(API.serviceKey)
        guard let bytes = Base64.decode(keyDocument.publicKey), let key = SigningPublicKey(bytes: bytes), key.keyID == keyDocument.keyID else {
            throw ServiceError(.untrusted, "the service at \(credentials.service) sent a malformed public key")
        }
        return key
    }

    /// Checks a receipt at the service at `url` (its `/verifyReceipt`, which needs no account), as
    /// a game's backend does.
    public static func verifyReceipt(_ bytes: [UInt8], at url: String, password: String?, caFile: String? = nil) async -> ReceiptVerification {
        await HTTPPackService(credentials: ServiceCredentials(service: url, accountID: "", token: "", publicKey: nil), caFile: caFile)
            .verifyReceipt(bytes, password: password)
    }

    /// ``createAccount(at:storefront:caFile:)`` in `storefront`, else the player's region's
    /// (`preferred`) when the service sells there.
    public static func createAccount(
        at url: String, storefront: String?, preferred: String?, deviceName: String? = nil, caFile: String? = nil
    ) async throws(ServiceError) -> ServiceCredentials {
        try await createAccount(at: url, storefront: StorefrontRequest(storefront: storefront, preferred: preferred, deviceName: deviceName), caFile: caFile)
    }

    /// Makes an account on the service at `url`, pinning the service's key as it is now, in the
    /// storefront asked for (the service's default when none is).
    public static func createAccount(at url: String, storefront: StorefrontRequest? = nil, caFile: String? = nil) async throws(ServiceError) -> ServiceCredentials {
        let unauthenticated = HTTPPackService(credentials: ServiceCredentials(service: url, accountID: "", token: "", publicKey: nil), caFile: caFile)
        let key = try await unauthenticated.serviceKey()
        let account = try await unauthenticated.send(API.createAccount, body: storefront)
        try checkIssued(account.token, account: account.accountID, expected: nil)
        return ServiceCredentials(service: url, accountID: account.accountID, token: account.token, publicKey: key)
    }

    // MARK: - Transport

    /// One request on `endpoint` (its method and path from its ``Route``; a token unless the
    /// route is public): its body encoded and its answer decoded as the endpoint types them.
    private func send<Body, Answer>(
        _ endpoint: Endpoint<Body, Answer>, id: String = "", body: Body? = nil, idempotencyKey: String? = nil, query: [(String, String)] = []
    ) async throws(ServiceError) -> Answer {
        let bytes = try body.map { (body) throws(ServiceError) in try endpoint.encode(body) }
        let (_, answer) = try await exchange(endpoint.route, id: id, body: bytes, idempotencyKey: idempotencyKey, query: query)
        return try endpoint.decodeAnswer(answer, path: endpoint.route.path(id))
    }

    /// One request, sent again (same body, same idempotency key) while the connection fails, or
    /// after the wait a server asks for (429 or 503 with `Retry-After`) while the waits stay within
    /// `maxWaitSeconds` in all. A 2xx answer's headers are followed up first (``followUp(after:_:)``).
    private func exchange(
        _ route: Route, id: String = "", body: [UInt8]? = nil, idempotencyKey: String? = nil, maxBody: Int = HTTPPackService.maxAnswer,
        query: [(String, String)] = []
    ) async throws(ServiceError) -> (Int, [UInt8]) {
        let (method, authenticated) = (route.method, !route.isPublic)
        let path = route.path(PercentEncoding.encoded(id))
            + (query.isEmpty ? "" : "?" + query.map { PercentEncoding.encoded($0.0) + "=" + PercentEncoding.encoded($0.1) }.joined(separator: "&"))
        if let problem = ServiceCredentials.addressProblem(credentials.service) {
            throw ServiceError(.invalidRequest, L10n.text("'%s' is not a pack server's address: %s (like http://127.0.0.1:8080)", credentials.service, problem))
        }
        var headers: [(String, String)] = []
        if authenticated { headers.append(("Authorization", "Bearer \(credentials.token)")) }
        if let idempotencyKey { headers.append((Wire.idempotencyHeader, idempotencyKey)) }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        // The service answers a refusal in the reader's language.
        if let language = L10n.language { headers.append(("Accept-Language", L10n.tag(of: language))) }
        // Whether the account has purchases to complete is asked until this client has asked.
        if authenticated, route != .recover, followUp.withLock({ $0.active && !$0.recovered }) { headers.append((Wire.unfinishedHeader, "?")) }
        // A change to the account's balance, purchases or storefront makes the statement held so
        // far out of date (a game's start, guess or end changes none of them).
        if method != "GET" && method != "HEAD" && ![.startGame, .guess, .abandonGame, .setDisplayName, .proveKey, .verifyReceipt].contains(route) {
            heldStatement.withLock { $0 = nil }
        }
        var lastFailure = ""
        // Sent again only when that cannot do the work twice: a read, or a change with its key.
        // A request without a key (a new account, a test control) is sent once.
        let safeToRepeat = method == "GET" || method == "HEAD" || idempotencyKey != nil
        var reached = false
        var attempt = 0
        var askedAgain = false
        while attempt < (safeToRepeat ? attempts : 1) {
            if attempt > 0 { try? await Task.sleep(for: .milliseconds(100 << attempt)) }
            attempt += 1
            let response: HTTPClientResponse
            do {
                response = try HTTPClient.perform(
                    method: method, url: credentials.service + path, headers: headers, body: body, timeoutSeconds: timeoutSeconds, maxBody: maxBody,
                    caFile: caFile, answerHeaders: Self.answerHeaders, connection: connection)
            } catch where error.isTimeout && idempotencyKey == nil {
                // A server that does not answer in time would not in the next try either; a
                // change with its key is still sent again, so that it is done once.
                throw ServiceError(
                    .unavailable, L10n.text("the pack server at %s did not answer within %s s; try again later", credentials.service, timeoutSeconds), reason: .unreachable)
            } catch where error.isUntrustedCertificate {
                throw ServiceError(
                    .unavailable,
                    L10n.text("the pack server at %s has a TLS certificate this client does not trust (%s): name its authority with --ca-file FILE (or HANGMAN_CA_FILE)", credentials.service, error.message))
            } catch where error.isTLS {
                let plain = credentials.service.hasPrefix("https://") ? " If it serves plain HTTP, use http://" + credentials.service.dropFirst("https://".count) + "." : ""
                throw ServiceError(.unavailable, L10n.text("the pack server at %s did not complete a TLS handshake (%s).%s", credentials.service, error.message, plain))
            } catch where error.isTooLarge {
                throw ServiceError(.untrusted, "the service's answer to \(method) \(path) is over \(maxBody) bytes: refusing it")
            } catch {
                lastFailure = error.message
                // No server there from the first try (refused, no such name): offline, and asking
                // again now would be refused too. Once one try reached it, a refusal is a restart
                // under way, and the request (with its key) is sent again as it comes back.
                if error.isNotConnected && !reached { break }
                reached = true
                continue
            }
            reached = true
            if (200..<300).contains(response.status) {
                // Purchases a crash left unfinished were completed just now: a read asked before
                // that is asked again, once, so that it shows them.
                if await followUp(after: route, response), method == "GET", !askedAgain {
                    askedAgain = true
                    attempt -= 1
                    continue
                }
                return (response.status, response.body)
            }
            let failure = try? Wire.decode(ErrorBody.self, from: response.body)
            // The server asks to be asked again later: a 429 was refused before any work, and a 503
            // with its key is done at most once. Waited out while the waits stay within the bound.
            if response.status == 429 || (response.status == 503 && safeToRepeat),
                let seconds = response.header("Retry-After").flatMap(Self.retryAfterSeconds), takeWait(seconds)
            {
                let why = failure?.message ?? "HTTP \(response.status)"
                observer.withLock { $0 }?(.waiting(seconds: seconds, total: followUp.withLock { $0.seconds }, reason: why))
                try? await Task.sleep(for: .seconds(seconds))
                attempt -= 1
                continue
            }
            if response.status == 503 {
                // The server is up but its database is not (a restart, a failover): the work may or
                // may not have been done, and the same request with the same key does it at most once.
                lastFailure = failure?.message ?? "HTTP 503"
                continue
            }
            if let failure {
                throw failure.serviceError
            }
            if response.status >= 500 {
                lastFailure = "HTTP \(response.status)"
                continue
            }
            throw ServiceError(.unavailable, L10n.text("the service answered %s %s with HTTP %s", method, path, response.status))
        }
        throw ServiceError(
            .unavailable, L10n.text("the pack server at %s cannot be reached (%s); try again when it is back", credentials.service, lastFailure), reason: .unreachable)
    }

    /// The answer's headers a client reads.
    static let answerHeaders = [Wire.catalogVersionHeader, Wire.unfinishedHeader, "Retry-After"]

    /// `Retry-After` in seconds (RFC 9110: delay-seconds; an HTTP date is not waited for).
    static func retryAfterSeconds(_ value: String) -> Int? {
        let text = value.filter { $0 != " " && $0 != "\t" }
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }

    /// Takes `seconds` from what is left of `maxWaitSeconds`, when that much is left.
    private func takeWait(_ seconds: Int) -> Bool {
        followUp.withLock { state in
            guard state.seconds + seconds <= maxWaitSeconds else { return false }
            state.seconds += seconds
            return true
        }
    }

    /// What an answer's headers ask for, done once per client: the catalog fetched when the
    /// server sells from a newer one than this client holds (or does not say which), and the
    /// account's unfinished purchases completed when it has some (or the server does not say).
    /// Returns whether a purchase was completed. Failures wait for the next command.
    private func followUp(after route: Route, _ response: HTTPClientResponse) async -> Bool {
        guard route != .catalog, route != .recover else { return false }
        let told = response.header(Wire.catalogVersionHeader).flatMap { Int($0) }
        let unfinished = route.isPublic ? 0 : response.header(Wire.unfinishedHeader).flatMap { Int($0) } ?? 1
        let held = lastCatalog.withLock { $0?.catalogVersion }
        let (fetch, recover, older) = followUp.withLock { state -> (Bool, Bool, Bool) in
            guard state.active, !state.busy else { return (false, false, false) }
            let fetch = !state.catalogChecked && (told == nil || held == nil || told! > held!)
            let recover = !state.recovered && unfinished > 0
            // A server of a rolling deploy still on an older catalog: said once.
            let older = !state.olderNoted && told != nil && held != nil && told! < held!
            if older { state.olderNoted = true }
            state.busy = fetch || recover
            return (fetch, recover, older)
        }
        if older, let told, let held { observer.withLock { $0 }?(.note(Self.olderCatalogNote(at: credentials.service, offered: told, held: held))) }
        defer { if fetch || recover { followUp.withLock { $0.busy = false } } }
        if fetch {
            // Behind a proxy that takes turns between servers of a rolling deploy, the catalog
            // request may reach another server than the answer that told of the newer version:
            // asked again, twice at most, until it is the version told.
            for _ in 0..<3 {
                guard let fetched = try? await fetchCatalog(), let told, fetched.catalogVersion < told else { break }
            }
        }
        guard recover, let recovered = try? await recoverUnfinished(), !recovered.isEmpty else { return false }
        heldStatement.withLock { $0 = nil }
        observer.withLock { $0 }?(.recovered(recovered))
        return true
    }

    /// `online`, or, when the server cannot be reached (now, or earlier in this command), what
    /// the last signed catalog and statement say (`offline`), the observer told once.
    private func orOffline<T>(
        _ online: () async throws(ServiceError) -> T, _ offline: (OfflinePackService) throws(ServiceError) -> T
    ) async throws(ServiceError) -> T {
        if let gone = fallback.withLock({ $0 }) { return try offline(gone) }
        do {
            return try await online()
        } catch where error.kind == .unavailable {
            guard let statePath, let gone = OfflinePackService(credentials: credentials, folder: Self.folder(of: statePath), reason: error, clock: clock) else {
                throw error
            }
            fallback.withLock { $0 = gone }
            observer.withLock { $0 }?(.offline(error))
            return try offline(gone)
        }
    }

    /// Why this client plays from what the server last signed, once a request found it gone.
    public var offlineReason: ServiceError? { fallback.withLock { $0?.reason } }

    /// The catalog this client holds: the last fetched, or the kept one it started from.
    public var heldCatalog: Catalog? { lastCatalog.withLock { $0 } }

    /// Starts from the last catalog the server signed, kept in the state folder, instead of asking
    /// for it: when it is signed by the pinned key, not expired, and no older than the newest
    /// seen. The first answer says whether the server sells from a newer one. `nil`: none usable.
    public func startFromKeptCatalog() -> Catalog? {
        guard let statePath, let kept = OfflinePackService.keptCatalog(in: Self.folder(of: statePath), credentials: credentials),
            kept.expires > clock.now(), kept.catalog.catalogVersion >= seenCatalogVersion()
        else { return nil }
        lastCatalog.withLock { $0 = kept.catalog }
        followUp.withLock { $0.active = true }
        return kept.catalog
    }

    /// What a player is told once when the server offers an older catalog than the one held.
    public static func olderCatalogNote(at address: String, offered older: Int, held: Int) -> String {
        "the server at \(address) still offers catalog version \(older), older than version \(held) this home holds "
            + "(a deploy in progress): using version \(held), kept from the service"
    }

    /// `handler` is told when this client waits for the server, completes a purchase a crash left
    /// unfinished, or finds the server gone and plays from what it last signed.
    public func observe(_ handler: @escaping @Sendable (ServiceEvent) -> Void) {
        observer.withLock { $0 = handler }
    }

    /// The bound on waits when the server asks for them: `HANGMAN_MAX_WAIT` seconds, else 10.
    static var defaultMaxWait: Int {
        ProcessEnvironment.value("HANGMAN_MAX_WAIT").flatMap { Int($0) }.map { max(0, $0) } ?? 10
    }

    /// The last signed catalog and account statement, kept beside the catalog-version file, for
    /// playing offline (`OfflinePackService`).
    static let catalogCache = "service-catalog.json"
    static let statementCache = "service-account.json"
    static let spendCache = "service-spend.json"

    private func keep(_ document: SignedDocument, as name: String) {
        guard let statePath else { return }
        try? FileSystem.writeAtomically(try Wire.encode(document), toPath: Self.folder(of: statePath) + "/" + name, permissions: 0o600)
    }

    /// The folder a path is in.
    private static func folder(of path: String) -> String {
        String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    }

    /// How far two servers' clocks may differ (milliseconds): a statement older than the newest
    /// seen by more than this is a replay.
    static let clockSkew: Int64 = 5 * 60_000

    /// The largest JSON answer read: a receipt of tens of thousands of transactions fits.
    static let maxAnswer = 32 << 20
    /// The largest archive read when the catalog records no size (it always does for a pack it sells).
    static let maxArchive = 256 << 20

    private static func newKey() -> String { IdempotencyKey.new() }

    /// The highest catalog version seen: the one recorded, and the one of the last signed catalog
    /// kept beside it, so that a damaged or deleted version file does not reset the protection.
    private func seenCatalogVersion() -> Int {
        guard let statePath else { return 0 }
        let recorded = (try? FileSystem.readFile(atPath: statePath, limit: 4096))
            .flatMap { String(validating: $0, as: UTF8.self) }
            .flatMap { Int($0.filter { !$0.isWhitespace }) } ?? 0
        let kept = OfflinePackService.keptCatalog(in: Self.folder(of: statePath), credentials: credentials)?.catalog.catalogVersion ?? 0
        return max(recorded, kept)
    }

    private func recordCatalogVersion(_ version: Int) {
        guard let statePath else { return }
        try? FileSystem.writeAtomically(Array("\(version)\n".utf8), toPath: statePath, permissions: 0o600)
    }
}

/// What a client keeps of its account on a service: where, who, the token, and the pinned key.
/// The service is known by its key and the account, not by its address: `service` is the address
/// last used, `addresses` every one it proved itself at.
public struct ServiceCredentials: Sendable, Equatable {
    /// The address last used.
    public var service: String
    /// Every address the service proved its key at, most recent first.
    public var addresses: [String]
    public var accountID: String
    public var token: String
    /// The service's key, pinned when the account was made.
    public var publicKey: SigningPublicKey

    public init(service: String, accountID: String, token: String, publicKey: SigningPublicKey?) {
        self.service = Self.normalized(service)
        self.addresses = [self.service]
        self.accountID = accountID
        self.token = token
        self.publicKey = publicKey ?? SigningPublicKey.placeholder
    }
}

extension ServiceCredentials {
    /// What is wrong with a pack server's address, or `nil`: `http://` or `https://`, a host, a
    /// port from 1 to 65535 if any, and nothing after (the API's paths are the client's).
    public static func addressProblem(_ url: String) -> String? {
        let rest: Substring
        if url.hasPrefix("http://") {
            rest = url.dropFirst("http://".count)
        } else if url.hasPrefix("https://") {
            rest = url.dropFirst("https://".count)
        } else {
            return "it starts with neither http:// nor https://"
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let after = rest.dropFirst(authority.count)
        if !after.isEmpty && after != "/" {
            return "an address has no path, query or fragment: give \(url.prefix(url.count - after.count)) without '\(after)'"
        }
        if authority.contains("@") { return "an address carries no user name or password" }
        var host = authority
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            let port = authority[authority.index(after: colon)...]
            guard let number = Int(port), (1...65535).contains(number) else { return "'\(port)' is not a port (1 to 65535)" }
            host = authority[..<colon]
        }
        if host.isEmpty { return "it names no host" }
        return nil
    }

    /// A service URL as credentials keep it: without a trailing slash.
    public static func normalized(_ url: String) -> String {
        url.hasSuffix("/") && !url.hasSuffix("://") ? String(url.dropLast()) : url
    }
}

extension SigningPublicKey {
    /// A key nothing verifies against, for the one request made before a key is pinned.
    static let placeholder: SigningPublicKey = SigningPublicKey(bytes: [UInt8](repeating: 0, count: 32)) ?? SigningKey.generate().publicKey
}

// MARK: - Served games

extension HTTPPackService: GameService {
    public var servedGames: (any GameService)? { self }
    public var dailyWords: (any GameService)? { self }

    public func startGame(_ request: GameRequest) async throws(ServiceError) -> ServedGame {
        // A start is safe to send again: a second one resumes the game the first started.
        var request = request
        if request.new, request.seed == nil {
            // `new` abandons the live game: sent again, it would abandon the one it started. One try.
            return try await send(API.startGame, body: request)
        }
        request.new = false
        return try await send(API.startGame, body: request, idempotencyKey: IdempotencyKey.new())
    }

    public func currentGame() async throws(ServiceError) -> ServedGame? {
        do {
            return try await send(API.currentGame)
        } catch where error.kind == .notFound {
            return nil
        }
    }

    public func game(_ id: String) async throws(ServiceError) -> ServedGame {
        try await send(API.game, id: id)
    }

    public func guess(game id: String, _ text: String) async throws(ServiceError) -> ServedGame {
        // Sent once: a guess sent again would be answered `repeated`, not what it did.
        try await send(API.guess, id: id, body: GuessRequest(guess: text))
    }

    public func hint(game id: String, idempotencyKey: String) async throws(ServiceError) -> ServedGame {
        try await send(API.gameHint, id: id, body: NoBody(), idempotencyKey: idempotencyKey)
    }

    public func abandonGame(_ id: String) async throws(ServiceError) -> ServedGame {
        try await send(API.abandonGame, id: id, body: NoBody(), idempotencyKey: IdempotencyKey.new())
    }

    public func gameStatistics() async throws(ServiceError) -> GameStatistics {
        try await send(API.gameStats)
    }

    public func dailyArchive(language: String?, since: String?) async throws(ServiceError) -> DailyArchive {
        var query: [(String, String)] = []
        if let language { query.append(("language", language)) }
        if let since { query.append(("since", since)) }
        return try await send(API.dailyArchive, query: query)
    }

    public func daily(language: String?) async throws(ServiceError) -> DailyStatus {
        try await send(API.daily, query: language.map { [("language", $0)] } ?? [])
    }

    public func leaderboard(date: String?, language: String?, week: Bool, hard: Bool) async throws(ServiceError) -> Leaderboard {
        try await board(date: date, language: language, week: week, hard: hard, friends: false)
    }

    /// A board as the server answers it, kept to what a board can be.
    private func board(date: String?, language: String?, week: Bool, hard: Bool, friends: Bool) async throws(ServiceError) -> Leaderboard {
        var query: [(String, String)] = friends ? [("friends", "1")] : []
        if let language { query.append(("language", language)) }
        if week { query.append(("week", "1")) }
        if hard { query.append(("hard", "1")) }
        var board = try await send(API.leaderboard, id: date ?? "today", query: query)
        // A server's answer as a board can be: at most its size in rows, ranks from 1.
        board.top = Array(board.top.filter { $0.rank >= 1 }.prefix(Leaderboard.size))
        if let you = board.you, you.rank < 1 { board.you = nil }
        board.players = max(0, board.players)
        return board
    }

    public func inviteFriend() async throws(ServiceError) -> FriendInvite { try await send(API.friendInvite) }

    public func addFriend(code: String) async throws(ServiceError) -> Friend { try await send(API.addFriend, body: FriendRequest(code: code)) }

    public func friends() async throws(ServiceError) -> [Friend] { try await send(API.friends) }

    public func removeFriend(named name: String) async throws(ServiceError) -> Friend { try await send(API.removeFriend, id: name) }

    /// A new challenge each time (a new key): sent again after a lost answer, it could set two.
    public func challenge(_ request: ChallengeRequest) async throws(ServiceError) -> Challenge { try await send(API.createChallenge, body: request) }

    public func challenges() async throws(ServiceError) -> [Challenge] { try await send(API.challenges) }

    public func friendsLeaderboard(date: String?, language: String?, week: Bool, hard: Bool) async throws(ServiceError) -> Leaderboard {
        try await board(date: date, language: language, week: week, hard: hard, friends: true)
    }

    public func setDisplayName(_ name: String) async throws(ServiceError) -> String {
        try await send(API.setDisplayName, body: DisplayNameRequest(name: name), idempotencyKey: IdempotencyKey.new()).name
    }
}

/// The account's statement a purchase's answer carries beside its outcome.
struct StatementCarried: Decodable {
    var statement: SignedDocument?
}
