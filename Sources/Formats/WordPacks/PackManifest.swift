import PropertyList
import Signing

/// A pack's `Info.plist`: what the pack is, which product unlocks it, and what it holds.
public struct PackManifest: Sendable, Equatable {
    /// The newest `FormatVersion` this reader understands.
    public static let supportedFormatVersion = 1

    /// One file's expected digest and size, as `pack build` records them in `Files`.
    public struct FileRecord: Sendable, Equatable {
        /// The file's SHA-256.
        public var sha256: SHA256Digest
        /// Its size in bytes.
        public var size: Int
        /// A record of a file with this digest and size.
        public init(sha256: SHA256Digest, size: Int) {
            self.sha256 = sha256
            self.size = size
        }
    }

    /// The manifest's `FormatVersion` (at most ``supportedFormatVersion``).
    public var formatVersion: Int
    /// The product that unlocks the pack (`ProductIdentifier`).
    public var productIdentifier: ProductID
    /// The pack's version (`ContentVersion`): a catalog sells one, and a device updates to it.
    public var contentVersion: ContentVersion
    /// The pack's name, as players read it (`DisplayName`).
    public var displayName: String
    /// BCP 47 language tag; `en` when the manifest has none.
    public var language: String
    /// A sentence on what the pack holds (`Summary`).
    public var summary: String?
    /// The words' licence (`License`), when the author gives one.
    public var license: String?
    /// Whom the words come from (`Attribution`).
    public var attribution: String?
    /// The words in every list (`WordCount`), as `pack build` counts and seals them.
    public var wordCount: Int?
    /// Path inside the pack -> expected digest and size.
    public var files: [String: FileRecord]?
    /// Words (the default) or a theme: `Kind`.
    public var kind: PackKind = .words
    /// The path of the word list the service's daily word draws from (`DailyList`): one of the
    /// pack's lists, played like the others; `nil` draws from every list.
    public var dailyList: String?
    /// Keys this reader does not know, kept so that a rebuild does not drop them.
    public var otherKeys: [String: PropertyList]

    /// A manifest for the pack sold as `productIdentifier`, in `language`.
    public init(
        productIdentifier: ProductID, contentVersion: ContentVersion, displayName: String,
        language: String = "en", formatVersion: Int = PackManifest.supportedFormatVersion
    ) {
        self.formatVersion = formatVersion
        self.productIdentifier = productIdentifier
        self.contentVersion = contentVersion
        self.displayName = displayName
        self.language = language
        self.otherKeys = [:]
    }

    /// The manifest as a property list, for `pack build`.
    public var propertyList: PropertyList {
        var dict = otherKeys
        dict["FormatVersion"] = .integer(Int64(formatVersion))
        dict["ProductIdentifier"] = .string(productIdentifier.rawValue)
        dict["ContentVersion"] = .string(contentVersion.text)
        dict["DisplayName"] = .string(displayName)
        dict["Language"] = .string(language)
        if let summary { dict["Summary"] = .string(summary) }
        if let license { dict["License"] = .string(license) }
        if let attribution { dict["Attribution"] = .string(attribution) }
        if let wordCount { dict["WordCount"] = .integer(Int64(wordCount)) }
        if kind != .words { dict["Kind"] = .string(kind.rawValue) }
        if let dailyList { dict["DailyList"] = .string(dailyList) }
        if let files {
            dict["Files"] = .dictionary(files.mapValues { record in
                .dictionary(["SHA256": .string(record.sha256.hex), "Size": .integer(Int64(record.size))])
            })
        }
        return .dictionary(dict)
    }

    static let knownKeys: Set<String> = [
        "FormatVersion", "ProductIdentifier", "ContentVersion", "DisplayName", "Language",
        "Summary", "License", "Attribution", "WordCount", "Files", "Kind", "DailyList",
    ]

