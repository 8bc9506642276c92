import AppStore
import Base64
import HTTPServer
import PackServiceWire
import Seller

/// `POST /verifyReceipt` as Apple's App Store answered it: Apple's request, Apple's response
/// (keys, dates three ways, numbers as strings) and Apple's statuses, HTTP 200 for every one.
extension PackServer {
    func verifyReceipt(_ request: HTTPRequest) -> HTTPResponse {
        let environment = configuration.environment.rawValue
        func answer(_ status: ReceiptVerification.Status, retryable: Bool? = nil) -> HTTPResponse {
            Self.appleAnswer(AppleVerifyResponse(status: status.rawValue, environment: environment, isRetryable: retryable))
        }
        guard request.method == "POST", let body = try? API.verifyReceipt.body(of: request.body) else {
            return answer(.badRequest)
        }
        guard let bytes = Base64.decode(body.receiptData) else { return answer(.malformed) }
        // Read once for the request (a reload may swap it meanwhile).
        let catalog = self.catalog
        let signer = ReceiptSigner(key: key, catalog: catalog, environment: configuration.environment)
        let verdict = seller.verifyReceipt(
            bytes, password: body.password, policy: ReceiptPolicy(sharedSecret: configuration.sharedSecret), signer: signer, catalog: catalog
        ) { account throws(ServiceError) in
            try stores.with(account, open: { () throws(ServiceError) in try store(for: account) }) { service throws(ServiceError) in
                try service.receipt(accountID: account)
            }
        }
        guard verdict.status == .valid, let shown = verdict.shown else { return answer(verdict.status, retryable: verdict.isRetryable) }
        let isAutoRenewable = { (product: String) in ProductID(rawValue: product).flatMap { catalog.product($0)?.autoRenewable } != nil }
        return Self.appleAnswer(AppleVerifyResponse(
            valid: shown, latest: verdict.latest.map { ($0.bytes, $0.payload) }, excludeOld: body.excludeOldTransactions == true,
            environment: configuration.environment, catalogVersion: catalog.catalogVersion, now: configuration.clock.now(),
            isAutoRenewable: isAutoRenewable))
    }

    /// Apple's answer, HTTP 200 whatever its status; one that cannot be written is 21005 (the
    /// server cannot answer now), never an empty document.
    static func appleAnswer(_ response: AppleVerifyResponse) -> HTTPResponse {
        do {
            return .json(200, try API.verifyReceipt.answer(response))
        } catch {
            return .json(200, Array(#"{"is-retryable":true,"status":21005}"#.utf8))
        }
    }
}
