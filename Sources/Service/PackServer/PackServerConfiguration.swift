import AppStore
import FoundationEssentials
import PackServiceWire
import Seller
import SystemCalls

/// Where a pack server keeps its state, and how it behaves.
public struct PackServerConfiguration: Sendable {
    /// The accounts, their ledgers and the signing key (0600).
    public var dataFolder: String
    /// `Catalog.plist` and the pack archives.
    public var packsFolder: String
    /// The receipts it signs, and the only ones it calls valid.
    public var environment: ReceiptEnvironment
    /// StoreKit Testing's switches and actions over HTTP (`/v1/test/...`).
    public var testControls: Bool
    /// How long a signed catalog may be trusted.
    public var catalogLifetime: Int64 = 24 * 3_600_000
    public var clock: Clock = .system
    /// Called at each crash point of a purchase (`HANGMAN_CRASH_AT`): a test's, so only on a
    /// server with test controls (``crashPoints``).
    public var crash: @Sendable (CrashPoint) -> Void = { _ in }

    /// The crash points this server honours: `crash` with test controls, none otherwise (a
    /// production server does not die because its environment says so).
    var crashPoints: @Sendable (CrashPoint) -> Void {
        guard testControls else { return { (_: CrashPoint) in } }
        return crash
    }
    /// Where the accounts and their ledgers are: SQLite under `dataFolder` (the default) or
    /// another folder, or a PostgreSQL database that several servers share.
    public var database: LedgerDatabase = .sqlite
    /// Connections this server opens to PostgreSQL at most.
    public var databaseConnections = 8
    /// Accounts whose ledgers stay open between requests, at most (the least recently used is
    /// closed first).
    public var openAccounts = 256
    /// New accounts per client address: this many at once, then this many a minute (429 with
    /// `Retry-After` beyond).
    public var accountsAtOnce = 20
    public var accountsPerMinute = 10
    /// The shared secret `/verifyReceipt` asks of a receipt with an auto-renewable subscription
    /// (its `password`); without one, such receipts get 21004.
    public var sharedSecret: SharedSecret?
    /// Who may call the App Store Server API routes (`/inApps/`): the issuer and the registered
    /// keys (the bundle is the catalog's). `nil`: every such request is 401.
    public var appStoreAPI: AppStoreAPIAuthorization?
    /// Where pack archives are served from instead of this server (`--downloads-url`): an archive
    /// request is answered with a link there. `nil`: this server sends the archives itself.
    public var downloads: DownloadLinks?
    /// Where Server Notifications V2 are sent (`http://` or `https://`); `nil`: none are written.
    public var notificationURL: String?
    /// How long after a failed delivery each retry waits, in milliseconds: Apple's 1, 12, 24, 48
    /// and 72 hours by default; then the notification is given up (its history keeps it).
    public var notificationRetry: [Int64] = [1, 12, 24, 48, 72].map { Int64($0) * 3_600_000 }
    /// How long one delivery may take (connecting and the answer), in seconds; a server holds the
    /// notification it sends for that and 5 s more, so a server that dies leaves it to the others soon.
    public var notificationTimeout = 10
    /// How many customers' notifications one server sends at once: a slow backend answering one
    /// holds back at most this many, never every customer. Each customer's go one at a time, in order.
    public var notificationSenders = 8
    /// How many days a delivered notification keeps its payload (`--notification-payload-days`,
    /// 180 as Apple keeps its history); then only its record and attempts stay.
    public var notificationPayloadDays = 180
    /// The addresses players reach the service at (`--public-url`, normalized: no trailing
    /// slash), signed into every key proof: a home sends its token to a new address only when the
    /// service names it. Empty: the service names none.
    public var publicURLs: [String] = []
    /// Every other request per client address but `/v1/health`: this many at once, then this many
    /// a minute (429 with `Retry-After` beyond). 0 a minute: no limit.
    public var requestsAtOnce = 120
    public var requestsPerMinute = 1200
    /// The address blocks every limit counts together: an IPv4 /24 and an IPv6 /64 by default
    /// (`::1` counts as 127.0.0.1).
    public var ipv4GroupPrefix = 24
    public var ipv6GroupPrefix = 64
    /// New accounts a day per address block that may get a subscription's free trial (at most
    /// this many at once too); the others are offered none. 0: no new account gets one.
    public var freeTrialAccountsPerDay = 5

    /// The defaults, for help texts.
    public static let defaults = PackServerConfiguration(dataFolder: "", packsFolder: "")

    /// What makes this configuration one no server may run, checked before anything starts.
    public var problem: String? {
        if testControls, environment == .production {
            return "--test-controls lets every player approve, refund and clear their own purchases: it is for a sandbox server (add --environment sandbox)"
        }
        if let url = notificationURL, !(url.hasPrefix("http://") || url.hasPrefix("https://")) || url.utf8.count > 2048 {
            return "--notification-url takes an http:// or https:// URL, not '\(url.prefix(80))'"
        }
        if let url = publicURLs.first(where: { !($0.hasPrefix("http://") || $0.hasPrefix("https://")) || $0.utf8.count > 2048 }) {
            return "--public-url takes an http:// or https:// URL, not '\(url.prefix(80))'"
        }
        if !(1...3650).contains(notificationPayloadDays) {
            return "--notification-payload-days takes 1 to 3650 days, not \(notificationPayloadDays)"
        }
        return nil
    }

    public init(dataFolder: String, packsFolder: String, environment: ReceiptEnvironment = .production, testControls: Bool = false) {
        self.dataFolder = dataFolder
        self.packsFolder = packsFolder
        self.environment = environment
        self.testControls = testControls
    }
}

/// Where a pack server keeps the accounts and their ledgers.
public enum LedgerDatabase: Sendable, Equatable {
    /// A SQLite file per account (`accounts/<id>/account.sqlite`), and `accounts.sqlite` for the
    /// tokens, in a folder: the data folder unless another is named.
    case sqlite(folder: String? = nil)
    /// One PostgreSQL database for every account, shared by several servers: a `postgresql://`
    /// URI or libpq's `key=value` string (a Unix socket folder in `host=`).
    case postgreSQL(String)

    /// The SQLite ledgers under the data folder.
    public static let sqlite = LedgerDatabase.sqlite(folder: nil)

    /// `postgresql://...`, `postgres://...` or a `key=value` connection string for PostgreSQL; a
    /// folder path for SQLite; `nil` for another URL scheme or an empty text.
    public init?(argument text: String) {
        let trimmed = String(text.drop(while: { $0 == " " }))
        if trimmed.hasPrefix("postgresql://") || trimmed.hasPrefix("postgres://") {
            self = .postgreSQL(trimmed)
        } else if let equals = trimmed.firstIndex(of: "="), equals != trimmed.startIndex,
            trimmed[..<equals].allSatisfy({ $0.isLetter || $0 == "_" })
        {
            self = .postgreSQL(trimmed)
        } else if trimmed.isEmpty || trimmed.contains("://") || trimmed.contains("=") {
            return nil
        } else {
            self = .sqlite(folder: text)
        }
    }
}

/// Why a pack server could not start.
public struct PackServerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The database could not be reached: starting again later may work.
    public var isUnavailable = false
    /// The configuration asks what no server may do (``PackServerConfiguration/problem``).
    public var isUsage = false
    /// The data folder or a database in it cannot be read or written, or is damaged.
    public var isStorage = false
    public var description: String { message }
}
