import AppStore
import Base64
import CertificateChain
import FoundationEssentials
import HTTPServer
import Messages
import PackServiceWire
import Seller
import Signing
import Synchronization
import SystemCalls

/// The pack service over HTTP: the authority. It keeps the packs, the accounts, their ledgers
/// and the signing key; a player holds a bearer token. Every answer a client acts on (the
/// catalog, the account's statement, receipts) is signed with the service's key.
///
/// A transport over each account's ``AccountService``: it dispatches from ``Route`` (the table
/// the client builds its requests from), and every rule of an account is the service's.
/// The JSON API lives under `/v1/` (docs/app-developers.md); `POST /verifyReceipt` answers as Apple's did.
public final class PackServer: Sendable {
    /// What is for sale now: the packs folder's catalog, read at start and again by
    /// ``reloadCatalog()`` (SIGHUP).
    public var catalog: Catalog { current.withLock { $0 } }
    private let current: Mutex<Catalog>
    /// The served catalog's version, told on every answer without taking `current`'s lock.
    private let currentVersion: Atomic<Int>
    /// The packs made unavailable at start because their archive is not the one the catalog
    /// published, a sentence each.
    public let archivesDiffering: [String]
    public let configuration: PackServerConfiguration
    let key: SigningKey
    /// The chain that signs what is shaped as Apple's (JWS with `x5c`), kept beside the key.
    let appStoreChain: SigningChain
    /// The seller's door for what spans accounts: the directory, the ledgers, what every
    /// account shares.
    let seller: SellerService
    var accounts: any AccountDirectory { seller.directory }
    var ledgers: PostgreSQLLedgers? { seller.ledgers }
    /// The folder of the SQLite ledgers (when not on PostgreSQL).
    let sqliteFolder: String
    let stores: AccountStores
    /// Failed dashboard sign-ins per client address, and when the last was.
    let signInFailures = Mutex<[String: (count: Int, last: Int64)]>([:])
    /// When each token was last recorded as used, by this process.
    let touched = Mutex<[String: Int64]>([:])
    /// `/v1/ready`'s last answer and when it was made: asked at most once a second, whatever the
    /// rate of anonymous requests (each was a database query).
    let readiness = Mutex<(at: Int64, status: Int, body: [UInt8], detail: String?)?>(nil)
    /// What `--metrics-listen` serves.
    public let metrics = ServerMetrics()
    let accountCreations: RateLimiter
    /// New accounts per address block that may have a free trial (`freeTrialAccountsPerDay`).
    let freeTrialAccounts: RateLimiter
    let requests: RateLimiter?
    /// Requests that failed on storage since the last that an account's storage answered: from
    /// ``storageFailuresUntilNotReady`` on, `/v1/ready` says the server is not ready.
    let storageFailuresInARow = Atomic<Int>(0)
    static let storageFailuresUntilNotReady = 5
    /// The App Store Server API's budget, per key that signs its tokens (the same pace as an
    /// address block's).
    let appStoreAPIRequests: RateLimiter?
    /// The words served games draw from, read once per published archive for every account.
    let packWords = ServedPackWords()
    /// What orders each language's daily words: derived from the service's key, so the same on
    /// every server of the service, and unknown to anyone without it.
    var dailySecret: [UInt8] { key.derivedSecret(for: DailyWords.purpose) }
    /// SQLite accounts whose outboxes may hold something, and when it is due (0: look now).
    let outboxes = Mutex<[String: Int64]>([:])
    /// Whether a mass extension may wait to be carried out: set by a request, at start and now and
    /// then (another server may have taken one), cleared when none is found.
    let massExtensionsPending = Atomic<Bool>(false)
    /// `hangman_notifications_pending`, as the sender last counted.
    let notificationsPending = Atomic<Int>(0)
    /// Where the sender says each attempt (the server's log); `nil`: nowhere.
    let notificationLog = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// Who may call the App Store Server API: `configuration.appStoreAPI`, until SIGHUP reads the
    /// key files again (``replaceAppStoreAPI(_:)``).
    let appStoreAPI: Mutex<AppStoreAPIAuthorization?>
    /// How many accounts have their ledgers open now (at most `configuration.openAccounts`).
    public var openAccountCount: Int { stores.openCount }

