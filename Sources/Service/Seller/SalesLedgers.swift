import Store

/// Where the seller reads every account's transactions: the pack server's ledgers, SQLite files
/// under a folder or one PostgreSQL database. Read only; through the Store's ledgers, never SQL
/// of its own.
public enum SalesLedgers {
    case sqlite(folder: String)
    case postgreSQL(PostgreSQLLedgers)

    /// Every account's transactions, by purchase date.
    public func transactions() throws(StoreError) -> [AccountTransaction] {
        switch self {
        case .sqlite(let folder): try SQLiteLedgers.allTransactions(folder: folder)
        case .postgreSQL(let ledgers): try ledgers.allTransactions()
        }
    }
}
