import Base64
import FoundationEssentials
import HTTPServer
import PackServiceWire
import Signing
import Store
import Synchronization
import SystemCalls

/// Where a pack server keeps its state, and how it behaves.
public struct PackServerConfiguration: Sendable {
    /// The accounts, their ledgers and the signing key (0600).
    public var dataFolder: String
    /// `Catalog.plist` and the pack archives.
    public var packsFolder: String
    /// The receipts it signs, and the only ones it calls valid.
    public var environment: ReceiptEnvironment
    /// StoreKit Testing's switches and actions over HTTP (`/v1/test/...`).
    public var testControls: Bool
    /// How long a signed catalog may be trusted.
    public var catalogLifetime: Int64 = 24 * 3_600_000
    public var clock: Clock = .system
    /// Called at each crash point of a purchase (`HANGMAN_CRASH_AT`).
    public var crash: @Sendable (CrashPoint) -> Void = { _ in }
    /// Where the accounts and their ledgers are: SQLite under `dataFolder` (the default) or
    /// another folder, or a PostgreSQL database that several servers share.
    public var database: LedgerDatabase = .sqlite
    /// Connections this server opens to PostgreSQL at most.
    public var databaseConnections = 8
    /// Accounts whose ledgers stay open between requests, at most (the least recently used is
    /// closed first).
    public var openAccounts = 256
    /// New accounts per client address: this many at once, then this many a minute (429 with
    /// `Retry-After` beyond).
    public var accountsAtOnce = 20
    public var accountsPerMinute = 10
    /// The shared secret `/verifyReceipt` asks of a receipt with an auto-renewable subscription
    /// (its `password`); without one, such receipts get 21004.
    public var sharedSecret: SharedSecret?
    /// Every other request per client address but `/v1/health`: this many at once, then this many
    /// a minute (429 with `Retry-After` beyond). 0 a minute: no limit.
    public var requestsAtOnce = 120
    public var requestsPerMinute = 1200

    /// The defaults, for help texts.
    public static let defaults = PackServerConfiguration(dataFolder: "", packsFolder: "")

    public init(dataFolder: String, packsFolder: String, environment: ReceiptEnvironment = .production, testControls: Bool = false) {
        self.dataFolder = dataFolder
        self.packsFolder = packsFolder
        self.environment = environment
        self.testControls = testControls
    }
}

/// Where a pack server keeps the accounts and their ledgers.
public enum LedgerDatabase: Sendable, Equatable {
    /// A SQLite file per account (`accounts/<id>/account.sqlite`), and `accounts.sqlite` for the
    /// tokens, in a folder: the data folder unless another is named.
    case sqlite(folder: String? = nil)
    /// One PostgreSQL database for every account, shared by several servers: a `postgresql://`
    /// URI or libpq's `key=value` string (a Unix socket folder in `host=`).
    case postgreSQL(String)

    /// The SQLite ledgers under the data folder.
    public static let sqlite = LedgerDatabase.sqlite(folder: nil)

    /// `postgresql://...`, `postgres://...` or a `key=value` connection string for PostgreSQL; a
    /// folder path for SQLite; `nil` for another URL scheme or an empty text.
    public init?(argument text: String) {
        let trimmed = String(text.drop(while: { $0 == " " }))
        if trimmed.hasPrefix("postgresql://") || trimmed.hasPrefix("postgres://") {
            self = .postgreSQL(trimmed)
        } else if let equals = trimmed.firstIndex(of: "="), equals != trimmed.startIndex,
            trimmed[..<equals].allSatisfy({ $0.isLetter || $0 == "_" })
        {
            self = .postgreSQL(trimmed)
        } else if trimmed.isEmpty || trimmed.contains("://") || trimmed.contains("=") {
            return nil
        } else {
            self = .sqlite(folder: text)
        }
    }
}

/// Why a pack server could not start.
public struct PackServerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The database could not be reached: starting again later may work.
    public var isUnavailable = false
    public var description: String { message }
}

