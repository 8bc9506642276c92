import WordPacks

/// The outbox's rules, once for both engines: which change is told as which notification (Apple's
/// Server Notifications V2 types), written in the change's transaction; and a due notification
/// held by one sender at a time, each attempt recorded, the next one scheduled.
extension AccountLedger {
    /// Writes a notification of the change being made in `statements`' transaction, when the
    /// ledger notifies. `now` is the store's time (the payload's date); it is due at once
    /// (`nextAttempt` 0: senders schedule on the real clock, which a sandbox's store clock leads).
    func notify(
        _ kind: NotificationKind, _ subtype: String?, transaction: TransactionID?, original: TransactionID?, statements: any LedgerStatements, now: Int64
    ) throws {
        guard notifies else { return }
        try statements.insertNotification(
            OutboxNotification(
                uuid: OutboxNotification.newUUID(), type: kind.rawValue, subtype: subtype, transaction: transaction,
                originalTransaction: original, created: now, nextAttempt: 0, delivered: nil, attempts: 0))
    }

    /// A subscription's notification: it tells of the transaction of its current period.
    func notify(_ kind: NotificationKind, _ subtype: String?, _ row: SubscriptionRow, statements: any LedgerStatements, now: Int64) throws {
        guard notifies else { return }
        let current = try statements.transaction(original: row.originalTransactionID, period: row.period)?.id ?? row.originalTransactionID
        try notify(kind, subtype, transaction: current, original: row.originalTransactionID, statements: statements, now: now)
    }

    /// What a delivery tells: a one-time charge; a subscription's first period (an initial buy, a
    /// resubscription to a group the account had, or an upgrade within a live one); a renewal
    /// (recovered from billing retry when it was in it).
    func notifyDelivery(_ transaction: StoreTransaction, product: Product?, statements: any LedgerStatements, now: Int64) throws {
        guard let original = transaction.originalTransactionID, let terms = product?.autoRenewable else {
            try notify(.oneTimeCharge, nil, transaction: transaction.id, original: transaction.originalTransactionID, statements: statements, now: now)
            return
        }
        let group = try statements.subscriptions().filter { $0.group == terms.group }
        if original == transaction.id {
            var (kind, subtype): (NotificationKind, String) =
                group.contains(where: \.isLive) ? (.didChangeRenewalPref, "UPGRADE") : group.isEmpty ? (.subscribed, "INITIAL_BUY") : (.subscribed, "RESUBSCRIBE")
            // A subscription an offer code starts is told as the code's redemption, with the same subtype.
            if transaction.offerCode != nil { kind = .offerRedeemed }
            try notify(kind, subtype, transaction: transaction.id, original: original, statements: statements, now: now)
        } else {
            let recovering = group.first { $0.originalTransactionID == original }?.billingRetrySince != nil
            try notify(.didRenew, recovering ? "BILLING_RECOVERY" : nil, transaction: transaction.id, original: original, statements: statements, now: now)
        }
    }

    /// Holds up to `limit` notifications due at `now` for this sender until `until`, in one
    /// transaction: another server asking meanwhile gets none of them.
    func claimNotifications(now: Int64, until: Int64, limit: Int) throws(ServiceError) -> [OutboxNotification] {
        try engine.write { statements in
            try statements.dueNotifications(now: now, limit: limit).filter { try statements.leaseNotification($0.uuid, until: until, now: now) }
        }
    }

    /// Records an attempt to deliver `uuid` and when the next one is due (`nil`: delivered, or the
    /// schedule is spent). A delivery also lets go of the payloads of the account's notifications
    /// delivered more than `retention` before it (milliseconds): their records stay, so an
    /// account's outbox does not keep every payload for ever.
    func recordAttempt(
        _ uuid: String, _ attempt: NotificationAttempt, delivered: Bool, nextAttempt: Int64?, payload: String?, retention: Int64
    ) throws(ServiceError) {
        try engine.write { statements in
            try statements.recordAttempt(uuid, attempt, delivered: delivered, nextAttempt: nextAttempt, payload: payload)
            if delivered { try statements.dropNotificationPayloads(deliveredBefore: attempt.date - retention) }
        }
    }

    /// Makes the notification `uuid`, not delivered, due at `now`.
    func retryNotification(_ uuid: String, now: Int64) throws(ServiceError) -> Bool {
        try engine.write { statements in try statements.retryNotification(uuid, now: now) }
    }

    /// Every notification with its attempts, oldest first.
    func notificationHistory() throws(ServiceError) -> [(notification: OutboxNotification, attempts: [NotificationAttempt])] {
        try engine.read { statements in
            try statements.notifications().map { ($0, try statements.notificationAttempts($0.uuid)) }
        }
    }

    /// When the next notification is due, if any is.
    func nextNotificationDue() throws(ServiceError) -> Int64? {
        try engine.read { statements in try statements.nextNotificationDue() }
    }

    /// Adds a TEST notification (the service's own ledger keeps them); its UUID.
    func insertTestNotification(now: Int64) throws(ServiceError) -> String {
        let uuid = OutboxNotification.newUUID()
        try engine.write { statements in
            try statements.insertNotification(
                OutboxNotification(
                    uuid: uuid, type: NotificationKind.test.rawValue, subtype: nil, transaction: nil, originalTransaction: nil, created: now,
                    nextAttempt: 0, delivered: nil, attempts: 0))
        }
        return uuid
    }

