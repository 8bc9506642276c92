import Archive
import PropertyList

/// One thing wrong with a pack: which entry, what, and a stable kind for machines and tests.
public struct PackProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem; its raw value is the stable code printed by `--json`.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        // Reading the file and the archive.
        /// No file at the path given.
        case missingFile = "missing-file"
        /// The file is there but cannot be read (permissions, a folder, a device).
        case unreadableFile = "unreadable-file"
        /// The built pack cannot be written where asked.
        case cannotWrite = "cannot-write"
        /// Not an archive this reader takes: tar or zip, compressed at most once.
        case unsupportedFormat = "unsupported-format"
        /// The archive is cut short or damaged.
        case corrupt
        /// The archive is larger than the limits allow (``PackVerifier/archiveLimits``).
        case archiveTooLarge = "archive-too-large"
        /// The archive holds more entries than the limits allow.
        case tooManyEntries = "too-many-entries"
        /// One entry is larger than the limits allow.
        case entryTooLarge = "entry-too-large"
        /// The entries together are larger than the limits allow (a decompression bomb).
        case totalTooLarge = "total-too-large"
        /// An archive compressed twice, or an archive inside the archive.
        case nestedCompression = "nested-compression"
        /// Reading stopped at the limit of bytes read.
        case readLimit = "read-limit"
        /// An entry's name starts at `/`: it would be written outside the pack.
        case absolutePath = "absolute-path"
        /// An entry's name climbs out with `..`.
        case parentReference = "parent-reference"
        /// An entry's name holds a control character.
        case controlCharacter = "control-character"
        /// An entry's name is not UTF-8.
        case nameNotUTF8 = "name-not-utf8"
        /// An entry's name is empty, too long, or not a plain path.
        case badName = "bad-name"
        /// A symbolic link: packs hold files and folders only.
        case symbolicLink = "symbolic-link"
        /// A hard link: packs hold files and folders only.
        case hardLink = "hard-link"
        /// A device node: packs hold files and folders only.
        case device
        /// A FIFO: packs hold files and folders only.
        case fifo
        /// A socket: packs hold files and folders only.
        case socket
        /// A sparse file: packs hold plain files only.
        case sparse
        /// Two entries of the same name.
        case duplicateEntry = "duplicate-entry"
        // Property lists.
        /// A property list that does not parse.
        case plistMalformed = "plist-malformed"
        /// A property list in a form this reader does not take.
        case plistUnsupported = "plist-unsupported"
        /// A property list nested deeper than the limits allow.
        case plistTooDeep = "plist-too-deep"
        /// A property list with more objects than the limits allow.
        case plistTooManyObjects = "plist-too-many-objects"
        /// A binary property list whose objects refer to themselves.
        case plistCyclic = "plist-cyclic"
        /// A dictionary with a key twice.
        case plistDuplicateKey = "plist-duplicate-key"
        /// A property list's text is not UTF-8.
        case plistInvalidUTF8 = "plist-invalid-utf8"
        // The manifest.
        /// No `Info.plist` (nor Apple's `ContentInfo.plist`).
        case missingManifest = "missing-manifest"
        /// `pack init`: the folder has an `Info.plist` already.
        case manifestExists = "manifest-exists"
        /// The manifest's root is not a dictionary.
        case manifestNotDictionary = "manifest-not-dictionary"
        /// The manifest lacks a key it needs (`ProductIdentifier`, `ContentVersion`, `DisplayName`...).
        case manifestMissingKey = "manifest-missing-key"
        /// A manifest key holds the wrong type.
        case manifestWrongType = "manifest-wrong-type"
        /// `FormatVersion` is newer than this reader knows.
        case formatVersionTooNew = "format-version-too-new"
        /// `FormatVersion` is not a positive whole number.
        case badFormatVersion = "bad-format-version"
        /// `ContentVersion` is not a version (`1.0`, `2`).
        case badContentVersion = "bad-content-version"
        /// `ProductIdentifier` is not a product identifier (`com.example.words.birds`).
        case badProductIdentifier = "bad-product-identifier"
        /// `Language` is not a BCP 47 tag.
        case badLanguage = "bad-language"
        /// `WordCount` is not the number of words the lists hold.
        case wordCountMismatch = "word-count-mismatch"
        /// A file's SHA-256 is not the one `Files` records: it changed after the build.
        case fileHashMismatch = "file-hash-mismatch"
        /// A file's size is not the one `Files` records.
        case fileSizeMismatch = "file-size-mismatch"
        /// `Files` records a file the pack does not hold.
        case listedFileMissing = "listed-file-missing"
        /// A file the pack holds is not recorded in `Files`.
        case fileNotListed = "file-not-listed"
        /// Apple's `ContentInfo.plist` and the manifest disagree.
        case manifestMismatch = "manifest-mismatch"
        // The words.
        /// A word pack without a word list.
        case noWordList = "no-word-list"
        /// A word list without a word.
        case emptyWordList = "empty-word-list"
        /// A word list's root is not `{name, words}` or an array.
        case wordListRoot = "word-list-root"
        /// A word that is not a string (or a `{word, clue}` dictionary).
        case wordNotString = "word-not-string"
        /// A word a game cannot play (no letter, too long, a character that is no letter).
        case invalidWord = "invalid-word"
        /// A word not in Unicode NFC.
        case wordNotNFC = "word-not-nfc"
        /// A word twice in one list.
        case duplicateWord = "duplicate-word"
        /// `Kind` is neither words nor a theme.
        case badKind = "bad-kind"
        /// A theme pack's drawings are missing or malformed.
        case badTheme = "bad-theme"
        /// `DailyList` names no list of the pack.
        case badDailyList = "bad-daily-list"
        /// Text a player is shown holds a control or format character (``PackTextRule``).
        case unsafeText = "unsafe-text"
        // Signatures.
        /// `Signature.plist` does not parse as a signature.
        case signatureMalformed = "signature-malformed"
        /// The signature is not the manifest's under its key: the pack changed after signing.
        case signatureInvalid = "signature-invalid"
        /// A valid signature by a key that is not trusted.
        case signatureUntrusted = "signature-untrusted"
        /// No signature, where one is required.
        case signatureMissing = "signature-missing"
        /// The signature covers a manifest that does not record every file.
        case signatureIncomplete = "signature-incomplete"
    }

    /// What is wrong, as a stable code (`file-hash-mismatch`): what a program tests.
    public var kind: Kind
    /// The entry (path inside the pack, or the archive's entry name) the problem is about.
    public var entry: String?
    /// What is wrong, and where there is one, what to do.
    public var message: String

    /// A problem of `kind` about `entry` (a path inside the pack), said by `message`.
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
