import CivilCalendar
import PackServiceAPI
import SystemCalls
import WordPacks

/// The player's side of the game, opened once per command: the device, the service, and the
/// rules that join them.
///
/// `start()` finishes what an earlier command left, as StoreKit's transaction observer does at
/// launch: base packs are installed, and a pack that became owned while this device existed
/// (a parent approved it, the buyer resolved it, a crash cut its delivery short) is installed
/// once. `buy` is purchase, then install. Which state a pack is in is decided here, in one place.
///
/// ```swift
/// let player = try await Player.open(service: service, device: try DeviceDatabase(folder: home + "/device"))
/// let report = try await player.start()
/// let result = try await player.buy(ProductID(rawValue: "com.hangmanpacks.words.ios")!)
/// ```
public struct Player {
    public let service: any PackService
    public let device: DeviceDatabase
    public let installer: PackInstaller
    public let clock: Clock
    /// The service's catalog, fetched once when the session opened.
    public var catalog: Catalog { installer.catalog }
    /// The reader's language (`de`, from the locale), for the base packs a device installs by
    /// itself; `nil` for English alone.
    public var readerLanguage: String?

    public init(service: any PackService, catalog: Catalog, device: DeviceDatabase, verifier: PackVerifier = PackVerifier(), clock: Clock = .system) {
        self.service = service
        self.device = device
        self.installer = PackInstaller(service: service, catalog: catalog, device: device, verifier: verifier, clock: clock)
        self.clock = clock
    }

    /// The session again with the service's catalog, when the service sells from a newer one than
    /// this session holds (a product published since: `catalog add`, then SIGHUP); `nil` when it
    /// does not, or cannot be asked now.
    public func withNewerCatalog() async -> Player? {
        guard let newer = try? await service.fetchCatalog(), newer.catalogVersion > catalog.catalogVersion else { return nil }
        var player = Player(service: service, catalog: newer, device: device, verifier: installer.verifier, clock: clock)
        player.readerLanguage = readerLanguage
        return player
    }

    /// Opens a session: fetches the service's catalog once.
    public static func open(
        service: any PackService, device: DeviceDatabase, verifier: PackVerifier = PackVerifier(), clock: Clock = .system
    ) async throws(PlayerError) -> Player {
        do {
            let catalog = try await service.fetchCatalog()
            return Player(service: service, catalog: catalog, device: device, verifier: verifier, clock: clock)
        } catch {
            throw .store(error)
        }
    }

    /// A progress callback for the install of one pack, or `nil` for none.
    public typealias ProgressFor = (ProductID) -> ((InstallProgress) -> Void)?

    // MARK: - Start

    /// What `start()` did.
    public struct StartReport: Sendable {
        /// Base packs installed for the first time.
        public var basePacks: [ProductID] = []
        /// Owned packs delivered now: their purchase finished after this device last looked.
        public var delivered: [ProductID] = []
        /// Packs delivered now because a subscription opens them, with the subscription.
        public var opened: [(id: ProductID, by: ProductID)] = []
        /// Owned packs whose delivery failed (an archive that does not match, say): tried again
        /// at the next start; the command goes on.
        public var undelivered: [(id: ProductID, error: PlayerError)] = []
    }

