import CivilCalendar
import FoundationEssentials

extension AccountService {

    public func controls() throws(ServiceError) -> StoreControls { try ledger.controls() }

    public func setControls(_ controls: StoreControls) throws(ServiceError) { try ledger.setControls(controls) }

    public func approve(_ id: TransactionID) throws(ServiceError) -> StoreTransaction {
        try advance(id, from: .deferred, what: "approve")
    }

    public func resolve(_ id: TransactionID) throws(ServiceError) -> StoreTransaction {
        try advance(id, from: .interrupted, what: "resolve")
    }

    public func decline(_ id: TransactionID) throws(ServiceError) -> StoreTransaction {
        let transaction = try recorded(id)
        guard try ledger.move(id, from: [.deferred], to: .failed, reason: "declined by the approver", now: clock.now()) else {
            throw ServiceError(.wrongState, "transaction \(id.number) is \(transaction.state.rawValue), not waiting for approval")
        }
        return try recorded(id)
    }

    func advance(_ id: TransactionID, from state: TransactionState, what: String) throws(ServiceError) -> StoreTransaction {
        let transaction = try recorded(id)
        guard try ledger.move(id, from: [state], to: .purchased, now: clock.now()) else {
            throw ServiceError(.wrongState, "cannot \(what) transaction \(id.number): it is \(transaction.state.rawValue), not \(state.rawValue)")
        }
        crash(.afterCharge)
        try complete(id)
        return try recorded(id)
    }

    public func refund(_ id: TransactionID) throws(ServiceError) -> (transaction: StoreTransaction, hintsTakenBack: Int) {
        let now = try settleSubscriptions()
        let taken = try ledger.refund(id, now: now, passDuration: try passDuration(of: id))
        return (try recorded(id), taken)
    }

    /// The App Store's decision on a refund (a test control: in the sandbox, the seller decides
    /// what Apple would): grant or decline a request, or reverse a granted refund.
    public func decideRefund(_ id: TransactionID, _ decision: RefundDecision) throws(ServiceError) -> RefundOutcome {
        let now = try settleSubscriptions()
        let crash = self.crash
        let decided = try ledger.decideRefund(id, decision, passDuration: try passDuration(of: id), now: now) { crash(.inRefundDecision) }
        return RefundOutcome(refundCase: decided.refundCase, transaction: try recorded(id), hints: decided.hints)
    }

    /// A non-renewing pass's duration, when `id` is one's purchase: a refund and its reversal
    /// stack the passes again by it.
    private func passDuration(of id: TransactionID) throws(ServiceError) -> StoreDuration? {
        try ledger.transaction(id).flatMap { catalog.product($0.productID)?.nonRenewing?.duration }
    }

    /// The store's time (milliseconds since 1970), after processing what fell due by it.
    public func storeClock() throws(ServiceError) -> Int64 {
        try settleSubscriptions()
    }

    /// Moves the store clock forward by `duration` and processes whatever fell due meanwhile, in
    /// order; returns the new time. The clock is the account's, kept in its ledger, so every
    /// server of a database agrees on it.
    public func advanceClock(by duration: StoreDuration) throws(ServiceError) -> Int64 {
        try moveClock(by: StoreClockStep(duration)).now
    }

    /// ``advanceClock(by:)``, with the renewals it charged on the way.
    public func moveClock(by duration: StoreClockStep) throws(ServiceError) -> StoreClockMove {
        let (now, before) = try settle()
        guard try ledger.advanceClock(by: duration, realNow: clock.now()) != nil else {
            throw ServiceError(
                .invalidRequest,
                "the store's clock goes no further than 9999-12-31: it is \(ISO8601.string(now)) now, and \(duration.description) more is past that")
        }
        let after = try settle()
        return StoreClockMove(now: after.now, renewals: before + after.renewals)
    }

    public func clear() throws(ServiceError) { try ledger.clear() }

    /// Every switch off, and the store's clock at the real time again.
    public func reset() throws(ServiceError) { try ledger.reset() }
}
