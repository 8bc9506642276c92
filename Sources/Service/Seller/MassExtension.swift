import PackServiceAPI

/// Apple's Extend Subscription Renewal Dates for All Active Subscribers: one request, as the
/// service's own ledger keeps it while servers carry it out, account by account.
public struct MassExtension: Sendable, Equatable {
    /// The developer's identifier for it (Apple's `requestIdentifier`): one request per identifier.
    public var requestIdentifier: String
    public var productID: ProductID
    public var days: Int
    /// Apple's `extendReasonCode` (0 to 3).
    public var reason: Int
    /// The storefronts it is limited to (alpha-3 codes, as the catalog names them); empty: all.
    public var storefronts: [String]
    public var requestedDate: Int64
    /// The last account carried out, in the listing's order; `nil` before the first.
    public var lastAccount: String?
    public var succeeded: Int
    public var failed: Int
    public var completeDate: Int64?

    public init(
        requestIdentifier: String, productID: ProductID, days: Int, reason: Int, storefronts: [String], requestedDate: Int64, lastAccount: String? = nil,
        succeeded: Int = 0, failed: Int = 0, completeDate: Int64? = nil
    ) {
        self.requestIdentifier = requestIdentifier
        self.productID = productID
        self.days = days
        self.reason = reason
        self.storefronts = storefronts
        self.requestedDate = requestedDate
        self.lastAccount = lastAccount
        self.succeeded = succeeded
        self.failed = failed
        self.completeDate = completeDate
    }

    /// The `mass_extensions` columns, in the order ``init(columns:)`` reads them.
    static let columns = "request_identifier, product_id, days, reason, storefronts, requested_date, last_account, succeeded, failed, complete_date"

    init(columns row: [String?]) throws(ServiceError) {
        guard row.count == 10, let id = row[0], let product = row[1].flatMap(ProductID.init(rawValue:)), let days = row[2].flatMap(Int.init),
            let reason = row[3].flatMap(Int.init), let requested = row[5].flatMap(Int64.init), let succeeded = row[7].flatMap(Int.init),
            let failed = row[8].flatMap(Int.init)
        else { throw ServiceError(.storage, "the ledger database holds a malformed mass extension") }
        self.init(
            requestIdentifier: id, productID: product, days: days, reason: reason,
            storefronts: (row[4] ?? "").split(separator: ",").map(String.init), requestedDate: requested, lastAccount: row[6], succeeded: succeeded,
            failed: failed, completeDate: row[9].flatMap(Int64.init))
    }
}

/// What one account made of a mass extension.
public enum MassExtensionStep: Sendable, Equatable {
    /// Its subscription of the product was extended (`RENEWAL_EXTENDED`).
    case extended
    /// It was, by an earlier run of the same request.
    case extendedBefore
    /// Its subscription could not be (a free trial: `RENEWAL_EXTENSION` `FAILURE`).
    case failed
    /// It has no live subscription of the product in the request's storefronts.
    case notSubscribed
}
