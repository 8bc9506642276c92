import PackServiceAPI
import PackServiceClient
import Signing
import SystemCalls
import WordPacks

/// Brings packs from the service onto the device: only what the account is entitled to, checked
/// against the SHA-256 and size the catalog recorded at publishing time before a byte is parsed,
/// verified in full, imported in one transaction.
public struct PackInstaller {
    public let service: any PackService
    /// The catalog the service published: the digests every install is checked against. A pack
    /// server's client that found a newer one since the command began answers with that one.
    public var catalog: Catalog { service.heldCatalog ?? opened }
    private let opened: Catalog
    public let device: DeviceDatabase
    public var verifier: PackVerifier
    public var clock: Clock

    public init(
        service: any PackService, catalog: Catalog, device: DeviceDatabase, verifier: PackVerifier = PackVerifier(), clock: Clock = .system
    ) {
        self.service = service
        self.opened = catalog
        self.device = device
        self.verifier = verifier
        self.clock = clock
    }

    /// Installs (or updates to) the pack of `id`: a base pack, or a non-consumable the account owns.
    public func install(_ id: ProductID, progress: ((InstallProgress) -> Void)? = nil) async throws(DeviceError) -> InstallOutcome {
        let expected: (sha256: String, size: Int)
        let isBase: Bool
        if let base = catalog.basePack(id) {
            expected = (base.sha256, base.size)
            isBase = true
        } else if let product = catalog.product(id), case .nonConsumable = product.kind, let digest = product.packSHA256, let size = product.packSize {
            if let reason = product.unavailableReason {
                throw DeviceError(.unavailable, "\(product.displayName) (\(id)) is unavailable: \(reason). It can be installed once the store publishes its pack again")
            }
            expected = (digest, size)
            isBase = false
        } else {
            throw DeviceError(.unknownPack, "no pack '\(id)' in the catalog: see 'hangman packs'")
        }
        // Already there in the catalog's version: nothing to download, hash or verify.
        var installedVersion = try device.installedPacks().first(where: { $0.productID == id })?.contentVersion
        if installedVersion == nil { installedVersion = try device.installedThemes().first(where: { $0.productID == id })?.contentVersion }
        if let available = catalog.contentVersion(of: id), let installed = installedVersion.map({ (contentVersion: $0, ()) }) {
            if !isBase {
                let owned: Bool
                do {
                    owned = try await Ownership.read(from: service).owns(id)
                } catch {
                    throw Self.deviceError(error)
                }
                guard owned else { throw DeviceError(.notEntitled, "\(id) is not purchased: run 'hangman buy \(id)'") }
            }
            if available == installed.contentVersion { return .alreadyInstalled(installed.contentVersion) }
            if available < installed.contentVersion {
                throw DeviceError(.olderVersion, "\(id) \(installed.contentVersion) is installed; \(available) is older")
            }
        }
        let bytes: [UInt8]
        do {
            let total = expected.size
            bytes = try await service.packArchive(id, progress: progress.map { report in
                { received in report(InstallProgress(phase: .downloading, wordsDone: 0, wordsTotal: 0, bytesDone: received, bytesTotal: total)) }
            })
        } catch {
            if error.kind == .notEntitled {
                throw DeviceError(.notEntitled, "\(id) is not purchased: run 'hangman buy \(id)'")
            }
            throw Self.deviceError(error)
        }
        progress?(InstallProgress(phase: .checking, wordsDone: 0, wordsTotal: 0, bytesDone: bytes.count, bytesTotal: bytes.count))
        // libarchive does not check gzip CRCs: the recorded digest is what proves the bytes are the
        // ones published in the catalog.
        let sha256 = SHA256.hash(bytes)
        let digest = sha256.hex
        guard digest == expected.sha256, bytes.count == expected.size else {
            throw DeviceError(
                .invalidPack,
                "the archive of \(id) has SHA-256 \(digest) (\(bytes.count) bytes), but the catalog says \(expected.sha256) (\(expected.size) bytes): "
                    + "refusing to install it. The download was damaged, or the archive was replaced after the catalog was published "
                    + "(the publisher runs 'hangman catalog update')")
        }
        // The archive is hashed once: the verifier takes the digest just checked.
        let result = verifier.verify(bytes, archiveSHA256: sha256)
        guard result.isValid, let pack = result.pack else {
            throw DeviceError(.invalidPack, "the archive of \(id) is not a valid pack", problems: result.problems)
        }
        guard pack.manifest.productIdentifier == id else {
            throw DeviceError(.invalidPack, "the archive of \(id) holds \(pack.manifest.productIdentifier)")
        }
        if pack.manifest.kind == .theme {
            guard !isBase else { throw DeviceError(.invalidPack, "the base pack \(id) is a theme: base packs hold words") }
            return try device.installTheme(pack, archiveSHA256: digest, now: clock.now())
        }
        return try device.install(pack, archiveSHA256: digest, isBase: isBase, now: clock.now(), progress: progress)
    }

    /// Installs every base pack of `wanted` (every one when `nil`) that is not installed yet and
    /// that the player did not uninstall (what a first run does).
    public func installMissingBasePacks(
        _ wanted: [ProductID]? = nil, progress: (ProductID) -> ((InstallProgress) -> Void)? = { _ in nil }
    ) async throws(DeviceError) -> [ProductID] {
        let installed = Set(try device.installedPacks().map(\.productID))
        let declined = try device.uninstalledBasePacks()
        var done: [ProductID] = []
        for base in catalog.basePacks where !installed.contains(base.productID) && !declined.contains(base.productID) && wanted.map({ $0.contains(base.productID) }) ?? true {
            _ = try await install(base.productID, progress: progress(base.productID))
            done.append(base.productID)
        }
        return done
    }

    /// The service's refusal in the device's terms: what the service cannot do now (offline, a
    /// pack missing at the store) is unavailable (exit 69), an answer the pinned key did not sign
    /// is invalid (65), the rest is storage (74).
    static func deviceError(_ error: ServiceError) -> DeviceError {
        switch error.kind {
        case .unavailable, .productUnavailable: DeviceError(.unavailable, error.message)
        case .notEntitled: DeviceError(.notEntitled, error.message)
        case .unauthorized: DeviceError(.notEntitled, error.message + ": this device is signed out ('hangman hints' says what to do)")
        case .untrusted: DeviceError(.invalidPack, error.message)
        default: DeviceError(.storage, error.message)
        }
    }

    /// Packs the game may serve words from: installed, and base or owned without a refund. A
    /// device the service no longer knows (its token revoked, its account closed) plays the free
    /// packs installed here, and nothing it owned.
    public func playablePacks() async throws(DeviceError) -> [InstalledPack] {
        let owned: Set<ProductID>
        do {
            owned = try await Ownership.read(from: service).owned
        } catch where error.kind == .unauthorized {
            owned = []
        } catch {
            throw Self.deviceError(error)
        }
        return try device.installedPacks().filter { $0.isBase || owned.contains($0.productID) }
    }
}
