import CivilCalendar
import PackServiceAPI
import Seller

/// The seller's numbers over a range of days, composed once for `hangman report` and the
/// dashboard alike: the sales (revenue, units, refunds) with the subscriptions' states, and, when
/// asked, the players. The storefront is checked here, with one sentence.
public struct SellerNumbers: Sendable {
    public var sales: SalesOverview
    /// The players' days (every storefront's: a player is not in one storefront); `nil` unless asked.
    public var players: PlayersOverview?
    /// The numbers the ledgers keep for the range, the overview was summed from.
    public var days: SalesDays
    /// The refund requests made in the range, oldest first, with their consumption answers; `nil` unless asked.
    public var refunds: [AccountRefundCase]?

    /// The numbers of `firstDay...lastDay` (days since 1970) in `ledgers`, for sale in `catalog`,
    /// in one storefront or all (`nil`), at `now`; with the players when `players`; without the
    /// sales (an empty overview, nothing read) when not `sales`.
    public init(
        _ ledgers: SalesLedgers, catalog: Catalog, firstDay: Int64, lastDay: Int64, storefront: String?, now: Int64, players: Bool, refunds: Bool = false,
        sales readsSales: Bool = true
    ) throws(ServiceError) {
        try Self.check(storefront: storefront, in: catalog)
        days = readsSales ? try ledgers.salesDays(firstDay: firstDay, lastDay: lastDay, storefront: storefront) : SalesDays(rows: [], liveBefore: [:])
        let facts = readsSales ? try ledgers.subscriptions(catalog: catalog, now: now, endedSince: firstDay * UTCDateTime.millisecondsPerDay) : []
        sales = SalesOverview(days, subscriptions: facts, catalog: catalog, firstDay: firstDay, lastDay: lastDay, storefront: storefront, now: now)
        if refunds {
            let days = firstDay...lastDay
            self.refunds = try ledgers.refundCases().filter { refund in
                // One storefront's: those of its purchases.
                guard storefront == nil || (refund.storefront ?? Storefront.defaultCode) == storefront else { return false }
                return (refund.refundCase.requestedDate ?? refund.refundCase.decidedDate).map { days.contains(UTCDateTime.day(ofMilliseconds: $0)) } ?? false
            }
        }
        self.players = players
            ? PlayersOverview(try ledgers.playerDays(firstDay: firstDay, lastDay: lastDay), accountsMade: try ledgers.accountsMade(firstDay: firstDay, lastDay: lastDay),
                firstDay: firstDay, lastDay: lastDay) : nil
    }

    /// Refuses a storefront the catalog does not sell in.
    public static func check(storefront: String?, in catalog: Catalog) throws(ServiceError) {
        guard let storefront, !catalog.storefrontCodes.contains(storefront) else { return }
        throw ServiceError(.invalidRequest, "no storefront '\(storefront)' in the catalog: it sells in \(catalog.storefrontCodes.joined(separator: ", "))")
    }
}
