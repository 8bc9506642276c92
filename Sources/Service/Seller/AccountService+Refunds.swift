import PackServiceAPI

extension AccountService {
    /// The customer asks the App Store for a refund of a delivered purchase (StoreKit's
    /// `beginRefundRequest`): the case is opened and the developer's server hears
    /// `CONSUMPTION_REQUEST`; the App Store's decision follows (``decideRefund(_:_:)``).
    public func requestRefund(_ id: TransactionID, reason: RefundReason) throws(ServiceError) -> RefundCase {
        let now = try settleSubscriptions()
        return try ledger.requestRefund(id, reason: reason, now: now)
    }

    /// One transaction of the account, if it has it.
    public func transaction(_ id: TransactionID) throws(ServiceError) -> StoreTransaction? {
        try ledger.transaction(id)
    }

    /// The purchase's refund case, if it has one.
    public func refundCase(_ id: TransactionID) throws(ServiceError) -> RefundCase? {
        try ledger.refundCase(id)
    }
}