    /// Installs missing base packs, then every pack the account came to own while this device
    /// existed and that was never delivered here. The first start takes stock of what the account
    /// already owned: those packs come back with `restore`, not unasked.
    public func start(progress: ProgressFor = { _ in nil }) async throws(PlayerError) -> StartReport {
        var report = StartReport()
        let owning: Result<[Entitlement], PlayerError>
        do { owning = .success(try await owned()) } catch { owning = .failure(error) }
        // The common case, one query: base packs in, baseline taken, every purchase delivered.
        if case .success(let active) = owning, try await device({ () throws(DeviceError) in
            // A feature (remove-ads) has nothing to deliver: only packs count.
            try device.isUpToDate(
                basePacks: try wantedBasePacks(fresh: false),
                transactions: active.filter { catalog.product($0.productID)?.feature == nil }.map(\.transactionID.rawValue))
        }) {
            return report
        }
        // Base packs first: they need no account, so they install even when it cannot be read.
        let fresh = try await device { () throws(DeviceError) in
            let none = try device.installedPacks().isEmpty
            let declined = try device.uninstalledBasePacks()
            return none && declined.isEmpty
        }
        let wanted = try await device { () throws(DeviceError) in try wantedBasePacks(fresh: fresh) }
        report.basePacks = try await device { () async throws(DeviceError) in try await installer.installMissingBasePacks(wanted, progress: progress) }
        if fresh { try await device { () throws(DeviceError) in try chooseReadersLanguage() } }
        // A device the service no longer knows owns nothing it can deliver: what needs the
        // account says so itself, and the free packs still play.
        if case .failure(.store(let error)) = owning, error.kind == .unauthorized { return report }
        let active = try owning.get()
        if try await !device({ () throws(DeviceError) in try device.hasDeliveryBaseline() }) {
            let stock = active.map { (transaction: $0.transactionID.rawValue, product: $0.productID) }
            try await device { () throws(DeviceError) in try device.recordDeliveryBaseline(stock, now: clock.now()) }
            return report
        }
        let known = try await device { () throws(DeviceError) in try device.knownDeliveries() }
        // A feature (remove-ads) has nothing to install: owning it is all.
        for entitlement in active where !known.contains(entitlement.transactionID.rawValue) && catalog.product(entitlement.productID)?.feature == nil {
            do {
                let installed = try await install(entitlement.productID, progress: progress(entitlement.productID))
                if let pass = entitlement.subscriptionProductID {
                    // Another pass (an upgrade, a new subscription) opening a pack already here says nothing.
                    if !installed.isAlreadyInstalled { report.opened.append((entitlement.productID, pass)) }
                } else {
                    report.delivered.append(entitlement.productID)
                }
            } catch {
                report.undelivered.append((entitlement.productID, error))
            }
        }
        return report
    }

    // MARK: - Purchases

    /// How a `buy` ended.
    public enum BuyResult: Sendable, Equatable {
        /// Charged and delivered: hints credited, or the pack unlocked and installed.
        case purchased(StoreTransaction, installed: InstallOutcome?)
        /// A pack or feature the account already owns: nothing charged; a pack is installed if it
        /// was not (`installed` is nil for a feature).
        case alreadyOwned(Entitlement, installed: InstallOutcome?)
        /// The store refused the payment.
        case failed(StoreTransaction)
        /// Waiting for a parent's approval; the next start after approval installs it.
        case deferred(StoreTransaction)
        /// Waiting for the buyer to act; the next start after that installs it.
        case interrupted(StoreTransaction)
        /// An auto-renewable the account is subscribed to already: nothing charged.
        case alreadySubscribed(SubscriptionStatus)
        /// A lower level of the group's subscription: it takes over at the next renewal.
        case changeScheduled(SubscriptionStatus)
    }

    /// Buys `quantity` of a product: purchase, then (for a pack) install. `options` go with the
    /// purchase as StoreKit's do (an app account token).
    public func buy(
        _ id: ProductID, quantity: Int = 1, options: PurchaseOptions = PurchaseOptions(), progress: ((InstallProgress) -> Void)? = nil
    ) async throws(PlayerError) -> BuyResult {
        try checkPaymentsAllowed()
        let outcome = try await store { () async throws(ServiceError) in try await service.buy(id, quantity: quantity, options: options) }
        return try await delivered(outcome, of: id, progress: progress)
    }

