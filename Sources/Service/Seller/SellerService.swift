import FoundationEssentials
import Messages
import PackServiceAPI
import PackServiceWire
import SQLite
import Signing
import SystemCalls

/// The seller's door for what spans accounts, beside each account's door (``AccountService``):
/// the directory of accounts, their tokens and display names (``AccountDirectory``), the
/// leaderboards and the daily word's schedules every account shares, the one listing of the
/// accounts that have a ledger, and the receipt policy applied with that directory. A server is a
/// transport over the two doors: it opens no database and lists no folder itself.
public final class SellerService: Sendable {
    /// Where the accounts and their ledgers are.
    public enum Database: Sendable {
        /// SQLite files under `folder`: `accounts.sqlite`, and a ledger per account under `accounts/`.
        case sqlite(folder: String)
        /// One PostgreSQL database that several servers share, with at most `connections` open.
        case postgreSQL(connectionString: String, connections: Int)
    }

    /// The accounts, their tokens and display names, and the daily board.
    public let directory: any AccountDirectory
    /// The shared ledgers on PostgreSQL; `nil` on SQLite.
    public let ledgers: PostgreSQLLedgers?
    /// The folder of the SQLite ledgers; `nil` on PostgreSQL.
    public let sqliteFolder: String?
    /// Each language's daily schedule as far as walked, for every account.
    public let dailySchedules = DailySchedules()
    /// The leaderboards read lately, for every account.
    public let leaderboards = LeaderboardCache()

    /// Opens (making what is missing) the accounts' database and, on PostgreSQL, the ledgers.
    public init(_ database: Database) throws(ServiceError) {
        switch database {
        case .sqlite(let folder):
            do {
                try FileSystem.createFolder(atPath: folder, permissions: 0o700)
                try FileSystem.createFolder(atPath: folder + "/accounts", permissions: 0o700)
            } catch {
                throw ServiceError(.storage, "cannot make the accounts folder in \(folder): \(error)")
            }
            sqliteFolder = folder
            ledgers = nil
            directory = try SQLiteAccountDirectory(path: folder + "/accounts.sqlite")
        case .postgreSQL(let connectionString, let connections):
            let shared = try PostgreSQLLedgers(connectionString: connectionString, connections: connections)
            sqliteFolder = nil
            ledgers = shared
            directory = try PostgreSQLAccountDirectory(pool: shared.pool)
        }
        // A file damaged past the pages a start reads is found now, and said by readiness.
        damage = try directory.damage()
        // Names made before their skeletons were kept are given them once.
        if damage == nil { _ = try directory.fillSkeletons(DisplayNames.skeleton) }
        // On SQLite, the ledgers' transactions recorded before ids were claimed are claimed once
        // (PostgreSQL's migration claimed them in one statement).
        if damage == nil, let folder = sqliteFolder, let sqlite = directory as? SQLiteAccountDirectory {
            try Self.claimEarlierTransactions(folder: folder, directory: sqlite)
        }
    }

    /// Each SQLite ledger not claimed yet: its transactions' ids claimed for its account. A ledger
    /// that cannot be read now is left for the next start (its transactions are still found by
    /// Apple's older form of their ids, which names the account).
    private static func claimEarlierTransactions(folder: String, directory: SQLiteAccountDirectory) throws(ServiceError) {
        let claimed = try directory.claimedLedgers()
        for account in try ledgerAccounts(inFolder: folder) where !claimed.contains(account) {
            let ids: [TransactionID]
            do {
                let ledger = try SQLite.Database(path: Self.ledgerPath(inFolder: folder, account: account))
                ids = try ledger.query("SELECT id FROM transactions").compactMap { TransactionID(rawValue: try $0.string(0)) }
            } catch {
                continue
            }
            _ = try directory.claimLedger(account: account, transactions: ids)
        }
    }

    /// The account a transaction is in, from its id alone; `nil` for an id no account has.
    public func account(ofTransaction id: TransactionID) throws(ServiceError) -> String? {
        try directory.owner(of: id)
    }

    /// How `account`'s service claims a new transaction's id across the service
    /// (``AccountService/claimTransactionID``).
    public func transactionIDClaims(account: String) -> @Sendable (TransactionID) throws(ServiceError) -> Bool {
        let directory = directory
        return { id throws(ServiceError) in try directory.claim(transaction: id, account: account) }
    }

