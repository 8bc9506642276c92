import AppStore
import CertificateChain
import FoundationEssentials
import HTTPServer
import PackServiceWire
import Seller

/// The App Store Server API, as Apple's answers it, for a developer's backend: its own bearer JWT
/// (``AppStoreAPIAuthorization``; 401 with no body otherwise), Apple's paths, parameters and error
/// bodies, transactions and renewals as JWS signed by the data folder's chain. Every answer is a
/// view of the ledger (its transactions, subscriptions and outbox), never a second record.
extension PackServer {
    /// Pages of transactions and notifications hold this many, as Apple's do.
    static let appStorePageSize = TransactionFilter.pageSize

    /// The developer's keys (`--api-issuer`, `--api-key`) for the catalog's bundle as it is now:
    /// what checks the App Store Server API's tokens and the signatures for StoreKit.
    var developerKeys: AppStoreAPIAuthorization? {
        guard var authorization = appStoreAPI.withLock({ $0 }) else { return nil }
        authorization.bundleID = catalog.bundleIdentifier
        return authorization
    }

    func appStoreAPI(_ request: HTTPRequest, _ route: Route, id: String) throws(ServiceError) -> HTTPResponse {
        let now = configuration.clock.now()
        var verdict = AppStoreAPIAuthorization.Verdict.refused("the App Store Server API is off: serve has no --api-issuer and --api-key")
        if let authorization = developerKeys {
            verdict = authorization.verdict(request.header("Authorization"), now: now)
        }
        guard case .allowed(let keyID) = verdict else {
            // A refused token is held to its address block's pace, as any guess is.
            if let requests, let wait = requests.take(request.clientAddress, now: now) {
                return Self.tooMany("too many requests from \(request.clientAddress)'s address block: try again in \(wait) s", wait: wait)
            }
            // Why, for the operator's log only: the answer tells a caller nothing.
            var refused = HTTPResponse(status: 401)
            if case .refused(let why) = verdict { refused.logDetail = why }
            return refused
        }
        if let appStoreAPIRequests, let wait = appStoreAPIRequests.take("api-key " + keyID, now: now) {
            var refused = Self.appleError(.rateLimitExceeded)
            refused.headers.append(("Retry-After", String(wait)))
            return refused
        }
        switch route {
        case .appStoreOrderLookup:
            return try lookUpOrder(id, now: now)
        case .appStoreMassExtend:
            return try requestMassExtension(request.body, now: now)
        case .appStoreMassExtendStatus:
            return try massExtensionStatus(id)
        case .appStoreTestNotification:
            guard configuration.notificationURL != nil else { return Self.appleError(.serverNotificationUrlNotFound) }
            let token = try withLedger(Self.serviceLedger) { service throws(ServiceError) in try service.requestTestNotification() }
            noteOutbox(Self.serviceLedger)
            return .json(200, try Wire.encode(["testNotificationToken": token]))
        case .appStoreTestStatus:
            let found = try withLedger(Self.serviceLedger) { service throws(ServiceError) in
                try service.notificationHistory().first { $0.notification.uuid == id }.map { entry throws(ServiceError) in
                    (try payload(of: entry.notification, account: Self.serviceLedger, service: service), entry.attempts)
                }
            }
            guard let (signed, attempts) = found else { return Self.appleError(.testNotificationNotFound) }
            return .json(200, try Wire.encode(TestNotificationStatus(signedPayload: signed, sendAttempts: attempts.map(Self.sendAttempt))))
        case .appStoreNotificationHistory:
            return try notificationHistory(request)
        default:
            break
        }
        let invalid: AppStoreAPIError = route == .appStoreExtend ? .invalidOriginalTransactionId : .invalidTransactionId
        guard let asked = AppStoreTransactionID.parse(id) else { return Self.appleError(invalid) }
        guard let named = try owner(of: asked) else { return Self.notFound(route) }
        // An account that is not there is never opened (that would make its ledger).
        guard try accounts.isOpen(account: named.account) else { return Self.notFound(route) }
        return try withLedger(named.account) { service throws(ServiceError) in
            try appStoreAnswer(request, route, named, service: service, now: now)
        }
    }

    /// `body` with the account's service (opened once and kept, as a player's request has it).
    func withLedger<T>(_ account: String, _ body: (AccountService) throws(ServiceError) -> T) throws(ServiceError) -> T {
        defer { noteOutbox(account) }
        return try stores.with(account, open: { () throws(ServiceError) in try store(for: account) }, body)
    }

    /// The account and transaction an id in a request names: a number's account is the one that
    /// claimed it; `nil` when no account did.
    private func owner(of asked: AppStoreTransactionID) throws(ServiceError) -> (account: String, transaction: TransactionID)? {
        switch asked {
        case .number(let id): try seller.account(ofTransaction: id).map { ($0, id) }
        case .accountAndTransaction(let account, let id): (account, id)
        }
    }

    private static func notFound(_ route: Route) -> HTTPResponse {
        route == .appStoreExtend
            ? appleError(.originalTransactionIdNotFound) : appleError(.transactionIdNotFound)
    }