    /// Redeems an offer code (``PackService/redeem(offerCode:)``), then installs its pack as
    /// `buy` does; the product is the code's, told by the outcome.
    public func redeem(offerCode: String, progress: ((ProductID) -> ((InstallProgress) -> Void)?)? = nil) async throws(PlayerError) -> BuyResult {
        try checkPaymentsAllowed()
        let outcome = try await store { () async throws(ServiceError) in try await service.redeem(offerCode: offerCode) }
        let id: ProductID? =
            switch outcome {
            case .purchased(let transaction), .failed(let transaction), .deferred(let transaction), .interrupted(let transaction): transaction.productID
            case .alreadyOwned(let entitlement): entitlement.productID
            case .alreadySubscribed, .changeScheduled: nil
            }
        return try await delivered(outcome, of: id, progress: id.flatMap { progress?($0) })
    }

    /// What a purchase's outcome comes to on this device: a pack it unlocked installed.
    private func delivered(_ outcome: PurchaseOutcome, of id: ProductID?, progress: ((InstallProgress) -> Void)?) async throws(PlayerError) -> BuyResult {
        switch outcome {
        case .purchased(let transaction):
            // Hints, a feature or a subscription: nothing to install (a pass's packs install when played).
            guard let id, catalog.product(id)?.packFile != nil else { return .purchased(transaction, installed: nil) }
            return .purchased(transaction, installed: try await install(id, progress: progress))
        case .alreadyOwned(let entitlement):
            guard let id, catalog.product(id)?.feature == nil else { return .alreadyOwned(entitlement, installed: nil) }
            return .alreadyOwned(entitlement, installed: try await install(id, progress: progress))
        case .failed(let transaction): return .failed(transaction)
        case .deferred(let transaction): return .deferred(transaction)
        case .interrupted(let transaction): return .interrupted(transaction)
        case .alreadySubscribed(let status): return .alreadySubscribed(status)
        case .changeScheduled(let status): return .changeScheduled(status)
        }
    }

    /// Installs (or updates) one pack the account may have, and records its delivery.
    public func install(_ id: ProductID, progress: ((InstallProgress) -> Void)? = nil) async throws(PlayerError) -> InstallOutcome {
        let outcome = try await device { () async throws(DeviceError) in try await installer.install(id, progress: progress) }
        if let entitlement = try await owned().first(where: { $0.productID == id }) {
            try await device { () throws(DeviceError) in
                try device.recordDelivery(transaction: entitlement.transactionID.rawValue, product: id, now: clock.now())
            }
        }
        return outcome
    }

    /// What `restore` brought back, and what it could not.
    public struct RestoreReport: Sendable {
        public var restored: [(entitlement: Entitlement, outcome: InstallOutcome)] = []
        /// Owned packs on sale whose archive is unavailable at the service now: the others are
        /// restored all the same, and these once the store publishes their archive again.
        public var unavailable: [(entitlement: Entitlement, error: PlayerError)] = []
        /// Owned packs the seller no longer publishes: off sale with their archive gone, or no
        /// longer in the catalog. The purchase stays on the account; there is nothing to install.
        public var withdrawn: [(entitlement: Entitlement, reason: String)] = []
        /// Features the account owns (remove-ads): nothing to install, owned again on this device.
        public var features: [Entitlement] = []
    }

    /// Every pack the account owns, installed again: what a new device or a deleted app needs.
    /// A pack that cannot be installed is reported and skipped (``RestoreReport``); any other
    /// failure stops the restore.
    public func restore(progress: ProgressFor = { _ in nil }) async throws(PlayerError) -> RestoreReport {
        let owned = try await store { () async throws(ServiceError) in try await service.restore() }
        var report = RestoreReport()
        for entitlement in owned {
            let product = catalog.product(entitlement.productID)
            if product?.feature != nil {
                report.features.append(entitlement)
                continue
            }
            guard let product else {
                report.withdrawn.append((entitlement, "\(entitlement.productID) is no longer in the catalog: the purchase stays on the account, with nothing to install"))
                continue
            }
            if !product.isForSale, let reason = product.unavailableReason {
                report.withdrawn.append((entitlement, "\(product.displayName) (\(product.id)) is off sale and its pack is no longer published (\(reason)): the purchase stays on the account"))
                continue
            }
            do {
                report.restored.append((entitlement, try await install(entitlement.productID, progress: progress(entitlement.productID))))
            } catch .device(let error) where error.kind == .unavailable {
                report.unavailable.append((entitlement, .device(error)))
            }
        }
        return report
    }

