import FoundationEssentials
import HangmanGame
import PackServiceAPI
import SQLite

/// A customer the seller's search found, and by which of their keys.
public struct CustomerMatch: Sendable, Equatable, Codable {
    public enum Key: String, Sendable, Codable {
        case account, name, transaction
        case orderID = "order-id"
        case appAccountToken = "app-account-token"
    }

    public var account: String
    /// The name the customer plays under (a chosen one, else the placeholder).
    public var name: String
    public var matchedBy: Key

    public init(account: String, name: String, matchedBy: Key) {
        self.account = account
        self.name = name
        self.matchedBy = matchedBy
    }
}

/// A customer's story, as support reads it: who they are, their devices, what they hold and why,
/// their subscriptions, and every transaction and notification in one timeline, newest first.
public struct CustomerStory: Sendable, Equatable, Codable {
    public struct Device: Sendable, Equatable, Codable {
        public var tokenID: String
        public var deviceName: String?
        public var createdDate: Int64
        public var lastUsedDate: Int64?
        public var revokedDate: Int64?
    }

    /// One line of the timeline: a transaction's purchase or refund, or a notification sent.
    public struct Event: Sendable, Equatable, Codable {
        public enum Kind: String, Sendable, Codable { case purchase, renewal, refund, notification }
        public var date: Int64
        public var kind: Kind
        public var transactionID: TransactionID?
        public var productID: ProductID?
        /// What happened, in a few words (a state, an amount, a notification's type).
        public var summary: String
    }

    public var account: String
    public var name: String
    public var createdDate: Int64
    public var closedDate: Int64?
    public var storefront: String
    public var devices: [Device]
    public var hints: Int
    public var entitlements: [Entitlement]
    public var subscriptions: [SubscriptionStatus]
    public var transactions: [StoreTransaction]
    public var timeline: [Event]
    public var gamesPlayed: Int
    public var gamesWon: Int
}

extension SellerService {
    /// How many customers a search answers at most.
    public static let customerSearchLimit = 20

    /// The customers `text` names, each once, by the first key it matched: an account id, a
    /// transaction's id (16 hexadecimal digits, or its number as Apple writes it), an order id
    /// (as Apple's emailed receipts print it), an app account token (a UUID), or the first letters
    /// of a display name (folded as names are compared). Every key is read from an index; an app
    /// account token on SQLite is looked for in each account's ledger.
    public func findCustomers(_ text: String, limit: Int = customerSearchLimit) throws(ServiceError) -> [CustomerMatch] {
        let query = text.trimmingWhitespace()
        guard !query.isEmpty, query.count <= 64 else {
            throw ServiceError(.invalidRequest, "a customer is found by an account id, a transaction id or number, an order id, an app account token or a name: 1 to 64 characters")
        }
        var found: [(account: String, key: CustomerMatch.Key)] = []
        func add(_ account: String, _ key: CustomerMatch.Key) {
            if found.count < limit, !found.contains(where: { $0.account == account }) { found.append((account, key)) }
        }
        let lowered = query.lowercased()
        if Self.isAccountID(lowered), try directory.lifetime(account: lowered) != nil { add(lowered, .account) }
        for (id, key) in [(TransactionID(rawValue: lowered), CustomerMatch.Key.transaction), (TransactionID(number: query), .transaction), (TransactionID(orderID: query), .orderID)] {
            if let id, let owner = try directory.owner(of: id) { add(owner, key) }
        }
        if let token = AppAccountToken.parse(query) {
            for account in try accounts(withAppAccountToken: token) { add(account, .appAccountToken) }
        }
        let folded = DisplayName.folded(query)
        if !folded.isEmpty {
            for named in try directory.accounts(namedFrom: folded, limit: limit) { add(named.account, .name) }
        }
        let names = try directory.names(of: found.map(\.account))
        return found.map { CustomerMatch(account: $0.account, name: names[$0.account] ?? DisplayName.placeholder(account: $0.account), matchedBy: $0.key) }
    }

