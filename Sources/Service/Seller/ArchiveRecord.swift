import WordPacks
import PropertyList
import Signing
import SystemCalls

/// What a catalog records about a pack archive when it is published: its SHA-256 and size.
public struct ArchiveRecord: Sendable, Equatable {
    /// SHA-256 of the archive: 64 lowercase hex digits.
    public var sha256: String
    /// Size of the archive in bytes.
    public var size: Int

    /// A record of `sha256` (hex, either case) and `size`.
    public init(sha256: String, size: Int) {
        self.sha256 = sha256.lowercased()
        self.size = size
    }

    /// The record under `SHA256` and `Size` of a catalog entry.
    static func parse(_ entry: [String: PropertyList]) -> Result<ArchiveRecord, CatalogMessage> {
        let fix = "run 'hangman catalog update' to record the archive's SHA-256 and size"
        guard let value = entry["SHA256"] else { return .failure("no recorded 'SHA256': \(fix)") }
        guard case .string(let hex) = value, let digest = SHA256Digest(hex: hex) else {
            return .failure("'SHA256' must be the archive's SHA-256 as 64 hex digits: \(fix)")
        }
        guard let value = entry["Size"] else { return .failure("no recorded 'Size': \(fix)") }
        guard case .integer(let size) = value, size >= 0, size <= Int64(Int.max) else {
            return .failure("'Size' must be the archive's size in bytes, an integer of at least 0: \(fix)")
        }
        return .success(ArchiveRecord(sha256: digest.hex, size: Int(size)))
    }

    /// The entry's keys for this record.
    var entryValues: [String: PropertyList] {
        ["SHA256": .string(sha256), "Size": .integer(Int64(size))]
    }

    /// Why the archive `file` in `folder` is not the one published with `sha256` and `size`:
    /// missing, unreadable, or another archive (changed without `catalog update`); `nil` when it
    /// is, byte for byte. The one check for a purchase and for a server's start and SIGHUP.
    static func publishedProblem(of file: String, in folder: String, sha256: String?, size: Int?) -> String? {
        switch measure(fileAt: folder + "/" + file) {
        case .failure(let message): "its pack \(file): \(message.text)"
        case .success(let record) where record.sha256 != sha256 || record.size != size:
            "its pack \(file) is not the archive the catalog published (changed since; 'hangman catalog update' publishes it)"
        case .success: nil
        }
    }

    /// Hashes the file at `path`, reading it in 1 MiB pieces (`FileSystem.forEachChunk`).
    static func measure(fileAt path: String) -> Result<ArchiveRecord, CatalogMessage> {
        var hasher = SHA256Hasher()
        do {
            let size = try FileSystem.forEachChunk(ofFileAtPath: path) { hasher.update($0) }
            return .success(ArchiveRecord(sha256: hasher.finalize().hex, size: size))
        } catch {
            switch error {
            case .system(.noSuchFile, _, _):
                return .failure("no such file: put the archive in the packs folder, or correct the file name")
            case .system(let errno, _, _):
                return .failure("cannot read: \(errno)")
            case .notRegularFile(let kind, _), .notFolder(let kind, _):
                return .failure("is \(kind), not a pack archive")
            case .tooLarge:
                return .failure("\(error)")
            }
        }
    }
}

extension Catalog {
    /// One entry of `BasePacks`: the archive's file name and its record.
    struct BaseEntry {
        var file: String
        var record: ArchiveRecord
        /// The manifest's facts, when the catalog records them.
        var facts: PackFacts?

        /// A `{Pack, SHA256, Size}` dictionary. A bare file name (the shape before digests were
        /// recorded) is reported as unpublished.
        static func parse(_ value: PropertyList) -> Result<BaseEntry, CatalogMessage> {
            let misplaced = "every entry must be an archive file name in the packs folder, as {Pack, SHA256, Size}"
            switch value {
            case .string(let file):
                guard isPlainFileName(file) else { return .failure(misplaced) }
                return .failure("\(file): no recorded 'SHA256': run 'hangman catalog update' to record the archive's SHA-256 and size")
            case .dictionary(let entry):
                guard case .string(let file)? = entry["Pack"], isPlainFileName(file) else { return .failure(misplaced) }
                return ArchiveRecord.parse(entry)
                    .map { BaseEntry(file: file, record: $0, facts: PackFacts(entry, isBase: true)) }
                    .mapError { CatalogMessage(stringLiteral: "\(file): \($0.text)") }
            default:
                return .failure(misplaced)
            }
        }
    }
}

/// What a catalog records from a pack's manifest when it is published, so that loading the
/// catalog (every command does) reads no archive: `ContentVersion` and `WordCount`, and for a
/// base pack its `ProductIdentifier` and `DisplayName` (a product entry has its own).
struct PackFacts: Equatable {
    var productID: ProductID?
    var displayName: String?
    var contentVersion: ContentVersion
    var wordCount: Int?
    /// `Theme` for a theme pack; words when absent.
    var kind: PackKind = .words
    /// A base pack's language.
    var language: String?

    /// The keys `hangman catalog update` writes.
    static let keys = ["ContentVersion", "WordCount", "Kind", "Language"]
    /// The keys it writes in a base pack's entry, besides `keys`.
    static let baseKeys = ["ProductIdentifier", "DisplayName"]

    /// The facts of `manifest`, as a base pack's entry (`isBase`) or a product's records them.
    init(_ manifest: PackManifest, isBase: Bool) {
        productID = isBase ? manifest.productIdentifier : nil
        displayName = isBase ? manifest.displayName : nil
        contentVersion = manifest.contentVersion
        wordCount = manifest.wordCount
        kind = manifest.kind
        // A word pack's language, base or sold: the store says which words a product brings.
        language = manifest.kind == .words ? manifest.language : nil
    }

    /// The facts recorded in `entry`; `nil` when they are missing or not well formed (the catalog
    /// was published before facts were recorded, or edited by hand): the manifest is read instead.
    init?(_ entry: [String: PropertyList], isBase: Bool) {
        guard case .string(let version)? = entry["ContentVersion"], let contentVersion = ContentVersion(version) else { return nil }
        switch entry["WordCount"] {
        case nil: wordCount = nil
        case .integer(let count)? where count >= 0 && count <= Int64(Int32.max): wordCount = Int(count)
        default: return nil
        }
        switch entry["Kind"] {
        case nil: kind = .words
        case .string(let text)?: guard let known = PackKind(rawValue: text) else { return nil }; kind = known
        default: return nil
        }
        if isBase {
            // Recorded before a base pack's language was: the manifest is read instead (a
            // language is never guessed).
            guard case .string(let tag)? = entry["Language"], PackManifest.isLanguageTag(tag) else { return nil }
            language = tag
            guard case .string(let id)? = entry["ProductIdentifier"], let productID = ProductID(rawValue: id),
                case .string(let name)? = entry["DisplayName"], !name.isEmpty
            else { return nil }
            self.productID = productID
            displayName = name
        }
        if !isBase, case .string(let tag)? = entry["Language"], PackManifest.isLanguageTag(tag) { language = tag }
        self.contentVersion = contentVersion
    }

    /// The entry's keys for these facts.
    var entryValues: [String: PropertyList] {
        var values: [String: PropertyList] = ["ContentVersion": .string(contentVersion.text)]
        if let wordCount { values["WordCount"] = .integer(Int64(wordCount)) }
        if let productID { values["ProductIdentifier"] = .string(productID.rawValue) }
        if let displayName { values["DisplayName"] = .string(displayName) }
        if kind != .words { values["Kind"] = .string(kind.rawValue) }
        if let language { values["Language"] = .string(language) }
        return values
    }
}
