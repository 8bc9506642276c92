import Foundation
import TestSupport
import SystemCalls
import Signing
import SQLite
@testable import Seller
import Synchronization
import WordPacks
import PostgreSQL


/// Catalogs, packs and accounts made inside the tests, from literal XML, so that fixtures do not
/// depend on the code under test.
enum StoreFixture {
    static let bundleID = "com.example.hangman"
    static let hints10 = ProductID(rawValue: "com.example.hints.10")!
    static let hints100 = ProductID(rawValue: "com.example.hints.100")!
    static let animals = ProductID(rawValue: "com.example.words.animals")!
    static let fruit = ProductID(rawValue: "com.example.words.fruit")!

    /// The repository's `Packs/` folder.
    static let shippedPacks = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Packs").path

    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>
        """
    }

    /// A pack's archive bytes, built from a two-file source.
    static func packArchive(id: String, words: [String], version: String = "1.0") throws -> [UInt8] {
        let manifest = plist("""
            <dict>
            <key>FormatVersion</key><integer>1</integer>
            <key>ProductIdentifier</key><string>\(id)</string>
            <key>ContentVersion</key><string>\(version)</string>
            <key>DisplayName</key><string>Test \(id)</string>
            </dict>
            """)
        let list = plist("<dict><key>name</key><string>Things</string><key>words</key><array>"
            + words.map { "<string>\($0)</string>" }.joined() + "</array></dict>")
        let source = PackSource(files: [
            PackSource.File(path: "Info.plist", bytes: Array(manifest.utf8)),
            PackSource.File(path: "words.plist", bytes: Array(list.utf8)),
        ])
        return try PackBuilder().build(source).bytes
    }

    static func consumable(_ id: String, hints: Int?, type: String = "Consumable") -> String {
        """
        <dict>
        <key>ProductIdentifier</key><string>\(id)</string>
        <key>Type</key><string>\(type)</string>
        <key>DisplayName</key><string>Hints \(id)</string>
        <key>Description</key><string>Some hints.</string>
        <key>Price</key><string>0.99</string>
        \(hints.map { "<key>HintCount</key><integer>\($0)</integer>" } ?? "")
        </dict>
        """
    }

    /// What a catalog entry records about its archive, as publishing would have written it.
    enum Recorded {
        /// The SHA-256 and size of these bytes (the archive written beside the catalog).
        case of([UInt8])
        /// Whatever the test says.
        case fixed(sha256: String, size: Int)
        /// No `SHA256` and no `Size`: an unpublished entry.
        case nothing

        /// A SHA-256 that no archive here has.
        static let placeholder = Recorded.fixed(sha256: String(repeating: "0", count: 64), size: 0)

        var xml: String {
            switch self {
            case .of(let bytes):
                "<key>SHA256</key><string>\(SHA256.hash(bytes).hex)</string><key>Size</key><integer>\(bytes.count)</integer>"
            case .fixed(let sha256, let size):
                "<key>SHA256</key><string>\(sha256)</string><key>Size</key><integer>\(size)</integer>"
            case .nothing:
                ""
            }
        }
    }

    static func nonConsumable(_ id: String, pack: String, recorded: Recorded) -> String {
        """
        <dict>
        <key>ProductIdentifier</key><string>\(id)</string>
        <key>Type</key><string>NonConsumable</string>
        <key>DisplayName</key><string>Pack \(id)</string>
        <key>Description</key><string>A pack.</string>
        <key>Price</key><string>1.99</string>
        <key>Pack</key><string>\(pack)</string>
        \(recorded.xml)
        </dict>
        """
    }

    /// A `BasePacks` entry: `{Pack, SHA256, Size}`.
    static func basePack(_ file: String, recorded: Recorded) -> String {
        "<dict><key>Pack</key><string>\(file)</string>\(recorded.xml)</dict>"
    }

    /// A catalog; `version` and `currency` are left out when `nil`.
    static func catalogXML(products: [String], basePacks: [String] = [], version: Int? = 1, currency: String? = "USD") -> String {
        plist("""
            <dict>
            <key>BundleIdentifier</key><string>\(bundleID)</string>
            \(version.map { "<key>CatalogVersion</key><integer>\($0)</integer>" } ?? "")
            \(currency.map { "<key>Currency</key><string>\($0)</string>" } ?? "")
            <key>BasePacks</key><array>\(basePacks.joined())</array>
            <key>Products</key><array>
            \(products.joined(separator: "\n"))
            </array>
            </dict>
            """)
    }

    /// A packs folder with two hint bundles and two packs (animals: 6 words, fruit: 4 words).
    static func makePacksFolder(in directory: TemporaryDirectory) throws -> String {
        let animalsArchive = try packArchive(id: animals.rawValue, words: ["cat", "dog", "horse", "zebra", "giraffe", "llama"])
        let fruitArchive = try packArchive(id: fruit.rawValue, words: ["apple", "pear", "plum", "cherry"])
        try directory.write("packs/animals.wordpack", animalsArchive)
        try directory.write("packs/fruit.wordpack", fruitArchive)
        try directory.write("packs/Catalog.plist", catalogXML(products: [
            consumable(hints10.rawValue, hints: 10),
            consumable(hints100.rawValue, hints: 100),
            nonConsumable(animals.rawValue, pack: "animals.wordpack", recorded: .of(animalsArchive)),
            nonConsumable(fruit.rawValue, pack: "fruit.wordpack", recorded: .of(fruitArchive)),
        ]))
        return directory.path + "/packs"
    }
}

/// A clock that steps by one second on every reading and remembers what it said.
final class SteppingClock: Sendable {
    private let state: Mutex<[Int64]> = Mutex([])
    let start: Int64

    init(start: Int64 = 1_800_000_000_000) { self.start = start }

    /// Every value handed out so far, in order.
    var readings: [Int64] { state.withLock { $0 } }

    var clock: Clock {
        Clock { [self] in
            state.withLock { readings in
                let value = start + Int64(readings.count) * 1000
                readings.append(value)
                return value
            }
        }
    }
}

/// The engines an account's ledger can live in; ledger suites run against each.
enum Engine: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgresql

    var description: String { rawValue }
}

/// One account on a packs folder, in a temporary directory; its ledger in a SQLite file there, or
/// in the shared test PostgreSQL server under an account id of its own.
final class StoreAccount {
    let directory: TemporaryDirectory
    let packs: String
    /// The catalog services open with (``reloadCatalog()`` reads the folder's again).
    private(set) var catalog: Catalog
    let stepping = SteppingClock()
    let engine: Engine
    /// The account's id in PostgreSQL (every test its own, so tests share the server safely).
    let accountID = String(UInt64.random(in: 0...UInt64.max), radix: 16)
    let connectionString: String?

    var accountFolder: String { directory.path + "/home/account" }
    var databasePath: String { accountFolder + "/" + AccountService.databaseName }
    var keyPath: String { accountFolder + "/" + AccountService.keyName }

    /// `copied`: the shipped catalog and archives copied into a folder of the test's own (one it may write in).
    init(shipped: Bool = false, copied: Bool = false, engine: Engine = .sqlite) throws {
        directory = try TemporaryDirectory()
        if copied {
            packs = directory.path + "/packs"
            try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
            for file in try FileManager.default.contentsOfDirectory(atPath: StoreFixture.shippedPacks) where file == Catalog.fileName || file.hasSuffix(".wordpack") {
                try FileManager.default.copyItem(atPath: StoreFixture.shippedPacks + "/" + file, toPath: packs + "/" + file)
            }
        } else {
            packs = shipped ? StoreFixture.shippedPacks : try StoreFixture.makePacksFolder(in: directory)
        }
        catalog = try Catalog.load(folder: packs)
        self.engine = engine
        connectionString = engine == .postgresql ? try TestPostgreSQL.shared() : nil
    }

    /// Reads the packs folder's catalog again (the seller changed it): services opened from now on sell from it.
    func reloadCatalog() throws { catalog = try Catalog.load(folder: packs) }

    /// A new service (a new process, as far as the account is concerned) on this account.
    func service(crash: @escaping @Sendable (CrashPoint) -> Void = { _ in }) throws -> AccountService {
        try opener(crash: crash)()
    }

    /// Opens a new service on this account each time it is called, from any thread.
    func opener(clock: Clock? = nil, crash: @escaping @Sendable (CrashPoint) -> Void = { _ in }) -> @Sendable () throws -> AccountService {
        let (catalog, packs, folder, clock, keyPath, account, connectionString) = (
            catalog, packs, accountFolder, clock ?? stepping.clock, keyPath, accountID, connectionString)
        return {
            guard let connectionString else {
                return try AccountService(catalog: catalog, packsFolder: packs, accountFolder: folder, clock: clock, crash: crash)
            }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return try AccountService(
                catalog: catalog, packsFolder: packs, ledgers: try PostgreSQLLedgers(connectionString: connectionString, connections: 2),
                account: account, clock: clock, signingKey: try ServiceKey.loadOrCreate(at: keyPath), environment: .sandbox, crash: crash)
        }
    }

    /// A direct connection to the account's SQLite database, as a crash or an operator would see it.
    func database() throws -> Database { try Database(path: databasePath) }

    /// A direct connection to the PostgreSQL database, as an operator would see it.
    func postgres() throws -> PostgreSQL.Connection {
        try PostgreSQL.Connection(connectionString: connectionString ?? "")
    }

    /// The ledger's rows: (amount, balance after), oldest first.
    func ledgerRows() throws -> [(amount: Int64, balanceAfter: Int64, key: String)] {
        if engine == .postgresql {
            return try postgres().execute(
                "SELECT amount, balance_after, entry_key FROM hint_ledger WHERE account_id = $1 ORDER BY seq", [accountID]
            ).rows.map { (Int64($0[0] ?? "") ?? -999, Int64($0[1] ?? "") ?? -999, $0[2] ?? "") }
        }
        return try database().query("SELECT amount, balance_after, entry_key FROM hint_ledger ORDER BY seq").map {
            (try $0.int64(0), try $0.int64(1), try $0.string(2))
        }
    }
}

extension PurchaseOutcome {
    /// The transaction of a purchased outcome, else `nil`.
    var purchasedTransaction: StoreTransaction? {
        if case .purchased(let transaction) = self { transaction } else { nil }
    }

    /// The transaction, whatever the outcome (nil for already owned).
    var transaction: StoreTransaction? {
        switch self {
        case .purchased(let t), .failed(let t), .deferred(let t), .interrupted(let t): t
        case .alreadyOwned, .alreadySubscribed, .changeScheduled: nil
        }
    }
}

/// Runs `body` and returns the `ServiceError` it throws, or `nil`.
func storeError(_ body: () throws(ServiceError) -> some Any) -> ServiceError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// The seller's side of a service on one engine, for the suites of what spans accounts: a
/// `SellerService` over SQLite ledgers in a folder of the test's own, or over a PostgreSQL
/// database of the test's own (every row in it is the test's), and accounts' services opened on it.
final class SellerWorld {
    let directory: TemporaryDirectory
    let packs: String
    let catalog: Catalog
    let clock: SteppingClock
    let key: SigningKey
    let seller: SellerService
    /// The SQLite data folder (its ledgers under `accounts/`); unused on PostgreSQL.
    var data: String { directory.path + "/data" }

    init(_ engine: Engine, shipped: Bool = false, clock: SteppingClock = SteppingClock()) throws {
        directory = try TemporaryDirectory()
        packs = shipped ? StoreFixture.shippedPacks : try StoreFixture.makePacksFolder(in: directory)
        catalog = try Catalog.load(folder: packs)
        self.clock = clock
        key = try ServiceKey.loadOrCreate(at: directory.path + "/key")
        if engine == .postgresql {
            let server = try TestPostgreSQL.shared()
            let name = "hangman_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            try PostgreSQL.Connection(connectionString: server).execute("CREATE DATABASE \(name)")
            connectionString = server.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(name)")
            seller = try SellerService(.postgreSQL(connectionString: connectionString!, connections: 2))
        } else {
            connectionString = nil
            seller = try SellerService(.sqlite(folder: directory.path + "/data"))
        }
    }

    /// The PostgreSQL database's connection string; `nil` on SQLite.
    let connectionString: String?

    /// `sql` run on `account`'s ledger as it is, behind the service's back: `{account}` in it
    /// is the account's column and value (`account_id, ` and `'id', ` on PostgreSQL, nothing on SQLite).
    func execute(_ sql: String, account: String) throws {
        if let connectionString {
            try PostgreSQL.Connection(connectionString: connectionString).executeScript(
                sql.replacingOccurrences(of: "{account}", with: "account_id, ").replacingOccurrences(of: "{id}", with: "'\(account)', "))
        } else {
            try Database(path: data + "/accounts/" + account + "/" + AccountService.databaseName).execute(
                sql.replacingOccurrences(of: "{account}", with: "").replacingOccurrences(of: "{id}", with: ""))
        }
    }

    /// The service of `account` on this world's ledgers, claiming its transactions' ids in the directory.
    func open(_ account: String) throws -> AccountService {
        let service = if let ledgers = seller.ledgers {
            try AccountService(catalog: catalog, packsFolder: packs, ledgers: ledgers, account: account, clock: clock.clock, signingKey: key, environment: .sandbox)
        } else {
            try AccountService(catalog: catalog, packsFolder: packs, accountFolder: data + "/accounts/" + account, clock: clock.clock, signingKey: key)
        }
        service.claimTransactionID = seller.transactionIDClaims(account: account)
        return service
    }

    /// The kept numbers of every day, on whichever engine.
    func salesDays() throws -> SalesDays {
        try seller.ledgers?.salesDays(firstDay: 0, lastDay: 200_000, storefront: nil) ?? SQLiteLedgers.salesDays(folder: data, firstDay: 0, lastDay: 200_000, storefront: nil)
    }

    /// The kept numbers a sum of every transaction disagrees with, on whichever engine.
    func salesAggregateDifferences() throws -> [String] {
        try seller.ledgers?.salesAggregateDifferences() ?? SQLiteLedgers.salesAggregateDifferences(folder: data)
    }
}
