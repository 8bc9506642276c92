import FoundationEssentials

extension AccountService {

    public func receipt() throws(StoreError) -> Receipt {
        try receipt(accountID: nil)
    }

    /// The account's history, signed; `accountID` names the pack server's account it belongs to.
    public func receipt(accountID: String?) throws(StoreError) -> Receipt {
        let now = try settleSubscriptions()
        let renewals = try subscriptions(now: now).filter(\.isAutoRenewable).map { status in
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

    public func verifyReceipt(_ bytes: [UInt8]) -> ReceiptVerification {
        do {
            return try signer().verify(bytes)
        } catch {
            return ReceiptVerification(status: .notAuthenticated, message: "cannot check the signature: \(error.message)")
        }
    }

    /// The receipt signer, its key read on first use: most commands sign and check nothing.
    func signer() throws(StoreError) -> ReceiptSigner {
        if let receiptSigner { return receiptSigner }
        guard let keyPath else { throw StoreError(.storage, "this service has no signing key") }
        let signer = ReceiptSigner(key: try ServiceKey.loadOrCreate(at: keyPath), catalog: catalog, environment: environment)
        receiptSigner = signer
        return signer
    }
}