    /// The accounts whose purchases carry `token` (lowercase, as kept).
    func accounts(withAppAccountToken token: String) throws(ServiceError) -> [String] {
        if let ledgers { return try ledgers.accounts(withAppAccountToken: token) }
        return try SQLiteLedgers.eachStatements(sqliteFolder ?? "") { account, statements throws(ServiceError) in
            try statements.hasAppAccountToken(token) ? [account] : []
        }
    }

    /// The story of `account` (``CustomerStory``): the directory's part here, the ledger's
    /// through `service`, the account's own door.
    public func customerStory(account: String, service: AccountService) throws(ServiceError) -> CustomerStory {
        guard let lifetime = try directory.lifetime(account: account) else { throw ServiceError(.notFound, "no customer \(account)") }
        let transactions = try service.transactions()
        var timeline: [CustomerStory.Event] = []
        for transaction in transactions {
            let renewal = transaction.originalTransactionID.map { $0 != transaction.id } ?? false
            let price = transaction.isTrial ? "free trial" : transaction.price.map { "\($0.decimal) \($0.currency)" } ?? "no price"
            timeline.append(
                CustomerStory.Event(
                    date: transaction.purchaseDate, kind: renewal ? .renewal : .purchase, transactionID: transaction.id, productID: transaction.productID,
                    summary: "\(transaction.state.rawValue), \(price)" + (transaction.quantity > 1 ? " x\(transaction.quantity)" : "")))
            if let revoked = transaction.revocationDate {
                let back = transaction.refund ?? transaction.price
                timeline.append(
                    CustomerStory.Event(
                        date: revoked, kind: .refund, transactionID: transaction.id, productID: transaction.productID,
                        summary: back.map { "refunded \($0.decimal) \($0.currency)" } ?? "refunded"))
            }
        }
        for (notification, attempts) in try service.notificationHistory() {
            let delivery = notification.delivered != nil ? "delivered" : attempts.isEmpty ? "waiting" : "\(attempts.count) attempts, not delivered"
            timeline.append(
                CustomerStory.Event(
                    date: notification.created, kind: .notification, transactionID: notification.transaction, productID: nil,
                    summary: ([notification.type, notification.subtype].compactMap { $0 }.joined(separator: " ")) + ", " + delivery))
        }
        timeline.sort { ($0.date, $0.kind.rawValue) > ($1.date, $1.kind.rawValue) }
        let statistics = try service.statistics()
        return CustomerStory(
            account: account, name: try directory.names(of: [account])[account] ?? DisplayName.placeholder(account: account), createdDate: lifetime.created,
            closedDate: lifetime.closed, storefront: try service.storefront(),
            devices: try directory.tokens(account: account).map {
                CustomerStory.Device(tokenID: $0.id, deviceName: $0.deviceName, createdDate: $0.created, lastUsedDate: $0.lastUsed, revokedDate: $0.revoked)
            },
            hints: try service.hintBalance(), entitlements: try service.entitlements(), subscriptions: try service.subscriptions(), transactions: transactions,
            timeline: timeline, gamesPlayed: statistics.played, gamesWon: statistics.won)
    }
}

extension PostgreSQLLedgers {
    /// The accounts whose purchases carry the app account token `token`, from its index.
    func accounts(withAppAccountToken token: String) throws(ServiceError) -> [String] {
        do {
            return try pool.autocommit { connection in
                try connection.execute(
                    "SELECT DISTINCT account_id FROM app_account_tokens WHERE app_account_token = $1 LIMIT \(SellerService.customerSearchLimit)", [token]
                ).rows.compactMap { $0.first ?? nil }
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw PostgreSQLLedgerEngine.failure(error, opening: false)
        }
    }
}

extension SQLiteLedgerStatements {
    /// Whether a purchase in this ledger carries the app account token `token`.
    func hasAppAccountToken(_ token: String) throws(ServiceError) -> Bool {
        try read { _ in try db.int64("SELECT 1 FROM app_account_tokens WHERE app_account_token = ? LIMIT 1", .text(token)) != nil }
    }
}
