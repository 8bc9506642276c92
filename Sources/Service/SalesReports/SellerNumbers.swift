import CivilCalendar
import Seller

/// The seller's numbers over a range of days, composed once for `hangman report` and the
/// dashboard alike: the sales (revenue, units, refunds) with the subscriptions' states, and, when
/// asked, the players. The storefront is checked here, with one sentence.
public struct SellerNumbers: Sendable {
    public var sales: SalesOverview
    /// The players' days (every storefront's: a player is not in one storefront); `nil` unless asked.
    public var players: PlayersOverview?
    /// Every account's transactions the numbers were made from.
    public var transactions: [AccountTransaction]
    /// The refund requests made in the range, oldest first, with their consumption answers; `nil` unless asked.
    public var refunds: [AccountRefundCase]?

    /// The numbers of `firstDay...lastDay` (days since 1970) in `ledgers`, for sale in `catalog`,
    /// in one storefront or all (`nil`), at `now`; with the players when `players`.
    public init(
        _ ledgers: SalesLedgers, catalog: Catalog, firstDay: Int64, lastDay: Int64, storefront: String?, now: Int64, players: Bool, refunds: Bool = false
    ) throws(ServiceError) {
        try Self.check(storefront: storefront, in: catalog)
        transactions = try ledgers.transactions()
        sales = SalesOverview(
            transactions, catalog: catalog, firstDay: firstDay, lastDay: lastDay, storefront: storefront, now: now, clockOffsets: try ledgers.clockOffsets())
        sales.countStates(try ledgers.subscriptions(catalog: catalog, now: now), transactions: transactions, firstDay: firstDay, lastDay: lastDay)
        if refunds {
            let days = firstDay...lastDay
            // One storefront's: those of its purchases.
            let inStorefront = storefront.map { code in Set(transactions.filter { $0.transaction.storefront == code }.map(\.transaction.id)) }
            self.refunds = try ledgers.refundCases().filter { refund in
                guard inStorefront?.contains(refund.refundCase.transactionID) ?? true else { return false }
                return (refund.refundCase.requestedDate ?? refund.refundCase.decidedDate).map { days.contains(UTCDateTime.day(ofMilliseconds: $0)) } ?? false
            }
        }
        self.players = players ? PlayersOverview(try ledgers.activity(), accountsMade: try ledgers.accountsMade(), firstDay: firstDay, lastDay: lastDay) : nil
    }

    /// Refuses a storefront the catalog does not sell in.
    public static func check(storefront: String?, in catalog: Catalog) throws(ServiceError) {
        guard let storefront, !catalog.storefrontCodes.contains(storefront) else { return }
        throw ServiceError(.invalidRequest, "no storefront '\(storefront)' in the catalog: it sells in \(catalog.storefrontCodes.joined(separator: ", "))")
    }
}
