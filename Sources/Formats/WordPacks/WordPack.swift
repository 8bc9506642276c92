@_exported import PackIdentifiers
import Archive
import PropertyList
import Signing

/// A pack read from an archive: its manifest, its word lists and how it was laid out.
public struct WordPack: Sendable {
    /// How the files are arranged in the archive.
    public enum Layout: String, Sendable {
        /// `Info.plist` and word lists, in one top-level folder or at the root.
        case standard
        /// Apple's hosted content: `ContentInfo.plist`, files under `Contents/` or beside it.
        case hostedContent = "hosted-content"
    }

    /// What the pack says of itself (`Info.plist`).
    public var manifest: PackManifest
    /// How its files are arranged in the archive.
    public var layout: Layout
    /// Its word lists (none in a theme pack), in path order.
    public var lists: [WordList]
    /// The signature, when the pack has one and it is valid for the manifest.
    public var signature: PackSignature?
    /// Files that are neither manifest, signature nor word list (a licence text, say).
    public var otherFiles: [String]
    /// A theme pack's drawings (`frames.plist`); `nil` for a word pack.
    public var theme: ThemeFrames?

    /// Words in all lists.
    public var wordCount: Int { lists.reduce(0) { $0 + $1.wordCount } }

    /// The list the daily word draws from (`DailyList`: one of the pack's lists, played like the
    /// others), when the pack has one.
    public var dailyList: WordList? { manifest.dailyList.flatMap { path in lists.first { $0.path == path } } }
}

/// The archive file a pack came in.
public struct PackArchiveInfo: Sendable {
    /// The archive's size in bytes.
    public var size: Int
    /// Its SHA-256: what a catalog records and a download is checked against.
    public var sha256: SHA256Digest
    /// Its container (tar, zip), when it was read.
    public var format: ArchiveFormat?
    /// Its compression (`gzip`, `xz`...), `nil` for none.
    public var compression: String?
    /// Its entries (files and folders).
    public var entryCount: Int
    /// The bytes of its entries, uncompressed.
    public var uncompressedSize: Int
}

/// The result of verifying a pack: the pack, when it could be read, and every problem found.
/// Trust the pack only when `isValid`.
public struct PackVerification: Sendable {
    /// The pack, when it could be read (even with problems: trust it only when ``isValid``).
    public var pack: WordPack?
    /// Every problem found; none for a pack to install.
    public var problems: [PackProblem]
    /// The archive it came in, when it was one.
    public var archive: PackArchiveInfo?

    /// No problem at all: the pack can be installed.
    public var isValid: Bool { problems.isEmpty && pack != nil }
}
