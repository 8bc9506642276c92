import FoundationEssentials
import Messages
import PackServiceAPI
import PackServiceClient
import SystemCalls

/// A home (`$HANGMAN_HOME`): the device's state and the account, bound to one store.
///
/// Without an account on a pack server the home uses the embedded store. After `account create
/// --service URL` it belongs to that service, known by its pinned key and the account, not by its
/// address: every command uses it, and any address whose server proves the key is the same service.
///
/// ```swift
/// let home = Home(folder: "/home/ann/.local/share/hangman")
/// let opened = try await home.openStore(naming: .none, embedded: { try openEmbeddedStore(home) })
/// ```
public struct Home: Sendable {
    public let folder: String

    public init(folder: String) { self.folder = folder }

    /// The account: the embedded store's ledger, or the service's token and pinned key. Kept when
    /// the device's state is deleted.
    public var accountFolder: String { folder + "/account" }
    /// The device: installed packs, games, settings. Deleting it is deleting the app.
    public var deviceFolder: String { folder + "/device" }

    /// The embedded store's ledger inside the account folder (its name is the store's).
    public static let embeddedLedgerName = "account.sqlite"

    /// Which store the home belongs to.
    public enum Binding: Sendable, Equatable {
        /// No account on a pack server: the embedded store.
        case embedded
        /// An account on a pack server.
        case service(ServiceCredentials)
    }

    /// Reads the account folder: an account on a service, or none. A home that joined a server
    /// and stopped before its embedded store was set aside finishes that first.
    public func binding() throws(ServiceError) -> Binding {
        guard let credentials = try ServiceCredentials.load(folder: accountFolder) else { return .embedded }
        if hasEmbeddedStoreFiles { try setEmbeddedStoreAside() }
        return .service(credentials)
    }

    /// The embedded store's files in the account folder: its ledger (with SQLite's journal files)
    /// and its signing key (named as the store names them).
    static let embeddedStoreFiles = [embeddedLedgerName, embeddedLedgerName + "-wal", embeddedLedgerName + "-shm", "service-signing.key"]

    /// Where the embedded store is kept once the home has joined a pack server: what was bought
    /// there stays there, whole (`account/embedded-store`).
    public var setAsideFolder: String { accountFolder + "/embedded-store" }

    private var hasEmbeddedStoreFiles: Bool {
        Self.embeddedStoreFiles.contains { FileSystem.exists(atPath: accountFolder + "/" + $0) }
    }