    /// The key every signed answer is checked against.
    public var publicKey: SigningPublicKey { key.publicKey }

    public init(_ configuration: PackServerConfiguration) throws(PackServerError) {
        if let problem = configuration.problem { throw PackServerError(message: problem, isUsage: true) }
        self.configuration = configuration
        appStoreAPI = Mutex(configuration.appStoreAPI)
        stores = AccountStores(capacity: configuration.openAccounts)
        let groups = AddressGroup(ipv4Prefix: configuration.ipv4GroupPrefix, ipv6Prefix: configuration.ipv6GroupPrefix)
        accountCreations = RateLimiter(burst: configuration.accountsAtOnce, perMinute: configuration.accountsPerMinute, groups: groups)
        freeTrialAccounts = RateLimiter(burst: configuration.freeTrialAccountsPerDay, perDay: configuration.freeTrialAccountsPerDay, groups: groups)
        requests = configuration.requestsPerMinute > 0
            ? RateLimiter(burst: configuration.requestsAtOnce, perMinute: configuration.requestsPerMinute, groups: groups) : nil
        appStoreAPIRequests = configuration.requestsPerMinute > 0
            ? RateLimiter(burst: configuration.requestsAtOnce, perMinute: configuration.requestsPerMinute, groups: groups) : nil
        if case .sqlite(let folder?) = configuration.database { sqliteFolder = folder } else { sqliteFolder = configuration.dataFolder }
        do {
            try FileSystem.createFolder(atPath: configuration.dataFolder, permissions: 0o700)
        } catch {
            throw PackServerError(message: "cannot create the data folder \(configuration.dataFolder): \(error)", isStorage: true)
        }
        do {
            let checked = try Catalog.load(folder: configuration.packsFolder).checkingArchives(in: configuration.packsFolder)
            current = Mutex(checked.catalog)
            currentVersion = Atomic(checked.catalog.catalogVersion)
            archivesDiffering = checked.differing
        } catch {
            throw PackServerError(message: "the catalog in \(configuration.packsFolder) is not valid:\n" + error.problems.joined(separator: "\n"))
        }
        do {
            key = try ServiceKey.loadOrCreate(at: configuration.dataFolder + "/" + AccountService.keyName)
            appStoreChain = try Self.appStoreChain(dataFolder: configuration.dataFolder, now: configuration.clock.now())
            switch configuration.database {
            case .sqlite:
                seller = try SellerService(.sqlite(folder: sqliteFolder))
            case .postgreSQL(let connectionString):
                seller = try Self.openSeller(postgreSQL: connectionString, connections: configuration.databaseConnections)
            }
        } catch {
            throw PackServerError(message: error.message, isUnavailable: error.kind == .unavailable, isStorage: error.kind == .storage)
        }
    }

    /// The seller's door on PostgreSQL; a database out of reach says what an operator does.
    private static func openSeller(postgreSQL connectionString: String, connections: Int) throws(ServiceError) -> SellerService {
        do {
            return try SellerService(.postgreSQL(connectionString: connectionString, connections: connections))
        } catch where error.kind == .unavailable {
            throw ServiceError(.unavailable, error.message + ". " + postgreSQLSetUp)
        }
    }

    /// What an operator does when the server cannot reach its PostgreSQL database at start.
    static let postgreSQLSetUp =
        "Is PostgreSQL running, and do the role and the database exist? As PostgreSQL's superuser (sudo -u postgres): "
        + "createuser hangman; createdb --owner hangman hangman. Then: hangman serve --database 'host=/run/postgresql dbname=hangman user=hangman' "
        + "(or postgresql://hangman:PASSWORD@HOST/hangman); the tables are made on first start"

    /// Replaces the App Store Server API's issuer and keys from the next request on (a key left
    /// out is refused from then).
    public func replaceAppStoreAPI(_ authorization: AppStoreAPIAuthorization?) {
        appStoreAPI.withLock { $0 = authorization }
    }

    /// The root a developer's backend trusts for what this service signs in Apple's shapes.
    public var appStoreRootCertificate: Certificate { appStoreChain.root }

