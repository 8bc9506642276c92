import Archive
import PropertyList
import Signing
import SystemCalls

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

/// Gathers a pack's files while the archive inflates: hashes every file block by block, reads word
/// lists as they stream by (`StreamingWordList`: only their words stay in memory, packed), and
/// keeps the few special files whole.
///
/// A word list the streaming readers are not sure of is named in `toDecode`; the verifier reads
/// it again, whole, with `decode(_:)`, which says exactly what is wrong with it.
struct EntryCollector: ArchiveEntryReceiver {
    static let specialNames: Set<String> = ["Info.plist", "ContentInfo.plist", PackSignature.fileName, ThemeFrames.fileName]

    let propertyListLimits: PropertyListLimits
    let maxProblemsPerList: Int
    private(set) var files: [String: CollectedFile] = [:]
    private(set) var lists: [WordList] = []
    private(set) var problems: [PackProblem] = []
    /// A word-list file was present, even if it could not be read.
    private(set) var sawWordListFile = false
    /// Some word was refused, so counts will not match the manifest's.
    private(set) var hadWordProblems = false
    /// Word lists to read again with the property-list decoder, by full path, in archive order.
    private(set) var toDecode: [String] = []
    /// Word-list files read, by full path.
    private var parsed: Set<String> = []
    /// The file being read, when it is read block by block.
    private var current: Current?

    /// A file being read block by block. A large one is split over two threads: a word list is
    /// read on a second thread from copies of its blocks while this one hashes them; any other
    /// file is hashed on the second thread.
    private struct Current {
        var hasher = SHA256Hasher()
        var hashingBeside: BlockPipeline<SHA256Hasher>?
        var list: StreamingWordList?
        var listBeside: BlockPipeline<StreamingWordList>?
        let declaredSize: Int?
        var isIgnored = false
        var started = false

        /// Files from this size on are read on two threads.
        static let splitFrom = 1 << 20

        init(declaredSize: Int? = nil, list: StreamingWordList? = nil, isIgnored: Bool = false) {
            self.declaredSize = declaredSize
            self.list = list
            self.isIgnored = isIgnored
        }

        mutating func receive(_ block: UnsafeRawBufferPointer) {
            if !started {
                started = true
                split()
            }
            if let hashingBeside { hashingBeside.write(block) } else { hasher.update(block) }
            if let listBeside { listBeside.write(block) } else { list?.feed(block) }
        }

        /// Which work goes to a second thread, by the file's size and kind.
        private mutating func split() {
            guard let declaredSize, declaredSize >= Self.splitFrom, Parallel.hasSecondCore else { return }
            if let scanned = list {
                listBeside = BlockPipeline(state: scanned) { list, bytes in list.feed(bytes) }
                list = nil
            } else {
                hashingBeside = BlockPipeline(state: hasher) { hasher, bytes in hasher.update(bytes) }
            }
        }

        /// The file's hash and its list (if it is one), once every block is in; the list is taken
        /// out, so that the caller holds its one copy and finishing it copies nothing.
        mutating func finish() -> (digest: SHA256Digest, list: StreamingWordList?) {
            let digest = (hashingBeside?.finish() ?? hasher).finalize()
            let read = listBeside?.finish() ?? list
            hashingBeside = nil
            listBeside = nil
            list = nil
            return (digest, read)
        }
    }

    init(propertyListLimits: PropertyListLimits, maxProblemsPerList: Int) {
        self.propertyListLimits = propertyListLimits
        self.maxProblemsPerList = maxProblemsPerList
    }

    /// Files that packing tools leave behind and that are no part of a pack.
    static func isIgnored(_ name: EntryName) -> Bool {
        name.components.contains("__MACOSX") || name.lastComponent.hasPrefix(".")
    }

    // MARK: - Receiving the archive's files

    mutating func begin(_ name: EntryName, declaredSize: Int?) -> ArchiveEntryDelivery {
        if Self.isIgnored(name) {
            current = Current(isIgnored: true)
            return .inBlocks
        }
        if Self.specialNames.contains(name.lastComponent) {
            current = nil
            return .whole
        }
        current = Current(
            declaredSize: declaredSize,
            list: isPropertyListName(name.path) ? StreamingWordList(limits: propertyListLimits, expectedSize: declaredSize) : nil)
        return .inBlocks
    }

