import FoundationEssentials
import PackServiceAPI
import Signing

extension AccountService {

    public func receipt() throws(ServiceError) -> Receipt {
        try receipt(accountID: nil)
    }

    /// The account's history, signed; `accountID` names the pack server's account it belongs to.
    public func receipt(accountID: String?) throws(ServiceError) -> Receipt {
        let now = try settleSubscriptions()
        let renewals = try subscriptions(now: now, withPrices: true).filter(\.isAutoRenewable).map { status in
            ReceiptPayload.Renewal(
                originalTransactionID: status.originalTransactionID.rawValue, productID: status.productID.rawValue,
                autoRenewStatus: status.willAutoRenew, autoRenewProductID: (status.renewsToProductID ?? status.productID).rawValue,
                isInBillingRetryPeriod: status.state == .billingRetry || status.state == .gracePeriod,
                gracePeriodExpiresDate: status.gracePeriodExpiresDate, expirationIntent: status.endReason)
        }
        let payload = ReceiptPayload(
            bundleIdentifier: catalog.bundleIdentifier, creationDate: clock.now(),
            transactions: try ledger.transactions().map { transaction in
                ReceiptPayload.Transaction(
                    id: transaction.id.rawValue, productID: transaction.productID.rawValue, quantity: transaction.quantity,
                    state: transaction.state.rawValue, purchaseDate: transaction.purchaseDate, revocationDate: transaction.revocationDate,
                    originalTransactionID: transaction.originalTransactionID?.rawValue, expiresDate: transaction.expiresDate,
                    isTrial: transaction.originalTransactionID == nil ? nil : transaction.isTrial,
                    price: transaction.price?.decimal, currency: transaction.price?.currency, storefront: transaction.storefront)
            }, environment: environment, accountID: accountID, renewals: renewals)
        return try signer().sign(payload)
    }

    /// A receipt checked by the policy every door applies (``ReceiptPolicy``), against this
    /// account's ledger now; the secret is ``receiptPolicy``'s, or this store's own.
    public func verifyReceipt(_ bytes: [UInt8], password: String?) -> ReceiptVerification {
        do throws(ServiceError) {
            let signer = try signer()
            var policy = receiptPolicy
            if policy == nil { policy = ReceiptPolicy(sharedSecret: try ownSharedSecret()) }
            return (policy ?? ReceiptPolicy(sharedSecret: nil)).verify(bytes, password: password, signer: signer, catalog: catalog) { _ throws(ServiceError) in
                .current(try receipt())
            }.verification
        } catch {
            return ReceiptVerification(status: .notAuthenticated, message: "cannot check the signature: \(error.message)")
        }
    }

    /// The shared secret of a store that signs with its own key (the embedded sandbox): derived
    /// from that key, so kept as long as it is, and nowhere else.
    public func ownSharedSecret() throws(ServiceError) -> SharedSecret {
        let derived = try signer().key.derivedSecret(for: "hangman-packs shared secret v1")
        guard let secret = SharedSecret(fileContents: Array(Hex.encode(derived).utf8)) else {
            throw ServiceError(.storage, "cannot derive the store's shared secret")
        }
        return secret
    }

    /// The receipt signer, its key read on first use: most commands sign and check nothing.
    func signer() throws(ServiceError) -> ReceiptSigner {
        if let receiptSigner { return receiptSigner }
        guard let keyPath else { throw ServiceError(.storage, "this service has no signing key") }
        let signer = ReceiptSigner(key: try ServiceKey.loadOrCreate(at: keyPath), catalog: catalog, environment: environment)
        receiptSigner = signer
        return signer
    }
}
