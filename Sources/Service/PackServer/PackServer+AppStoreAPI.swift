import AppStore
import CertificateChain
import HTTPServer
import PackServiceWire
import Store

/// The App Store Server API, as Apple's answers it, for a developer's backend: its own bearer JWT
/// (``AppStoreAPIAuthorization``; 401 with no body otherwise), Apple's paths and error bodies,
/// transactions as JWS signed by the data folder's chain.
extension PackServer {
    /// `GET /inApps/v1/transactions/{transactionId}`: `{"signedTransactionInfo": JWS}`.
    func appStoreTransaction(_ request: HTTPRequest, id: String) throws(StoreError) -> HTTPResponse {
        let now = configuration.clock.now()
        guard var authorization = configuration.appStoreAPI else { return HTTPResponse(status: 401) }
        authorization.bundleID = catalog.bundleIdentifier
        guard authorization.allows(request.header("Authorization"), now: now) else { return HTTPResponse(status: 401) }
        guard let named = AppStoreTransactionID.parse(id) else { return Self.appleError(400, 4_000_006, "Invalid transaction id.") }
        // An account that is not there is never opened (that would make its ledger).
        guard try accounts.isOpen(account: named.account) else { return Self.appleError(404, 4_040_010, "Transaction id not found.") }
        let found = try stores.with(named.account, open: { () throws(StoreError) in try store(for: named.account) }) { service throws(StoreError) in
            try service.transactions().first { $0.id == named.transaction }
        }
        guard let transaction = found ?? nil, transaction.isPaid || transaction.revocationDate != nil else {
            return Self.appleError(404, 4_040_010, "Transaction id not found.")
        }
        let payload = AppStoreTransaction(transaction, account: named.account, catalog: catalog, environment: configuration.environment, signedDate: now)
        let signed: String
        do {
            signed = try appStoreChain.jws(try Wire.encode(payload))
        } catch {
            throw StoreError(.storage, "cannot sign the transaction: \(error)")
        }
        return .json(200, try Wire.encode(["signedTransactionInfo": signed]))
    }

    /// Apple's error body: `{"errorCode": 4040010, "errorMessage": "Transaction id not found."}`.
    static func appleError(_ status: Int, _ code: Int, _ message: String) -> HTTPResponse {
        .json(status, Array("{\"errorCode\":\(code),\"errorMessage\":\"\(message)\"}".utf8))
    }
}