    /// Installs newer versions: of `id`, or of every installed pack still unlocked whose pack is
    /// available (an unavailable one stays as it is, playable).
    public func update(_ id: ProductID? = nil, progress: ProgressFor = { _ in nil }) async throws(PlayerError) -> [(id: ProductID, outcome: InstallOutcome)] {
        var targets = try await device { () async throws(DeviceError) in try await installer.playablePacks() }.map(\.productID)
        // The themes installed here and still owned, as their packs are.
        let themes = try await device { () throws(DeviceError) in try device.installedThemes() }.map(\.productID)
        if !themes.isEmpty {
            let ownership = try await ownership()
            targets += themes.filter { ownership.owns($0) }
        }
        targets = targets.filter { catalog.product($0)?.isAvailable ?? true }
        if let id {
            let installed = try await device { () throws(DeviceError) in try device.installedPacks() }.map(\.productID) + themes
            guard installed.contains(id) else {
                throw .device(DeviceError(.notInstalled, "'\(id)' is not installed: see 'hangman packs'"))
            }
            targets = [id]
        }
        var results: [(id: ProductID, outcome: InstallOutcome)] = []
        for target in targets {
            results.append((target, try await install(target, progress: progress(target))))
        }
        return results
    }

    /// How an uninstall went.
    public enum UninstallOutcome: Sendable, Equatable {
        /// Removed; `canReinstall` when the account still owns it (or it is a base pack).
        case uninstalled(canReinstall: Bool)
        /// A pack of the catalog that is not on this device: nothing to do.
        case notInstalled
    }

    /// Removes a pack from this device; the purchase stays. A pack neither installed nor in the
    /// catalog is an unknown pack (a mistyped id), not a success.
    public func uninstall(_ id: ProductID) async throws(PlayerError) -> UninstallOutcome {
        let isBase = catalog.basePack(id) != nil
        guard try await device({ () throws(DeviceError) in try device.uninstall(id, isBase: isBase) }) else {
            if catalog.product(id)?.isConsumable == true {
                throw .device(DeviceError(.unknownPack, "'\(id)' is bought to be used up (hints, streak freezes), not a pack: there is nothing to uninstall"))
            }
            guard catalog.product(id) != nil || catalog.basePack(id) != nil else {
                throw .device(DeviceError(.unknownPack, "no pack '\(id)' is installed or in the catalog: see 'hangman packs'"))
            }
            return .notInstalled
        }
        let owned = try await owned().contains { $0.productID == id }
        return .uninstalled(canReinstall: owned || catalog.basePack(id) != nil)
    }

    /// The base packs a device installs by itself: English and those of the languages its games
    /// draw from (`settings languages`), and on its first start (`fresh`) the reader's language
    /// too. A device that played before gains no language by itself (its games would change
    /// language unasked): the others are free to install by hand (`install`, `play --language`).
    func wantedBasePacks(fresh: Bool) throws(DeviceError) -> [ProductID] {
        var languages: Set<String> = ["en"]
        if fresh, let readerLanguage { languages.insert(LanguageTag.primary(readerLanguage)) }
        for tag in try device.settings().gameLanguages ?? [] { languages.insert(LanguageTag.primary(tag)) }
        return catalog.basePacks.filter { languages.contains(LanguageTag.primary($0.language ?? "en")) }.map(\.productID)
    }

    /// A fresh device whose reader reads another language than English, with a base pack in it:
    /// games draw from that language's words (English stays installed, a `settings languages`
    /// away).
    private func chooseReadersLanguage() throws(DeviceError) {
        guard let readerLanguage, LanguageTag.primary(readerLanguage) != "en" else { return }
        var settings = try device.settings()
        guard settings.gameLanguages == nil,
            let pack = try device.installedPacks().first(where: { $0.isBase && LanguageTag.primary($0.language) == LanguageTag.primary(readerLanguage) })
        else { return }
        settings.gameLanguages = [pack.language]
        try device.save(settings)
    }

