import FoundationEssentials

/// A transaction with the account it belongs to: what the seller's reports read.
public struct AccountTransaction: Sendable, Equatable {
    public var account: String
    public var transaction: StoreTransaction

    public init(account: String, transaction: StoreTransaction) {
        self.account = account
        self.transaction = transaction
    }
}

/// The ledgers of a pack server on SQLite (`<folder>/accounts/<id>/account.sqlite`), read for the
/// seller's reports through each account's ledger; PostgreSQL's are read in one query
/// (``PostgreSQLLedgers/allTransactions()``).
public enum SQLiteLedgers {
    /// Every account's transactions, by purchase date. An account folder without a ledger is
    /// skipped; a ledger that cannot be read stops the read, naming it.
    public static func allTransactions(folder: String) throws(StoreError) -> [AccountTransaction] {
        let accounts = folder + "/accounts"
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: accounts).sorted()
        } catch {
            if !FileManager.default.fileExists(atPath: accounts) { return [] }
            throw StoreError(.storage, "cannot list the accounts in \(accounts): \(error)")
        }
        var all: [AccountTransaction] = []
        for name in names where !name.hasPrefix(".") {
            let path = accounts + "/" + name + "/" + AccountService.databaseName
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let ledger = AccountLedger(try SQLiteLedgerStatements(path: path))
            all += try ledger.transactions().map { AccountTransaction(account: name, transaction: $0) }
        }
        return all.sorted { $0.transaction.purchaseDate < $1.transaction.purchaseDate }
    }
}
