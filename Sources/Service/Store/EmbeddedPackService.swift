@_exported import PackServiceAPI
import SystemCalls
import FoundationEssentials
import Signing
import WordPacks

/// The pack service in-process: the catalog from a packs folder, the account in SQLite under the
/// state directory, receipts signed with a key kept beside the account (read the first time a
/// receipt is signed or checked).
///
/// ```swift
/// let service = try EmbeddedPackService(catalog: Catalog.load(folder: "Packs"), packsFolder: "Packs", accountFolder: home + "/account")
/// _ = try service.recoverUnfinished()
/// let outcome = try service.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1)
/// ```
public final class EmbeddedPackService: PackService, StoreTestControls {
    public let catalog: Catalog
    /// The folder the catalog's archives are in.
    public let packsFolder: String
    let ledger: AccountLedger
    /// The account's own key file, when the service signs with it (the embedded store); `nil`
    /// when a server hands its key in.
    let keyPath: String?
    let environment: ReceiptEnvironment
    /// The receipt signer: given a key, made at once; otherwise made when the key is first needed.
    private var receiptSigner: ReceiptSigner?
    let clock: Clock
    let crash: @Sendable (CrashPoint) -> Void
    var random = SystemRandomNumberGenerator()

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
    ) throws(StoreError) {
        do {
            try FileSystem.createFolder(atPath: accountFolder, permissions: 0o700)
        } catch {
            throw StoreError(.storage, "cannot make the account folder \(accountFolder): \(error)")
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
    ) throws(StoreError) {
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

    public func fetchCatalog() throws(StoreError) -> Catalog { catalog }

    // MARK: - Purchases

    public func recoverUnfinished() throws(StoreError) -> [StoreTransaction] {
        var recovered: [StoreTransaction] = []
        for transaction in try ledger.unfinished() {
            switch transaction.state {
            case .purchasing:
                // Never charged: the process died before payment. Nothing was taken, nothing is owed.
                // A younger one may be another process's purchase in flight: leave it to that process.
                guard clock.now() - transaction.updatedDate >= Self.paymentWindow else { continue }
                _ = try ledger.move(transaction.id, from: [.purchasing], to: .failed, reason: "interrupted before payment", now: clock.now())
            case .purchased, .delivered:
                try complete(transaction.id)
            default:
                continue
            }
            if let updated = try ledger.transaction(transaction.id) { recovered.append(updated) }
        }
        return recovered
    }

    public func buy(_ productID: ProductID, quantity: Int) throws(StoreError) -> PurchaseOutcome {
        try buy(productID, quantity: quantity, requestKey: nil)
    }

    /// Buys, once per `requestKey`: a retry with the same key (a client that lost the answer)
    /// gets the outcome of the transaction the key made, and nothing is charged again.
    public func buy(_ productID: ProductID, quantity: Int, requestKey: String?) throws(StoreError) -> PurchaseOutcome {
        if let requestKey {
            guard !requestKey.isEmpty, requestKey.utf8.count <= 200 else {
                throw StoreError(.invalidRequest, "an idempotency key is 1 to 200 bytes")
            }
            if let made = try ledger.transaction(requestKey: requestKey) { return try outcome(of: made, for: productID, quantity: quantity) }
        }
        guard let product = catalog.product(productID) else {
            throw StoreError(.unknownProduct, "no product '\(productID)' in the catalog: see 'hangman products'")
        }
        if let reason = product.unavailableReason {
            throw Self.unavailable(product, reason, buying: true)
        }
        // Priced in the account's storefront; a product without a price there is not sold there.
        let storefront = try accountStorefront()
        guard let price = product.price(in: storefront) else {
            throw StoreError(
                .productUnavailable,
                "\(product.displayName) (\(productID)) is not sold in the \(storefront) storefront: see 'hangman products' for what is")
        }
        guard let total = price.times(quantity) else { throw StoreError(.invalidRequest, "quantity \(quantity) is too large") }
        var now = clock.now()
        var groupProducts: [ProductID] = []
        var upgrading: TransactionID?
        if product.isSubscription {
            guard quantity == 1 else { throw StoreError(.invalidRequest, "\(productID) is a subscription: --quantity must be 1") }
            now = try settleSubscriptions()
            if let terms = product.autoRenewable {
                groupProducts = catalog.subscriptionGroup(terms.group).map(\.id)
                let change = try subscriptionChange(to: productID, now: now)
                switch (change.kind, change.current) {
                case (.same, let live?):
                    // The current plan chosen again: a downgrade waiting for the renewal is dropped.
                    guard live.renewsToProductID == nil else {
                        _ = try ledger.scheduleRenewal(group: terms.group, to: nil, now: now)
                        return .alreadySubscribed(try status(of: live.originalTransactionID, now: now))
                    }
                    return .alreadySubscribed(live)
                case (.downgrade, let live?):
                    _ = try ledger.scheduleRenewal(group: terms.group, to: productID, now: now)
                    return .changeScheduled(try status(of: live.originalTransactionID, now: now))
                case (.upgrade, let live?):
                    upgrading = live.originalTransactionID
                default:
                    break
                }
            }
        } else if product.isConsumable {
            guard (1...10).contains(quantity) else { throw StoreError(.invalidRequest, "quantity must be 1 to 10, not \(quantity)") }
        } else {
            guard quantity == 1 else { throw StoreError(.invalidRequest, "\(productID) is bought once and kept: --quantity must be 1") }
            if let owned = try ledger.entitlements().first(where: { $0.productID == productID && $0.isActive }) {
                return .alreadyOwned(owned)
            }
        }
        var id = TransactionID.random(using: &random)
        do {
            while try !ledger.insertPurchasing(
                id, product: product, quantity: quantity, charge: Charge(amount: total, storefront: storefront), requestKey: requestKey,
                groupProducts: groupProducts, upgrading: upgrading, now: now)
            {
                id = TransactionID.random(using: &random)
            }
        } catch {
            // Two requests with one key at once: the other one made the transaction.
            if let requestKey, let made = try ledger.transaction(requestKey: requestKey) { return try outcome(of: made, for: productID, quantity: quantity) }
            throw error
        }
        return try charge(id)
    }

    /// Takes a recorded purchase past payment (as the test controls say) and delivers it. Only one
    /// caller moves it out of `purchasing`; any other answers with what that one made of it.
    private func charge(_ id: TransactionID) throws(StoreError) -> PurchaseOutcome {
        let controls = try ledger.controls()
        let next: TransactionState = controls.failPurchases ? .failed : controls.askToBuy ? .deferred : controls.interruptPurchases ? .interrupted : .purchased
        let reason = controls.failPurchases ? "the store refused the payment (fail-purchases is on)" : nil
        guard try ledger.move(id, from: [.purchasing], to: next, reason: reason, now: clock.now()) else {
            // Another process took it on (a retry with the same key), or its recovery judged it
            // abandoned (nothing was charged): answer with the transaction as it stands.
            return try settled(try recorded(id))
        }
        let transaction = try recorded(id)
        switch next {
        case .failed: return .failed(transaction)
        case .deferred: return .deferred(transaction)
        case .interrupted: return .interrupted(transaction)
        default: break
        }
        crash(.afterCharge)
        try complete(transaction)
        return .purchased(try recorded(id))
    }

    /// What a purchase request already made answers: the transaction as it stands now. One still
    /// `purchasing` (its request's process died before payment, or is paying now) is charged here,
    /// once: a retry of the same request is the same purchase.
    /// The same key with another request (another product or quantity) is refused, never
    /// answered with the first request's outcome as if it were this one's.
    private func outcome(of transaction: StoreTransaction, for productID: ProductID, quantity: Int) throws(StoreError) -> PurchaseOutcome {
        guard transaction.productID == productID, transaction.quantity == quantity else {
            throw StoreError(
                .invalidRequest,
                "the idempotency key was used for \(transaction.productID) x\(transaction.quantity), not \(productID) x\(quantity): a new purchase needs a new key")
        }
        if transaction.state == .purchasing { return try charge(transaction.id) }
        return try settled(transaction)
    }

    /// The outcome of a transaction past `purchasing`, completing a charged one first.
    private func settled(_ transaction: StoreTransaction) throws(StoreError) -> PurchaseOutcome {
        var current = transaction
        if current.state == .purchased || current.state == .delivered {
            try complete(current.id)
            current = try recorded(current.id)
        }
        switch current.state {
        case .failed, .purchasing: return .failed(current)
        case .deferred: return .deferred(current)
        case .interrupted: return .interrupted(current)
        case .purchased, .delivered, .finished: return .purchased(current)
        }
    }

    /// Delivers a charged transaction (once, whatever happened before) and finishes it. A
    /// subscription's period starts at the store's time.
    func complete(_ id: TransactionID) throws(StoreError) {
        try complete(try recorded(id))
    }

    /// ``complete(_:)`` of a transaction just read.
    private func complete(_ transaction: StoreTransaction) throws(StoreError) {
        let id = transaction.id
        if transaction.state == .purchased {
            var legacyHints = 0
            if case .consumable(let each)? = catalog.product(transaction.productID)?.kind { legacyHints = each * transaction.quantity }
            let now = transaction.originalTransactionID == nil ? clock.now() : try storeNow()
            if try ledger.deliver(id, legacyHints: legacyHints, lookup: { catalog.product($0) }, now: now) {
                crash(.afterDeliver)
            }
        }
        _ = try ledger.move(id, from: [.delivered], to: .finished, now: clock.now())
    }

    private func recorded(_ id: TransactionID) throws(StoreError) -> StoreTransaction {
        guard let transaction = try ledger.transaction(id) else {
            throw StoreError(.unknownTransaction, "no transaction \(id): see 'hangman transactions'")
        }
        return transaction
    }

    public func restore() throws(StoreError) -> [Entitlement] {
        try entitlements().filter(\.isActive)
    }

    public func transactions() throws(StoreError) -> [StoreTransaction] {
        _ = try settleSubscriptions()
        return try ledger.transactions()
    }

    /// The packs bought outright, and those a subscription opens (active while it lasts, revoked
    /// from its end once it is over) unless bought outright too.
    public func entitlements() throws(StoreError) -> [Entitlement] {
        let owned = try ledger.entitlements()
        let now = try settleSubscriptions()
        var opened: [ProductID: Entitlement] = [:]
        for status in try subscriptions(now: now) {
            guard let product = catalog.product(status.productID) else { continue }
            for pack in catalog.packs(unlockedBy: product) where !owned.contains(where: { $0.productID == pack && $0.isActive }) {
                let entitlement = Entitlement(
                    productID: pack, transactionID: status.originalTransactionID, grantedDate: 0,
                    revokedDate: status.state.hasAccess ? nil : status.expiresDate, subscriptionProductID: status.productID,
                    expiresDate: status.state.hasAccess ? status.accessEnds : status.expiresDate)
                // An open one wins over an ended one; of two, the one that lasts longer.
                if let seen = opened[pack], seen.isActive && !entitlement.isActive || (seen.isActive == entitlement.isActive
                    && (seen.expiresDate ?? 0) >= (entitlement.expiresDate ?? 0))
                {
                    continue
                }
                opened[pack] = entitlement
            }
        }
        let fromPasses = opened.values.filter { pass in !owned.contains { $0.productID == pass.productID } || pass.isActive }
        return (owned.filter { owned in !(fromPasses.contains { $0.productID == owned.productID && $0.isActive }) } + fromPasses)
            .sorted { $0.productID.rawValue < $1.productID.rawValue }
    }

    // MARK: - Subscriptions

    /// The store's time: the real clock plus the lead the test controls gave it.
    func storeNow() throws(StoreError) -> Int64 {
        clock.now() + (try ledger.storeClock().offset)
    }

    /// Processes, in order, every renewal and end that fell due by the store's time; returns that
    /// time. Whichever command or request first sees one due does it, under the account's lock;
    /// a renewal is charged once per period and credited once, whatever crashes meanwhile.
    @discardableResult
    func settleSubscriptions() throws(StoreError) -> Int64 {
        let (offset, nextDue) = try ledger.storeClock()
        let now = clock.now() + offset
        guard let nextDue, nextDue <= now else { return now }
        let failRenewals = try ledger.controls().failRenewals
        for _ in 0..<100_000 {
            switch try ledger.nextRenewalStep(
                now: now, failRenewals: failRenewals, renewal: TransactionID.random(using: &random), product: { catalog.product($0) })
            {
            case .none: return now
            case .changed: continue
            case .renew(let id):
                crash(.afterRenewalCharge)
                try complete(id)
            }
        }
        return now
    }

    /// Every subscription the account ever had: its auto-renewable ones, and one row per
    /// non-renewing pass it bought (its purchases together).
    public func subscriptions() throws(StoreError) -> [SubscriptionStatus] {
        try subscriptions(now: settleSubscriptions())
    }

    func subscriptions(now: Int64) throws(StoreError) -> [SubscriptionStatus] {
        var statuses = try ledger.subscriptions().map { row in
            let grace = catalog.product(row.productID)?.autoRenewable?.gracePeriod ?? StoreDuration(6, .day)
            let state: SubscriptionState
            var graceEnds: Int64?
            if let reason = row.endReason {
                state = reason == "refunded" ? .revoked : .expired
            } else if let since = row.billingRetrySince {
                graceEnds = grace.added(to: since)
                state = now < (graceEnds ?? since) ? .gracePeriod : .billingRetry
            } else {
                state = row.inTrial ? .trial : .active
            }
            return SubscriptionStatus(
                productID: row.productID, state: state, expiresDate: row.endDate ?? row.expiresDate, willAutoRenew: row.isLive && row.willAutoRenew,
                renewsToProductID: row.renewsTo, originalTransactionID: row.originalTransactionID, gracePeriodExpiresDate: graceEnds,
                endReason: row.endReason, isAutoRenewable: true, periodStartDate: row.periodStart)
        }
        var passes: [ProductID: [StoreTransaction]] = [:]
        for transaction in try ledger.transactions()
        where transaction.originalTransactionID != nil && catalog.product(transaction.productID)?.nonRenewing != nil
            && [.delivered, .finished].contains(transaction.state)
        {
            passes[transaction.productID, default: []].append(transaction)
        }
        for (product, bought) in passes.sorted(by: { $0.value[0].purchaseDate < $1.value[0].purchaseDate }) {
            let paid = bought.filter(\.isPaid)
            let ends = paid.compactMap(\.expiresDate).max() ?? bought.compactMap(\.revocationDate).max() ?? bought[0].purchaseDate
            let state: SubscriptionState = paid.isEmpty ? .revoked : now < ends ? .active : .expired
            statuses.append(SubscriptionStatus(
                productID: product, state: state, expiresDate: ends, willAutoRenew: false, renewsToProductID: nil,
                originalTransactionID: bought[0].id, gracePeriodExpiresDate: nil, endReason: paid.isEmpty ? "refunded" : state == .expired ? "expired" : nil,
                isAutoRenewable: false))
        }
        return statuses
    }

    public func subscriptionChange(to product: ProductID) throws(StoreError) -> SubscriptionChange {
        try subscriptionChange(to: product, now: settleSubscriptions())
    }

    func subscriptionChange(to productID: ProductID, now: Int64) throws(StoreError) -> SubscriptionChange {
        guard let terms = catalog.product(productID)?.autoRenewable else {
            throw StoreError(.invalidRequest, "\(productID) is not an auto-renewable subscription: see 'hangman products'")
        }
        let group = try subscriptions(now: now).filter { status in
            status.isAutoRenewable && catalog.product(status.productID)?.autoRenewable?.group == terms.group
        }
        guard let live = group.first(where: { $0.endReason == nil }) else {
            // A trial once per group: the rule `deliverSubscription` applies when it starts.
            return SubscriptionChange(kind: .new, current: nil, refund: nil, freeTrial: group.isEmpty ? terms.freeTrial : nil)
        }
        if live.productID == productID { return SubscriptionChange(kind: .same, current: live, refund: nil) }
        let liveLevel = catalog.product(live.productID)?.autoRenewable?.groupLevel ?? Int.max
        guard terms.groupLevel < liveLevel else { return SubscriptionChange(kind: .downgrade, current: live, refund: nil) }
        let refund = try ledger.upgradeRefund(group: terms.group, lookup: { catalog.product($0) }, now: now)
        return SubscriptionChange(kind: .upgrade, current: live, refund: refund)
    }

    private func status(of original: TransactionID, now: Int64) throws(StoreError) -> SubscriptionStatus {
        guard let status = try subscriptions(now: now).first(where: { $0.originalTransactionID == original }) else {
            throw StoreError(.storage, "the subscription \(original) vanished")
        }
        return status
    }

    /// Turns auto-renew off (`on: false`, access stays to the period's end) or back on, for the
    /// live subscription of the group `product` belongs to.
    public func setAutoRenew(_ product: ProductID, on: Bool) throws(StoreError) -> SubscriptionStatus {
        guard let terms = catalog.product(product)?.autoRenewable else {
            throw StoreError(.invalidRequest, "\(product) is not an auto-renewable subscription: see 'hangman products'")
        }
        let now = try settleSubscriptions()
        let row = try ledger.setAutoRenew(group: terms.group, on: on, now: now)
        return try status(of: row.originalTransactionID, now: now)
    }

    // MARK: - Hints

    // MARK: - Storefront

    /// The account's storefront: the one chosen, else the catalog's default (`USA`).
    public func accountStorefront() throws(StoreError) -> String {
        try ledger.storefront() ?? catalog.defaultStorefront
    }

    /// Moves the account to `code`: future purchases and renewals are priced there; what was
    /// bought stays as it was charged. A storefront the catalog does not list is refused.
    public func setAccountStorefront(_ code: String) throws(StoreError) -> String {
        try checkStorefront(code)
        try ledger.setStorefront(code)
        return code
    }

    /// Chooses the storefront of an account that has none yet (when it is made); one already
    /// chosen stays.
    public func chooseStorefront(_ code: String) throws(StoreError) {
        try checkStorefront(code)
        try ledger.chooseStorefrontIfNone(code)
    }

    public func storefront() throws(StoreError) -> String { try accountStorefront() }

    public func setStorefront(_ code: String) throws(StoreError) -> String { try setAccountStorefront(code) }

    private func checkStorefront(_ code: String) throws(StoreError) {
        guard catalog.currency(of: code) != nil else {
            throw StoreError(
                .invalidRequest,
                "'\(code)' is not a storefront of this store: one of \(catalog.storefrontCodes.joined(separator: ", "))")
        }
    }

    public func hintBalance() throws(StoreError) -> Int {
        _ = try settleSubscriptions()
        return try ledger.balance()
    }

    public func spendHint(idempotencyKey: String) throws(StoreError) -> HintSpend {
        try spendHint(idempotencyKey: idempotencyKey, checking: nil)
    }

    /// A hint spend's key: 1 to 200 bytes.
    public static func checkIdempotencyKey(_ key: String) throws(StoreError) {
        guard !key.isEmpty, key.utf8.count <= 200 else {
            throw StoreError(.invalidRequest, "an idempotency key is 1 to 200 bytes")
        }
    }

    /// Whether ``spendHint(idempotencyKey:checking:)`` can check a request's token in the spend
    /// itself (PostgreSQL's ledgers: one round trip for both).
    public var checksTokensInSpend: Bool { ledger.engine.checksTokensInOneCall }

    /// Spends a hint; with `token` (where ``checksTokensInSpend``), only when the token is live
    /// and this account's, checked in the same call (401 otherwise, nothing spent).
    public func spendHint(idempotencyKey: String, checking token: PresentedToken?) throws(StoreError) -> HintSpend {
        try Self.checkIdempotencyKey(idempotencyKey)
        do {
            return try ledger.spend(key: idempotencyKey, now: clock.now(), checking: token)
        } catch where error.kind == .notEnoughHints {
            throw StoreError(.notEnoughHints, "no hints left" + (catalog.hintOffer.map { ": buy more with 'hangman buy \($0.id)'" } ?? ""))
        }
    }

    // MARK: - Packs

    public func packArchive(_ productID: ProductID) throws(StoreError) -> [UInt8] {
        if let base = catalog.basePack(productID) {
            return try readArchive(base.file)
        }
        guard let product = catalog.product(productID), case .nonConsumable(let file) = product.kind else {
            throw StoreError(.unknownProduct, "no pack '\(productID)' in the catalog: see 'hangman products'")
        }
        if let reason = product.unavailableReason {
            throw Self.unavailable(product, reason, buying: false)
        }
        guard try entitlements().contains(where: { $0.productID == productID && $0.isActive }) else {
            throw StoreError(.notEntitled, "\(productID) is not purchased: run 'hangman buy \(productID)'")
        }
        return try readArchive(file)
    }

    /// The archive's bytes: a regular file only (refused by type before it is opened), no larger
    /// than a pack archive may be.
    /// The refusal of a product the store cannot sell or deliver now.
    static func unavailable(_ product: Product, _ reason: String, buying: Bool) -> StoreError {
        StoreError(
            .productUnavailable,
            "\(product.displayName) (\(product.id)) is unavailable: \(reason)" + (buying ? "; nothing was charged" : "")
                + ". It can be bought and installed once the store publishes its pack again")
    }

    private func readArchive(_ file: String) throws(StoreError) -> [UInt8] {
        let path = packsFolder + "/" + file
        do {
            return try FileSystem.readFile(atPath: path, limit: ArchiveLimits.default.maxArchiveSize)
        } catch .system(.noSuchFile, _, _) {
            throw StoreError(.storage, "the pack archive \(file) is missing from \(packsFolder)")
        } catch {
            throw StoreError(.storage, "cannot read the pack archive: \(error)")
        }
    }

    // MARK: - Receipts

    public func receipt() throws(StoreError) -> Receipt {
        try receipt(accountID: nil)
    }

    /// The account's history, signed; `accountID` names the pack server's account it belongs to.
    public func receipt(accountID: String?) throws(StoreError) -> Receipt {
        let now = try settleSubscriptions()
        let renewals = try subscriptions(now: now).filter(\.isAutoRenewable).map { status in
            ReceiptPayload.Renewal(
                originalTransactionID: status.originalTransactionID.rawValue, productID: status.productID.rawValue,
                autoRenewStatus: status.willAutoRenew, autoRenewProductID: (status.renewsToProductID ?? status.productID).rawValue,
                isInBillingRetryPeriod: status.state == .billingRetry || status.state == .gracePeriod,
                gracePeriodExpiresDate: status.gracePeriodExpiresDate, expirationIntent: status.endReason)
        }
        let payload = ReceiptPayload(
            bundleIdentifier: catalog.bundleIdentifier, creationDate: clock.now(),
            transactions: try ledger.transactions().map { transaction in
                ReceiptPayload.Transaction(
                    id: transaction.id.rawValue, productID: transaction.productID.rawValue, quantity: transaction.quantity,
                    state: transaction.state.rawValue, purchaseDate: transaction.purchaseDate, revocationDate: transaction.revocationDate,
                    originalTransactionID: transaction.originalTransactionID?.rawValue, expiresDate: transaction.expiresDate,
                    isTrial: transaction.originalTransactionID == nil ? nil : transaction.isTrial,
                    price: transaction.price?.decimal, currency: transaction.price?.currency, storefront: transaction.storefront)
            }, environment: environment, accountID: accountID, renewals: renewals)
        return try signer().sign(payload)
    }

    public func verifyReceipt(_ bytes: [UInt8]) -> ReceiptVerification {
        do {
            return try signer().verify(bytes)
        } catch {
            return ReceiptVerification(status: .notAuthenticated, message: "cannot check the signature: \(error.message)")
        }
    }

    /// The receipt signer, its key read on first use: most commands sign and check nothing.
    private func signer() throws(StoreError) -> ReceiptSigner {
        if let receiptSigner { return receiptSigner }
        guard let keyPath else { throw StoreError(.storage, "this service has no signing key") }
        let signer = ReceiptSigner(key: try ServiceKey.loadOrCreate(at: keyPath), catalog: catalog, environment: environment)
        receiptSigner = signer
        return signer
    }

    // MARK: - Test controls

    public func controls() throws(StoreError) -> StoreControls { try ledger.controls() }

    public func setControls(_ controls: StoreControls) throws(StoreError) { try ledger.setControls(controls) }

    public func approve(_ id: TransactionID) throws(StoreError) -> StoreTransaction {
        try advance(id, from: .deferred, what: "approve")
    }

    public func resolve(_ id: TransactionID) throws(StoreError) -> StoreTransaction {
        try advance(id, from: .interrupted, what: "resolve")
    }

    public func decline(_ id: TransactionID) throws(StoreError) -> StoreTransaction {
        let transaction = try recorded(id)
        guard try ledger.move(id, from: [.deferred], to: .failed, reason: "declined by the approver", now: clock.now()) else {
            throw StoreError(.wrongState, "transaction \(id) is \(transaction.state.rawValue), not waiting for approval")
        }
        return try recorded(id)
    }

    private func advance(_ id: TransactionID, from state: TransactionState, what: String) throws(StoreError) -> StoreTransaction {
        let transaction = try recorded(id)
        guard try ledger.move(id, from: [state], to: .purchased, now: clock.now()) else {
            throw StoreError(.wrongState, "cannot \(what) transaction \(id): it is \(transaction.state.rawValue), not \(state.rawValue)")
        }
        crash(.afterCharge)
        try complete(id)
        return try recorded(id)
    }

    public func refund(_ id: TransactionID) throws(StoreError) -> (transaction: StoreTransaction, hintsTakenBack: Int) {
        let taken = try ledger.refund(id, now: try settleSubscriptions())
        return (try recorded(id), taken)
    }

    /// The store's time (milliseconds since 1970), after processing what fell due by it.
    public func storeClock() throws(StoreError) -> Int64 {
        try settleSubscriptions()
    }

    /// Moves the store clock forward by `duration` and processes whatever fell due meanwhile, in
    /// order; returns the new time. The clock is the account's, kept in its ledger, so every
    /// server of a database agrees on it.
    public func advanceClock(by duration: StoreDuration) throws(StoreError) -> Int64 {
        let now = try settleSubscriptions()
        let target = duration.added(to: now)
        try ledger.setClockOffset(target - clock.now())
        return try settleSubscriptions()
    }

    public func clear() throws(StoreError) { try ledger.clear() }

    public func reset() throws(StoreError) { try ledger.setControls(StoreControls()) }
}
