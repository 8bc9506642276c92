/// Something wrong with an archive or one of its entries.
///
/// A problem with `isFatal` set ends the reading (a corrupt stream, a limit reached);
/// the others reject one entry and reading goes on, so that every problem is reported.
public struct ArchiveProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem, stable for machines and tests.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case unsupportedFormat = "unsupported-format"
        case corrupt
        case tooLarge = "archive-too-large"
        case tooManyEntries = "too-many-entries"
        case entryTooLarge = "entry-too-large"
        case totalTooLarge = "total-too-large"
        /// A compressed stream inside another: a pack is compressed at most once.
        case nestedCompression = "nested-compression"
        /// libarchive asked for more input than the archive can justify, or stopped progressing.
        case readLimit = "read-limit"
        case absolutePath = "absolute-path"
        case parentReference = "parent-reference"
        case controlCharacter = "control-character"
        case notUTF8 = "name-not-utf8"
        case badName = "bad-name"
        case symbolicLink = "symbolic-link"
        case hardLink = "hard-link"
        case device
        case fifo
        case socket
        case sparse
        case duplicate = "duplicate-entry"
    }

    public var kind: Kind
    /// The entry's name as the archive spells it (printable form), when the problem is an entry's.
    public var entry: String?
    /// What is wrong, in words.
    public var message: String

    public init(_ kind: Kind, entry: String? = nil, _ message: String) {
        self.kind = kind
        self.entry = entry
        self.message = message
    }

    /// Whether reading stops at this problem.
    public var isFatal: Bool {
        switch kind {
        case .unsupportedFormat, .corrupt, .tooLarge, .tooManyEntries, .entryTooLarge, .totalTooLarge, .nestedCompression, .readLimit:
            true
        default:
            false
        }
    }

    public var description: String {
        if let entry { "\(entry): \(message)" } else { message }
    }
}
