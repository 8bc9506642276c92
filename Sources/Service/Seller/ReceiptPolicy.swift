import PackServiceAPI
import Signing

/// The whole of verifyReceipt's policy, one for every door (a server's `POST /verifyReceipt`, the
/// embedded store's `verifyReceipt`), so that one receipt gets one verdict wherever it is sent:
/// - the signature and the environment (``ReceiptSigner/verify(_:)``: 21003, 21007, 21008, 21002);
/// - a receipt holding an auto-renewable subscription needs the service's shared secret (21004),
///   compared in constant time; so does an answer that would hold one (the account's
///   subscriptions since an older receipt);
/// - a closed account's receipt is no longer valid (21010); an account that cannot be looked up
///   now is 21005, retryable;
/// - the receipt's purchases are answered as the ledger holds them now (a refund since shows as
///   its cancellation, a restacked pass with its new end), beside the account's latest receipt.
public struct ReceiptPolicy: Sendable {
    /// The secret a subscription's receipt needs; `nil`: the service has none, and no receipt
    /// with a subscription verifies (as Apple, where every app has one).
    public var sharedSecret: SharedSecret?

    public init(sharedSecret: SharedSecret?) {
        self.sharedSecret = sharedSecret
    }

    /// What the policy asks of the account a receipt names.
    public enum Account: Sendable {
        /// Closed: its receipts are no longer valid.
        case closed
        /// Open, with its receipt as it stands now (`nil`: not one this door keeps).
        case current(Receipt?)
    }

    /// The verdict, with what an answer shows: the receipt's purchases as the ledger holds them
    /// now, and the account's latest receipt.
    public struct Verdict: Sendable {
        public var status: ReceiptVerification.Status
        public var message: String
        /// Set with 21005: the same request may succeed later.
        public var isRetryable: Bool?
        public var shown: ReceiptPayload?
        public var latest: Receipt?

        /// The verdict as the boundary tells it.
        public var verification: ReceiptVerification {
            ReceiptVerification(status: status, message: message, payload: shown)
        }
    }

    /// The verdict on `bytes` with `password` (Apple's name for the shared secret), signed by
    /// `signer`, for sale in `catalog`; `account` looks up the account the receipt names (its id,
    /// `nil` for a receipt that names none).
    public func verify(
        _ bytes: [UInt8], password: String?, signer: ReceiptSigner, catalog: Catalog, account: (String?) throws(ServiceError) -> Account
    ) -> Verdict {
        func refused(_ status: ReceiptVerification.Status, _ message: String, retryable: Bool? = nil) -> Verdict {
            Verdict(status: status, message: message, isRetryable: retryable, shown: nil, latest: nil)
        }
        let result = signer.verify(bytes)
        switch result.status {
        case .valid: break
        case .sandboxReceiptSentToProduction, .productionReceiptSentToSandbox, .notAuthenticated: return refused(result.status, result.message)
        default: return refused(.malformed, result.message)
        }
        guard let payload = result.payload else { return refused(.malformed, "the receipt holds no purchases") }
        let isAutoRenewable = { (product: String) in ProductID(rawValue: product).flatMap { catalog.product($0)?.autoRenewable } != nil }
        let secretGiven = sharedSecret.map { secret in password.map { ConstantTime.equal(Array(secret.text.utf8), Array($0.utf8)) } ?? false } ?? false
        let needsSecret = "a receipt with an auto-renewable subscription needs the service's shared secret (Apple's password)"
        if payload.transactions.contains(where: { isAutoRenewable($0.productID) }), !secretGiven {
            return refused(.sharedSecretMismatch, password == nil ? needsSecret : "the shared secret is not the service's")
        }
        let latest: Receipt?
        do {
            switch try account(payload.accountID) {
            case .closed: return refused(.accountNotFound, "the receipt's account is closed")
            case .current(let receipt): latest = receipt
            }
        } catch {
            return refused(.temporarilyUnavailable, "the receipt's account cannot be looked up now: try again", retryable: true)
        }
        if !secretGiven, let current = latest, current.payload.transactions.contains(where: { isAutoRenewable($0.productID) }) {
            return refused(.sharedSecretMismatch, needsSecret)
        }
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
        return Verdict(status: .valid, message: result.message, isRetryable: nil, shown: shown, latest: latest)
    }
}