    private func appStoreAnswer(
        _ request: HTTPRequest, _ route: Route, _ customer: (account: String, transaction: TransactionID), service: AccountService, now: Int64
    ) throws(ServiceError) -> HTTPResponse {
        let asked = customer.transaction
        let transactions = try service.transactionsAppleShows()
        let app = try service.appTransaction()
        let named = transactions.first(where: { $0.id == asked })
        // The customer's app transaction names the customer: the endpoints about a customer take it
        // as they take any of its transactions (the others answer it as no transaction).
        let customerScoped: [Route] = [.appStoreHistory, .appStoreRefunds, .appStoreStatuses, .appStoreAppTransaction]
        guard named != nil || (asked == app.id && customerScoped.contains(route)) else { return Self.notFound(route) }
        let catalog = self.catalog
        func signed(_ transaction: StoreTransaction) throws(ServiceError) -> String {
            try sign(AppStoreTransaction(transaction, appTransactionID: app.id, catalog: catalog, environment: configuration.environment, signedDate: now))
        }
        let environment = AppStoreTransaction.environmentName(configuration.environment)
        switch route {
        case .appStoreAppTransaction:
            let signedApp = try sign(
                AppStoreAppTransaction(app, catalog: catalog, catalogVersion: catalog.catalogVersion, environment: configuration.environment, signedDate: now))
            return .json(200, try Wire.encode(["signedAppTransactionInfo": signedApp]))
        case .appStoreHistory, .appStoreRefunds:
            let refunds = route == .appStoreRefunds
            // Get Refund History takes no filter but its revision.
            let parsed = refunds
                ? TransactionFilter.parse(query: [:], values: { _ in [] }, catalog: catalog)
                : TransactionFilter.parse(query: request.query, values: request.queryValues, catalog: catalog)
            let found = parsed.flatMap { filter in filter.page(of: transactions, refundsOnly: refunds, after: request.query["revision"]) }
            guard case .success(let page) = found else {
                if case .failure(let refusal) = found { return Self.appleError(refusal) }
                return Self.notFound(route)
            }
            var signedTransactions: [String] = []
            for item in page.page { signedTransactions.append(try signed(item)) }
            return .json(200, try Wire.encode(TransactionPage(
                revision: page.revision, hasMore: page.hasMore, bundleId: catalog.bundleIdentifier, appAppleId: catalog.appAppleID,
                environment: environment, signedTransactions: signedTransactions)))
        case .appStoreStatuses:
            let answer = try StatusAnswer(
                try service.subscriptions(), transactions: transactions, wanted: Set(request.queryValues("status").compactMap(Int.init)), catalog: catalog,
                appTransactionID: app.id, environment: configuration.environment, now: now, signTransaction: signed,
                signRenewal: { renewal throws(ServiceError) in try sign(renewal) })
            return .json(200, try Wire.encode(answer))
        default:
            break
        }
        guard let transaction = named else { return Self.notFound(route) }
        switch route {
        case .appStoreTransaction:
            return .json(200, try Wire.encode(["signedTransactionInfo": try signed(transaction)]))
        case .appStoreExtend:
            guard let asked = try? Wire.decode(ExtendRequest.self, from: request.body) else {
                return Self.appleError(.generalBadRequest)
            }
            let days: Int
            switch asked.checked() {
            case .success(let checked): days = checked.days
            case .failure(let refusal): return Self.appleError(refusal)
            }
            guard service.isSubscriptionsOriginal(transaction) else { return Self.appleError(.originalTransactionIdNotFound) }
            let status: SubscriptionStatus
            switch try service.extendRenewal(transaction.id, days: days) {
            case .success(let extended): status = extended
            case .failure(.tooMany): return Self.appleError(.subscriptionMaxExtension)
            case .failure(.ineligible): return Self.appleError(.subscriptionExtensionIneligible)
            }
            let id = transaction.id.number
            return .json(200, try Wire.encode(ExtendAnswer(originalTransactionId: id, webOrderLineItemId: id, success: true, effectiveDate: status.expiresDate)))
        case .appStoreConsumption:
            guard transaction.isConsumable else { return Self.appleError(.invalidTransactionNotConsumable) }
            guard request.body.count <= 4096, (try? Wire.decode(ConsumptionReport.self, from: request.body)) != nil else {
                return Self.appleError(.generalBadRequest)
            }
            try service.saveConsumption(transaction.id, body: String(decoding: request.body, as: UTF8.self))
            return HTTPResponse(status: 202)
        case .appStoreConsumptionV2:
            // Version 2 takes every kind of product, and checks each field.
            if case .failure(let refusal) = ConsumptionRequestV2.parse(request.body) { return Self.appleError(refusal) }
            try service.saveConsumption(transaction.id, body: String(decoding: request.body, as: UTF8.self))
            return HTTPResponse(status: 202)
        case .appStoreFinish:
            guard try service.finishAsTheBackend(transaction.id) else { return Self.appleError(.generalBadRequest) }
            return HTTPResponse(status: 200)
        case .appStoreSetAppAccountToken:
            // The purchase's first transaction only: a renewal's id names a period, not the purchase.
            guard transaction.originalTransactionID.map({ $0 == transaction.id }) ?? true else {
                return Self.appleError(.transactionIdIsNotOriginalTransactionId)
            }
            guard request.body.count <= 1024, let asked = try? Wire.decode(AppAccountTokenRequest.self, from: request.body),
                let token = AppAccountToken.parse(asked.appAccountToken)
            else { return Self.appleError(.invalidAppAccountTokenUUID) }
            try service.setAppAccountToken(transaction.id, token: token)
            return HTTPResponse(status: 200)
        default:
            return Self.notFound(route)
        }
    }