    // MARK: - Pack states

    /// Every pack of the catalog, base packs first, with the state it is in on this device.
    public func packs() async throws(PlayerError) -> [PackStatus] {
        let installed = Dictionary(
            try await device { () throws(DeviceError) in try device.installedPacks() }.map { ($0.productID, $0.contentVersion) }, uniquingKeysWith: { first, _ in first })
            .merging(try await device { () throws(DeviceError) in try device.installedThemes() }.map { ($0.productID, $0.contentVersion) }, uniquingKeysWith: { first, _ in first })
        let ownership = try await ownership()
        let storefront = try await storefront()
        var rows: [PackStatus] = []
        for base in catalog.basePacks {
            let here = installed[base.productID]
            rows.append(PackStatus(
                productID: base.productID, displayName: base.displayName, isBase: true, price: nil, wordCount: base.wordCount,
                installedVersion: here, availableVersion: base.contentVersion,
                state: PackState.resolve(isBase: true, installed: here, available: base.contentVersion, entitlement: nil)))
        }
        // Word packs, then themes.
        for product in catalog.products.filter({ $0.packFile != nil && !$0.isTheme }) + catalog.products.filter(\.isTheme) {
            let here = installed[product.id]
            // Off sale: a pack for those who have it, not one to offer.
            if !product.isForSale, here == nil, ownership.entitlement(for: product.id) == nil { continue }
            rows.append(PackStatus(
                productID: product.id, displayName: product.displayName, isBase: false, price: product.salePrice(in: storefront), wordCount: product.wordCount ?? 0,
                installedVersion: here, availableVersion: product.contentVersion,
                state: PackState.resolve(
                    isBase: false, installed: here, available: product.contentVersion, entitlement: ownership.entitlement(for: product.id),
                    isAvailable: product.isAvailable),
                unavailableReason: product.unavailableReason, subscriptionProductID: ownership.entitlement(for: product.id)?.subscriptionProductID,
                subscriptionEnds: ownership.entitlement(for: product.id).flatMap { $0.subscriptionProductID == nil ? nil : $0.revokedDate ?? $0.expiresDate },
                isTheme: product.isTheme))
        }
        return rows
    }

    /// The packs a game draws from: every installed, unlocked pack in the languages the settings
    /// choose (all of them when none are chosen, or when none is installed), or the ones asked
    /// for, each of which must be playable (the error says what to do when one is not).
    public func playablePacks(_ requested: [ProductID] = []) async throws(PlayerError) -> [InstalledPack] {
        try await gamePacks(requested).chosen
    }

    /// The packs a game draws from (`playablePacks`), and every pack the account may play now:
    /// a saved game resumes only on one of those (`takeSeat`).
    public func gamePacks(_ requested: [ProductID]) async throws(PlayerError) -> (chosen: [InstalledPack], playable: Set<ProductID>) {
        let playable = try await device { () async throws(DeviceError) in try await installer.playablePacks() }
        return (try await choose(requested, from: playable), Set(playable.map(\.productID)))
    }