    // MARK: - Friends

    /// A code `account` gives one person to become friends (single use, a week): 16 letters and
    /// digits as an offer code's (``OfferCodes``), kept as its SHA-256 only.
    public func inviteFriend(account: String, now: Int64) throws(ServiceError) -> FriendInvite {
        var random = SystemRandomNumberGenerator()
        let code = OfferCodes.newCode(using: &random)
        let expires = now + FriendInvite.lifetime
        guard try directory.addFriendInvite(account: account, digest: OfferCodes.digest(code), expires: expires, now: now) else {
            throw ServiceError(.wrongState, L10n.text("you have %s invitations out already: wait for one to be used or to expire (a week)", FriendLimits.invites))
        }
        return FriendInvite(code: code, expiresDate: expires)
    }

    /// Uses a friend's invitation: both accounts are friends from now on.
    public func addFriend(account: String, code text: String, now: Int64) throws(ServiceError) -> Friend {
        guard let code = OfferCodes.normalized(text) else {
            throw ServiceError(.invalidRequest, L10n.text("not an invitation: a code is %s letters and digits, as your friend gave it", OfferCodes.length))
        }
        switch try directory.acceptFriendInvite(digest: OfferCodes.digest(code), account: account, now: now) {
        case .friends(let friend):
            guard let added = try named(directory.friends(of: account)).first(where: { $0.account == friend }) else {
                throw ServiceError(.storage, "the friendship just made is not in the accounts database")
            }
            return added.friend
        case .unknown: throw ServiceError(.notFound, L10n.text("no invitation %s: it was used already, or it is not one of this service's", code))
        case .expired: throw ServiceError(.wrongState, L10n.text("the invitation %s has expired (they are good for a week): ask for another", code))
        case .own: throw ServiceError(.invalidRequest, L10n.text("that is your own invitation: give it to a friend"))
        case .tooMany: throw ServiceError(.wrongState, L10n.text("one of you has %s friends already, as many as a board of friends takes", FriendLimits.friends))
        }
    }

    /// The account's friends by the names they appear under, oldest friendship first.
    public func friends(of account: String) throws(ServiceError) -> [Friend] {
        try named(directory.friends(of: account)).map(\.friend)
    }

    /// Friendships with the names the friends appear under (a chosen one, else the placeholder).
    private func named(_ friends: [(account: String, since: Int64)]) throws(ServiceError) -> [(account: String, friend: Friend)] {
        let names = try directory.names(of: friends.map(\.account))
        return friends.map { ($0.account, Friend(name: names[$0.account] ?? DisplayName.placeholder(account: $0.account), since: $0.since)) }
    }

    /// The account ids of the account's friends: whom a friends' board ranks.
    public func friendIDs(of account: String) throws(ServiceError) -> [String] {
        try directory.friends(of: account).map(\.account)
    }

    /// Ends the friendship with the friend named `name` (as ``friends(of:)`` names them), both
    /// ways; the friend that was.
    @discardableResult
    public func removeFriend(account: String, name: String) throws(ServiceError) -> Friend {
        let named = try friend(of: account, named: name)
        _ = try directory.removeFriend(account: account, friend: named.account)
        return named.friend
    }

    /// `account`'s friend named `name` (compared folded, as ``friends(of:)`` names them); 404 for none.
    func friend(of account: String, named name: String) throws(ServiceError) -> (account: String, friend: Friend) {
        let folded = DisplayName.folded(name)
        guard let named = try named(directory.friends(of: account)).first(where: { DisplayName.folded($0.friend.name) == folded }) else {
            throw ServiceError(.notFound, L10n.text("you have no friend named '%s': 'hangman friends' lists them", name.prefix(40)))
        }
        return named
    }

    /// How `account`'s service claims an offer code across the service (``AccountService/claimOfferCode``).
    public func offerCodeClaims(account: String) -> @Sendable (String, Int64) throws(ServiceError) -> Bool {
        let directory = directory
        return { digest, now throws(ServiceError) in try directory.claim(offerCode: digest, account: account, now: now) }
    }

    /// What the accounts database's check found wrong with its file when the service opened;
    /// `nil`: nothing. A damaged database keeps the server not ready until it is mended.
    public let damage: String?

