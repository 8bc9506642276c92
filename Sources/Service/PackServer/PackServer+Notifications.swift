import AppStore
import CertificateChain
import Dispatch
import FoundationEssentials
import HTTPClient
import HTTPServer
import PackServiceWire
import Seller
import Synchronization

/// Server Notifications V2, sent from the ledgers' outboxes: each account's notifications are
/// written in the transactions of the changes they tell of; a sender (``deliverDueNotifications(now:)``,
/// run by ``PackServerProcess`` beside the requests) holds the due ones in the ledger (so servers
/// sharing the database send each one at a time), posts `{"signedPayload": JWS}`, records the
/// attempt, and schedules the next on failure (`notificationRetry`).
extension PackServer {
    /// The ledger of the service's own notifications (TEST): an account id no account gets (ids
    /// are random, and this one is never in the accounts' directory, so no token reaches it).
    static let serviceLedger = "0000000000000000"

    /// Remembers that `account`'s outbox may hold something due (a SQLite folder has no query
    /// across accounts; PostgreSQL is asked directly).
    func noteOutbox(_ account: String, due: Int64 = 0) {
        guard configuration.notificationURL != nil, ledgers == nil else { return }
        outboxes.withLock { known in known[account] = min(known[account] ?? due, due) }
    }

    /// The SQLite accounts whose outboxes hold something, read from their files: at start, and
    /// now and then (another server of the folder may have died with notifications due).
    public func scanOutboxes() {
        guard configuration.notificationURL != nil, ledgers == nil else { return }
        let names: [String]
        do {
            names = try seller.accountsWithLedgers()
        } catch {
            notificationLog.withLock { $0 }?("notifications: \(error.message)")
            return
        }
        for name in names {
            if let due = try? stores.with(name, open: { () throws(ServiceError) in try store(for: name) }, { service throws(ServiceError) in try service.nextNotificationDue() }) {
                noteOutbox(name, due: due)
            }
        }
    }

