import CivilCalendar
import Messages
import PackServiceAPI
import WordPacks

/// A refund from the customer's request to the App Store's decision, and a granted refund's
/// reversal: each step one database transaction, with its notification in it, and each safe to
/// run again (the same step on a case already past it answers the case as it is).
extension AccountLedger {
    /// The customer asks for a refund of a delivered purchase: the case is opened and the
    /// developer's server gets `CONSUMPTION_REQUEST`. Asking again while it is open answers it.
    func requestRefund(_ id: TransactionID, reason: RefundReason, now: Int64) throws(ServiceError) -> RefundCase {
        try engine.write { statements in
            guard let transaction = try statements.transaction(id) else { throw Self.noTransaction(id) }
            if let existing = try statements.refundCase(id) {
                switch existing.state {
                case .requested: return existing
                case .granted, .reversed: throw Self.alreadyRefunded(id)
                case .declined:
                    throw ServiceError(.wrongState, L10n.text("the refund of transaction %s was declined on %s: it is not asked again", id.number, ISO8601.string(existing.decidedDate ?? now)))
                }
            }
            guard transaction.revocationDate == nil else { throw Self.alreadyRefunded(id) }
            guard [.delivered, .finished].contains(transaction.state) else { throw Self.notRefundable(id, transaction.state) }
            if let price = transaction.price, price.minorUnits == 0 {
                throw ServiceError(.wrongState, L10n.text("transaction %s charged nothing (a free trial or a free offer): there is nothing to refund", id.number))
            }
            let opened = RefundCase(transactionID: id, state: .requested, reason: reason, requestedDate: now)
            try statements.saveRefundCase(opened)
            try notify(.consumptionRequest, nil, transaction: id, original: transaction.originalTransactionID, statements: statements, now: now)
            return opened
        }
    }

    /// The purchase's refund case, if it has one.
    func refundCase(_ id: TransactionID) throws(ServiceError) -> RefundCase? {
        try engine.read { statements in try statements.refundCase(id) }
    }

    /// Every refund case of the account, with its consumption answer.
    func refundCases() throws(ServiceError) -> [RefundCase] {
        try engine.read { statements in try statements.refundCases() }
    }

    /// The App Store decides: `grant` refunds a requested purchase (``applyRefund``), `decline`
    /// closes the request (`REFUND_DECLINED`), `reverse` gives back what a granted refund took
    /// (`REFUND_REVERSED`). The consumption the developer's server reported is kept on the case.
    /// `beforeCommit` runs inside the transaction, after every write (a test's crash point).
    func decideRefund(
        _ id: TransactionID, _ decision: RefundDecision, passDuration: StoreDuration?, now: Int64, beforeCommit: () -> Void = {}
    ) throws(ServiceError) -> (refundCase: RefundCase, hints: Int) {
        try engine.write { statements in
            guard let transaction = try statements.transaction(id) else { throw Self.noTransaction(id) }
            let known = try statements.refundCase(id)
            var decided: RefundCase
            var hints = 0
            switch (decision, known?.state) {
            case (.grant, .granted?), (.decline, .declined?), (.reverse, .reversed?):
                return (known!, 0)
            case (.grant, .requested?), (.decline, .requested?):
                decided = known!
                decided.consumption = try statements.consumption(id)
                decided.decidedDate = now
                if decision == .grant {
                    decided.state = .granted
                    hints = try applyRefund(transaction, passDuration: passDuration, statements: statements, now: now)
                } else {
                    decided.state = .declined
                    try notify(.refundDeclined, nil, transaction: id, original: transaction.originalTransactionID, statements: statements, now: now)
                }
            case (.reverse, _):
                // A granted refund only: not a plan an upgrade ended (it has a revocation date and
                // a prorated refund, and no case), nor a request still open or declined.
                guard let revoked = transaction.revocationDate, known?.state == .granted || (known == nil && transaction.refundAmount == nil) else {
                    throw ServiceError(.wrongState, L10n.text("transaction %s is not refunded: only a granted refund is reversed", id.number))
                }
                decided = known ?? RefundCase(transactionID: id, state: .granted, reason: nil, requestedDate: nil, decidedDate: revoked)
                decided.state = .reversed
                decided.reversedDate = now
                hints = try reverseRefund(transaction, passDuration: passDuration, statements: statements, now: now)
            case (.grant, nil), (.decline, nil):
                throw ServiceError(.wrongState, L10n.text("transaction %s has no refund request: 'hangman refund request %s' asks for one", id.number, id.number))
            case (.grant, let state?), (.decline, let state?):
                throw ServiceError(.wrongState, "the refund of transaction \(id.number) is \(state.rawValue) already: it cannot be \(decision == .grant ? "granted" : "declined") now")
            }
            try statements.saveRefundCase(decided)
            beforeCommit()
            return (decided, hints)
        }
    }

