import Archive
import PropertyList
import Signing

/// One regular file of a pack archive, as the verifier keeps it.
struct CollectedFile: Sendable {
    /// Full path inside the archive.
    var path: String
    var size: Int
    var sha256: SHA256Digest
    /// The bytes, kept only for files that may be the manifest, the hosted-content info or the
    /// signature (the signature covers the manifest's exact bytes).
    var bytes: [UInt8]?
}

/// Gathers a pack's files while the archive streams by: hashes every file, parses word lists at
/// once (so that only their words stay in memory), and keeps the few special files whole.
struct EntryCollector {
    static let specialNames: Set<String> = ["Info.plist", "ContentInfo.plist", PackSignature.fileName]

    let propertyListLimits: PropertyListLimits
    let maxProblemsPerList: Int
    private(set) var files: [String: CollectedFile] = [:]
    private(set) var lists: [WordList] = []
    private(set) var problems: [PackProblem] = []
    /// A word-list file was present, even if it could not be read.
    private(set) var sawWordListFile = false
    /// Some word was refused, so counts will not match the manifest's.
    private(set) var hadWordProblems = false
    /// Word-list files parsed while streaming, by full path.
    private var parsed: Set<String> = []

    init(propertyListLimits: PropertyListLimits, maxProblemsPerList: Int) {
        self.propertyListLimits = propertyListLimits
        self.maxProblemsPerList = maxProblemsPerList
    }

    /// Files that packing tools leave behind and that are no part of a pack.
    static func isIgnored(_ name: EntryName) -> Bool {
        name.components.contains("__MACOSX") || name.lastComponent.hasPrefix(".")
    }

    mutating func add(_ file: ArchiveFile) {
        if Self.isIgnored(file.name) { return }
        let path = file.name.path
        let special = Self.specialNames.contains(file.name.lastComponent)
        files[path] = CollectedFile(
            path: path, size: file.bytes.count, sha256: SHA256.hash(file.bytes), bytes: special ? file.bytes : nil)
        if !special && isPropertyListName(path) {
            parseWordList(path, bytes: file.bytes)
        }
    }

    /// Parses a kept special-named file as a word list (an `Info.plist` that is not the manifest, say).
    mutating func parseWordList(_ path: String, relativePath: String) {
        if parsed.contains(path) { return }
        guard let bytes = files[path]?.bytes else { return }
        parseWordList(path, bytes: bytes)
    }

    /// Sets list paths relative to the pack's root.
    mutating func makeRelative(to root: String) {
        for index in lists.indices { lists[index].path = String(lists[index].path.dropFirst(root.count)) }
    }

    private mutating func parseWordList(_ path: String, bytes: [UInt8]) {
        parsed.insert(path)
        sawWordListFile = true
        let before = problems.count
        defer { if problems.count > before { hadWordProblems = true } }
        let decoded: (value: PropertyList, format: PropertyListFormat)
        do {
            decoded = try PropertyListDecoding.decode(bytes, limits: propertyListLimits)
        } catch {
            problems.append(PackProblem(error, entry: path))
            return
        }
        if let list = WordList.parse(
            decoded.value, format: decoded.format, path: path, entry: path, maxProblems: maxProblemsPerList, problems: &problems)
        {
            lists.append(list)
        }
    }

    /// Decodes a kept file, recording a problem when it is not a property list.
    func decode(_ file: CollectedFile, problems: inout [PackProblem]) -> PropertyList? {
        guard let bytes = file.bytes else { return nil }
        do {
            return try PropertyListDecoding.decode(bytes, limits: propertyListLimits).value
        } catch {
            problems.append(PackProblem(error, entry: file.path))
            return nil
        }
    }

    /// The pack's top-level folder with its trailing `/` when every file is inside the same one,
    /// else the empty string (the files are at the archive's root).
    func rootPrefix() -> String {
        var first: Substring?
        for path in files.keys {
            let parts = path.split(separator: "/", maxSplits: 1)
            guard parts.count == 2 else { return "" }
            if first == nil {
                first = parts[0]
            } else if first != parts[0] {
                return ""
            }
        }
        return first.map { $0 + "/" } ?? ""
    }
}