    mutating func receive(_ block: UnsafeRawBufferPointer) {
        guard current?.isIgnored == false else { return }
        current?.receive(block)
    }

    mutating func end(_ name: EntryName, size: Int, bytes: [UInt8]?) -> Bool {
        let path = name.path
        // Taken out of `self`, so that finishing the list does not copy the words it holds.
        guard var file = current else {
            if let bytes { files[path] = CollectedFile(path: path, size: size, sha256: SHA256.hash(bytes), bytes: bytes) }
            return true
        }
        current = nil
        guard !file.isIgnored else { return true }
        let digest: SHA256Digest
        var list: StreamingWordList?
        (digest, list) = file.finish()
        files[path] = CollectedFile(path: path, size: size, sha256: digest, bytes: nil)
        guard list != nil else { return true }
        parsed.insert(path)
        sawWordListFile = true
        if let read = list!.finish() {
            lists.append(WordList(path: path, name: read.name ?? WordList.defaultName(path: path), format: read.format, contents: .packed(read.words)))
        } else {
            toDecode.append(path)
        }
        return true
    }

    // MARK: - Reading lists whole

    /// Reads a word list whole with the property-list decoder: one the streaming readers gave up on.
    mutating func decode(_ file: ArchiveFile) {
        parseWordList(file.name.path, bytes: file.bytes)
    }

    /// Parses a kept special-named file as a word list (an `Info.plist` that is not the manifest, say).
    mutating func parseWordList(_ path: String, relativePath: String) {
        if parsed.contains(path) { return }
        guard let bytes = files[path]?.bytes else { return }
        parsed.insert(path)
        parseWordList(path, bytes: bytes)
    }

    /// Sets list paths relative to the pack's root.
    mutating func makeRelative(to root: String) {
        for index in lists.indices { lists[index].path = String(lists[index].path.dropFirst(root.count)) }
    }

    private mutating func parseWordList(_ path: String, bytes: [UInt8]) {
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

/// A word list read as it inflates: the first bytes say XML or binary. XML is scanned block by
/// block (`XMLWordListScanner`); a binary list of a known size is read in the order its objects
/// come (`BinaryWordListStream`), one of an unknown size is collected and walked in place
/// (`BinaryWordListScanner`), since its offset table comes last.
struct StreamingWordList {
    private let limits: PropertyListLimits
    private let expectedSize: Int?
    private var head: [UInt8] = []
    private var xml: XMLWordListScanner?
    private var stream: BinaryWordListStream?
    private var binary: [UInt8]?
    private var gaveUp = false

    init(limits: PropertyListLimits, expectedSize: Int?) {
        self.limits = limits
        self.expectedSize = expectedSize
    }

    mutating func feed(_ block: UnsafeRawBufferPointer) {
        guard !gaveUp else { return }
        if xml != nil {
            xml?.feed(block)
        } else if stream != nil {
            stream?.feed(block)
        } else if binary != nil {
            binary?.append(contentsOf: block)
        } else {
            head.append(contentsOf: block)
            // "bplist" takes six bytes to tell.
            if head.count >= 6 { start() }
        }
    }

    /// The list when the file is complete; `nil` when a reader gave up.
    mutating func finish() -> (name: String?, format: PropertyListFormat, words: PackedWords)? {
        if xml == nil && stream == nil && binary == nil && !gaveUp { start() }
        if gaveUp { return nil }
        if var scanner = xml {
            xml = nil
            return scanner.finish().map { ($0.name, .xml, $0.words) }
        }
        if var reader = stream {
            stream = nil
            return reader.finish().map { ($0.name, .binary, $0.words) }
        }
        guard let bytes = binary else { return nil }
        binary = nil
        return bytes.withUnsafeBufferPointer { BinaryWordListScanner.scan($0, limits: limits) }.map { ($0.name, .binary, $0.words) }
    }

    private mutating func start() {
        if head.starts(with: "bplist".utf8), let expectedSize {
            var reader = BinaryWordListStream(limits: limits, size: expectedSize)
            head.withUnsafeBytes { reader.feed($0) }
            stream = reader
        } else if head.starts(with: "bplist".utf8) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(expectedSize ?? head.count)
            bytes.append(contentsOf: head)
            binary = bytes
        } else {
            var scanner = XMLWordListScanner(limits: limits, expectedSize: expectedSize)
            head.withUnsafeBytes { scanner.feed($0) }
            xml = scanner
        }
        head = []
    }
}