    /// Moves the renewal date of the live subscription `original` by `days` (its current period
    /// ends later), telling it as RENEWAL_EXTENDED; the row after, or `nil` when the subscription is
    /// not live (Apple refuses an expired one).
    func extendRenewal(original: TransactionID, days: Int, now: Int64) throws(ServiceError) -> Result<SubscriptionRow, RenewalExtensionRefusal> {
        try engine.write { statements in
            guard var row = try statements.subscriptions().first(where: { $0.originalTransactionID == original }), row.isLive else {
                return .failure(.ineligible("the subscription is not active"))
            }
            guard !row.inTrial else { return .failure(.ineligible("a free trial's date is not extended")) }
            // As Apple: at most two extensions per subscription in 365 days.
            guard try statements.renewalExtensions(original: original, since: now - 365 * 86_400_000) < 2 else { return .failure(.tooMany) }
            _ = try statements.recordRenewalExtension(original: original, days: days, now: now, request: nil, failed: false)
            row.expiresDate += Int64(days) * 86_400_000
            try statements.saveSubscription(row, now: now)
            if let current = try statements.transaction(original: original, period: row.period) {
                try statements.setExpiresDate(row.expiresDate, for: current.id)
            }
            try notify(.renewalExtended, nil, row, statements: statements, now: now)
            return .success(row)
        }
    }

    /// Carries out `request` for this account: its live subscription of the product (in one of
    /// the request's storefronts) is extended once per request (`RENEWAL_EXTENDED`), a free
    /// trial's is not (`RENEWAL_EXTENSION` `FAILURE`).
    func extendForAll(_ request: MassExtension, now: Int64) throws(ServiceError) -> MassExtensionStep {
        try engine.write { statements in
            guard var row = try statements.subscriptions().first(where: { $0.productID == request.productID && $0.isLive }) else { return .notSubscribed }
            if !request.storefronts.isEmpty, !request.storefronts.contains(try statements.storefront() ?? Storefront.defaultCode) { return .notSubscribed }
            // Once per request and subscription, whatever it came to (a run again counts it the same).
            if let before = try statements.massExtensionOutcome(original: row.originalTransactionID, request: request.requestIdentifier) {
                return before == "failed" ? .failed : .extendedBefore
            }
            let failed = row.inTrial || row.billingRetrySince != nil
            _ = try statements.recordRenewalExtension(
                original: row.originalTransactionID, days: request.days, now: now, request: request.requestIdentifier, failed: failed)
            if failed {
                try notify(.renewalExtension, "FAILURE", row, statements: statements, now: now)
                return .failed
            }
            row.expiresDate += Int64(request.days) * 86_400_000
            try statements.saveSubscription(row, now: now)
            if let current = try statements.transaction(original: row.originalTransactionID, period: row.period) {
                try statements.setExpiresDate(row.expiresDate, for: current.id)
            }
            try notify(.renewalExtended, nil, row, statements: statements, now: now)
            return .extended
        }
    }

    /// The service's ledger: keeps a new mass extension (`false`: its identifier was taken).
    func insertMassExtension(_ request: MassExtension) throws(ServiceError) -> Bool {
        try engine.write { statements in try statements.insertMassExtension(request) }
    }

    func massExtension(_ requestIdentifier: String) throws(ServiceError) -> MassExtension? {
        try engine.read { statements in try statements.massExtension(requestIdentifier) }
    }

    /// The service's ledger: the oldest incomplete mass extension no server holds, held until
    /// `until`; and, when there is none to hold, whether one is held by another server.
    func claimMassExtension(now: Int64, until: Int64) throws(ServiceError) -> (held: MassExtension?, waiting: Bool) {
        try engine.write { statements in
            if let held = try statements.claimMassExtension(now: now, until: until) { return (held, true) }
            return (nil, try statements.hasIncompleteMassExtension())
        }
    }

    /// The service's ledger: how far a mass extension went; once complete, `RENEWAL_EXTENSION`
    /// `SUMMARY` (its payload, signed by the caller, kept with it).
    func saveMassExtension(_ request: MassExtension, heldUntil: Int64, summary: (uuid: String, payload: String)?) throws(ServiceError) {
        try engine.write { statements in
            // Another server took it when this one's hold ran out: its pass counts, not this one.
            guard try statements.saveMassExtension(request, heldUntil: heldUntil) else { return }
            if let summary, let complete = request.completeDate {
                try statements.insertNotification(
                    OutboxNotification(
                        uuid: summary.uuid, type: NotificationKind.renewalExtension.rawValue, subtype: "SUMMARY", transaction: nil, originalTransaction: nil,
                        created: complete, nextAttempt: 0, delivered: nil, attempts: 0, signedPayload: summary.payload))
            }
        }
    }

    /// Keeps what a backend reported of a consumable's use.
    func saveConsumption(_ transaction: TransactionID, body: String, now: Int64) throws(ServiceError) {
        try engine.write { statements in try statements.saveConsumption(transaction, body: body, now: now) }
    }
}