    /// One pass of the sender at `now` (the real clock): every due notification this server can
    /// hold is sent once. How many attempts were made.
    @discardableResult
    public func deliverDueNotifications(now: Int64) -> Int {
        guard let url = configuration.notificationURL else { return 0 }
        let accounts: [String]
        if let ledgers {
            guard let due = try? ledgers.notificationsDue(now: now, limit: 64) else { return 0 }
            accounts = due.accounts
            notificationsPending.store(due.pending, ordering: .relaxed)
        } else {
            let known = outboxes.withLock { $0 }
            accounts = known.filter { $0.value <= now }.map(\.key)
        }
        // Customers side by side (at most ``PackServerConfiguration/notificationSenders``), each
        // customer's notifications one at a time: a backend slow to answer one customer's holds
        // back that customer's only. Each notification is still held by one sender (its lease).
        let next = Atomic<Int>(0)
        let attempts = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(configuration.notificationSenders, accounts.count))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < accounts.count else { return }
                attempts.add(deliver(account: accounts[index], url: url, now: now), ordering: .relaxed)
            }
        }
        if ledgers == nil {
            notificationsPending.store(outboxes.withLock { $0.count }, ordering: .relaxed)
        }
        return attempts.load(ordering: .relaxed)
    }

    private func deliver(account: String, url: String, now: Int64) -> Int {
        let open = { () throws(ServiceError) -> AccountService in try self.store(for: account) }
        var sent = 0
        // One at a time, each held for one delivery's time and a margin: a server that dies
        // holds back only the one it was sending, and not for long.
        while sent < 20 {
            let now = max(now, configuration.clock.now())
            let lease = now + Int64(configuration.notificationTimeout) * 1000 + 5000
            guard let claimed = try? stores.with(account, open: open, { service throws(ServiceError) in
                try service.claimNotifications(now: now, until: lease, limit: 1)
            }), let notification = claimed.first else { break }
            sent += 1
            let payload: String
            do {
                // Signed once, at the first attempt: a retry sends the same bytes, as Apple's do (the
                // snapshot stays the first attempt's).
                payload = try stores.with(account, open: open) { service throws(ServiceError) in
                    try self.payload(of: notification, account: account, service: service)
                }
            } catch {
                // Left held until its lease ends, then tried again (a ledger that failed a read).
                notificationLog.withLock { $0?("notification \(notification.uuid) \(notification.type): not sent: \(error.message)") }
                continue
            }
            let attempt = post((try? Wire.encode(["signedPayload": payload])) ?? [], to: url)
            let delivered = attempt.result == "SUCCESS"
            let number = notification.attempts + 1
            let next: Int64? = delivered || number > configuration.notificationRetry.count ? nil : attempt.date + configuration.notificationRetry[number - 1]
            metrics.notification(delivered ? "delivered" : "failed")
            let said = delivered ? "delivered" : next == nil ? "failed, given up" : "failed, next attempt in \((next! - attempt.date + 999) / 1000) s"
            let status = attempt.httpStatus.map { " HTTP \($0)" } ?? ""
            notificationLog.withLock {
                $0?("notification \(notification.uuid) \(notification.type)\(notification.subtype.map { "/" + $0 } ?? "") account=\(account) attempt \(number): \(attempt.result)\(status), \(said)")
            }
            do {
                try stores.with(account, open: open) { service throws(ServiceError) in
                    try service.recordNotificationAttempt(
                        notification.uuid, attempt, delivered: delivered, nextAttempt: next, payload: payload,
                        payloadRetention: Int64(configuration.notificationPayloadDays) * 86_400_000)
                }
            } catch {
                notificationLog.withLock { $0?("notification \(notification.uuid): the attempt is not recorded: \(error.message)") }
            }
        }
        if ledgers == nil {
            // Kept as it was when the ledger cannot be read now: it is looked at again next pass.
            if let due = try? stores.with(account, open: open, { service throws(ServiceError) in try service.nextNotificationDue() as Int64?? }) {
                outboxes.withLock { known in known[account] = due }
            }
        }
        return sent
    }

    /// One POST of a notification, as Apple names its outcome.
    private func post(_ body: [UInt8], to url: String) -> NotificationAttempt {
        let started = configuration.clock.now()
        do {
            let answer = try HTTPClient.perform(
                method: "POST", url: url, headers: [("Content-Type", "application/json")], body: body,
                timeoutSeconds: configuration.notificationTimeout, maxBody: 64 << 10)
            let result = (200..<300).contains(answer.status) ? "SUCCESS" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
            return NotificationAttempt(date: started, result: result, httpStatus: answer.status)
        } catch {
            let result =
                error.isTimeout ? "TIMED_OUT" : error.isTLS ? "TLS_ISSUE" : error.isNotConnected ? "NO_RESPONSE" : error.isTooLarge ? "INVALID_RESPONSE" : "OTHER"
            return NotificationAttempt(date: started, result: result, httpStatus: error.status)
        }
    }

    /// What is sent for `notification`: the payload its first attempt signed and sent, or, before
    /// any, one signed now.
    func payload(of notification: OutboxNotification, account: String, service: AccountService) throws(ServiceError) -> String {
        if let kept = notification.signedPayload { return kept }
        return try signedNotification(notification, account: account, service: service)
    }

    /// The notification as Apple signs it: `ResponseBodyV2DecodedPayload`, with the transaction
    /// and the subscription's renewal as they are in the ledger now.
    func signedNotification(_ notification: OutboxNotification, account: String, service: AccountService) throws(ServiceError) -> String {
        let catalog = self.catalog
        let environment = AppStoreTransaction.environmentName(configuration.environment)
        var data = AppStoreNotificationPayload.Data(
            bundleId: catalog.bundleIdentifier, appAppleId: catalog.appAppleID, environment: environment, signedTransactionInfo: nil, signedRenewalInfo: nil, status: nil)
        let signedDate = notification.created
        let app = try service.appTransaction().id
        if let id = notification.transaction, let transaction = try service.transaction(id) {
            data.signedTransactionInfo = try sign(AppStoreTransaction(transaction, appTransactionID: app, catalog: catalog, environment: configuration.environment, signedDate: signedDate))
            if notification.type == NotificationKind.consumptionRequest.rawValue {
                data.consumptionRequestReason = try service.refundCase(id)?.reason?.rawValue
            }
        }
        if let original = notification.originalTransaction, let status = try service.subscriptionStatus(original), status.isAutoRenewable {
            let first = try service.transaction(original)?.purchaseDate
            data.signedRenewalInfo = try sign(AppStoreRenewalInfo(status, appTransactionID: app, firstPurchase: first, environment: configuration.environment, signedDate: signedDate))
            data.status = AppStoreSubscriptionStatus.number(status.state)
        }
        return try sign(
            AppStoreNotificationPayload(
                notificationType: notification.type, subtype: notification.subtype, notificationUUID: notification.uuid, signedDate: signedDate, data: data))
    }

    /// `value` as a JWS of the data folder's chain.
    func sign<T: Encodable>(_ value: T) throws(ServiceError) -> String {
        do {
            return try appStoreChain.jws(try Wire.encode(value))
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(.storage, "cannot sign in Apple's shape: \(error)")
        }
    }
}
