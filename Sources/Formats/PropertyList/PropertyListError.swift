/// The serialized form of a property list.
public enum PropertyListFormat: String, Sendable {
    /// Apple's XML plist (`<plist version="1.0">`), UTF-8.
    case xml
    /// Apple's binary plist, version `bplist00`.
    case binary
}

/// Bounds that keep decoding of untrusted input finite in time and memory.
public struct PropertyListLimits: Sendable, Equatable {
    /// The deepest nesting of arrays and dictionaries accepted; the root container is depth 1.
    public var maxDepth: Int
    /// The most values (dictionary keys included) a document may expand to; a binary object
    /// referenced from several places counts once per reference. Memory use is roughly
    /// proportional to this bound (about 24 bytes a value) plus the input size.
    public var maxObjects: Int

    /// Limits with the given bounds.
    public init(maxDepth: Int = 64, maxObjects: Int = 16_777_216) {
        self.maxDepth = maxDepth
        self.maxObjects = maxObjects
    }

    /// Depth 64, 16,777,216 values.
    public static let `default` = PropertyListLimits()
}

/// Why a property list could not be decoded; `message` says where and what.
public struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure, for callers that branch on it.
    public enum Kind: String, Sendable {
        /// The bytes are neither an XML nor a binary property list.
        case notAPropertyList
        /// The document breaks the format's rules (syntax, structure, bounds, values).
        case malformed
        /// A valid feature this reader refuses (other encodings, bplist1x, UIDs, sets, DTD subsets).
        case unsupported
        /// Containers nest deeper than `PropertyListLimits.maxDepth`.
        case tooDeep
        /// The document expands to more than `PropertyListLimits.maxObjects` values.
        case tooManyObjects
        /// A binary object contains itself.
        case cyclic
        /// A dictionary holds the same key twice.
        case duplicateKey
        /// XML text is not valid UTF-8.
        case invalidUTF8
    }

    /// The class of failure.
    public var kind: Kind
    /// Human text naming the place ("line 12: ..." or "binary object 7 at offset 0x1a2: ...").
    public var message: String

    /// An error of the given kind and message.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
