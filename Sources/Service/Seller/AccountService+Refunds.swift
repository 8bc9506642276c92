import PackServiceAPI

extension AccountService {
    /// The customer asks the App Store for a refund of a delivered purchase (StoreKit's
    /// `beginRefundRequest`): the case is opened and the developer's server hears
    /// `CONSUMPTION_REQUEST`; the App Store's decision follows (``decideRefund(_:_:)``).
    public func requestRefund(_ id: TransactionID, reason: RefundReason) throws(ServiceError) -> RefundCase {
        let now = try settleSubscriptions()
        return try ledger.requestRefund(id, reason: reason, now: now)
    }

    /// Whether `number` (a transaction's number, as Apple's shapes give it) is one of the
    /// account's transactions or its app transaction: what a signature for StoreKit may name.
    public func isCustomersTransaction(_ number: String) throws(ServiceError) -> Bool {
        guard let id = TransactionID(number: number) else { return false }
        if try ledger.transaction(id) != nil { return true }
        return try appTransaction().id == id
    }

    /// The purchase's refund case, if it has one.
    public func refundCase(_ id: TransactionID) throws(ServiceError) -> RefundCase? {
        try ledger.refundCase(id)
    }
}
