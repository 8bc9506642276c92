import FoundationEssentials
import SQLite

/// A transaction with the account it belongs to: what the seller's reports read.
public struct AccountTransaction: Sendable, Equatable {
    public var account: String
    public var transaction: StoreTransaction

    public init(account: String, transaction: StoreTransaction) {
        self.account = account
        self.transaction = transaction
    }
}

/// A refund case with the account it belongs to, and the consumption answer its developer's
/// server sent (``RefundCase/consumption``).
public struct AccountRefundCase: Sendable, Equatable {
    public var account: String
    public var refundCase: RefundCase

    public init(account: String, refundCase: RefundCase) {
        self.account = account
        self.refundCase = refundCase
    }
}

/// What a player did that the seller counts: a game served (the daily word's or another), hints
/// credited by a purchase or spent.
public struct PlayerActivity: Sendable, Equatable {
    public enum Kind: String, Sendable { case game, dailyGame, hintsCredited, hintsSpent }
    public var account: String
    public var date: Int64
    public var kind: Kind
    public var count: Int

    public init(account: String, date: Int64, kind: Kind, count: Int) {
        self.account = account
        self.date = date
        self.kind = kind
        self.count = count
    }
}

/// A subscription as the seller counts it: its plan and its state at a moment (the same rule as
/// the account's own statuses), and how and when it ended.
public struct SubscriptionFact: Sendable, Equatable {
    public var account: String
    /// The subscription's first transaction.
    public var originalTransactionID: TransactionID
    public var productID: ProductID
    public var state: SubscriptionState
    /// `expired` (auto-renew off, then its end), `billing` (renewals failed to the end), `upgraded`, `refunded`.
    public var endReason: String?
    public var endDate: Int64?

    public init(account: String, originalTransactionID: TransactionID, productID: ProductID, state: SubscriptionState, endReason: String?, endDate: Int64?) {
        self.account = account
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.state = state
        self.endReason = endReason
        self.endDate = endDate
    }

    init(account: String, row: SubscriptionRow, now: Int64, catalog: Catalog) {
        self.init(
            account: account, originalTransactionID: row.originalTransactionID, productID: row.productID, state: row.state(now: now, catalog: catalog).state,
            endReason: row.endReason, endDate: row.endDate)
    }
}

/// The ledgers of a pack server on SQLite (`<folder>/accounts/<id>/account.sqlite`), read for the
/// seller's reports through each account's ledger; PostgreSQL's are read in one query
/// (``PostgreSQLLedgers/allTransactions()``).
public enum SQLiteLedgers {
    /// Every account's transactions, by purchase date. An account folder without a ledger is
    /// skipped; a ledger that cannot be read stops the read, naming it.
    public static func allTransactions(folder: String) throws(ServiceError) -> [AccountTransaction] {
        try eachLedger(folder) { account, ledger throws(ServiceError) in
            try ledger.transactions().map { AccountTransaction(account: account, transaction: $0) }
        }.sorted { $0.transaction.purchaseDate < $1.transaction.purchaseDate }
    }

    /// Every account's refund cases, with their consumption answers.
    public static func allRefundCases(folder: String) throws(ServiceError) -> [AccountRefundCase] {
        try eachLedger(folder) { account, ledger throws(ServiceError) in
            try ledger.refundCases().map { AccountRefundCase(account: account, refundCase: $0) }
        }
    }

    /// Every account's games and hint credits and spends.
    public static func allActivity(folder: String) throws(ServiceError) -> [PlayerActivity] {
        try eachLedger(folder) { account, ledger throws(ServiceError) in
            try ledger.activity().map { event in
                var owned = event
                owned.account = account
                return owned
            }
        }
    }

    /// Every account's auto-renewable subscriptions, each in its state at `now` on the account's
    /// own clock (a sandbox account's test controls move it ahead).
    public static func allSubscriptions(folder: String, catalog: Catalog, now: Int64) throws(ServiceError) -> [SubscriptionFact] {
        try eachLedger(folder) { account, ledger throws(ServiceError) in
            let accountNow = now + (try ledger.storeClock().offset)
            return try ledger.subscriptions().map { SubscriptionFact(account: account, row: $0, now: accountNow, catalog: catalog) }
        }
    }

    /// How far each account's clock runs ahead of the real one (accounts whose clock was moved).
    public static func clockOffsets(folder: String) throws(ServiceError) -> [String: Int64] {
        Dictionary(uniqueKeysWithValues: try eachLedger(folder) { account, ledger throws(ServiceError) in
            let offset = try ledger.storeClock().offset
            return offset == 0 ? [] : [(account, offset)]
        })
    }

    /// When each account was made (`<folder>/accounts.sqlite`); none before the first.
    public static func accountsMade(folder: String) throws(ServiceError) -> [Int64] {
        let path = folder + "/accounts.sqlite"
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        do {
            let database = try Database.openState(path: path, migrator: AccountsSchema.sqliteMigrator)
            return try database.query("SELECT created_date FROM accounts").map { row throws(SQLiteError) in try row.int64(0) }
        } catch {
            throw ServiceError(.storage, "cannot read the accounts in \(path): \(error)")
        }
    }

    /// `body`'s rows for each account's ledger under `<folder>/accounts`, by account (the one
    /// listing, ``SellerService/ledgerAccounts(inFolder:)``).
    private static func eachLedger<T>(_ folder: String, _ body: (String, AccountLedger) throws(ServiceError) -> [T]) throws(ServiceError) -> [T] {
        var all: [T] = []
        for account in try SellerService.ledgerAccounts(inFolder: folder) {
            let path = SellerService.ledgerPath(inFolder: folder, account: account)
            all += try body(account, AccountLedger(try SQLiteLedgerStatements(path: path)))
        }
        return all
    }
}
