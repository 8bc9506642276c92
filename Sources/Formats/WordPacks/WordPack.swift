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

    public var manifest: PackManifest
    public var layout: Layout
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
    public var size: Int
    public var sha256: SHA256Digest
    public var format: ArchiveFormat?
    public var compression: String?
    public var entryCount: Int
    public var uncompressedSize: Int
}

/// The result of verifying a pack: the pack, when it could be read, and every problem found.
/// Trust the pack only when `isValid`.
public struct PackVerification: Sendable {
    public var pack: WordPack?
    public var problems: [PackProblem]
    public var archive: PackArchiveInfo?

    /// No problem at all: the pack can be installed.
    public var isValid: Bool { problems.isEmpty && pack != nil }
}