    /// Moves the embedded store's files into ``setAsideFolder``, each by one rename: safe to stop
    /// at any point and run again (``binding()`` finishes it). An earlier embedded store kept
    /// there is never written over.
    func setEmbeddedStoreAside() throws(ServiceError) {
        do {
            try FileSystem.createFolder(atPath: setAsideFolder, permissions: 0o700)
            for name in Self.embeddedStoreFiles where FileSystem.exists(atPath: accountFolder + "/" + name) {
                guard !FileSystem.exists(atPath: setAsideFolder + "/" + name) else {
                    throw ServiceError(
                        .wrongState, L10n.text("an embedded store is kept already in %s: move that folder away to join this home to a pack server", setAsideFolder))
                }
                try FileSystem.rename(accountFolder + "/" + name, to: setAsideFolder + "/" + name)
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(.storage, "cannot set the embedded store aside in \(setAsideFolder): \(error)")
        }
    }

    /// This device's database (installed packs, games, settings), opened (made on first use).
    public func openDevice() throws(DeviceError) -> DeviceDatabase {
        try DeviceDatabase(folder: deviceFolder)
    }

    /// Deletes this device's state, as deleting the app would; the account stays.
    public func eraseDevice() throws(DeviceError) {
        try DeviceDatabase.erase(folder: deviceFolder)
    }

    /// What keeps this process from writing the home, when something does: the first that refuses
    /// a write of the home (before it exists, the folder it would be made in), its account and
    /// device folders, and the files in them. A read-only home still lists packs and products.
    public func writeRefusal() -> (path: String, errno: Errno)? {
        var existing = folder
        while !FileSystem.exists(atPath: existing) {
            guard let slash = existing.lastIndex(of: "/") else { existing = "."; break }
            existing = slash == existing.startIndex ? "/" : String(existing[..<slash])
        }
        var paths = [existing]
        for part in [accountFolder, deviceFolder] where FileSystem.exists(atPath: part) {
            paths.append(part)
            paths += ((try? FileManager.default.contentsOfDirectory(atPath: part)) ?? []).sorted().map { part + "/" + $0 }
        }
        for path in paths {
            if let errno = FileSystem.writeRefusal(atPath: path) { return (path, errno) }
        }
        return nil
    }

    /// The packs folder the embedded store of this home was last opened on by name (`--packs`,
    /// `HANGMAN_PACKS`), kept in the account folder: later commands sell from it.
    public var rememberedPacksFolder: String? {
        guard let bytes = try? FileSystem.readFile(atPath: accountFolder + "/packs-folder", limit: 4096) else { return nil }
        let text = String(String(decoding: bytes, as: UTF8.self).prefix { $0 != "\n" })
        return text.isEmpty ? nil : text
    }

    /// Keeps `folder` (made absolute) as this home's packs folder; a home that cannot be written keeps none.
    public func rememberPacksFolder(_ folder: String) {
        let absolute = folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath + "/" + folder
        try? FileSystem.createFolder(atPath: accountFolder, permissions: 0o700)
        try? FileSystem.writeAtomically(Array((absolute + "\n").utf8), toPath: accountFolder + "/packs-folder", permissions: 0o600)
    }

    /// Whether the embedded store has an account here (its ledger exists).
    public var hasEmbeddedAccount: Bool {
        FileSystem.exists(atPath: accountFolder + "/" + Self.embeddedLedgerName)
    }

    /// The store a command named, besides the home's own: nothing, a service's address
    /// (`--service`, `HANGMAN_SERVICE`), or the embedded store's packs folder (`--packs`).
    public enum Request: Sendable, Equatable {
        case none
        case service(String)
        case embedded(packs: String)
    }

    /// A store the home opened: the service, its catalog, and what opening it found.
    public struct OpenedStore {
        public let service: any PackService & StoreTestControls
        public let catalog: Catalog
        public let binding: Binding
        /// Purchases a crash left unfinished, completed now.
        public let recovered: [StoreTransaction]
        /// Set when the pack server cannot be reached: the home plays from what it last signed.
        public let offline: ServiceError?
        /// The address the service was reached at for the first time, now remembered.
        public let newAddress: String?
        /// Something the player should be told once: the server offered an older catalog (a
        /// deploy in progress) and the newer one the home holds is used.
        public var note: String? = nil
    }

    /// Opens the home's store. The home decides: a command that names another store is refused.
    /// `embedded` opens the embedded store (the seller's code, which this layer does not import).
    /// Errors are `PlayerError`s, or what `embedded` throws.
    /// A pack server's client tells `events` what it does on its own (waits the server asks
    /// for, purchases completed, going offline).
    /// `confirmAddress` is asked before this home's token goes to a new address of a service that
    /// names none of its own (a relay could pass its key proof on): `nil`, or `false`, refuses.
    public func openStore(
        naming request: Request, clock: Clock = .system, caFile: String? = nil, events: (@Sendable (ServiceEvent) -> Void)? = nil,
        confirmAddress: ((String) -> Bool)? = nil,
        embedded: () throws -> (service: any PackService & StoreTestControls, catalog: Catalog)
    ) async throws -> OpenedStore {
        let binding: Binding
        do { binding = try self.binding() } catch { throw PlayerError.store(error) }
        switch (binding, request) {
        case (.embedded, .service(let url)):
            if hasEmbeddedAccount {
                throw Self.refusal(
                    "this home (\(folder)) plays on the embedded store, and the command names the pack server at \(url): 'hangman account create --service URL' (or 'account login') joins this home to it; else drop --service and HANGMAN_SERVICE, or use another --home for that server")
            }
            throw PlayerError.store(ServiceError(.notEntitled, L10n.text("no account on %s in %s: run 'hangman account create --service %s'", url, folder, url)))
        case (.embedded, _):
            let opened = try embedded()
            let recovered: [StoreTransaction]
            do { recovered = try await opened.service.recoverUnfinished() } catch { throw PlayerError.store(error) }
            return OpenedStore(service: opened.service, catalog: opened.catalog, binding: binding, recovered: recovered, offline: nil, newAddress: nil)
        case (.service(let credentials), .embedded):
            throw Self.refusal(
                "this home (\(folder)) belongs to the pack server at \(credentials.service), and --packs names the embedded store: drop --packs, or use another --home for the embedded store")
        case (.service(let credentials), .none):
            return try await openService(credentials, at: credentials.service, clock: clock, caFile: caFile, events: events, confirm: confirmAddress)
        case (.service(let credentials), .service(let url)):
            return try await openService(
                credentials, at: ServiceCredentials.normalized(url), clock: clock, caFile: caFile, events: events, confirm: confirmAddress)
        }
    }

    /// The service of `credentials` at `address`: a new address is accepted once its server has
    /// proved the pinned key on a fresh challenge (before the token goes to it) and known the
    /// account (its signed statement).
    ///
    /// At an address it knows, with a signed catalog kept from before, nothing is asked yet: the
    /// command's first request is the only one when nothing changed, and its answer says whether
    /// the catalog did, or the account has purchases to complete (``HTTPPackService``).
    private func openService(
        _ credentials: ServiceCredentials, at address: String, clock: Clock, caFile: String?, events: (@Sendable (ServiceEvent) -> Void)?,
        confirm: ((String) -> Bool)?
    ) async throws(PlayerError) -> OpenedStore {
        var reached = credentials
        reached.service = address
        let isNew = address != credentials.service
        let service = client(reached, clock: clock, caFile: caFile)
        if let events { service.observe(events) }
        if !isNew, let kept = service.startFromKeptCatalog() {
            return OpenedStore(service: service, catalog: kept, binding: .service(credentials), recovered: [], offline: nil, newAddress: nil)
        }
        let catalog: Catalog
        do throws(ServiceError) {
            // Nothing secret to an address that has not proved the key: a copy of the public
            // signed catalog is no proof.
            if isNew, try await !service.proveKey(), !credentials.addresses.contains(address), confirm?(address) != true {
                // The service names no address of its own: a relay could have passed its proof on.
                throw ServiceError(
                    .untrusted,
                    "the server at \(address) proves this home's service key, but the service names no address of its own, so a relay could do that too: "
                        + "nothing secret was sent to it. Confirm the address on a terminal, or set HANGMAN_TRUST_ADDRESS=\(address); its operator can name the service's addresses with 'serve --public-url'")
            }
            catalog = try await service.fetchCatalog()
            if isNew { _ = try await service.statement() }
        } catch where error.kind == .unavailable {
            // Offline: the packs installed and owned still play, from what the server last signed.
            guard let offline = OfflinePackService(credentials: reached, folder: accountFolder, reason: error, clock: clock) else { throw .store(error) }
            return OpenedStore(service: offline, catalog: offline.catalog, binding: .service(credentials), recovered: [], offline: error, newAddress: nil)
        } catch where isNew && error.kind == .untrusted && error.message.contains("not signed by") {
            // Another key (not a rollback or an expired catalog, which keep their own words).
            throw Self.anotherService(at: address, credentials)
        } catch where isNew && (error.kind == .unauthorized || error.kind == .notEntitled) {
            throw .store(ServiceError(
                .untrusted, "the server at \(address) signs with this home's key but does not know account \(credentials.accountID): use the address the account was made on"))
        } catch {
            throw .store(error)
        }
        var remembered = credentials
        if isNew {
            do { try remembered.remember(address: address, folder: accountFolder) } catch { throw .store(error) }
        }
        let recovered: [StoreTransaction]
        do {
            recovered = try await service.recoverUnfinished()
        } catch where error.kind == .unauthorized {
            // Signed out (token revoked, account closed): nothing of the account's to finish;
            // each command that needs the account says so, and the free packs still play.
            recovered = []
        } catch {
            throw .store(error)
        }
        var opened = OpenedStore(
            service: service, catalog: catalog, binding: .service(remembered), recovered: recovered, offline: nil, newAddress: isNew ? address : nil)
        if let older = service.servedOlderCatalog {
            opened.note = HTTPPackService.olderCatalogNote(at: address, offered: older, held: catalog.catalogVersion)
        }
        return opened
    }

    /// The server at `address` signs with another key than the one this home pinned.
    private static func anotherService(at address: String, _ credentials: ServiceCredentials) -> PlayerError {
        .store(ServiceError(
            .untrusted,
            "the server at \(address) is another service: its answers are not signed with this home's key ed25519 \(credentials.publicKey.keyID); use this home's service, or another --home"))
    }

    /// A client for this home's account (`credentials`) at `address` (`--service`), or at the
    /// address last used: another address gets no token before its server proves the pinned key.
    public func accountClient(_ credentials: ServiceCredentials, at address: String?, caFile: String?) async throws(PlayerError) -> HTTPPackService {
        var reached = credentials
        if let address { reached.service = ServiceCredentials.normalized(address) }
        let client = HTTPPackService(credentials: reached, caFile: caFile)
        guard reached.service != credentials.service else { return client }
        do {
            try await client.proveKey()
        } catch where error.kind == .untrusted && error.message.contains("not signed by") {
            throw Self.anotherService(at: reached.service, credentials)
        } catch {
            throw .store(error)
        }
        return client
    }

    /// Makes an account on the pack server at `url` for this home, which must belong to no store
    /// yet (a home belongs to one): the account is made, its key pinned, its token saved.
    /// `wrongState` when the home has an account already.
    /// The account's storefront is `storefront` when the player names one, else the player's
    /// region's (`preferred`) when the service sells there.
    /// A home that plays on the embedded store joins only with `leavingEmbeddedStore`: that
    /// store is then set aside whole (``setAsideFolder``), after the token is saved.
    public func createAccount(
        at url: String, storefront: String?, preferred: String?, deviceName: String? = nil, caFile: String?, leavingEmbeddedStore: Bool = false
    ) async throws(PlayerError) -> ServiceCredentials {
        try checkBelongsToNoStore(leavingEmbeddedStore: leavingEmbeddedStore)
        do throws(ServiceError) {
            let credentials = try await HTTPPackService.createAccount(at: url, storefront: storefront, preferred: preferred, deviceName: deviceName, caFile: caFile)
            try credentials.save(folder: accountFolder)
            if leavingEmbeddedStore { try setEmbeddedStoreAside() }
            await keepCatalog(of: credentials, caFile: caFile)
            return credentials
        } catch {
            throw .store(error)
        }
    }

    /// Joins this home, which must belong to no store yet, to the account a token of another
    /// device belongs to: the service's key pinned as it is now, a token of its own saved.
    /// A home whose own token the service no longer accepts (revoked from another device) signs
    /// in again the same way, to the same account and service key: its packs and games stay.
    public func joinAccount(
        at url: String, token: String, deviceName: String? = nil, caFile: String?, leavingEmbeddedStore: Bool = false
    ) async throws(PlayerError) -> ServiceCredentials {
        let signedOut = try await signedOutCredentials(caFile: caFile)
        if signedOut == nil { try checkBelongsToNoStore(leavingEmbeddedStore: leavingEmbeddedStore) }
        do throws(ServiceError) {
            let credentials = try await HTTPPackService.login(at: ServiceCredentials.normalized(url), token: token, deviceName: deviceName, caFile: caFile)
            if var kept = signedOut {
                guard credentials.publicKey == kept.publicKey else {
                    throw ServiceError(
                        .untrusted, "the service at \(credentials.service) signs with key \(credentials.publicKey.keyID), not this home's pinned \(kept.publicKey.keyID): nothing was changed here")
                }
                guard credentials.accountID == kept.accountID else {
                    throw ServiceError(
                        .wrongState, L10n.text("that token is account %s's, and this home is account %s's: use another --home (or HANGMAN_HOME) for it", credentials.accountID, kept.accountID))
                }
                try kept.replaceToken(with: credentials.token, folder: accountFolder)
                try kept.remember(address: credentials.service, folder: accountFolder)
                return kept
            }
            try credentials.save(folder: accountFolder)
            if leavingEmbeddedStore { try setEmbeddedStoreAside() }
            await keepCatalog(of: credentials, caFile: caFile)
            return credentials
        } catch {
            throw .store(error)
        }
    }

    /// The service's signed catalog, kept for the commands after (each then asks only what it
    /// needs); a failure leaves it to the first of them.
    private func keepCatalog(of credentials: ServiceCredentials, caFile: String?) async {
        _ = try? await client(credentials, caFile: caFile).fetchCatalog()
    }

    /// A client for `credentials` that keeps what the server signed in the account folder.
    private func client(_ credentials: ServiceCredentials, clock: Clock = .system, caFile: String?) -> HTTPPackService {
        HTTPPackService(
            credentials: credentials, statePath: accountFolder + "/service-catalog-version", downloadFolder: accountFolder + "/downloads", clock: clock,
            caFile: caFile, holdingStatements: true)
    }

    /// This home's credentials when the service refuses their token (`unauthorized`), else `nil`.
    private func signedOutCredentials(caFile: String?) async throws(PlayerError) -> ServiceCredentials? {
        let existing: ServiceCredentials?
        do { existing = try ServiceCredentials.load(folder: accountFolder) } catch { throw .store(error) }
        guard let existing else { return nil }
        do {
            _ = try await HTTPPackService(credentials: existing, attempts: 1, caFile: caFile).tokens()
            return nil
        } catch {
            return error.kind == .unauthorized ? existing : nil
        }
    }

    /// A receipt checked at the pack server `url` names, as a game's backend checks one: for a home
    /// with no pack server's account (no account is needed); `nil` when `url` is `nil` or the
    /// home has an account on a server (its own store checks it, with its pinned key).
    public func verifyReceipt(_ bytes: [UInt8], atNamedService url: String?, password: String?, caFile: String?) async throws(PlayerError) -> ReceiptVerification? {
        guard let url else { return nil }
        let binding: Binding
        do { binding = try self.binding() } catch { throw .store(error) }
        guard case .embedded = binding else { return nil }
        return await HTTPPackService.verifyReceipt(bytes, at: ServiceCredentials.normalized(url), password: password, caFile: caFile)
    }

    /// A home belongs to one store: one that has a pack server's account gets no other; one that
    /// plays on the embedded store leaves it only when told to (`leavingEmbeddedStore`).
    private func checkBelongsToNoStore(leavingEmbeddedStore: Bool) throws(PlayerError) {
        if hasEmbeddedAccount && !leavingEmbeddedStore {
            throw .store(ServiceError(
                .wrongState,
                L10n.text("this home (%s) plays on the embedded store: joining a pack server sets that store aside (run this on a terminal to be asked, or add --yes), or use another --home (or HANGMAN_HOME)", folder)))
        }
        if leavingEmbeddedStore, FileSystem.exists(atPath: setAsideFolder + "/" + Self.embeddedLedgerName) {
            throw .store(ServiceError(
                .wrongState, L10n.text("an embedded store is kept already in %s: move that folder away to join this home to a pack server", setAsideFolder)))
        }
        let existing: ServiceCredentials?
        do { existing = try ServiceCredentials.load(folder: accountFolder) } catch { throw .store(error) }
        if let existing {
            throw .store(ServiceError(
                .wrongState, L10n.text("this home (%s) has an account already, on %s, and a home belongs to one store: use another --home (or HANGMAN_HOME)", folder, existing.service)))
        }
    }

    private static func refusal(_ message: String) -> PlayerError {
        .store(ServiceError(.invalidRequest, message))
    }
}
