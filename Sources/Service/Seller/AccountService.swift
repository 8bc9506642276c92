@_exported import PackServiceAPI
import SystemCalls
import FoundationEssentials
import Signing
import WordPacks

/// One account of the pack service, and the only door into its ledger: every rule the seller
/// applies to an account (buying, delivery, entitlements, who may download an archive,
/// storefronts, trials, upgrades, renewals, hints, receipts, test controls) is decided here, for
/// the embedded store (through ``EmbeddedPackService``) and the server (one per request's account)
/// alike. Its ledger is SQLite under an account folder, or a PostgreSQL database servers share.
///
/// ```swift
/// let service = try AccountService(catalog: Catalog.load(folder: "Packs"), packsFolder: "Packs", accountFolder: home + "/account")
/// _ = try service.recoverUnfinished()
/// let outcome = try service.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1)
/// ```
public final class AccountService {
    public let catalog: Catalog
    /// The folder the catalog's archives are in.
    public let packsFolder: String
    let ledger: AccountLedger
    /// The account's own key file, when the service signs with it (the embedded store); `nil`
    /// when a server hands its key in.
    let keyPath: String?
    let environment: ReceiptEnvironment
    /// The receipt signer: given a key, made at once; otherwise made when the key is first needed.
    var receiptSigner: ReceiptSigner?
    let clock: Clock
    let crash: @Sendable (CrashPoint) -> Void
    var random = SystemRandomNumberGenerator()
    /// The words served games draw from; a server shares one among its accounts.
    public var packWords = ServedPackWords()
    /// The daily word, on a server: its secret and the board leaderboards read. `nil` on the
    /// embedded store until its own daily word is first asked for (``drawsOwnDailyWord``).
    public var dailyWords: DailyWords?
    /// The store is its own seller and draws its own daily word from its key, on no board (the
    /// embedded store).
    public var drawsOwnDailyWord = false
    /// The receipt policy with the service's shared secret; `nil`: this store's own secret
    /// (``ownSharedSecret()``), as the embedded store has.
    public var receiptPolicy: ReceiptPolicy?
    /// Claims a new transaction's id across the service before the ledger records it (`false`:
    /// another account has it); `nil` on the embedded store, whose one ledger is its service.
    public var claimTransactionID: (@Sendable (TransactionID) throws(ServiceError) -> Bool)?
    /// Claims an offer code (its SHA-256) across the service before the ledger records its
    /// purchase (`false`: another account redeemed it); `nil` on the embedded store, whose
    /// ledger keeps each code's use once (``redeem(offerCode:)``).
    public var claimOfferCode: (@Sendable (String, Int64) throws(ServiceError) -> Bool)?

    /// How long a purchase may stay `purchasing` (recorded, not yet charged) before recovery
    /// decides that its process died before payment: 10 seconds.
    public static let paymentWindow: Int64 = 10_000

    /// The account's database file inside `accountFolder`.
    public static let databaseName = "account.sqlite"
    /// The service's secret key file inside `accountFolder`.
    public static let keyName = "service-signing.key"

    /// Opens (creating if needed) the account in `accountFolder`.
    /// `crash` is called at each `CrashPoint`; tests and `HANGMAN_CRASH_AT` use it to die there.
    /// A server passes its own `signingKey` and `environment`; without a key, the account's own
    /// (made on first use beside the account, as the embedded sandbox store does).
    public convenience init(
        catalog: Catalog, packsFolder: String, accountFolder: String, clock: Clock = .system,
        signingKey: SigningKey? = nil, environment: ReceiptEnvironment = .sandbox,
        crash: @escaping @Sendable (CrashPoint) -> Void = { _ in }
    ) throws(ServiceError) {
        do {
            try FileSystem.createFolder(atPath: accountFolder, permissions: 0o700)
        } catch {
            throw ServiceError(.storage, "cannot make the account folder \(accountFolder): \(error)")
        }
        let keyPath = accountFolder + "/" + Self.keyName
        if signingKey == nil {
            // A command that signs nothing (a game, an install) reads no key, but the key file is
            // still made on the first run and refused at once when it is a link or not a file.
            try ServiceKey.checkOrCreate(at: keyPath)
        }
        self.init(
            catalog: catalog, packsFolder: packsFolder, ledger: AccountLedger(try SQLiteLedgerStatements(path: accountFolder + "/" + Self.databaseName)),
            clock: clock, keyPath: keyPath, signer: signingKey.map { ReceiptSigner(key: $0, catalog: catalog, environment: environment) },
            environment: environment, crash: crash)
    }

    /// Opens the ledger of `account` in a PostgreSQL database that several servers share (made on
    /// first use), signing with the servers' common `signingKey`.
    public convenience init(
        catalog: Catalog, packsFolder: String, ledgers: PostgreSQLLedgers, account: String, clock: Clock = .system,
        signingKey: SigningKey, environment: ReceiptEnvironment = .production,
        crash: @escaping @Sendable (CrashPoint) -> Void = { _ in }
    ) throws(ServiceError) {
        self.init(
            catalog: catalog, packsFolder: packsFolder, ledger: try ledgers.ledger(account: account, now: clock.now()), clock: clock,
            keyPath: nil, signer: ReceiptSigner(key: signingKey, catalog: catalog, environment: environment), environment: environment, crash: crash)
    }

    init(
        catalog: Catalog, packsFolder: String, ledger: AccountLedger, clock: Clock, keyPath: String?, signer: ReceiptSigner?,
        environment: ReceiptEnvironment, crash: @escaping @Sendable (CrashPoint) -> Void
    ) {
        self.catalog = catalog
        self.packsFolder = packsFolder
        self.ledger = ledger
        self.keyPath = keyPath
        self.receiptSigner = signer
        self.environment = environment
        self.clock = clock
        self.crash = crash
    }
}
