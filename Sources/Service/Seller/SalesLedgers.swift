import FoundationEssentials
import SQLite

/// A refund case with the account it belongs to, and the consumption answer its developer's
/// server sent (``RefundCase/consumption``).
public struct AccountRefundCase: Sendable, Equatable {
    public var account: String
    public var refundCase: RefundCase
    /// The product and the storefront of the purchase the case is about.
    public var productID: ProductID?
    public var storefront: String?

    public init(account: String, refundCase: RefundCase, productID: ProductID? = nil, storefront: String? = nil) {
        self.account = account
        self.refundCase = refundCase
        self.productID = productID
        self.storefront = storefront
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
    /// The end of its current period.
    public var expiresDate: Int64
    /// The storefront of its first purchase.
    public var storefront: String
    /// Whether it gives access at `now` (on its account's clock): its period not over, not
    /// ended, no renewal failing.
    public var isLiveNow: Bool
    /// When its access ended, as far as `now` knows: the end recorded, else the end of a period
    /// that ran out unrenewed before `now` (an account nobody opened since has not recorded it).
    public var accessEnded: Int64?

    public init(
        account: String, originalTransactionID: TransactionID, productID: ProductID, state: SubscriptionState, endReason: String?, endDate: Int64?,
        expiresDate: Int64 = 0, storefront: String = Storefront.defaultCode, now: Int64 = 0
    ) {
        self.account = account
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.state = state
        self.endReason = endReason
        self.endDate = endDate
        self.expiresDate = expiresDate
        self.storefront = storefront
        let running = state == .active || state == .trial
        isLiveNow = running && expiresDate > now
        accessEnded = endDate ?? (running && expiresDate <= now ? expiresDate : nil)
    }

    init(account: String, row: SubscriptionRow, now: Int64, catalog: Catalog, storefront: String?) {
        self.init(
            account: account, originalTransactionID: row.originalTransactionID, productID: row.productID, state: row.state(now: now, catalog: catalog).state,
            endReason: row.endReason, endDate: row.endDate, expiresDate: row.expiresDate, storefront: storefront ?? Storefront.defaultCode, now: now)
    }
}

/// The ledgers of a pack server on SQLite (`<folder>/accounts/<id>/account.sqlite`), read for the
/// seller's reports through each account's ledger; PostgreSQL's are read in one query each.
public enum SQLiteLedgers {
    /// Every account's refund cases, with their consumption answers.
    public static func allRefundCases(folder: String) throws(ServiceError) -> [AccountRefundCase] {
        try eachStatements(folder) { account, statements throws(ServiceError) in
            let cases = try AccountLedger(statements).refundCases()
            guard !cases.isEmpty else { return [] }
            return try statements.read { statements in
                try cases.map { refundCase in
                    let transaction = try statements.transaction(refundCase.transactionID)
                    return AccountRefundCase(account: account, refundCase: refundCase, productID: transaction?.productID, storefront: transaction?.storefront)
                }
            }
        }
    }

    /// Every account's auto-renewable subscriptions that were live or ended at `endedSince` or
    /// later, each in its state at `now` on the account's own clock (a sandbox account's test
    /// controls move it ahead), with its first purchase's storefront.
    public static func allSubscriptions(folder: String, catalog: Catalog, now: Int64, endedSince: Int64 = 0) throws(ServiceError) -> [SubscriptionFact] {
        try eachStatements(folder) { account, statements throws(ServiceError) in
            try statements.subscriptionFacts(account: account, catalog: catalog, now: now, endedSince: endedSince)
        }
    }

    /// The seller's kept numbers of days `firstDay...lastDay` (``SalesAggregates``), of one
    /// storefront or every one: each ledger's rows of those days, summed. The cost grows with the
    /// accounts (a file each), not with their transactions.
    public static func salesDays(folder: String, firstDay: Int64, lastDay: Int64, storefront: String?) throws(ServiceError) -> SalesDays {
        SalesDays(merging: try eachStatements(folder) { _, statements throws(ServiceError) in
            [try statements.salesDays(firstDay: firstDay, lastDay: lastDay, storefront: storefront)]
        })
    }

    /// The players' kept numbers of days `firstDay...lastDay` (``PlayerAggregates``): each
    /// ledger's rows of those days, summed by day.
    public static func playerDays(folder: String, firstDay: Int64, lastDay: Int64) throws(ServiceError) -> [PlayerDay] {
        PlayerDay.merged(try eachStatements(folder) { _, statements throws(ServiceError) in
            try statements.playerDays(firstDay: firstDay, lastDay: lastDay)
        })
    }

    /// Accounts made per day of `firstDay...lastDay` (`<folder>/accounts.sqlite`, from the index
    /// of their dates); none before the first.
    public static func accountsMade(folder: String, firstDay: Int64, lastDay: Int64) throws(ServiceError) -> [Int64: Int] {
        let path = folder + "/accounts.sqlite"
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        do {
            let database = try Database.openState(path: path, migrator: AccountsSchema.sqliteMigrator)
            var made: [Int64: Int] = [:]
            for row in try database.query(sql: AccountsSchema.accountsMadeQuery(placeholders: ["?1", "?2"]), arguments: [.integer(firstDay), .integer(lastDay)]) {
                made[try row.int64(0)] = try row.int(1)
            }
            return made
        } catch {
            throw ServiceError(.storage, "cannot read the accounts in \(path): \(error)")
        }
    }

    /// Makes every ledger's kept numbers again from its transactions, one ledger at a time.
    public static func rebuildSalesAggregates(folder: String) throws(ServiceError) {
        _ = try eachStatements(folder) { _, statements throws(ServiceError) -> [Int] in
            try statements.rebuildSalesAggregates()
            return []
        }
    }

    /// The kept numbers that a sum of their ledger's transactions disagrees with, each named by
    /// its account (at most 20 per ledger); none when they are right.
    public static func salesAggregateDifferences(folder: String) throws(ServiceError) -> [String] {
        try eachStatements(folder) { account, statements throws(ServiceError) in
            try statements.salesAggregateDifferences().map { account + " " + $0 }
        }
    }

    /// How far each account's clock runs ahead of the real one (accounts whose clock was moved).
    public static func clockOffsets(folder: String) throws(ServiceError) -> [String: Int64] {
        Dictionary(uniqueKeysWithValues: try eachLedger(folder) { account, ledger throws(ServiceError) in
            let offset = try ledger.storeClock().offset
            return offset == 0 ? [] : [(account, offset)]
        })
    }

    /// `body`'s rows for each account's ledger statements under `<folder>/accounts`, by account.
    static func eachStatements<T>(_ folder: String, _ body: (String, SQLiteLedgerStatements) throws(ServiceError) -> [T]) throws(ServiceError) -> [T] {
        var all: [T] = []
        for account in try SellerService.ledgerAccounts(inFolder: folder) {
            all += try body(account, try SQLiteLedgerStatements(path: SellerService.ledgerPath(inFolder: folder, account: account)))
        }
        return all
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