/// The pack service over HTTP: the authority. It keeps the packs, the accounts, their ledgers
/// and the signing key; a player holds a bearer token. Every answer a client acts on (the
/// catalog, the account's statement, receipts) is signed with the service's key.
///
/// The JSON API lives under `/v1/` (see the README); `POST /verifyReceipt` answers as Apple's did.
public final class PackServer: Sendable {
    /// What is for sale now: the packs folder's catalog, read at start and again by
    /// ``reloadCatalog()`` (SIGHUP).
    public var catalog: Catalog { current.withLock { $0 } }
    private let current: Mutex<Catalog>
    public let configuration: PackServerConfiguration
    let key: SigningKey
    let accounts: any AccountDirectory
    let ledgers: PostgreSQLLedgers?
    /// The folder of the SQLite ledgers (when not on PostgreSQL).
    let sqliteFolder: String
    let stores: AccountStores
    /// When each token was last recorded as used, by this process.
    private let touched = Mutex<[String: Int64]>([:])
    /// What `--metrics-listen` serves.
    public let metrics = ServerMetrics()
    let accountCreations: RateLimiter
    let requests: RateLimiter?
    /// How many accounts have their ledgers open now (at most `configuration.openAccounts`).
    public var openAccountCount: Int { stores.openCount }

    /// The key every signed answer is checked against.
    public var publicKey: SigningPublicKey { key.publicKey }