    private func choose(_ requested: [ProductID], from playable: [InstalledPack]) async throws(PlayerError) -> [InstalledPack] {
        guard !requested.isEmpty else {
            guard let languages = try settings().gameLanguages else { return playable }
            let chosen = playable.filter { pack in languages.contains { LanguageTag.sameLanguage($0, pack.language) } }
            return chosen.isEmpty ? playable : chosen
        }
        let states = try await packs()
        var chosen: [InstalledPack] = []
        for id in requested {
            if let pack = playable.first(where: { $0.productID == id }) {
                chosen.append(pack)
                continue
            }
            switch states.first(where: { $0.productID == id })?.state {
            case .revoked?:
                throw .device(DeviceError(.notEntitled, "\(id) is revoked (refunded): buy it again with 'hangman buy \(id)'"))
            case .locked?:
                if let row = states.first(where: { $0.productID == id }), let pass = row.subscriptionProductID {
                    let name = catalog.product(pass)?.displayName ?? pass.rawValue
                    let ended = row.subscriptionEnds.map { " on \(UTCDateTime(millisecondsSince1970: $0).dateText)" } ?? ""
                    throw .device(DeviceError(
                        .notEntitled, "\(id) is locked: \(name) ended\(ended). Subscribe again with 'hangman buy \(pass)', or buy the pack with 'hangman buy \(id)'"))
                }
                // Its name and its price in the account's storefront, as 'hangman products' shows it.
                let product = catalog.product(id)
                let price = (try? await service.storefront()).flatMap { product?.price(in: $0) }.map { " for \($0.decimal) \($0.currency)" } ?? ""
                throw .device(DeviceError(
                    .notEntitled, "\(product?.displayName ?? id.rawValue) (\(id)) is locked: buy it\(price) with 'hangman buy \(id)'"))
            case .unavailable?:
                throw .device(DeviceError(.unavailable, "\(id) is unavailable: \(catalog.product(id)?.unavailableReason ?? "its pack cannot be used")"))
            case .some:
                throw .device(DeviceError(.notEntitled, "\(id) is not installed: run 'hangman install \(id)'"))
            case nil:
                throw .device(DeviceError(.unknownPack, "no pack '\(id)': see 'hangman packs'"))
            }
        }
        return chosen
    }

    /// The products the account owns now (refunded ones excluded): packs and features.
    public func ownedProducts() async throws(PlayerError) -> Set<ProductID> {
        Set(try await owned().map(\.productID))
    }

    // MARK: - Settings

    /// Throws when purchases are turned off on this device (StoreKit's `canMakePayments`).
    public func checkPaymentsAllowed() throws(PlayerError) {
        guard try settings().paymentsAllowed else {
            throw .device(DeviceError(
                .paymentsNotAllowed, "purchases are turned off on this device: nothing was charged ('hangman store payments on' allows them)"))
        }
    }

    /// This device's settings.
    public func settings() throws(PlayerError) -> DeviceSettings {
        do { return try device.settings() } catch { throw .device(error) }
    }

    public func save(_ settings: DeviceSettings) throws(PlayerError) {
        do { try device.save(settings) } catch { throw .device(error) }
    }

    /// When the pack `id` just brought a language that default games do not draw from: that
    /// language and the ones they draw from (the languages chosen, or, before any choice, those
    /// of the other installed packs). A game without `--pack` should not switch language unasked,
    /// nor leave out a pack just paid for without a word; the caller asks, or says so.
    public func newLanguage(arrivingWith id: ProductID) async throws(PlayerError) -> (language: String, previous: [String])? {
        let installed = try await device { () throws(DeviceError) in try device.installedPacks() }
        guard let pack = installed.first(where: { $0.productID == id }) else { return nil }
        if let chosen = try settings().gameLanguages {
            return chosen.contains { LanguageTag.sameLanguage($0, pack.language) } ? nil : (pack.language, chosen)
        }
        var previous: [String] = []
        for other in installed where other.productID != id && !previous.contains(where: { LanguageTag.sameLanguage($0, other.language) }) {
            previous.append(other.language)
        }
        guard !previous.isEmpty, !previous.contains(where: { LanguageTag.sameLanguage($0, pack.language) }) else { return nil }
        return (pack.language, previous)
    }

    // MARK: - Plumbing

    /// What the account owns, asked of the service now.
    /// The account's storefront: what prices are shown and charged in.
    public func storefront() async throws(PlayerError) -> String {
        try await store { () async throws(ServiceError) in try await service.storefront() }
    }

    /// Moves the account to another storefront (future purchases only).
    public func setStorefront(_ code: String) async throws(PlayerError) -> String {
        try await store { () async throws(ServiceError) in try await service.setStorefront(code) }
    }

