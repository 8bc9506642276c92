import FoundationEssentials
import Messages
import SystemCalls
import WordPacks

/// A pack archive an account may download: where it is, and what the catalog recorded of it.
public struct PackArchiveFile: Sendable, Equatable {
    public var productID: ProductID
    /// The pack's display name, for the sentences about it.
    public var displayName: String
    /// The archive in the packs folder.
    public var path: String
    /// SHA-256 of the archive as the catalog records it (a download's `ETag`).
    public var sha256: String

    /// The refusal when the archive cannot be read now: gone from the packs folder since the
    /// catalog was read is unavailable (410, as a product published without it is), anything else
    /// is the store's own failure.
    public func unreadable(_ error: FileError) -> ServiceError {
        if case .system(.noSuchFile, _, _) = error {
            return AccountService.unavailable(
                displayName: displayName, productID, "its pack archive is missing from the store's packs folder", buying: false)
        }
        return ServiceError(.storage, "cannot read the pack archive \(path): \(error)")
    }
}

extension AccountService {
    /// Who may download a pack's archive, decided once for every door: a base pack is anyone's;
    /// a pack product the account owns (bought, or opened by a live pass) is its, unless the
    /// store cannot deliver it now (its archive missing or damaged: unavailable, 410).
    public func packArchiveFile(_ productID: ProductID) throws(ServiceError) -> PackArchiveFile {
        try packArchiveFile(productID, ownership: nil)
    }

    /// The same, against `ownership` read once for many packs (`nil`: read now).
    func packArchiveFile(_ productID: ProductID, ownership: Ownership?) throws(ServiceError) -> PackArchiveFile {
        if let base = catalog.basePack(productID) {
            return PackArchiveFile(productID: productID, displayName: base.displayName, path: packsFolder + "/" + base.file, sha256: base.sha256)
        }
        guard let product = catalog.product(productID), case .nonConsumable(let file) = product.kind else {
            throw ServiceError(.unknownProduct, L10n.text("no pack '%s' in the catalog: see 'hangman products'", productID))
        }
        if let reason = product.unavailableReason {
            throw Self.unavailable(product, reason, buying: false)
        }
        let owned: Ownership
        if let ownership { owned = ownership } else { owned = Ownership(try entitlements()) }
        guard owned.owns(productID) else {
            throw ServiceError(.notEntitled, L10n.text("%s is not purchased: run 'hangman buy %s'", productID, productID))
        }
        return PackArchiveFile(productID: productID, displayName: product.displayName, path: packsFolder + "/" + file, sha256: product.packSHA256 ?? "")
    }

    /// Refuses a pack product whose archive is not, byte for byte, the one the catalog
    /// published (`SHA256`, `Size`): missing, unreadable, or rebuilt without `catalog update`.
    /// Checked before anything is charged, since such a pack could be paid for and never
    /// installed.
    func checkDeliverable(_ product: Product) throws(ServiceError) {
        guard let file = product.packFile,
            let reason = ArchiveRecord.publishedProblem(of: file, in: packsFolder, sha256: product.packSHA256, size: product.packSize)
        else { return }
        throw Self.unavailable(product, reason, buying: true)
    }

    /// The archive's bytes: a regular file only (refused by type before it is opened), no larger
    /// than a pack archive may be.
    public func packArchive(_ productID: ProductID) throws(ServiceError) -> [UInt8] {
        let archive = try packArchiveFile(productID)
        do {
            return try FileSystem.readFile(atPath: archive.path, limit: ArchiveLimits.default.maxArchiveSize)
        } catch {
            throw archive.unreadable(error)
        }
    }

    /// The refusal of a product the store cannot sell or deliver now.
    static func unavailable(_ product: Product, _ reason: String, buying: Bool) -> ServiceError {
        unavailable(displayName: product.displayName, product.id, reason, buying: buying)
    }

    static func unavailable(displayName: String, _ productID: ProductID, _ reason: String, buying: Bool) -> ServiceError {
        ServiceError(
            .productUnavailable,
            buying
                ? L10n.text("%s (%s) is unavailable: %s; nothing was charged. It can be bought and installed once the store publishes its pack again", displayName, productID, reason)
                : L10n.text("%s (%s) is unavailable: %s. It can be bought and installed once the store publishes its pack again", displayName, productID, reason))
    }
}
