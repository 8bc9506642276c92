import PackServiceWire

/// Get Notification History (`POST /inApps/v1/notifications/history`) as Apple's rules have it:
/// the request checked (a start and an end, at most one of a type and a customer), which
/// notifications it shows (sent at least once, in the dates, of the type, failed only), their
/// order (oldest first) and its pages (``TransactionFilter/pageSize`` each, a token for the next).
public struct NotificationHistoryQuery: Sendable {
    public var start: Int64
    public var end: Int64
    public var type: String?
    public var subtype: String?
    /// One customer: any of its transaction ids.
    public var transactionId: String?
    public var onlyFailures: Bool
    /// After the notification a page ended with (`paginationToken`).
    public var after: (created: Int64, uuid: String)?

    /// The request's body and token, checked; `knownType`: whether a notification type exists.
    public static func parse(body: [UInt8], paginationToken: String?, knownType: (String) -> Bool) -> Result<Self, AppStoreAPIError> {
        guard let asked = try? Wire.decode(NotificationHistoryRequest.self, from: body) else { return .failure(.generalBadRequest) }
        guard let start = asked.startDate, start >= 0 else { return .failure(.invalidStartDate) }
        guard let end = asked.endDate, end >= 0 else { return .failure(.invalidEndDate) }
        guard start <= end else { return .failure(.startDateAfterEndDate) }
        if asked.notificationType != nil, asked.transactionId != nil { return .failure(.multipleFiltersSupplied) }
        if let type = asked.notificationType, !knownType(type) { return .failure(.invalidNotificationType) }
        var query = NotificationHistoryQuery(
            start: start, end: end, type: asked.notificationType, subtype: asked.notificationSubtype, transactionId: asked.transactionId,
            onlyFailures: asked.onlyFailures == true)
        if let token = paginationToken {
            guard let cursor = TransactionFilter.notificationCursor(token) else { return .failure(.invalidPaginationToken) }
            query.after = cursor
        }
        return .success(query)
    }

    /// Whether a notification is in the answer: attempted, sent in the dates, of the type and
    /// subtype asked, and not delivered when only failures are asked.
    public func shows(created: Int64, type: String, subtype: String?, delivered: Bool, attempted: Bool) -> Bool {
        attempted && created >= start && created < end && (self.type.map { $0 == type } ?? true)
            && (self.subtype.map { $0 == subtype } ?? true) && !(onlyFailures && delivered)
    }

    /// The page after the token of `items` (those it shows), oldest first; whether more follow and
    /// the token that asks for them.
    public func page<T>(_ items: [T], key: (T) -> (created: Int64, uuid: String)) -> (page: [T], hasMore: Bool, token: String?) {
        var sorted = items.sorted { key($0) < key($1) }
        if let after { sorted = sorted.filter { key($0) > after } }
        let page = Array(sorted.prefix(TransactionFilter.pageSize))
        let more = sorted.count > page.count
        return (page, more, more ? page.last.map { "\(key($0).created).\(key($0).uuid)" } : nil)
    }
}

extension ExtendRequest {
    /// Extend a Subscription Renewal Date's request, checked: 1 to 90 days, a reason 0 to 3, a
    /// request identifier of 1 to 128 bytes.
    public func checked() -> Result<(days: Int, reason: Int, identifier: String), AppStoreAPIError> {
        guard let days = extendByDays, (1...90).contains(days) else { return .failure(.invalidExtendByDays) }
        guard let reason = extendReasonCode, (0...3).contains(reason) else { return .failure(.invalidExtendReasonCode) }
        guard let identifier = requestIdentifier, (1...128).contains(identifier.utf8.count) else { return .failure(.invalidRequestIdentifier) }
        return .success((days, reason, identifier))
    }
}
