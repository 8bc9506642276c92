import CivilCalendar
import FoundationEssentials
import PackServiceAPI

/// What support does for a customer, by the same rules a purchase, an extension (the App Store
/// Server API's Extend a Subscription Renewal Date) and a refund follow.
public enum SupportAction: Sendable, Equatable {
    /// Gives hints, a pack, Remove Ads or a non-renewing pass, at no charge (``AccountService/grant(_:quantity:reason:by:requestKey:)``).
    case grant(ProductID, quantity: Int)
    /// Gives days of the customer's live subscription: its renewal date moves (1 to 90 days).
    case extend(days: Int)
    /// Refunds a purchase: revoked, its hints taken back, told to the developer's server.
    case refund(TransactionID)
    /// Sends a notification not delivered again now (the delivery log's retry).
    case retryNotification(String)

    /// `text` as support's reason for an action: trimmed, 1 to 500 characters, on one line.
    static func reason(_ text: String) throws(ServiceError) -> String {
        let reason = text.trimmingWhitespace()
        guard (1...500).contains(reason.count), !reason.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ServiceError(.invalidRequest, "an action on a customer says why: a reason of 1 to 500 characters, on one line")
        }
        return reason
    }

    var name: String {
        switch self {
        case .grant: "grant"
        case .extend: "extend"
        case .refund: "refund"
        case .retryNotification: "retry-notification"
        }
    }

    var subject: String {
        switch self {
        case .grant(let product, let quantity): quantity == 1 ? product.rawValue : "\(product.rawValue) x\(quantity)"
        case .extend(let days): "\(days) days"
        case .refund(let id): "transaction \(id.number)"
        case .retryNotification(let uuid): "notification \(uuid)"
        }
    }
}

extension SellerService {
    /// Takes `action` on `account` (through `service`, its door) for `reason`, by `admin` (an
    /// admin token's id, or `cli:` and the operator's user), recorded in the audit log first as
    /// started and then with its outcome (a refusal too); what came of it, in a sentence.
    /// `requestKey` makes a grant once.
    @discardableResult
    public func act(
        _ action: SupportAction, on account: String, reason: String, by admin: String, requestKey: String, service: AccountService, now: Int64
    ) throws(ServiceError) -> String {
        let reason = try SupportAction.reason(reason)
        guard try directory.lifetime(account: account) != nil else { throw ServiceError(.notFound, "no customer \(account)") }
        let id = try directory.beginAction(AdminAction(date: now, admin: admin, action: action.name, account: account, subject: action.subject, reason: reason))
        do {
            let outcome = try perform(action, reason: reason, by: admin, requestKey: requestKey, service: service)
            try directory.finishAction(id, outcome: outcome)
            return outcome
        } catch {
            try? directory.finishAction(id, outcome: "refused: " + error.message)
            throw error
        }
    }

    private func perform(_ action: SupportAction, reason: String, by admin: String, requestKey: String, service: AccountService) throws(ServiceError) -> String {
        switch action {
        case .grant(let product, let quantity):
            switch try service.grant(product, quantity: quantity, reason: reason, by: admin, requestKey: requestKey) {
            case .purchased(let transaction): return "granted: transaction \(transaction.id.number)"
            case .alreadyOwned: throw ServiceError(.wrongState, "the customer owns \(product) already")
            default: throw ServiceError(.wrongState, "the grant of \(product) did not complete: try it again with the same key")
            }
        case .extend(let days):
            guard let live = try service.subscriptions().first(where: { $0.isAutoRenewable && ($0.state == .active || $0.state == .trial || $0.state == .gracePeriod) })
            else { throw ServiceError(.wrongState, "the customer has no live subscription to give days of") }
            switch try service.extendRenewal(live.originalTransactionID, days: days) {
            case .success(let status): return "extended: \(status.productID) renews on \(UTCDateTime(millisecondsSince1970: status.expiresDate).dateText)"
            case .failure(let refusal): throw ServiceError(.wrongState, "the App Store's rules refuse the extension: \(refusal)")
            }
        case .retryNotification(let uuid):
            guard try service.retryNotification(uuid) else { throw ServiceError(.notFound, "the customer has no notification \(uuid) waiting to be delivered") }
            return "due now: the next delivery round sends it"
        case .refund(let transaction):
            guard try service.transaction(transaction) != nil else { throw ServiceError(.notFound, "the customer has no transaction \(transaction.number)") }
            let refunded = try service.refund(transaction)
            return "refunded: transaction \(transaction.number)" + (refunded.hintsTakenBack > 0 ? ", \(refunded.hintsTakenBack) hints taken back" : "")
        }
    }
}

extension SellerService {
    /// The delivery log: every account's notifications not delivered (waiting for their next
    /// attempt, or given up), newest first, `limit` at most, each with its last attempt. On
    /// PostgreSQL from their index; on SQLite each account's file is read.
    public func undeliveredNotifications(limit: Int = 100) throws(ServiceError) -> [UndeliveredNotification] {
        if let ledgers { return try ledgers.undeliveredNotifications(limit: limit) }
        let all = try SQLiteLedgers.eachStatements(sqliteFolder ?? "") { account, statements throws(ServiceError) in
            try statements.undeliveredNotifications(limit: limit).map { UndeliveredNotification(account: account, notification: $0.0, lastAttempt: $0.1) }
        }
        return Array(all.sorted { $0.notification.created > $1.notification.created }.prefix(limit))
    }
}