    /// The file of the chain every server of a data folder signs Apple's shapes with.
    public static let appStoreChainName = "app-store-signing.pem"

    /// The data folder's signing chain, made on first use (`hangman serve --print-root-certificate`
    /// prints its root for a backend to trust).
    public static func appStoreChain(dataFolder: String, now: Int64) throws(ServiceError) -> SigningChain {
        do {
            return try SigningChain.loadOrCreate(at: dataFolder + "/" + appStoreChainName, name: "Hangman Packs", now: Int(now / 1000))
        } catch {
            throw ServiceError(.storage, "cannot use the App Store signing chain in \(dataFolder): \(error)")
        }
    }

    /// Paths whose bodies may be larger than the server's default limit: a receipt to verify
    /// carries every transaction of its account, and takes what the service signs (`ReceiptSigner.maxReceiptSize`).
    /// A larger one is answered as Apple answers a receipt it cannot read (21002, HTTP 413).
    public static func largeBodies(environment: ReceiptEnvironment) -> [String: BodyLimit] {
        var refusal = appleAnswer(AppleVerifyResponse(status: ReceiptVerification.Status.malformed.rawValue, environment: environment.rawValue))
        refusal.status = 413
        return [Route.verifyReceipt.template: BodyLimit(bytes: ReceiptSigner.verifyRequestLimit, refusal: refusal)]
    }