    public init(_ configuration: PackServerConfiguration) throws(PackServerError) {
        self.configuration = configuration
        stores = AccountStores(capacity: configuration.openAccounts)
        accountCreations = RateLimiter(burst: configuration.accountsAtOnce, perMinute: configuration.accountsPerMinute)
        requests = configuration.requestsPerMinute > 0
            ? RateLimiter(burst: configuration.requestsAtOnce, perMinute: configuration.requestsPerMinute) : nil
        if case .sqlite(let folder?) = configuration.database { sqliteFolder = folder } else { sqliteFolder = configuration.dataFolder }
        do {
            try FileManager.default.createDirectory(
                atPath: configuration.dataFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            if case .sqlite = configuration.database {
                try FileManager.default.createDirectory(
                    atPath: sqliteFolder + "/accounts", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw PackServerError(message: "cannot create the data folder \(configuration.dataFolder): \(error)")
        }
        do {
            current = Mutex(try Catalog.load(folder: configuration.packsFolder))
        } catch {
            throw PackServerError(message: "the catalog in \(configuration.packsFolder) is not valid:\n" + error.problems.joined(separator: "\n"))
        }
        do {
            key = try ServiceKey.loadOrCreate(at: configuration.dataFolder + "/" + AccountService.keyName)
            switch configuration.database {
            case .sqlite:
                ledgers = nil
                accounts = try SQLiteAccountDirectory(path: sqliteFolder + "/accounts.sqlite")
            case .postgreSQL(let connectionString):
                let shared = try PostgreSQLLedgers(connectionString: connectionString, connections: configuration.databaseConnections)
                ledgers = shared
                accounts = try PostgreSQLAccountDirectory(pool: shared.pool)
            }
        } catch {
            throw PackServerError(message: error.message, isUnavailable: error.kind == .unavailable)
        }
    }

    /// Paths whose bodies may be larger than the server's default limit: a receipt to verify
    /// carries every transaction of its account (8 MiB is some 13,000 of them).
    public static let largeBodies = ["/verifyReceipt": 8 << 20]

    /// Answers one request.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let resource = Resource(request.path)
        // A known resource asked with a method it does not take: 405 with the ones it does.
        if let allowed = Self.methods(for: resource), !allowed.contains(request.method == "HEAD" ? "GET" : request.method) {
            let error = StoreError(.invalidRequest, "\(request.path) takes \(allowed.joined(separator: " or ")), not \(request.method)")
            var response = HTTPResponse.json(405, Wire.encode(ErrorBody(error)))
            response.headers.append(("Allow", (allowed.contains("GET") ? allowed + ["HEAD"] : allowed).joined(separator: ", ")))
            return response
        }
        do {
            return try route(request, resource)
        } catch {
            if error.kind == .storage || error.kind == .unavailable { metrics.storeError(error.kind == .storage ? "storage" : "unavailable") }
            return Self.failure(error)
        }
    }

    /// Reads the packs folder's catalog again and serves it from the next request on, when it is
    /// valid; requests in flight finish on the one they started with (each account's store is
    /// opened again on its next request). An invalid catalog is refused and the one served kept.
    /// Returns the catalog served now, or the problems of the one refused.
    public func reloadCatalog() -> Result<Catalog, PackServerError> {
        let loaded: Catalog
        do {
            loaded = try Catalog.load(folder: configuration.packsFolder)
        } catch {
            return .failure(PackServerError(message: error.problems.joined(separator: "; ")))
        }
        current.withLock { $0 = loaded }
        stores.closeAll()
        return .success(loaded)
    }

    private func route(_ request: HTTPRequest, _ resource: Resource) throws(StoreError) -> HTTPResponse {
        let method = request.method == "HEAD" ? "GET" : request.method
        // Before the token is looked at: guessing tokens is held to the same pace.
        if resource.path != "/v1/health", resource.path != "/v1/ready", resource.path != "/v1/accounts", let requests,
            let wait = requests.take(request.clientAddress, now: configuration.clock.now())
        {
            return Self.tooMany("too many requests from \(request.clientAddress): try again in \(wait) s", wait: wait)
        }
        // Apple's endpoint answers every method itself (21000 for anything but POST), with HTTP 200.
        if resource.path == "/verifyReceipt" { return verifyReceipt(request) }
        switch (method, resource.path) {
        case ("GET", "/v1/health"):
            // Liveness: the process answers. Readiness, what a load balancer routes by, is /v1/ready.
            return .json(200, Array(#"{"status":"ok"}"#.utf8))
        case ("GET", "/v1/ready"):
            return readiness()
        case ("GET", "/v1/service-key"):
            return .json(200, Wire.encode(ServiceKeyDocument(
                publicKey: Base64.encode(key.publicKey.bytes), keyID: key.publicKey.keyID, environment: configuration.environment)))
        case ("GET", "/v1/catalog"):
            // Read once for the request (a reload may swap it meanwhile); only where it is used:
            // every other request would queue on its lock for nothing.
            let catalog = self.catalog
            let now = configuration.clock.now()
            let document = CatalogDocument(catalog: catalog, issued: now, expires: now + configuration.catalogLifetime)
            return .json(200, Wire.encode(SignedDocument(signing: document, with: key)))
        case ("POST", "/v1/accounts"):
            let now = configuration.clock.now()
            if let wait = accountCreations.take(request.clientAddress, now: now) {
                return Self.tooMany("too many new accounts from \(request.clientAddress): try again in \(wait) s", wait: wait)
            }
            // The account's storefront, when the client names one (the player's region), is
            // checked before the account is made, and recorded in its ledger at once.
            let asked = request.body.isEmpty ? StorefrontRequest(storefront: nil) : try Wire.decode(StorefrontRequest.self, from: request.body)
            let chosen = try AccountService.newAccountStorefront(required: asked.storefront, preferred: asked.preferred, in: catalog)
            let made = try accounts.create(now: now)
            try stores.with(made.accountID, open: { () throws(StoreError) in try store(for: made.accountID) }) { service throws(StoreError) in
                try service.chooseStorefront(chosen)
            }
            return .json(201, Wire.encode(made))
        default:
            break
        }
        guard resource.path.hasPrefix("/v1/") else { throw StoreError(.unknownProduct, "no such resource: \(request.path)") }
        // The token read once: checked in the spend's own call where the ledgers can (PostgreSQL),
        // else looked up here.
        let presented = try presentedToken(request)
        if ledgers != nil, method == "POST", resource.path == "/v1/hints/spend",
            let answer = try spendCheckingItsToken(request, presented)
        {
            return answer
        }
        let (account, tokenID) = try authenticate(presented)
        if let answer = try routeTokens(request, resource, method: method, account: account, tokenID: tokenID) { return answer }
        var response = try stores.with(account, open: { () throws(StoreError) in try store(for: account) }) { service throws(StoreError) in
            try routeAccount(request, resource, method: method, account: account, service: service)
        }
        response.logAccount = account
        return response
    }

    private func routeAccount(
        _ request: HTTPRequest, _ resource: Resource, method: String, account: String, service: AccountService
    ) throws(StoreError) -> HTTPResponse {
        switch (method, resource.path) {
        case ("GET", "/v1/account"):
            let statement = AccountStatement(
                accountID: account, hintBalance: try service.hintBalance(), entitlements: try service.entitlements(), issued: configuration.clock.now(),
                storeTime: try service.storeClock(), storefront: try service.storefront())
            return .json(200, Wire.encode(SignedDocument(signing: statement, with: key)))
        case ("PUT", "/v1/account/storefront"):
            guard let code = try Wire.decode(StorefrontRequest.self, from: request.body).storefront else {
                throw StoreError(.invalidRequest, "a storefront change names the storefront: {\"storefront\": \"DEU\"}")
            }
            return .json(200, Wire.encode(StorefrontRequest(storefront: try service.setStorefront(code))))
        case ("GET", "/v1/transactions"):
            return .json(200, Wire.encode(try service.transactions()))
        case ("GET", "/v1/entitlements"):
            return .json(200, Wire.encode(try service.entitlements()))
        case ("GET", "/v1/hints"):
            return .json(200, Wire.encode(HintBalance(hints: try service.hintBalance())))
        case ("POST", "/v1/hints/spend"):
            return try spend(try Wire.decode(HintSpendRequest.self, from: request.body), account: account, service: service, checking: nil)
        case ("POST", "/v1/purchases"):
            guard let requestKey = request.header(Wire.idempotencyHeader) else {
                throw StoreError(.invalidRequest, "a purchase needs an \(Wire.idempotencyHeader) header, so that a retry does not charge twice")
            }
            let purchase = try Wire.decode(PurchaseRequest.self, from: request.body)
            let outcome: PurchaseOutcome
            do {
                outcome = try service.buy(purchase.productID, quantity: purchase.quantity, requestKey: requestKey)
            } catch {
                metrics.purchase("refused")
                throw error
            }
            metrics.purchase(Self.outcomeName(outcome))
            return .json(200, Wire.encode(outcome))
        case ("POST", "/v1/restore"):
            return .json(200, Wire.encode(try service.restore()))
        case ("GET", "/v1/subscriptions"):
            return .json(200, Wire.encode(try service.subscriptions()))
        case ("POST", "/v1/subscriptions/change"):
            let change = try Wire.decode(SubscriptionChangeRequest.self, from: request.body)
            return .json(200, Wire.encode(try service.subscriptionChange(to: change.productID)))
        case ("POST", "/v1/subscriptions/auto-renew"):
            let change = try Wire.decode(AutoRenewRequest.self, from: request.body)
            return .json(200, Wire.encode(try service.setAutoRenew(change.productID, on: change.autoRenew)))
        case ("POST", "/v1/recover"):
            return .json(200, Wire.encode(try service.recoverUnfinished()))
        case ("GET", "/v1/receipt"):
            let receipt = try service.receipt(accountID: account)
            return .json(200, Wire.encode(ReceiptData(receipt.bytes, payload: receipt.payload)))
        default:
            break
        }
        let parts = resource.parts
        if method == "GET", parts.count == 4, parts[1] == "packs", parts[3] == "archive" {
            return try archive(request, productID: parts[2], service: service)
        }
        if parts.count >= 3, parts[1] == "test" {
            // Forbidden, not missing: the path is right, the server does not allow it.
            guard configuration.testControls else {
                throw StoreError(.notEntitled, "test controls are off on this server (a sandbox server started with --test-controls has them)")
            }
            return try testControl(method, resource, request, service)
        }
        throw StoreError(.unknownProduct, "no such resource: \(request.method) \(request.path)")
    }

    private func testControl(_ method: String, _ resource: Resource, _ request: HTTPRequest, _ service: AccountService) throws(StoreError) -> HTTPResponse {
        let parts = resource.parts
        if method == "POST", parts.count == 5, parts[2] == "transactions" {
            guard let id = TransactionID(rawValue: parts[3]) else { throw StoreError(.invalidRequest, "'\(parts[3])' is not a transaction id") }
            switch parts[4] {
            case "approve": return .json(200, Wire.encode(try service.approve(id)))
            case "decline": return .json(200, Wire.encode(try service.decline(id)))
            case "resolve": return .json(200, Wire.encode(try service.resolve(id)))
            case "refund":
                let refund = try service.refund(id)
                return .json(200, Wire.encode(RefundResult(transaction: refund.transaction, hintsTakenBack: refund.hintsTakenBack)))
            default: throw StoreError(.invalidRequest, "unknown test action '\(parts[4])'")
            }
        }
        switch (method, resource.path) {
        case ("GET", "/v1/test/controls"):
            return .json(200, Wire.encode(try service.controls()))
        case ("PUT", "/v1/test/controls"):
            try service.setControls(try Wire.decode(StoreControls.self, from: request.body))
            return .json(200, Wire.encode(try service.controls()))
        case ("GET", "/v1/test/clock"):
            return .json(200, Wire.encode(StoreClockDocument(now: try service.storeClock())))
        case ("POST", "/v1/test/clock/advance"):
            let advance = try Wire.decode(ClockAdvance.self, from: request.body)
            return .json(200, Wire.encode(StoreClockDocument(now: try service.advanceClock(by: advance.duration))))
        case ("POST", "/v1/test/clear"):
            try service.clear()
            return HTTPResponse(status: 204)
        case ("POST", "/v1/test/reset"):
            try service.reset()
            return HTTPResponse(status: 204)
        default:
            throw StoreError(.unknownProduct, "no such test control: \(request.method) \(request.path)")
        }
    }

    /// The methods each resource takes (GET includes HEAD); `nil` for a path that is no resource.
    static func methods(for resource: Resource) -> [String]? {
        if let methods = exactRoutes[resource.path] { return methods }
        let parts = resource.parts
        if parts.count == 4, parts[0] == "v1", parts[1] == "packs", parts[3] == "archive" { return ["GET"] }
        if parts.count == 4, parts[0] == "v1", parts[1] == "account", parts[2] == "tokens" { return ["DELETE"] }
        if parts.count == 5, parts[0] == "v1", parts[1] == "test", parts[2] == "transactions" { return ["POST"] }
        return nil
    }

    /// The resources without an identifier in their path, and the methods each takes: one
    /// lookup per request (a `switch` over arrays built them for every case it tried).
    private static let exactRoutes: [String: [String]] = {
        var routes: [String: [String]] = [:]
        for path in [
            "/v1/accounts", "/v1/hints/spend", "/v1/purchases", "/v1/restore", "/v1/recover", "/v1/test/clear", "/v1/test/reset",
            "/v1/subscriptions/auto-renew", "/v1/subscriptions/change", "/v1/test/clock/advance", "/v1/account/tokens/rotate",
        ] {
            routes[path] = ["POST"]
        }
        for path in [
            "/v1/health", "/v1/ready", "/v1/service-key", "/v1/catalog", "/v1/transactions", "/v1/entitlements", "/v1/hints", "/v1/receipt",
            "/v1/subscriptions", "/v1/test/clock",
        ] {
            routes[path] = ["GET"]
        }
        routes["/v1/account/storefront"] = ["PUT"]
        routes["/v1/account/tokens"] = ["GET", "POST"]
        routes["/v1/account"] = ["GET", "DELETE"]
        routes["/v1/test/controls"] = ["GET", "PUT"]
        return routes
    }()

    /// The route a path is a case of, for logs and metrics: a pack's or a transaction's
    /// identifier replaced by a placeholder (`/v1/packs/{id}/archive`); a path the server does
    /// not know is `other`.
    public static func routeName(_ path: String) -> String {
        // Most requests name a resource exactly as the table has it: no need to take the path apart.
        if exactRoutes[path] != nil { return path }
        let resource = Resource(path)
        let parts = resource.parts
        if parts.count == 4, parts[0] == "v1", parts[1] == "packs", parts[3] == "archive" { return "/v1/packs/{id}/archive" }
        if parts.count == 5, parts[0] == "v1", parts[1] == "test", parts[2] == "transactions" { return "/v1/test/transactions/{id}/\(parts[4])" }
        if parts.count == 4, parts[0] == "v1", parts[1] == "account", parts[2] == "tokens", parts[3] != "rotate" { return "/v1/account/tokens/{id}" }
        if resource.path == "/verifyReceipt" || methods(for: resource) != nil { return resource.path }
        return "other"
    }

    /// The account's tokens (one per device) and the account itself: list, add, rotate, revoke,
    /// close. `nil` for any other request.
    private func routeTokens(
        _ request: HTTPRequest, _ resource: Resource, method: String, account: String, tokenID: String
    ) throws(StoreError) -> HTTPResponse? {
        let now = configuration.clock.now()
        switch (method, resource.path) {
        case ("GET", "/v1/account/tokens"):
            let listed = try accounts.tokens(account: account).map {
                AccountTokenInfo(tokenID: $0.id, createdDate: $0.created, lastUsedDate: $0.lastUsed, revokedDate: $0.revoked, current: $0.id == tokenID)
            }
            return .json(200, Wire.encode(listed))
        case ("POST", "/v1/account/tokens"):
            let made = try accounts.newToken(account: account, now: now)
            return .json(201, Wire.encode(NewToken(accountID: account, tokenID: made.tokenID, token: made.token)))
        case ("POST", "/v1/account/tokens/rotate"):
            let made = try accounts.newToken(account: account, now: now)
            _ = try accounts.revoke(account: account, tokenID: tokenID, now: now)
            return .json(201, Wire.encode(NewToken(accountID: account, tokenID: made.tokenID, token: made.token)))
        case ("DELETE", _) where resource.path.hasPrefix("/v1/account/tokens/"):
            let parts = resource.parts
            guard parts.count == 4 else { return nil }
            guard try accounts.revoke(account: account, tokenID: parts[3], now: now) == 1 else {
                throw StoreError(.unknownTransaction, "the account has no live token \(parts[3]): see 'hangman account tokens'")
            }
            return .json(200, Array(#"{"revoked":true}"#.utf8))
        case ("DELETE", "/v1/account"):
            try accounts.close(account: account, now: now)
            return .json(200, Array(#"{"closed":true}"#.utf8))
        default:
            return nil
        }
    }

    /// A purchase's outcome as the metrics name it.
    static func outcomeName(_ outcome: PurchaseOutcome) -> String {
        switch outcome {
        case .purchased: "purchased"
        case .alreadyOwned: "already-owned"
        case .alreadySubscribed: "already-subscribed"
        case .changeScheduled: "change-scheduled"
        case .failed: "failed"
        case .deferred: "deferred"
        case .interrupted: "interrupted"
        }
    }

    /// The values a scrape reads now: the catalog served, open accounts, and the database pool.
    public var gauges: [(name: String, help: String, value: Double)] {
        var values: [(name: String, help: String, value: Double)] = [
            ("hangman_catalog_version", "The CatalogVersion served.", Double(catalog.catalogVersion)),
            ("hangman_open_accounts", "Accounts whose ledgers are open now.", Double(openAccountCount)),
        ]
        if let pool = ledgers?.pool {
            let (open, idle) = pool.counts
            values.append(("hangman_database_connections_open", "PostgreSQL connections this server holds.", Double(open)))
            values.append(("hangman_database_connections_in_use", "PostgreSQL connections lent to a request now.", Double(open - idle)))
        }
        return values
    }

    /// Whether this server can serve players now: its accounts database answers (the one its
    /// ledgers share on PostgreSQL; a read that finds nothing) and its catalog is still in its
    /// packs folder. 200 `{"status":"ready"}`, else 503 with the reasons; no token, no rate limit.
    func readiness() -> HTTPResponse {
        var reasons: [String] = []
        do {
            _ = try accounts.isOpen(account: "0000000000000000")
        } catch {
            reasons.append("the accounts database cannot be used: \(error.message)")
        }
        let catalogFile = configuration.packsFolder + "/" + Catalog.fileName
        if !FileSystem.exists(atPath: catalogFile) { reasons.append("the catalog \(catalogFile) is gone") }
        guard !reasons.isEmpty else { return .json(200, Array(#"{"status":"ready"}"#.utf8)) }
        return .json(503, Wire.encode(Readiness(status: "not ready", reasons: reasons)))
    }

    /// `/v1/ready`'s answer when the server is not.
    struct Readiness: Encodable {
        var status: String
        var reasons: [String]
    }

    /// The account a request's bearer token belongs to. The scheme is case-insensitive (RFC 9110
    /// 11.1); the token is what follows it.
    /// Spends a hint and answers with the signed statement of it; with `token`, the spend checks
    /// the request's token itself (see ``spendCheckingItsToken(_:_:)``).
    private func spend(
        _ spend: HintSpendRequest, account: String, service: AccountService, checking token: PresentedToken?
    ) throws(StoreError) -> HTTPResponse {
        let spent: HintSpend
        do {
            spent = try service.spendHint(idempotencyKey: spend.key, checking: token)
        } catch {
            if error.kind != .unauthorized { metrics.spend(error.kind == .notEnoughHints ? "no-hints" : "error") }
            throw error
        }
        metrics.spend(spent.wasAlreadySpent ? "already-spent" : "spent")
        let statement = HintSpendStatement(accountID: account, key: spend.key, spend: spent, issued: configuration.clock.now())
        var response = HTTPResponse.json(200, Wire.encode(SignedDocument(signing: statement, with: key)))
        response.logAccount = account
        return response
    }

    /// A hint spend in one round trip to the ledger database, its token checked in the same call,
    /// when the engine can (PostgreSQL) and the account's store is open already (only a request
    /// whose token was looked up opens one). `nil` otherwise, and the request goes the usual way:
    /// its token looked up first. A body that is not a valid spend goes that way too, so that a
    /// request with a wrong token is told 401 before anything else.
    private func spendCheckingItsToken(_ request: HTTPRequest, _ presented: PresentedToken) throws(StoreError) -> HTTPResponse? {
        guard let spend = try? Wire.decode(HintSpendRequest.self, from: request.body),
            (try? AccountService.checkIdempotencyKey(spend.key)) != nil
        else { return nil }
        let answer = try stores.withOpen(presented.account) { service throws(StoreError) -> HTTPResponse? in
            guard service.checksTokensInSpend else { return nil }
            return try self.spend(spend, account: presented.account, service: service, checking: presented)
        }
        if answer != nil { noteUse(of: presented.tokenID) }
        return answer ?? nil
    }

    /// The request's bearer token, read but not looked up.
    private func presentedToken(_ request: HTTPRequest) throws(StoreError) -> PresentedToken {
        guard let header = request.header("Authorization"), let space = header.firstIndex(of: " "),
            header[..<space].lowercased() == "bearer"
        else {
            throw StoreError(.unauthorized, "this request needs an account: 'Authorization: Bearer <token>' (see 'hangman account create')")
        }
        let token = String(header[header.index(after: space)...].drop { $0 == " " })
        guard let presented = PresentedToken(parsing: token) else { throw StoreError.tokenNotLive }
        return presented
    }

    private func authenticate(_ presented: PresentedToken) throws(StoreError) -> (account: String, tokenID: String) {
        guard let found = try accounts.account(for: presented) else { throw StoreError.tokenNotLive }
        noteUse(of: found.tokenID)
        return found
    }

    /// When a token was last used, written at most once a minute per token (never on every request).
    private func noteUse(of tokenID: String) {
        let now = configuration.clock.now()
        let due = touched.withLock { seen in
            guard now - (seen[tokenID] ?? 0) >= 60_000 else { return false }
            // Bounded: past 10,000 tokens, those not seen for a minute are forgotten (their next
            // request writes once more, which is all forgetting costs).
            if seen.count >= 10_000 { seen = seen.filter { now - $0.value < 60_000 } }
            seen[tokenID] = now
            return true
        }
        guard due else { return }
        // The request goes on without it, but a failure is counted where an operator looks
        // (hangman_store_errors_total), not lost.
        do {
            try accounts.touch(tokenID: tokenID, now: now)
        } catch {
            metrics.storeError(error.kind == .unavailable ? "unavailable" : "storage")
        }
    }

    /// The account's ledger, opened once and kept (`AccountStores` lends it to one request at a time).
    func store(for account: String) throws(StoreError) -> AccountService {
        if let ledgers {
            return try AccountService(
                catalog: catalog, packsFolder: configuration.packsFolder, ledgers: ledgers, account: account,
                clock: configuration.clock, signingKey: key, environment: configuration.environment, crash: configuration.crash)
        }
        return try AccountService(
            catalog: catalog, packsFolder: configuration.packsFolder, accountFolder: sqliteFolder + "/accounts/" + account,
            clock: configuration.clock, signingKey: key, environment: configuration.environment, crash: configuration.crash)
    }

    /// `GET /v1/packs/{id}/archive`: the archive of a base pack or of a pack the account owns,
    /// whole or a `Range` of it, with the recorded digest as its `ETag`.
    private func archive(_ request: HTTPRequest, productID text: String, service: AccountService) throws(StoreError) -> HTTPResponse {
        guard let id = ProductID(rawValue: text) else { throw StoreError(.invalidRequest, "'\(text)' is not a product identifier") }
        let file = try service.packArchiveFile(id)
        let digest = file.sha256
        let opened: (descriptor: Int32, size: Int)
        do {
            opened = try FileSystem.openRegularFile(atPath: file.path)
        } catch {
            throw file.unreadable(error)
        }
        let size = UInt64(opened.size)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/octet-stream"), ("Accept-Ranges", "bytes"), ("ETag", "\"\(digest)\""),
        ]
        let ifRange = request.header("If-Range")
        // A range of another version of the archive (If-Range) gets the whole of this one.
        let range = ifRange == nil || ifRange == "\"\(digest)\"" ? request.header("Range").map { ByteRange.parse($0, size: size) } : nil
        switch range ?? .whole {
        case .whole:
            return HTTPResponse(status: 200, headers: headers, body: .file(descriptor: opened.descriptor, offset: 0, length: size))
        case .unsatisfiable:
            FileSystem.close(descriptor: opened.descriptor)
            return HTTPResponse(status: 416, headers: [("Content-Range", "bytes */\(size)")], body: .bytes([]))
        case .part(let start, let end):
            headers.append(("Content-Range", "bytes \(start)-\(end)/\(size)"))
            return HTTPResponse(status: 206, headers: headers, body: .file(descriptor: opened.descriptor, offset: start, length: end - start + 1))
        }
    }

    /// 429 with `Retry-After`: a client that keeps to it is served again.
    static func tooMany(_ message: String, wait: Int) -> HTTPResponse {
        var response = HTTPResponse.json(429, Wire.encode(ErrorBody(StoreError(.unavailable, message))))
        response.headers.append(("Retry-After", "\(wait)"))
        return response
    }

    /// A failure as JSON, with the status its kind deserves.
    static func failure(_ error: StoreError) -> HTTPResponse {
        let status: Int =
            switch error.kind {
            case .unknownProduct, .unknownTransaction: 404
            case .invalidRequest: 400
            case .wrongState, .purchaseInProgress: 409
            case .productUnavailable: 410
            case .notEnoughHints: 402
            case .notEntitled: 403
            case .unauthorized: 401
            case .storage: 500
            case .unavailable: 503
            case .untrusted: 502
            }
        if status == 500 {
            // The server's own failure: its details (paths, the database's words) go to its log only.
            var response = HTTPResponse.json(
                500, Wire.encode(ErrorBody(StoreError(.storage, "the server could not use its storage for this request; its log says why"))))
            response.logDetail = error.message
            return response
        }
        var response = HTTPResponse.json(status, Wire.encode(ErrorBody(error)))
        if status == 401 { response.headers.append(("WWW-Authenticate", "Bearer")) }
        return response
    }
}

/// What a `Range` header asks of `size` bytes. One `bytes=` range is served; anything else (another
/// unit, several ranges, a malformed one) is ignored and gets the whole, as RFC 9110 allows.
enum ByteRange: Equatable {
    case whole
    /// The first and the last byte.
    case part(UInt64, UInt64)
    /// One range with no byte inside the size: 416.
    case unsatisfiable

    static func parse(_ header: String, size: UInt64) -> ByteRange {
        guard header.hasPrefix("bytes=") else { return .whole }
        let spec = header.dropFirst("bytes=".count)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(size - min(suffix, size), size - 1)
        }
        guard let start = number(first) else { return .whole }
        var end = UInt64.max
        if !last.isEmpty {
            guard let asked = number(last), asked >= start else { return .whole }
            end = asked
        }
        guard start < size else { return .unsatisfiable }
        return .part(start, min(end, size - 1))
    }

    /// Decimal digits only (`UInt64` alone also takes a sign).
    private static func number(_ text: Substring) -> UInt64? {
        text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ? UInt64(text) : nil
    }
}

/// A request's path in one form (`/v1/hints/spend`: empty segments dropped), which the routes
/// without an identifier are matched on, and its segments when a route needs them.
struct Resource {
    let path: String

    init(_ requestPath: String) {
        // The path as given when it is already in that form (the usual case): no string made.
        path = Self.isNormal(requestPath) ? requestPath : "/" + requestPath.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) }.joined(separator: "/")
    }

    /// The segments: `["v1", "packs", "com.x", "archive"]`.
    var parts: [String] { path.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) } }

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

/// Each account's store, opened once and lent to one request at a time: a SQLite connection is
/// never used by two threads at once, and a request does not pay for opening it.
final class AccountStores: Sendable {
    private final class Slot: @unchecked Sendable {
        let lock = Mutex(())
        /// Used only under `lock`.
        var service: AccountService?
        /// Used only under the table's lock.
        var lastUse = 0
    }

    private struct Table {
        var slots: [String: Slot] = [:]
        var tick = 0
    }

    private let table = Mutex(Table())
    /// Accounts kept open at most: the least recently used is closed to make room (each holds a
    /// database connection, a few descriptors).
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many accounts are open now.
    var openCount: Int { table.withLock { $0.slots.count } }

    /// Forgets every open store: each is closed once the requests holding it end, and opened
    /// again (on the catalog served then) by its account's next request.
    func closeAll() {
        table.withLock { $0.slots.removeAll() }
    }

    /// `body` with the account's store when it is open, `nil` when it is not (nothing is opened).
    func withOpen<T>(_ account: String, _ body: (AccountService) throws(StoreError) -> T) throws(StoreError) -> T? {
        let slot: Slot? = table.withLock { table in
            guard let slot = table.slots[account] else { return nil }
            table.tick += 1
            slot.lastUse = table.tick
            return slot
        }
        guard let slot else { return nil }
        return try slot.lock.withLock { _ throws(StoreError) -> T? in
            guard let service = slot.service else { return nil }
            return try body(service)
        }
    }

    func with<T>(
        _ account: String, open: () throws(StoreError) -> AccountService, _ body: (AccountService) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        let slot = table.withLock { table in
            table.tick += 1
            if let slot = table.slots[account] {
                slot.lastUse = table.tick
                return slot
            }
            if table.slots.count >= capacity, let oldest = table.slots.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                // Closed once the requests holding it end; a new request for it opens it again
                // (two connections to one ledger take turns, as two servers do).
                table.slots[oldest] = nil
            }
            let slot = Slot()
            slot.lastUse = table.tick
            table.slots[account] = slot
            return slot
        }
        return try slot.lock.withLock { _ throws(StoreError) in
            let service: AccountService
            if let open = slot.service {
                service = open
            } else {
                service = try open()
                slot.service = service
            }
            return try body(service)
        }
    }
}
