import Seller

/// Where the seller reads every account's transactions: the pack server's ledgers, SQLite files
/// under a folder or one PostgreSQL database. Read only; through the Store's ledgers, never SQL
/// of its own.
public enum SalesLedgers {
    case sqlite(folder: String)
    case postgreSQL(PostgreSQLLedgers)

    /// Every account's transactions, by purchase date.
    public func transactions() throws(ServiceError) -> [AccountTransaction] {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.allTransactions(folder: folder)
        case .postgreSQL(let ledgers): try ledgers.allTransactions()
        }
    }

    /// Every account's refund cases, with the consumption answers their developer's server sent.
    public func refundCases() throws(ServiceError) -> [AccountRefundCase] {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.allRefundCases(folder: folder)
        case .postgreSQL(let ledgers): try ledgers.allRefundCases()
        }
    }

    /// Every account's games served and hints credited and spent.
    public func activity() throws(ServiceError) -> [PlayerActivity] {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.allActivity(folder: folder)
        case .postgreSQL(let ledgers): try ledgers.allActivity()
        }
    }

    /// Every account's auto-renewable subscriptions, each in its state at `now` on its own clock.
    public func subscriptions(catalog: Catalog, now: Int64) throws(ServiceError) -> [SubscriptionFact] {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.allSubscriptions(folder: folder, catalog: catalog, now: now)
        case .postgreSQL(let ledgers): try ledgers.allSubscriptions(catalog: catalog, now: now)
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

    /// When each account was made.
    public func accountsMade() throws(ServiceError) -> [Int64] {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.accountsMade(folder: folder)
        case .postgreSQL(let ledgers): try ledgers.accountsMade()
        }
    }
}