    /// Answers one request: a refusal in the language its `Accept-Language` asks for, when the
    /// service has a catalog for it (`Content-Language` says which), else in English.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        // The fields are kept with lowercased names: no lowercasing per request.
        guard let language = L10n.language(accepting: request.headers["accept-language"]) else { return answer(request) }
        var response = L10n.$language.withValue(language) { answer(request) }
        response.headers.append(("Vary", "Accept-Language"))
        if response.status >= 400 { response.headers.append(("Content-Language", L10n.tag(of: language))) }
        return response
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let path = RequestPath.normalized(request.path)
        let method = request.method == "HEAD" ? "GET" : request.method
        let found = Route.routes(at: path)
        let route = found?.routes.first { $0 == .verifyReceipt || $0.method == method }
        // The route's name once, for the log and the metrics: the template, or `other`.
        let name = found?.routes.first?.template ?? "other"
        if let found, route == nil {
            // A known resource asked with a method it does not take: 405 with the ones it does.
            let allowed = found.routes.map(\.method)
            let error = ServiceError(.invalidRequest, L10n.text("%s takes %s, not %s", request.path, allowed.joined(separator: " or "), request.method))
            var response = HTTPResponse.json(405, Self.encoded(ErrorBody(error)))
            response.headers.append(("Allow", (allowed.contains("GET") ? allowed + ["HEAD"] : allowed).joined(separator: ", ")))
            response.logRoute = name
            return response
        }
        var response: HTTPResponse
        do {
            response = try serve(request, route, id: found?.id, path: path)
            // A request that reached an account answered: its storage works.
            if (200..<300).contains(response.status), response.logAccount != nil { storageFailuresInARow.store(0, ordering: .relaxed) }
        } catch {
            if error.kind == .storage || error.kind == .unavailable { metrics.storeError(error.kind == .storage ? "storage" : "unavailable") }
            if error.kind == .storage { storageFailuresInARow.add(1, ordering: .relaxed) }
            response = Self.failure(error)
        }
        response.logRoute = name
        if path.hasPrefix("/v1/") { response.headers.append((Wire.catalogVersionHeader, String(currentVersion.load(ordering: .relaxed)))) }
        return response
    }

    /// The route's name for logs and metrics: its template, or `other` (``Route/name(ofPath:)``).
    public static func routeName(_ path: String) -> String {
        Route.name(ofPath: RequestPath.normalized(path))
    }

    /// Reads the packs folder's catalog again and serves it from the next request on, when it is
    /// valid; requests in flight finish on the one they started with (each account's store is
    /// opened again on its next request). An invalid catalog is refused and the one served kept.
    /// Returns the catalog served now, or the problems of the one refused.
    /// Every archive is checked against the catalog first (``Catalog/checkingArchives(in:)``):
    /// `differing` names the packs that are unavailable for it.
    public func reloadCatalog() -> Result<(catalog: Catalog, differing: [String]), PackServerError> {
        let loaded: (catalog: Catalog, differing: [String])
        do {
            loaded = try Catalog.load(folder: configuration.packsFolder).checkingArchives(in: configuration.packsFolder)
        } catch {
            return .failure(PackServerError(message: error.problems.joined(separator: "; ")))
        }
        current.withLock { $0 = loaded.catalog }
        currentVersion.store(loaded.catalog.catalogVersion, ordering: .relaxed)
        stores.closeAll()
        return .success(loaded)
    }

    /// The requests answered from memory, never waiting on a database or a disk: the liveness
    /// probe. The HTTP layer answers them on the threads that serve the sockets, without the
    /// hand-off to a handler thread, and so even while every handler thread waits.
    @Sendable static func answersAtOnce(method: String, path: String) -> Bool {
        path == Route.health.template && (method == "GET" || method == "HEAD")
    }

    /// One request on its route (`nil`: a path that is no route).
    private func serve(_ request: HTTPRequest, _ route: Route?, id: String?, path: String) throws(ServiceError) -> HTTPResponse {
        // Before the token is looked at: guessing tokens is held to the same pace.
        // The App Store Server API's requests are counted per key once their token is checked
        // (``appStoreAPI(_:_:id:)``): a player in the backend's address block cannot spend its budget.
        if route?.isRateLimited ?? true, route?.isAppStoreAPI != true, let requests,
            let wait = requests.take(request.clientAddress, now: configuration.clock.now())
        {
            return Self.tooMany("too many requests from \(request.clientAddress)'s address block: try again in \(wait) s", wait: wait)
        }
        switch route {
        case .verifyReceipt?:
            return verifyReceipt(request)
        case let route? where route.isAppStoreAPI:
            return try appStoreAPI(request, route, id: id ?? "")
        case .health?:
            // Liveness: the process answers. Readiness, what a load balancer routes by, is /v1/ready.
            return .json(200, Array(#"{"status":"ok"}"#.utf8))
        case .ready?:
            return try ready()
        case .serviceKey?:
            return .json(200, try API.serviceKey.answer(ServiceKeyDocument(
                publicKey: Base64.encode(key.publicKey.bytes), keyID: key.publicKey.keyID, environment: configuration.environment)))
        case .proveKey?:
            let asked = try API.proveKey.body(of: request.body)
            guard (16...128).contains(asked.nonce.utf8.count) else { throw ServiceError(.invalidRequest, L10n.text("a key proof's nonce is 16 to 128 characters")) }
            // The nonce and the service's own addresses, never what the request says of itself.
            let proof = KeyProof(nonce: asked.nonce, addresses: configuration.publicURLs.isEmpty ? nil : configuration.publicURLs)
            return .json(200, try API.proveKey.answer(try SignedDocument(signing: proof, with: key)))
        case .catalog?:
            // Read once for the request (a reload may swap it meanwhile); only where it is used:
            // every other request would queue on its lock for nothing.
            let catalog = self.catalog
            let now = configuration.clock.now()
            let document = CatalogDocument(catalog: catalog, issued: now, expires: now + configuration.catalogLifetime)
            return .json(200, try API.catalog.answer(try SignedDocument(signing: document, with: key)))
        case .createAccount?:
            return try createAccount(request)
        case nil where !path.hasPrefix("/v1/"):
            throw ServiceError(.notFound, L10n.text("no such resource: %s", request.path))
        default:
            break
        }
        // The token read once: checked in the spend's own call where the ledgers can (PostgreSQL),
        // else looked up here.
        let presented = try presentedToken(request)
        if ledgers != nil, route == .spendHint, let answer = try spendCheckingItsToken(request, presented) {
            return answer
        }
        let (account, tokenID) = try authenticate(presented)
        guard let route else { throw ServiceError(.notFound, L10n.text("no such resource: %s %s", request.method, request.path)) }
        if route.isTestControl, !configuration.testControls {
            // Forbidden, not missing: the path is right, the server does not allow it.
            throw ServiceError(.notOffered, L10n.text("test controls are off on this server (a sandbox server started with --test-controls has them)"))
        }
        if let answer = try routeTokens(request, route, id: id, account: account, tokenID: tokenID) { return answer }
        // Two accounts' stores, one at a time.
        if route == .createChallenge { return try createChallenge(request, account: account) }
        defer { noteOutbox(account) }
        var response = try stores.with(account, open: { () throws(ServiceError) in try store(for: account) }) { service throws(ServiceError) in
            var answer = try routeAccount(request, route, id: id, account: account, service: service)
            if request.header(Wire.unfinishedHeader) != nil {
                answer.headers.append((Wire.unfinishedHeader, String(route == .recover ? 0 : try service.unfinishedCount())))
            }
            return answer
        }
        response.logAccount = account
        return response
    }

    /// The routes of one account's ledger, on its service.
    private func routeAccount(
        _ request: HTTPRequest, _ route: Route, id: String?, account: String, service: AccountService
    ) throws(ServiceError) -> HTTPResponse {
        switch route {
        case .account:
            return .json(200, try API.account.answer(try statement(of: account, service: service)))
        case .setStorefront:
            guard let code = try API.setStorefront.body(of: request.body).storefront else {
                throw ServiceError(.invalidRequest, L10n.text("a storefront change names the storefront: {\"storefront\": \"DEU\"}"))
            }
            return .json(200, try API.setStorefront.answer(StorefrontRequest(storefront: try service.setStorefront(code))))
        case .offers:
            return .json(200, try API.offers.answer(try service.offers()))
        case .transactions:
            return .json(200, try API.transactions.answer(try service.transactions()))
        case .entitlements:
            return .json(200, try API.entitlements.answer(try service.entitlements()))
        case .hints:
            return .json(200, try API.hints.answer(HintBalance(hints: try service.hintBalance())))
        case .spendHint:
            return try spend(try API.spendHint.body(of: request.body), account: account, service: service, checking: nil)
        case .purchase:
            guard let requestKey = request.header(Wire.idempotencyHeader) else {
                throw ServiceError(.invalidRequest, L10n.text("a purchase needs an %s header, so that a retry does not charge twice", Wire.idempotencyHeader))
            }
            let purchase = try API.purchase.body(of: request.body)
            let outcome: PurchaseOutcome
            do {
                let eligibility = try purchase.introductoryOfferEligibility.map { (jws) throws(ServiceError) in
                    try introductoryOfferDecision(jws, product: purchase.productID, service: service)
                }
                let promotion = try purchase.promotionalOffer.map { (jws) throws(ServiceError) in
                    try promotionalOfferDecision(jws, product: purchase.productID, service: service)
                }
                outcome = try service.buy(
                    purchase.productID, quantity: purchase.quantity, requestKey: requestKey, installs: purchase.installs,
                    options: PurchaseOptions(
                        appAccountToken: purchase.appAccountToken, introductoryOfferEligibility: purchase.introductoryOfferEligibility,
                        promotionalOffer: purchase.promotionalOffer, winBackOffer: purchase.winBackOffer),
                    introductoryOffer: eligibility, promotionalOffer: promotion)
            } catch {
                metrics.purchase("refused")
                throw error
            }
            metrics.purchase(outcome.name)
            // The statement after it rides along: the client shows the balance without asking again.
            return .json(200, try API.purchase.answer(outcome, adding: "statement", try statement(of: account, service: service)))
        case .redeemOfferCode:
            let outcome = try service.redeem(offerCode: try API.redeemOfferCode.body(of: request.body).code)
            metrics.purchase(outcome.name)
            return .json(200, try API.redeemOfferCode.answer(outcome, adding: "statement", try statement(of: account, service: service)))
        case .restore:
            return .json(200, try API.restore.answer(try service.restore()))
        case .startGame, .currentGame, .game, .guess, .gameHint, .abandonGame:
            return try game(request, route, id: id ?? "", account: account, service: service)
        case .challenges:
            return try challenges(account: account, service: service)
        case .createChallenge:
            throw ServiceError(.storage, "a challenge is made outside an account's store")
        case .gameStats:
            return .json(200, try API.gameStats.answer(try service.statistics()))
        case .daily:
            return .json(200, try API.daily.answer(try service.dailyStatus(language: request.query["language"])))
        case .dailyArchive:
            return .json(200, try API.dailyArchive.answer(try service.dailyArchive(language: request.query["language"], since: request.query["since"])))
        case .leaderboard:
            func asked(_ name: String) -> Bool { ["1", "true", "yes"].contains(request.query[name]?.lowercased() ?? "") }
            let week = asked("week")
            let among = asked("friends") ? try seller.friendIDs(of: account) : nil
            return .json(
                200,
                try API.leaderboard.answer(
                    try service.leaderboard(date: id, language: request.query["language"], week: week, hard: asked("hard"), among: among)))
        case .friendInvite:
            return .json(201, try API.friendInvite.answer(try seller.inviteFriend(account: account, now: configuration.clock.now())))
        case .addFriend:
            let asked = try API.addFriend.body(of: request.body)
            return .json(200, try API.addFriend.answer(try seller.addFriend(account: account, code: asked.code, now: configuration.clock.now())))
        case .friends:
            return .json(200, try API.friends.answer(try seller.friends(of: account)))
        case .removeFriend:
            return .json(200, try API.removeFriend.answer(try seller.removeFriend(account: account, name: id ?? "")))
        case .setDisplayName:
            let asked = try API.setDisplayName.body(of: request.body)
            return .json(200, try API.setDisplayName.answer(DisplayNameRequest(name: try service.setDisplayName(asked.name))))
        case .subscriptions:
            return .json(200, try API.subscriptions.answer(try service.subscriptions()))
        case .subscriptionChange:
            let change = try API.subscriptionChange.body(of: request.body)
            return .json(200, try API.subscriptionChange.answer(try service.subscriptionChange(to: change.productID)))
        case .autoRenew:
            let change = try API.autoRenew.body(of: request.body)
            return .json(200, try API.autoRenew.answer(try service.setAutoRenew(change.productID, on: change.autoRenew)))
        case .priceConsent:
            let consent = try API.priceConsent.body(of: request.body)
            return .json(200, try API.priceConsent.answer(try service.consentToPriceIncrease(consent.productID)))
        case .recover:
            return .json(200, try API.recover.answer(try service.recoverUnfinished()))
        case .receipt:
            let receipt = try service.receipt(accountID: account)
            return .json(200, try API.receipt.answer(ReceiptData(receipt.bytes, payload: receipt.payload)))
        case .packArchive:
            return try archive(request, productID: id ?? "", account: account, service: service)
        case .signedAppTransaction:
            let signed = try sign(
                AppStoreAppTransaction(
                    try service.appTransaction(), catalog: catalog, catalogVersion: catalog.catalogVersion, environment: configuration.environment,
                    signedDate: configuration.clock.now()))
            return .json(200, try API.signedAppTransaction.answer(["signedAppTransactionInfo": signed]))
        case .requestRefund, .refundCase:
            guard let transaction = TransactionID(rawValue: id ?? "") else { throw ServiceError(.invalidRequest, L10n.text("'%s' is not a transaction id", id ?? "")) }
            guard route == .requestRefund else { return .json(200, try API.refundCase.answer(RefundCaseDocument(refundCase: try service.refundCase(transaction)))) }
            let asked = try API.requestRefund.body(of: request.body)
            return .json(200, try API.requestRefund.answer(try service.requestRefund(transaction, reason: asked.reason)))
        case .testControls, .setTestControls, .testClock, .advanceClock, .clear, .reset, .approve, .decline, .resolve, .refund, .decideRefund, .causeNotification:
            return try testControl(request, route, id: id, service: service)
        case .health, .ready, .serviceKey, .proveKey, .catalog, .createAccount, .verifyReceipt, .closeAccount, .tokens, .addToken, .rotateToken, .revokeToken,
            .appStoreTransaction, .appStoreHistory, .appStoreStatuses, .appStoreRefunds, .appStoreExtend, .appStoreConsumption, .appStoreSetAppAccountToken,
            .appStoreAppTransaction, .appStoreConsumptionV2, .appStoreFinish, .appStoreOrderLookup, .appStoreMassExtend, .appStoreMassExtendStatus,
            .appStoreTestNotification,
            .appStoreTestStatus, .appStoreNotificationHistory:
            // Answered before the account's ledger is opened.
            throw ServiceError(.notFound, L10n.text("no such resource: %s %s", request.method, request.path))
        }
    }

    /// An introductory offer's eligibility as the developer's server signed it (Apple's
    /// `IntroductoryOfferEligibilitySignatureCreator`), checked with the keys the server was given
    /// for the App Store Server API: for this product, naming one of the customer's transactions
    /// (or their app transaction). Refused with StoreKit's `invalidOfferSignature`.
    private func introductoryOfferDecision(_ jws: String, product: ProductID, service: AccountService) throws(ServiceError) -> IntroductoryOfferDecision {
        let signed = try storeKitSignature(jws, audience: IntroductoryOfferDecision.audience, product: product, service: service)
        guard let allowed = signed.allowIntroductoryOffer, signed.transactionID != nil else {
            throw ServiceError(.invalidRequest, L10n.text("invalidOfferSignature: it does not say allowIntroductoryOffer and transactionId"))
        }
        return IntroductoryOfferDecision(allowed: allowed, nonce: signed.nonce)
    }

    /// A promotional offer as the developer's server signed it (Apple's
    /// `PromotionalOfferV2SignatureCreator`): checked as ``introductoryOfferDecision``, with an
    /// `offerIdentifier` (the catalog's, the purchase checks) and a transaction of the customer's.
    private func promotionalOfferDecision(_ jws: String, product: ProductID, service: AccountService) throws(ServiceError) -> PromotionalOfferDecision {
        let signed = try storeKitSignature(jws, audience: PromotionalOfferDecision.audience, product: product, service: service)
        guard let identifier = signed.offerIdentifier else { throw ServiceError(.invalidRequest, L10n.text("invalidOfferSignature: it does not say offerIdentifier")) }
        // Apple's creator takes the transaction as optional; this service asks for it, so that a
        // signature serves one customer (its nonce is used once per account).
        guard signed.transactionID != nil else {
            throw ServiceError(.invalidRequest, L10n.text("invalidOfferSignature: it does not say transactionId (one of the customer's, or their app transaction's)"))
        }
        return PromotionalOfferDecision(identifier: identifier, nonce: signed.nonce)
    }

    /// A signature for StoreKit checked with the keys the server was given for the App Store
    /// Server API: for `audience` and this product, and naming, when it names one, one of the
    /// customer's transactions (or their app transaction). Refused with StoreKit's `invalidOfferSignature`.
    private func storeKitSignature(
        _ jws: String, audience: String, product: ProductID, service: AccountService
    ) throws(ServiceError) -> AppStoreAPIAuthorization.StoreKitSignature {
        func refused(_ why: String) -> ServiceError { ServiceError(.invalidRequest, L10n.text("invalidOfferSignature: %s", why)) }
        guard let authorization = developerKeys else {
            throw refused("this server has no key to check it with (serve --api-issuer ... --api-key KID=FILE)")
        }
        let signed: AppStoreAPIAuthorization.StoreKitSignature
        switch authorization.storeKitSignature(jws, audience: audience, now: configuration.clock.now()) {
        case .failure(let refusal): throw refused(refusal.why.replacing("the token", with: "the signature"))
        case .success(let checked): signed = checked
        }
        guard signed.productID == product.rawValue else { throw refused("it was signed for \(signed.productID.prefix(80)), not \(product)") }
        if let transaction = signed.transactionID, try !service.isCustomersTransaction(transaction) {
            throw refused("its transactionId is not one of this customer's")
        }
        return signed
    }

    /// The account's statement now, signed: balance, entitlements, the store's time, the
    /// storefront, the app transaction.
    private func statement(of account: String, service: AccountService) throws(ServiceError) -> SignedDocument {
        let statement = AccountStatement(
            accountID: account, hintBalance: try service.hintBalance(), entitlements: try service.entitlements(), issued: configuration.clock.now(),
            storeTime: try service.storeClock(), storefront: try service.storefront(), appTransaction: try service.appTransaction())
        return try SignedDocument(signing: statement, with: key)
    }

    /// StoreKit Testing's switches and actions (a sandbox server with test controls only).
    private func testControl(_ request: HTTPRequest, _ route: Route, id: String?, service: AccountService) throws(ServiceError) -> HTTPResponse {
        func transaction() throws(ServiceError) -> TransactionID {
            guard let id, let transaction = TransactionID(rawValue: id) else { throw ServiceError(.invalidRequest, L10n.text("'%s' is not a transaction id", id ?? "")) }
            return transaction
        }
        switch route {
        case .approve: return .json(200, try API.approve.answer(try service.approve(try transaction())))
        case .decline: return .json(200, try API.decline.answer(try service.decline(try transaction())))
        case .resolve: return .json(200, try API.resolve.answer(try service.resolve(try transaction())))
        case .refund:
            let refund = try service.refund(try transaction())
            return .json(200, try API.refund.answer(RefundResult(transaction: refund.transaction, hintsTakenBack: refund.hintsTakenBack)))
        case .decideRefund:
            let asked = try API.decideRefund.body(of: request.body)
            return .json(200, try API.decideRefund.answer(try service.decideRefund(try transaction(), asked.decision)))
        case .causeNotification:
            let asked = try API.causeNotification.body(of: request.body)
            return .json(200, try API.causeNotification.answer(try service.causeNotification(asked.type, subtype: asked.subtype)))
        case .testControls:
            return .json(200, try API.testControls.answer(try service.controls()))
        case .setTestControls:
            try service.setControls(try API.setTestControls.body(of: request.body))
            return .json(200, try API.setTestControls.answer(try service.controls()))
        case .testClock:
            return .json(200, try API.testClock.answer(StoreClockDocument(now: try service.storeClock())))
        case .advanceClock:
            let advance = try API.advanceClock.body(of: request.body)
            let moved = try service.moveClock(by: advance.duration)
            return .json(200, try API.advanceClock.answer(StoreClockDocument(now: moved.now, renewals: moved.renewals)))
        case .clear:
            try service.clear()
            return HTTPResponse(status: 204)
        case .reset:
            try service.reset()
            return HTTPResponse(status: 204)
        default:
            throw ServiceError(.notFound, L10n.text("no such test control: %s %s", request.method, request.path))
        }
    }

    /// The account's ledger, opened once and kept (`AccountStores` lends it to one request at a time).
    func store(for account: String) throws(ServiceError) -> AccountService {
        let service: AccountService
        if let ledgers {
            service = try AccountService(
                catalog: catalog, packsFolder: configuration.packsFolder, ledgers: ledgers, account: account,
                clock: configuration.clock, signingKey: key, environment: configuration.environment, crash: configuration.crashPoints)
        } else {
            service = try AccountService(
                catalog: catalog, packsFolder: configuration.packsFolder, accountFolder: sqliteFolder + "/accounts/" + account,
                clock: configuration.clock, signingKey: key, environment: configuration.environment, crash: configuration.crashPoints)
        }
        service.packWords = packWords
        service.notifies = configuration.notificationURL != nil
        service.dailyWords = seller.dailyWords(secret: dailySecret, account: account)
        service.claimTransactionID = seller.transactionIDClaims(account: account)
        service.claimOfferCode = seller.offerCodeClaims(account: account)
        return service
    }
}

/// A request's path in one form (`/v1/hints/spend`: empty segments dropped), which routes are
/// matched on.
enum RequestPath {
    static func normalized(_ requestPath: String) -> String {
        // The path as given when it is already in that form (the usual case): no string made.
        isNormal(requestPath) ? requestPath : "/" + requestPath.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) }.joined(separator: "/")
    }

    /// Whether `path` starts with `/`, does not end with one, and has no two in a row: one pass
    /// over its bytes.
    private static func isNormal(_ path: String) -> Bool {
        var previous: UInt8 = 0
        for byte in path.utf8 {
            if previous == 0, byte != UInt8(ascii: "/") { return false }
            if byte == UInt8(ascii: "/"), previous == UInt8(ascii: "/") { return false }
            previous = byte
        }
        return previous != 0 && previous != UInt8(ascii: "/")
    }
}

