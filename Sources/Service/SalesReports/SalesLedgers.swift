import Seller

/// Where the seller reads every account's transactions: the pack server's ledgers, SQLite files
/// under a folder or one PostgreSQL database. Read only; through the Store's ledgers, never SQL
/// of its own.
public enum SalesLedgers {
    case sqlite(folder: String)
    case postgreSQL(PostgreSQLLedgers)

    /// The numbers the ledgers keep for days `firstDay...lastDay` (``SalesAggregates``), of one
    /// storefront or every one.
    public func salesDays(firstDay: Int64, lastDay: Int64, storefront: String?) throws(ServiceError) -> SalesDays {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.salesDays(folder: folder, firstDay: firstDay, lastDay: lastDay, storefront: storefront)
        case .postgreSQL(let ledgers): try ledgers.salesDays(firstDay: firstDay, lastDay: lastDay, storefront: storefront)
        }
    }

    /// Makes the kept numbers again from every transaction (an upgrade, or a check that found a difference).
    public func rebuildSalesAggregates() throws(ServiceError) {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.rebuildSalesAggregates(folder: folder)
        case .postgreSQL(let ledgers): try ledgers.rebuildSalesAggregates()
        }
    }

    /// The kept numbers a sum of every transaction disagrees with (at most 20 rows, as text); none when right.
    public func salesAggregateDifferences() throws(ServiceError) -> [String] {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.salesAggregateDifferences(folder: folder)
        case .postgreSQL(let ledgers): try ledgers.salesAggregateDifferences()
        }
    }

    /// Every account's refund cases, with the consumption answers their developer's server sent.
    public func refundCases() throws(ServiceError) -> [AccountRefundCase] {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.allRefundCases(folder: folder)
        case .postgreSQL(let ledgers): try ledgers.allRefundCases()
        }
    }

    /// Every account's auto-renewable subscriptions live or ended at `endedSince` or later, each
    /// in its state at `now` on its own clock.
    public func subscriptions(catalog: Catalog, now: Int64, endedSince: Int64 = 0) throws(ServiceError) -> [SubscriptionFact] {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.allSubscriptions(folder: folder, catalog: catalog, now: now, endedSince: endedSince)
        case .postgreSQL(let ledgers): try ledgers.allSubscriptions(catalog: catalog, now: now, endedSince: endedSince)
        }
    }

    /// How far each account's clock runs ahead of the real one: the seller's numbers read each
    /// account at its own time, as its player does.
    public func clockOffsets() throws(ServiceError) -> [String: Int64] {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.clockOffsets(folder: folder)
        case .postgreSQL(let ledgers): try ledgers.clockOffsets()
        }
    }

    /// Accounts made per day of `firstDay...lastDay`.
    public func accountsMade(firstDay: Int64, lastDay: Int64) throws(ServiceError) -> [Int64: Int] {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.accountsMade(folder: folder, firstDay: firstDay, lastDay: lastDay)
        case .postgreSQL(let ledgers): try ledgers.accountsMade(firstDay: firstDay, lastDay: lastDay)
        }
    }

    /// The players' numbers the ledgers keep for days `firstDay...lastDay` (``PlayerAggregates``).
    public func playerDays(firstDay: Int64, lastDay: Int64) throws(ServiceError) -> [PlayerDay] {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.playerDays(folder: folder, firstDay: firstDay, lastDay: lastDay)
        case .postgreSQL(let ledgers): try ledgers.playerDays(firstDay: firstDay, lastDay: lastDay)
        }
    }
}
