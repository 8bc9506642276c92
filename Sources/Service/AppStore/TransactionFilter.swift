import PackServiceAPI

/// Get Transaction History's and Get Refund History's parameters, checked as Apple checks them.
public struct TransactionFilter: Sendable {
    public var productIDs: Set<String> = []
    /// `AUTO_RENEWABLE`, `NON_RENEWABLE`, `CONSUMABLE`, `NON_CONSUMABLE`.
    public var productTypes: Set<String> = []
    public var groups: Set<String> = []
    public var start: Int64?
    public var end: Int64?
    public var revoked: Bool?
    public var descending = false
    public var catalog: Catalog?

    /// Apple's refusal of a parameter.
    public typealias Refusal = AppStoreAPIError

    /// The parameters of a request's query: `query` its single values, `values` every value of a
    /// parameter given several times.
    public static func parse(query: [String: String], values: (String) -> [String], catalog: Catalog) -> Result<TransactionFilter, Refusal> {
        var filter = TransactionFilter(catalog: catalog)
        filter.productIDs = Set(values("productId"))
        filter.groups = Set(values("subscriptionGroupIdentifier"))
        let types = values("productType")
        guard types.allSatisfy({ ["AUTO_RENEWABLE", "NON_RENEWABLE", "CONSUMABLE", "NON_CONSUMABLE"].contains($0) }) else {
            return .failure(.invalidProductType)
        }
        filter.productTypes = Set(types)
        if let text = query["startDate"] {
            guard let date = Int64(text), date >= 0 else { return .failure(.invalidStartDate) }
            filter.start = date
        }
        if let text = query["endDate"] {
            guard let date = Int64(text), date >= 0 else { return .failure(.invalidEndDate) }
            filter.end = date
        }
        if let start = filter.start, let end = filter.end, start > end { return .failure(.startDateAfterEndDate) }
        if let text = query["revoked"] {
            switch text.lowercased() {
            case "true": filter.revoked = true
            case "false": filter.revoked = false
            default: return .failure(.invalidRevoked)
            }
        }
        switch query["sort"] {
        case nil, "ASCENDING"?: break
        case "DESCENDING"?: filter.descending = true
        default: return .failure(.invalidSort)
        }
        return .success(filter)
    }

    /// Whether the filter keeps `transaction`.
    public func admits(_ transaction: StoreTransaction) -> Bool {
        if !productIDs.isEmpty, !productIDs.contains(transaction.productID.rawValue) { return false }
        let product = catalog?.product(transaction.productID)
        if !productTypes.isEmpty {
            let type: String =
                switch product?.kind {
                case .consumable?: "CONSUMABLE"
                case .autoRenewable?: "AUTO_RENEWABLE"
                case .nonRenewing?: "NON_RENEWABLE"
                default: transaction.isConsumable ? "CONSUMABLE" : "NON_CONSUMABLE"
                }
            if !productTypes.contains(type) { return false }
        }
        if !groups.isEmpty, !groups.contains(product?.autoRenewable?.group ?? "") { return false }
        if let start, transaction.purchaseDate < start { return false }
        if let end, transaction.purchaseDate >= end { return false }
        if let revoked, (transaction.revocationDate != nil) != revoked { return false }
        return true
    }

    /// Apple's pages hold this many.
    public static let pageSize = 20

    /// One page of `transactions` (the account's, as Apple shows them): those the filter keeps
    /// (refunded only, for Get Refund History), in the order asked, after `revision`; whether
    /// more follow, and the revision the next page starts after.
    public func page(
        of transactions: [StoreTransaction], refundsOnly: Bool, after revision: String?
    ) -> Result<(page: [StoreTransaction], hasMore: Bool, revision: String), Refusal> {
        var chosen = transactions.filter { admits($0) && (!refundsOnly || $0.revocationDate != nil) }
        chosen.sort { ($0.purchaseDate, $0.id.rawValue) < ($1.purchaseDate, $1.id.rawValue) }
        if descending { chosen.reverse() }
        if let revision {
            guard let cursor = Self.cursor(revision) else { return .failure(.invalidRequestRevision) }
            chosen = chosen.filter { item in
                let key = (item.purchaseDate, item.id.rawValue)
                return descending ? key < cursor : key > cursor
            }
        }
        let page = Array(chosen.prefix(Self.pageSize))
        let last = page.last ?? transactions.last
        return .success((page, chosen.count > page.count, last.map(Self.revision) ?? "0.0000000000000000"))
    }

    /// The revision after `transaction`: its purchase date and id, which the next page starts after.
    public static func revision(_ transaction: StoreTransaction) -> String { "\(transaction.purchaseDate).\(transaction.id.rawValue)" }

    /// The place a revision names: a purchase date and a transaction id.
    public static func cursor(_ revision: String) -> (Int64, String)? {
        let parts = revision.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = Int64(parts[0]), TransactionID(rawValue: String(parts[1])) != nil || parts[1] == "0000000000000000" else { return nil }
        return (date, String(parts[1]))
    }

    /// The place a notification history's pagination token names: a date and a notification's UUID.
    public static func notificationCursor(_ token: String) -> (Int64, String)? {
        let parts = token.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let date = Int64(parts[0]), parts[1].utf8.count == 36 else { return nil }
        return (date, String(parts[1]))
    }
}