    /// What a granted refund took comes back: the purchase counts again (its revocation date
    /// cleared), the pack is granted again, the hints taken back are credited (the entry
    /// `refund-reversed:<id>`, once), a subscription whose period was cut is live again when its
    /// period has not ended (else it ends as expired then), and passes are stacked again.
    private func reverseRefund(_ transaction: StoreTransaction, passDuration: StoreDuration?, statements: any LedgerStatements, now: Int64) throws -> Int {
        let id = transaction.id
        try statements.setRevocationDate(nil, for: id, now: now)
        try notify(.refundReversed, nil, transaction: id, original: transaction.originalTransactionID, statements: statements, now: now)
        if let original = transaction.originalTransactionID {
            let rows = try statements.subscriptions()
            if var row = rows.first(where: { $0.originalTransactionID == original }), row.endReason == "refunded" {
                let another = rows.contains { $0.group == row.group && $0.isLive }
                if row.expiresDate > now && !another {
                    row.endDate = nil
                    row.endReason = nil
                } else {
                    row.endDate = min(row.expiresDate, now)
                    row.endReason = "expired"
                }
                try statements.saveSubscription(row, now: now)
            }
            if let passDuration { try Self.restackPasses(transaction.productID, duration: passDuration, statements: statements, now: now) }
        } else if !transaction.isConsumable {
            try statements.grant(transaction.productID, by: id, now: now)
        }
        let taken = -(try statements.hintEntryAmount(key: "refund:\(id)") ?? 0)
        if taken > 0 {
            try Self.appendHints(statements, key: "refund-reversed:\(id)", amount: taken, reason: .refund, transaction: id, now: now)
        }
        // Streak freezes a refund took back come back too, once.
        let frozen = -(try statements.streakFreezeAmount(key: "refund:\(id)") ?? 0)
        if frozen > 0 {
            _ = try statements.appendStreakFreezes(
                key: "refund-reversed:\(id)", amount: frozen, reason: "refund", transaction: id, language: nil, coveredDay: nil, now: now)
        }
        return taken
    }
}

extension RefundCase {
    /// The `refund_cases` columns, in the order ``init(columns:)`` reads them.
    static let columns = "transaction_id, state, reason, requested_date, decided_date, reversed_date, consumption"

    /// The cases of one account (`account`: the parameter naming it, on PostgreSQL), or of every
    /// account with its id first (`account` nil), each with its consumption answer: the one kept
    /// on a decided case, else the latest report.
    static func selectWithConsumption(account: String?) -> String {
        let sameAccount = account == "" ? "" : " AND c.account_id = r.account_id"
        let columns = "r.transaction_id, r.state, r.reason, r.requested_date, r.decided_date, r.reversed_date, "
            + "coalesce(r.consumption, (SELECT body FROM consumption_reports AS c WHERE c.transaction_id = r.transaction_id\(sameAccount)))"
        switch account {
        case nil:
            // Every account's, each with its purchase's product and storefront.
            let purchase = "FROM transactions AS t WHERE t.account_id = r.account_id AND t.id = r.transaction_id"
            return "SELECT r.account_id, \(columns), (SELECT t.product_id \(purchase)), (SELECT t.storefront \(purchase)) FROM refund_cases AS r ORDER BY r.requested_date"
        case ""?: return "SELECT \(columns) FROM refund_cases AS r ORDER BY r.requested_date"
        case let parameter?: return "SELECT \(columns) FROM refund_cases AS r WHERE r.account_id = \(parameter) ORDER BY r.requested_date"
        }
    }

    init(columns row: [String?]) throws {
        guard row.count == 7, let id = row[0].flatMap(TransactionID.init(rawValue:)), let state = row[1].flatMap(State.init(rawValue:)) else {
            throw ServiceError(.storage, "the ledger database holds a malformed refund case")
        }
        let reason = try row[2].map { text throws(ServiceError) in
            guard let reason = RefundReason(rawValue: text) else { throw ServiceError(.storage, "the ledger database holds a malformed refund case") }
            return reason
        }
        self.init(
            transactionID: id, state: state, reason: reason, requestedDate: row[3].flatMap(Int64.init), decidedDate: row[4].flatMap(Int64.init),
            reversedDate: row[5].flatMap(Int64.init), consumption: row[6])
    }
}