    /// Reads a manifest, collecting every problem; `nil` when a required key is unusable.
    static func parse(_ value: PropertyList, entry: String, problems: inout [PackProblem]) -> PackManifest? {
        guard case .dictionary(let dict) = value else {
            problems.append(PackProblem(.manifestNotDictionary, entry: entry, "the manifest's root is \(value.typeName), expected a dictionary"))
            return nil
        }
        var reader = FieldReader(dict: dict, entry: entry)

        var formatVersion: Int?
        if let number = reader.integer("FormatVersion", required: true) {
            if number > Int64(supportedFormatVersion) {
                reader.problems.append(PackProblem(
                    .formatVersionTooNew, entry: entry,
                    "FormatVersion \(number) is newer than this hangman supports (\(supportedFormatVersion)): update hangman to read this pack"))
            } else if number < 1 {
                reader.problems.append(PackProblem(.badFormatVersion, entry: entry, "FormatVersion \(number) is not a format version (1 is the first)"))
            } else {
                formatVersion = Int(number)
            }
        }
        var productIdentifier: ProductID?
        if let text = reader.string("ProductIdentifier", required: true) {
            productIdentifier = ProductID(rawValue: text)
            if productIdentifier == nil {
                reader.problems.append(PackProblem(
                    .badProductIdentifier, entry: entry,
                    "ProductIdentifier '\(text)' is not a reverse-DNS identifier (like com.example.words.ios)"))
            }
        }
        var contentVersion: ContentVersion?
        if let text = reader.string("ContentVersion", required: true) {
            contentVersion = ContentVersion(text)
            if contentVersion == nil {
                reader.problems.append(PackProblem(
                    .badContentVersion, entry: entry, "ContentVersion '\(text)' is not dotted integers (like 1, 1.2 or 2.0.3)"))
            }
        }
        let displayName = reader.string("DisplayName", required: true)
        if let displayName, displayName.allSatisfy(\.isWhitespace) {
            reader.problems.append(PackProblem(.manifestWrongType, entry: entry, "DisplayName is empty"))
        }
        let language = reader.string("Language", required: false) ?? "en"
        if !isLanguageTag(language) {
            reader.problems.append(PackProblem(.badLanguage, entry: entry, "Language '\(language)' is not a BCP 47 tag (like en, es or pt-BR)"))
        }
        let summary = reader.string("Summary", required: false)
        let license = reader.string("License", required: false)
        let attribution = reader.string("Attribution", required: false)
        var wordCount: Int?
        if let count = reader.integer("WordCount", required: false) {
            if count < 0 {
                reader.problems.append(PackProblem(.manifestWrongType, entry: entry, "WordCount \(count) is negative"))
            } else {
                wordCount = Int(count)
            }
        }
        let files = reader.files()
        var kind = PackKind.words
        if let text = reader.string("Kind", required: false) {
            if let known = PackKind(manifestValue: text) {
                kind = known
            } else {
                reader.problems.append(PackProblem(
                    .badKind, entry: entry, "Kind '\(text)' is not a kind of pack this hangman knows (\(PackKind.allCases.map(\.rawValue).joined(separator: ", ")))"))
            }
        }
        let dailyList = reader.string("DailyList", required: false)
        if let dailyList, dailyList.isEmpty || dailyList.hasPrefix("/") || dailyList.split(separator: "/").contains("..") || !dailyList.lowercased().hasSuffix(".plist") {
            reader.problems.append(PackProblem(.badDailyList, entry: entry, "DailyList '\(dailyList)' is not the path of a word list inside the pack (like daily.plist)"))
        }
        if kind == .theme, dailyList != nil {
            reader.problems.append(PackProblem(.badDailyList, entry: entry, "a theme has no words: DailyList belongs to a word pack"))
        }
        problems += reader.problems

        guard let formatVersion, let productIdentifier, let contentVersion, let displayName else { return nil }
        var manifest = PackManifest(
            productIdentifier: productIdentifier, contentVersion: contentVersion, displayName: displayName,
            language: language, formatVersion: formatVersion)
        manifest.summary = summary
        manifest.license = license
        manifest.attribution = attribution
        manifest.wordCount = wordCount
        manifest.files = files
        manifest.kind = kind
        manifest.dailyList = dailyList
        manifest.otherKeys = dict.filter { !knownKeys.contains($0.key) }
        return manifest
    }

    /// Whether `tag` reads as a BCP 47 language tag (`en`, `es`, `pt-BR`): a loose check, a 2-3
    /// letter language, then subtags of 1-8 letters or digits.
    public static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count),
            first.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count) && part.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        }
    }
}

/// Reads typed fields from a manifest dictionary, recording a problem for each missing or mistyped one.
private struct FieldReader {
    let dict: [String: PropertyList]
    let entry: String
    var problems: [PackProblem] = []

    mutating func value(_ key: String, required: Bool) -> PropertyList? {
        guard let value = dict[key] else {
            if required {
                problems.append(PackProblem(.manifestMissingKey, entry: entry, "required key '\(key)' is missing"))
            }
            return nil
        }
        return value
    }

    mutating func string(_ key: String, required: Bool) -> String? {
        guard let value = value(key, required: required) else { return nil }
        guard case .string(let text) = value else {
            problems.append(PackProblem(.manifestWrongType, entry: entry, "'\(key)' is \(value.typeName), expected a string"))
            return nil
        }
        return text
    }

    mutating func integer(_ key: String, required: Bool) -> Int64? {
        guard let value = value(key, required: required) else { return nil }
        guard case .integer(let number) = value else {
            problems.append(PackProblem(.manifestWrongType, entry: entry, "'\(key)' is \(value.typeName), expected an integer"))
            return nil
        }
        return number
    }

    mutating func files() -> [String: PackManifest.FileRecord]? {
        guard let value = value("Files", required: false) else { return nil }
        guard case .dictionary(let listed) = value else {
            problems.append(PackProblem(.manifestWrongType, entry: entry, "'Files' is \(value.typeName), expected a dictionary of path -> {SHA256, Size}"))
            return nil
        }
        var records: [String: PackManifest.FileRecord] = [:]
        for (path, item) in listed.sorted(by: { $0.key < $1.key }) {
            guard case .dictionary(let fields) = item,
                case .string(let hex)? = fields["SHA256"], let digest = SHA256Digest(hex: hex),
                case .integer(let size)? = fields["Size"], size >= 0
            else {
                problems.append(PackProblem(
                    .manifestWrongType, entry: entry,
                    "Files['\(path)'] must be a dictionary with SHA256 (64 hex digits) and Size (an integer)"))
                continue
            }
            records[path] = PackManifest.FileRecord(sha256: digest, size: Int(size))
        }
        return records
    }
}