    /// The theme the game draws: the one the settings chose, installed here and still owned (a
    /// refunded theme is drawn no more); `nil` for the classic stick figure. Offline, the
    /// installed theme is drawn as it was.
    public func drawnTheme() async -> ThemeFrames? {
        guard let id = try? device.chosenTheme(), let theme = try? device.installedThemes().first(where: { $0.productID == id }) else { return nil }
        if let ownership = try? await ownership(), !ownership.owns(id) { return nil }
        return theme.frames
    }

    public func ownership() async throws(PlayerError) -> Ownership {
        try await store { () async throws(ServiceError) in try await Ownership.read(from: service) }
    }

    private func owned() async throws(PlayerError) -> [Entitlement] {
        try await ownership().active
    }

    func store<T>(_ body: () async throws(ServiceError) -> T) async throws(PlayerError) -> T {
        do { return try await body() } catch { throw .store(error) }
    }

    private func device<T>(_ body: () async throws(DeviceError) -> T) async throws(PlayerError) -> T {
        do { return try await body() } catch { throw .device(error) }
    }
}

/// Where a pack stands on this device.
public enum PackState: String, Sendable, Equatable, CaseIterable {
    /// Installed in the catalog's version.
    case installed
    /// Installed; the catalog has a newer version.
    case updateAvailable = "update available"
    /// A base pack not installed yet.
    case notInstalled = "not installed"
    /// Owned, not on this device: `install` or `restore` brings it.
    case purchasedNotInstalled = "purchased, not installed"
    /// Open while a subscription lasts (not bought outright).
    case subscribed
    /// For sale, not owned (or the subscription that opened it ended).
    case locked
    /// Bought, then refunded: locked again.
    case revoked
    /// Not on this device, and its pack cannot be bought or installed now: the archive is missing
    /// or damaged at the service.
    case unavailable

    /// The one rule deciding a pack's state. An installed pack stays playable while its archive is
    /// unavailable; one that is not installed cannot be had.
    static func resolve(
        isBase: Bool, installed: ContentVersion?, available: ContentVersion?, entitlement: Entitlement?, isAvailable: Bool = true
    ) -> PackState {
        if !isBase {
            if let entitlement, entitlement.subscriptionProductID != nil {
                guard entitlement.isActive else { return .locked }
                if installed == nil, !isAvailable { return .unavailable }
                return .subscribed
            }
            if let entitlement, !entitlement.isActive { return .revoked }
            if installed == nil || entitlement == nil, !isAvailable { return .unavailable }
            guard entitlement != nil else { return .locked }
        }
        guard let installed else { return isBase ? .notInstalled : .purchasedNotInstalled }
        if let available, available > installed { return .updateAvailable }
        return .installed
    }
}

/// One pack of the catalog as this device sees it.
public struct PackStatus: Sendable, Equatable {
    public var productID: ProductID
    public var displayName: String
    public var isBase: Bool
    /// The price in the account's storefront; `nil` for a base pack (free), or a pack not sold
    /// in that storefront.
    public var price: Money?
    public var wordCount: Int
    public var installedVersion: ContentVersion?
    public var availableVersion: ContentVersion?
    public var state: PackState
    /// Why the pack cannot be bought or installed now, when it cannot.
    public var unavailableReason: String? = nil
    /// The subscription that opens the pack (or opened it, when it is locked again).
    public var subscriptionProductID: ProductID? = nil
    /// When that subscription's access ends (or ended).
    public var subscriptionEnds: Int64? = nil
    /// A theme (the gallows as art), not words.
    public var isTheme = false
}

/// Why the player's session could not do what was asked: the service's reason or the device's.
public enum PlayerError: Error, Sendable, CustomStringConvertible {
    case store(ServiceError)
    case device(DeviceError)

    public var description: String {
        switch self {
        case .store(let error): error.message
        case .device(let error): error.message
        }
    }
}