    /// `GET /inApps/v1/lookup/{orderId}` (Look Up Order ID): status 0 and the order's signed
    /// transaction, or status 1 (and none) for an order id that names no purchase, as Apple answers.
    private func lookUpOrder(_ orderID: String, now: Int64) throws(ServiceError) -> HTTPResponse {
        let invalid = HTTPResponse.json(200, try Wire.encode(OrderLookupAnswer(status: 1, signedTransactions: [])))
        guard let id = TransactionID(orderID: orderID), let account = try seller.account(ofTransaction: id), try accounts.isOpen(account: account) else {
            return invalid
        }
        let found = try withLedger(account) { service throws(ServiceError) -> (StoreTransaction, AppTransactionRecord)? in
            guard let transaction = try service.transactionsAppleShows().first(where: { $0.id == id }) else { return nil }
            return (transaction, try service.appTransaction())
        }
        guard let (transaction, app) = found else { return invalid }
        let signed = try sign(AppStoreTransaction(transaction, appTransactionID: app.id, catalog: catalog, environment: configuration.environment, signedDate: now))
        return .json(200, try Wire.encode(OrderLookupAnswer(status: 0, signedTransactions: [signed])))
    }

    /// `POST /inApps/v1/notifications/history`: the notifications sent between `startDate` and
    /// `endDate` (required), of one type, one customer (`transactionId`), or failed only, in pages.
    private func notificationHistory(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let parsed = NotificationHistoryQuery.parse(body: request.body, paginationToken: request.query["paginationToken"]) {
            NotificationKind(rawValue: $0) != nil
        }
        guard case .success(let query) = parsed else {
            if case .failure(let refusal) = parsed { return Self.appleError(refusal) }
            return Self.appleError(.generalBadRequest)
        }
        var owners: [String]
        if let id = query.transactionId {
            guard let asked = AppStoreTransactionID.parse(id) else { return Self.appleError(.invalidTransactionId) }
            guard let named = try owner(of: asked), try accounts.isOpen(account: named.account) else { return Self.appleError(.transactionIdNotFound) }
            owners = [named.account]
        } else {
            owners = try notifiedAccounts() + [Self.serviceLedger]
        }
        var found: [(notification: OutboxNotification, attempts: [NotificationAttempt], account: String)] = []
        for account in Set(owners) {
            for entry in try withLedger(account, { service throws(ServiceError) in try service.notificationHistory() })
            where query.shows(
                created: entry.notification.created, type: entry.notification.type, subtype: entry.notification.subtype,
                delivered: entry.notification.delivered != nil, attempted: !entry.attempts.isEmpty)
            {
                found.append((entry.notification, entry.attempts, account))
            }
        }
        let page = query.page(found) { ($0.notification.created, $0.notification.uuid) }
        var items: [NotificationHistoryItem] = []
        for entry in page.page {
            let signed = try withLedger(entry.account) { service throws(ServiceError) in
                try payload(of: entry.notification, account: entry.account, service: service)
            }
            items.append(NotificationHistoryItem(signedPayload: signed, sendAttempts: entry.attempts.map(Self.sendAttempt)))
        }
        return .json(200, try Wire.encode(NotificationHistoryAnswer(paginationToken: page.token, hasMore: page.hasMore, notificationHistory: items)))
    }

    /// Every account with a notification: PostgreSQL is asked; on SQLite, every account's ledger.
    private func notifiedAccounts() throws(ServiceError) -> [String] {
        if ledgers == nil { scanOutboxes() }
        return try seller.accountsWithLedgers(notified: true)
    }

    static func sendAttempt(_ attempt: NotificationAttempt) -> AppStoreSendAttempt {
        AppStoreSendAttempt(attemptDate: attempt.date, sendAttemptResult: attempt.result)
    }

    /// Apple's error body: `{"errorCode": 4040010, "errorMessage": "Transaction id not found."}`.
    static func appleError(_ error: AppStoreAPIError) -> HTTPResponse {
        .json(error.status, error.body)
    }
}


/// Set App Account Token's body (Apple's `UpdateAppAccountTokenRequest`).
private struct AppAccountTokenRequest: Decodable {
    var appAccountToken: String
}