    /// A new account and its first token: its storefront chosen (the one `required`, else the
    /// player's region's, `preferred`, when the catalog sells there) before it is made, and
    /// recorded in its ledger at once; its free trials withheld when `freeTrial` says no (asked
    /// once the account is made: the caller's budget for an address block is spent, since trials
    /// go to the first accounts of a block each day, not to every fresh one). Its first token is
    /// for the device named `deviceName`, when it gave one. `open` gives the new account's service.
    public func createAccount(
        required: String?, preferred: String?, deviceName: String? = nil, catalog: Catalog, freeTrial: () -> Bool, now: Int64,
        open: (String, (AccountService) throws(ServiceError) -> Void) throws(ServiceError) -> Void
    ) throws(ServiceError) -> NewAccount {
        let chosen = try AccountService.newAccountStorefront(required: required, preferred: preferred, in: catalog)
        let made = try directory.create(deviceName: deviceName, now: now)
        let withholdTrials = !freeTrial()
        try open(made.accountID) { service throws(ServiceError) in
            try service.chooseStorefront(chosen)
            if withholdTrials { try service.withholdFreeTrials() }
        }
        return made
    }

    /// What an account's service needs for the daily word on this service.
    public func dailyWords(secret: [UInt8], account: String) -> DailyWords {
        DailyWords(secret: secret, board: directory, account: account, schedules: dailySchedules, boards: leaderboards)
    }

    /// The accounts that have a ledger, by id, sorted; on PostgreSQL those with a notification
    /// (`notified`), else every ledger.
    public func accountsWithLedgers(notified: Bool = false) throws(ServiceError) -> [String] {
        if let ledgers { return notified ? try ledgers.notifiedAccounts() : try ledgers.accounts() }
        return try Self.ledgerAccounts(inFolder: sqliteFolder ?? "")
    }

    /// Whether `account` has a ledger (one look, not a listing).
    public func hasLedger(_ account: String) throws(ServiceError) -> Bool {
        if let ledgers { return try ledgers.hasLedger(account) }
        return Self.isAccountID(account) && FileManager.default.fileExists(atPath: Self.ledgerPath(inFolder: sqliteFolder ?? "", account: account))
    }

    /// Where an account's SQLite ledger is under `folder`.
    static func ledgerPath(inFolder folder: String, account: String) -> String {
        folder + "/accounts/" + account + "/" + AccountService.databaseName
    }

    /// The accounts that have a ledger after `after` in their order, `limit` at most: on
    /// PostgreSQL a page read by the key; a SQLite folder is listed and cut (a directory has no
    /// order to start from).
    public func accountsWithLedgers(after: String, limit: Int) throws(ServiceError) -> [String] {
        if let ledgers { return try ledgers.accounts(after: after, limit: limit) }
        return Array(try Self.ledgerAccounts(inFolder: sqliteFolder ?? "").filter { $0 > after }.prefix(limit))
    }

    /// The one listing of the SQLite ledgers under `<folder>/accounts`: every entry named as an
    /// account id (16 hexadecimal digits) that holds a ledger, sorted. A folder that is not there
    /// has none; one that cannot be read is an error, never an empty list.
    public static func ledgerAccounts(inFolder folder: String) throws(ServiceError) -> [String] {
        let accounts = folder + "/accounts"
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: accounts)
        } catch {
            if !FileManager.default.fileExists(atPath: accounts) { return [] }
            throw ServiceError(.storage, "cannot list the accounts in \(accounts): \(error)")
        }
        return names.filter { name in
            isAccountID(name) && FileManager.default.fileExists(atPath: ledgerPath(inFolder: folder, account: name))
        }.sorted()
    }

    /// Whether `text` is an account id as the directory makes them: 16 lowercase hexadecimal digits.
    public static func isAccountID(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A receipt under `policy`, its account looked up in the directory and its ledger read
    /// through `receipt` (the account's door, as the caller holds it open).
    public func verifyReceipt(
        _ bytes: [UInt8], password: String?, policy: ReceiptPolicy, signer: ReceiptSigner, catalog: Catalog,
        receipt: (String) throws(ServiceError) -> Receipt
    ) -> ReceiptPolicy.Verdict {
        policy.verify(bytes, password: password, signer: signer, catalog: catalog) { accountID throws(ServiceError) -> ReceiptPolicy.Account in
            guard let account = accountID else { return .current(nil) }
            guard try directory.isOpen(account: account) else { return .closed }
            return .current(try receipt(account))
        }
    }
}
