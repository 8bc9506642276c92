import Base64
import HTTPServer
import PackServiceWire
import Store

/// `POST /verifyReceipt` as Apple's App Store answered it: Apple's request, Apple's response
/// (keys, dates three ways, numbers as strings) and Apple's statuses, HTTP 200 for every one.
extension PackServer {
    /// Apple's statuses that this endpoint answers.
    enum AppleStatus: Int {
        case valid = 0
        /// Not JSON, not POST, or no `receipt-data`.
        case badRequest = 21000
        case malformed = 21002
        case notAuthentic = 21003
        /// A receipt with an auto-renewable subscription, and no shared secret or another one.
        case sharedSecret = 21004
        /// The ledger database is away: try again.
        case unavailable = 21005
        case sandboxReceipt = 21007
        case productionReceipt = 21008
        /// The receipt's account is not one of this service's.
        case accountGone = 21010
    }

    func verifyReceipt(_ request: HTTPRequest) -> HTTPResponse {
        let environment = configuration.environment == .sandbox ? "Sandbox" : "Production"
        func answer(_ status: AppleStatus, retryable: Bool? = nil) -> HTTPResponse {
            Self.appleAnswer(AppleVerifyResponse(status: status.rawValue, environment: environment, isRetryable: retryable))
        }
        guard request.method == "POST", let body = try? Wire.decode(AppleVerifyRequest.self, from: request.body) else {
            return answer(.badRequest)
        }
        guard let bytes = Base64.decode(body.receiptData) else { return answer(.malformed) }
        let result = ReceiptSigner(key: key, catalog: catalog, environment: configuration.environment).verify(bytes)
        switch result.status {
        case .valid: break
        case .sandboxReceiptSentToProduction: return answer(.sandboxReceipt)
        case .productionReceiptSentToSandbox: return answer(.productionReceipt)
        case .notAuthenticated: return answer(.notAuthentic)
        default: return answer(.malformed)
        }
        guard let payload = result.payload else { return answer(.malformed) }
        // A receipt with an auto-renewable subscription needs the shared secret, compared in constant time.
        if payload.transactions.contains(where: { ProductID(rawValue: $0.productID).flatMap { catalog.product($0)?.autoRenewable } != nil }) {
            guard let secret = configuration.sharedSecret, let given = body.password,
                constantTimeEqual(Array(secret.text.utf8), Array(given.utf8))
            else { return answer(.sharedSecret) }
        }
        // The account's receipt as it stands now: its renewals since, and their state.
        var latest: Receipt?
        if let account = payload.accountID {
            do {
                guard try accounts.isOpen(account: account) else { return answer(.accountGone) }
                latest = try stores.with(account, open: { () throws(StoreError) in try store(for: account) }) { service throws(StoreError) in
                    try service.receipt(accountID: account)
                }
            } catch {
                return answer(.unavailable, retryable: true)
            }
        }
        return Self.appleAnswer(appleResponse(payload, latest: latest, excludeOld: body.excludeOldTransactions == true, environment: environment))
    }

    /// Apple's answer, HTTP 200 whatever its status; one that cannot be written is 21005 (the
    /// server cannot answer now), never an empty document.
    static func appleAnswer(_ response: AppleVerifyResponse) -> HTTPResponse {
        do {
            return .json(200, try Wire.encode(response))
        } catch {
            return .json(200, Array(#"{"is-retryable":true,"status":21005}"#.utf8))
        }
    }

    /// The response of a valid receipt: its purchases in `in_app`, and for one with subscriptions
    /// the latest receipt, every subscription transaction newest first, and the renewal state.
    func appleResponse(_ payload: ReceiptPayload, latest: Receipt?, excludeOld: Bool, environment: String) -> AppleVerifyResponse {
        let now = configuration.clock.now()
        let receipt = AppleReceipt(
            receiptType: configuration.environment == .sandbox ? "ProductionSandbox" : "Production", bundleID: payload.bundleIdentifier,
            applicationVersion: String(catalog.catalogVersion), originalApplicationVersion: "1.0", created: AppleDate(payload.creationDate),
            requested: AppleDate(now), originalPurchase: AppleDate(payload.transactions.map(\.purchaseDate).min() ?? payload.creationDate),
            inApp: inApp(payload.transactions))
        guard let latest, latest.payload.transactions.contains(where: { isAutoRenewable($0.productID) }) else {
            return AppleVerifyResponse(status: 0, environment: environment, receipt: receipt)
        }
        var periods = inApp(latest.payload.transactions.filter { isAutoRenewable($0.productID) }).sorted { Int64($0.purchaseDateMs) ?? 0 > Int64($1.purchaseDateMs) ?? 0 }
        if excludeOld {
            var seen: Set<String> = []
            periods = periods.filter { seen.insert($0.originalTransactionID).inserted }
        }
        let renewals = latest.payload.renewals.map { renewal in
            ApplePendingRenewal(
                productID: renewal.productID, originalTransactionID: renewal.originalTransactionID, autoRenewProductID: renewal.autoRenewProductID,
                autoRenew: renewal.autoRenewStatus, inBillingRetry: renewal.isInBillingRetryPeriod, graceEnds: renewal.gracePeriodExpiresDate.map(AppleDate.init),
                expirationIntent: renewal.expirationIntent.map { $0 == "billing" ? "2" : $0 == "expired" ? "1" : "5" })
        }
        return AppleVerifyResponse(
            status: 0, environment: environment, receipt: receipt, latestReceipt: Base64.encode(latest.bytes), latestReceiptInfo: periods,
            pendingRenewalInfo: renewals)
    }

    private func isAutoRenewable(_ product: String) -> Bool {
        ProductID(rawValue: product).flatMap { catalog.product($0)?.autoRenewable } != nil
    }

    /// Each completed purchase as an `in_app` entry (failed and waiting ones are not purchases yet).
    private func inApp(_ transactions: [ReceiptPayload.Transaction]) -> [AppleInApp] {
        let firstPurchase = Dictionary(transactions.map { ($0.id, $0.purchaseDate) }, uniquingKeysWith: { first, _ in first })
        let started = Set(transactions.filter { $0.originalTransactionID == $0.id }.map(\.purchaseDate))
        return transactions.filter { ["purchased", "delivered", "finished"].contains($0.state) }.map { transaction in
            let original = transaction.originalTransactionID ?? transaction.id
            let subscription = transaction.originalTransactionID != nil
            // An upgraded period ends when the next level's subscription starts.
            let upgraded = isAutoRenewable(transaction.productID)
                && transaction.revocationDate.map { started.contains($0) && $0 != transaction.purchaseDate } == true
            return AppleInApp(
                productID: transaction.productID, transactionID: transaction.id, originalTransactionID: original, quantity: transaction.quantity,
                purchased: AppleDate(transaction.purchaseDate), originalPurchase: AppleDate(firstPurchase[original] ?? transaction.purchaseDate),
                expires: transaction.expiresDate.map(AppleDate.init), cancelled: transaction.revocationDate.map(AppleDate.init),
                cancellationReason: upgraded ? nil : "0", isTrial: subscription ? (transaction.isTrial ?? false) : nil,
                webOrderLineItemID: isAutoRenewable(transaction.productID) ? UInt64(transaction.id, radix: 16).map(String.init) : nil,
                isUpgraded: upgraded)
        }
    }
}
