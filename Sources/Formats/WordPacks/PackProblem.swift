import Archive
import PropertyList

/// One thing wrong with a pack: which entry, what, and a stable kind for machines and tests.
public struct PackProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem; its raw value is the stable code printed by `--json`.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        // Reading the file and the archive.
        case missingFile = "missing-file"
        case unreadableFile = "unreadable-file"
        case cannotWrite = "cannot-write"
        case unsupportedFormat = "unsupported-format"
        case corrupt
        case archiveTooLarge = "archive-too-large"
        case tooManyEntries = "too-many-entries"
        case entryTooLarge = "entry-too-large"
        case totalTooLarge = "total-too-large"
        case nestedCompression = "nested-compression"
        case readLimit = "read-limit"
        case absolutePath = "absolute-path"
        case parentReference = "parent-reference"
        case controlCharacter = "control-character"
        case nameNotUTF8 = "name-not-utf8"
        case badName = "bad-name"
        case symbolicLink = "symbolic-link"
        case hardLink = "hard-link"
        case device
        case fifo
        case socket
        case sparse
        case duplicateEntry = "duplicate-entry"
        // Property lists.
        case plistMalformed = "plist-malformed"
        case plistUnsupported = "plist-unsupported"
        case plistTooDeep = "plist-too-deep"
        case plistTooManyObjects = "plist-too-many-objects"
        case plistCyclic = "plist-cyclic"
        case plistDuplicateKey = "plist-duplicate-key"
        case plistInvalidUTF8 = "plist-invalid-utf8"
        // The manifest.
        case missingManifest = "missing-manifest"
        case manifestExists = "manifest-exists"
        case manifestNotDictionary = "manifest-not-dictionary"
        case manifestMissingKey = "manifest-missing-key"
        case manifestWrongType = "manifest-wrong-type"
        case formatVersionTooNew = "format-version-too-new"
        case badFormatVersion = "bad-format-version"
        case badContentVersion = "bad-content-version"
        case badProductIdentifier = "bad-product-identifier"
        case badLanguage = "bad-language"
        case wordCountMismatch = "word-count-mismatch"
        case fileHashMismatch = "file-hash-mismatch"
        case fileSizeMismatch = "file-size-mismatch"
        case listedFileMissing = "listed-file-missing"
        case fileNotListed = "file-not-listed"
        case manifestMismatch = "manifest-mismatch"
        // The words.
        case noWordList = "no-word-list"
        case emptyWordList = "empty-word-list"
        case wordListRoot = "word-list-root"
        case wordNotString = "word-not-string"
        case invalidWord = "invalid-word"
        case wordNotNFC = "word-not-nfc"
        case duplicateWord = "duplicate-word"
        case badKind = "bad-kind"
        case badTheme = "bad-theme"
        case badDailyList = "bad-daily-list"
        case unsafeText = "unsafe-text"
        // Signatures.
        case signatureMalformed = "signature-malformed"
        case signatureInvalid = "signature-invalid"
        case signatureUntrusted = "signature-untrusted"
        case signatureMissing = "signature-missing"
        case signatureIncomplete = "signature-incomplete"
    }

    public var kind: Kind
    /// The entry (path inside the pack, or the archive's entry name) the problem is about.
    public var entry: String?
    /// What is wrong, and where there is one, what to do.
    public var message: String

    public init(_ kind: Kind, entry: String? = nil, _ message: String) {
        self.kind = kind
        self.entry = entry
        self.message = message
    }

    /// `ENTRY: message`, or the message alone.
    public var description: String {
        if let entry { "\(entry): \(message)" } else { message }
    }
}

extension PackProblem {
    init(_ problem: ArchiveProblem) {
        let kind: Kind =
            switch problem.kind {
            case .unsupportedFormat: .unsupportedFormat
            case .corrupt: .corrupt
            case .tooLarge: .archiveTooLarge
            case .tooManyEntries: .tooManyEntries
            case .entryTooLarge: .entryTooLarge
            case .totalTooLarge: .totalTooLarge
            case .nestedCompression: .nestedCompression
            case .readLimit: .readLimit
            case .absolutePath: .absolutePath
            case .parentReference: .parentReference
            case .controlCharacter: .controlCharacter
            case .notUTF8: .nameNotUTF8
            case .badName: .badName
            case .symbolicLink: .symbolicLink
            case .hardLink: .hardLink
            case .device: .device
            case .fifo: .fifo
            case .socket: .socket
            case .sparse: .sparse
            case .duplicate: .duplicateEntry
            }
        self.init(kind, entry: problem.entry, problem.message)
    }

    init(_ error: PropertyListError, entry: String) {
        let kind: Kind =
            switch error.kind {
            case .notAPropertyList, .malformed: .plistMalformed
            case .unsupported: .plistUnsupported
            case .tooDeep: .plistTooDeep
            case .tooManyObjects: .plistTooManyObjects
            case .cyclic: .plistCyclic
            case .duplicateKey: .plistDuplicateKey
            case .invalidUTF8: .plistInvalidUTF8
            }
        self.init(kind, entry: entry, "not a valid property list: \(error.message)")
    }
}
