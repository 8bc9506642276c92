import AppStore
import Base64
import HTTPServer
import PackServiceWire
import Signing
import Store

/// `POST /verifyReceipt` as Apple's App Store answered it: Apple's request, Apple's response
/// (keys, dates three ways, numbers as strings) and Apple's statuses, HTTP 200 for every one.
extension PackServer {
    func verifyReceipt(_ request: HTTPRequest) -> HTTPResponse {
        let environment = configuration.environment.rawValue
        func answer(_ status: ReceiptVerification.Status, retryable: Bool? = nil) -> HTTPResponse {
            Self.appleAnswer(AppleVerifyResponse(status: status.rawValue, environment: environment, isRetryable: retryable))
        }
        guard request.method == "POST", let body = try? Wire.decode(AppleVerifyRequest.self, from: request.body) else {
            return answer(.badRequest)
        }
        guard let bytes = Base64.decode(body.receiptData) else { return answer(.malformed) }
        // Read once for the request (a reload may swap it meanwhile).
        let catalog = self.catalog
        let result = ReceiptSigner(key: key, catalog: catalog, environment: configuration.environment).verify(bytes)
        switch result.status {
        case .valid: break
        case .sandboxReceiptSentToProduction, .productionReceiptSentToSandbox, .notAuthenticated: return answer(result.status)
        default: return answer(.malformed)
        }
        guard let payload = result.payload else { return answer(.malformed) }
        let isAutoRenewable = { (product: String) in ProductID(rawValue: product).flatMap { catalog.product($0)?.autoRenewable } != nil }
        let secretGiven = configuration.sharedSecret.map { secret in body.password.map { ConstantTime.equal(Array(secret.text.utf8), Array($0.utf8)) } ?? false } ?? false
        // A receipt with an auto-renewable subscription needs the shared secret, compared in constant time.
        if payload.transactions.contains(where: { isAutoRenewable($0.productID) }), !secretGiven { return answer(.sharedSecretMismatch) }
        // The account's receipt as it stands now: its renewals since, and their state.
        var latest: Receipt?
        if let account = payload.accountID {
            do {
                guard try accounts.isOpen(account: account) else { return answer(.accountNotFound) }
                latest = try stores.with(account, open: { () throws(StoreError) in try store(for: account) }) { service throws(StoreError) in
                    try service.receipt(accountID: account)
                }
            } catch {
                return answer(.temporarilyUnavailable, retryable: true)
            }
        }
        // An answer that would hold subscription data (the account's subscriptions since, asked
        // with an older receipt that has none) needs the secret too: 21004 without it.
        if !secretGiven, let current = latest, current.payload.transactions.contains(where: { isAutoRenewable($0.productID) }) {
            return answer(.sharedSecretMismatch)
        }
        // The receipt's purchases as the ledger holds them now, as Apple answers: a refund since
        // the receipt was signed shows as its cancellation, a restacked pass with its new end.
        var shown = payload
        if let current = latest?.payload {
            let now = Dictionary(current.transactions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for index in shown.transactions.indices {
                guard let ledger = now[shown.transactions[index].id] else { continue }
                shown.transactions[index].state = ledger.state
                shown.transactions[index].revocationDate = ledger.revocationDate
                shown.transactions[index].expiresDate = ledger.expiresDate
            }
        }
        return Self.appleAnswer(AppleVerifyResponse(
            valid: shown, latest: latest.map { ($0.bytes, $0.payload) }, excludeOld: body.excludeOldTransactions == true,
            environment: configuration.environment, catalogVersion: catalog.catalogVersion, now: configuration.clock.now(),
            isAutoRenewable: isAutoRenewable))
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
}
