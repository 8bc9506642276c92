import Archive
import LetterFolding
import PropertyList
import Signing
import SystemCalls

/// Reads and verifies a pack archive in memory, never trusting a byte of it.
///
/// Verification writes nothing to disk. It reports every problem, not only the first: archive
/// safety (see `ArchiveReader`), property lists, the manifest, the words, the `Files` hashes and the
/// signature. A content author's own tests can call it on their packs, with `import WordPacks`
/// alone:
///
/// ```swift
/// let result = PackVerifier().verify(fileAt: "Packs/ios-words.wordpack")
/// #expect(result.problems.isEmpty)
/// #expect(result.pack?.wordCount == 197)
/// let signed = try PackVerifier(trustedKeyFileAt: "release.pub").verify(fileAt: "Packs/ios-words.wordpack")
/// #expect(signed.problems.map(\.kind) == [])   // else .signatureMissing, .signatureUntrusted, ...
/// ```
public struct PackVerifier: Sendable {
    /// How large an archive, its entries and their total may be: past them it is refused, unread.
    public var archiveLimits: ArchiveLimits
    /// How deep and large a property list may be.
    public var propertyListLimits: PropertyListLimits
    /// Keys a signature must come from; empty: a signature is checked against its own key only.
    public var trustedKeys: [SigningPublicKey]
    /// A pack without a signature is refused.
    public var requireSignature: Bool
    /// Word problems reported one by one per list; the rest are counted.
    public var maxProblemsPerList: Int

    /// A verifier with these limits; `trustedKeys` and `requireSignature` decide which signatures it accepts.
    public init(
        archiveLimits: ArchiveLimits = .default, propertyListLimits: PropertyListLimits = .default,
        trustedKeys: [SigningPublicKey] = [], requireSignature: Bool = false, maxProblemsPerList: Int = 20
    ) {
        self.archiveLimits = archiveLimits
        self.propertyListLimits = propertyListLimits
        self.trustedKeys = trustedKeys
        self.requireSignature = requireSignature
        self.maxProblemsPerList = maxProblemsPerList
    }

    /// Reads the file at `path` (refusing one larger than the archive limit before reading it) and verifies it.
    public func verify(fileAt path: String) -> PackVerification {
        switch FileBytes.read(path, limit: archiveLimits.maxArchiveSize) {
        case .success(var bytes):
            let (collected, digest) = collectHashing(bytes)
            // The archive is not needed to put the entries together: let its memory go first.
            bytes = []
            return finish(collected, archiveSHA256: digest)
        case .failure(let problem):
            return PackVerification(pack: nil, problems: [problem], archive: nil)
        }
    }

    /// Verifies an archive's bytes.
    public func verify(_ bytes: [UInt8]) -> PackVerification {
        let (collected, digest) = collectHashing(bytes)
        return finish(collected, archiveSHA256: digest)
    }

    /// Verifies an archive's bytes whose SHA-256 the caller has computed already (an installer
    /// checks it against the catalog's record first): the archive is hashed once.
    public func verify(_ bytes: [UInt8], archiveSHA256: SHA256Digest) -> PackVerification {
        finish(collect(bytes), archiveSHA256: archiveSHA256)
    }

    /// Reads the archive while its SHA-256 is computed beside (on a second core, when there is one).
    private func collectHashing(_ bytes: [UInt8]) -> (Collected, SHA256Digest) {
        Parallel.both({ collect(bytes) }, { SHA256.hash(bytes) })
    }

    /// What reading the archive found, before the entries are put together.
    private struct Collected {
        var collector: EntryCollector
        var summary: ArchiveReadSummary
        var size: Int
    }

    /// Reads the archive once, streaming word lists into packed words; the lists the streaming
    /// readers gave up on are read again, whole, by the property-list decoder, in a second pass
    /// that inflates the archive only as far as the last of them.
    private func collect(_ bytes: [UInt8]) -> Collected {
        var collector = EntryCollector(propertyListLimits: propertyListLimits, maxProblemsPerList: maxProblemsPerList)
        let reader = ArchiveReader(limits: archiveLimits)
        let summary = reader.read(bytes, into: &collector)
        if !collector.toDecode.isEmpty {
            var remaining = Set(collector.toDecode)
            _ = reader.readWhile(bytes) { file in
                if remaining.remove(file.name.path) != nil { collector.decode(file) }
                return !remaining.isEmpty
            }
        }
        return Collected(collector: collector, summary: summary, size: bytes.count)
    }

    private func finish(_ collected: Collected, archiveSHA256: SHA256Digest) -> PackVerification {
        let summary = collected.summary
        let info = PackArchiveInfo(
            size: collected.size, sha256: archiveSHA256, format: summary.format, compression: summary.compression,
            entryCount: summary.entryCount, uncompressedSize: summary.totalSize)
        var problems = summary.problems.map(PackProblem.init)
        if summary.problems.contains(where: \.isFatal) {
            // A stream that could not be read to its end says nothing trustworthy about its content.
            return PackVerification(pack: nil, problems: problems + collected.collector.problems, archive: info)
        }
        let pack = assemble(collected.collector, problems: &problems)
        return PackVerification(pack: pack, problems: problems, archive: info)
    }

    // MARK: - Putting the entries together

    private func assemble(_ collector: EntryCollector, problems: inout [PackProblem]) -> WordPack? {
        var collector = collector
        let root = collector.rootPrefix()
        func relative(_ path: String) -> String { String(path.dropFirst(root.count)) }
        func at(_ relativePath: String) -> CollectedFile? {
            collector.files[root + relativePath]
        }

        // Which layout, and where the manifest is.
        var layout = WordPack.Layout.standard
        var contentRoot = ""
        var manifestFile = at("Info.plist")
        var contentInfo: (file: CollectedFile, productID: String?, version: String?)?
        if manifestFile == nil, let info = at("ContentInfo.plist") {
            layout = .hostedContent
            if collector.files.keys.contains(where: { $0.hasPrefix(root + "Contents/") }) { contentRoot = "Contents/" }
            manifestFile = at(contentRoot + "Info.plist")
            contentInfo = (info, nil, nil)
        }
        let signatureFile = at(contentRoot + PackSignature.fileName) ?? at(PackSignature.fileName)
        var special = Set([manifestFile, contentInfo?.file, signatureFile].compactMap { $0?.path })

        // The manifest (a hosted-content pack's is finished below, from its lists).
        var manifest: PackManifest?
        if let manifestFile {
            if let value = collector.decode(manifestFile, problems: &problems) {
                manifest = PackManifest.parse(value, entry: manifestFile.path, problems: &problems)
            }
        }
        // A theme's drawings are no word list.
        let themeFile = manifest?.kind == .theme ? at(contentRoot + ThemeFrames.fileName) : nil
        if let themeFile { special.insert(themeFile.path) }

        // Word lists: every other *.plist.
        for path in collector.files.keys.sorted() where !special.contains(path) && isPropertyListName(path) {
            collector.parseWordList(path, relativePath: relative(path))
        }
        collector.makeRelative(to: root)
        problems += collector.problems
        let lists = collector.lists.sorted { $0.path < $1.path }

        if let info = contentInfo {
            manifest = hostedManifest(info.file, collector: collector, manifest: manifest, lists: lists, problems: &problems)
        } else if manifestFile == nil {
            problems.append(PackProblem(
                .missingManifest, entry: root.isEmpty ? nil : String(root.dropLast()),
                "no Info.plist manifest (or ContentInfo.plist) at the top of the pack"))
        }

        var theme: ThemeFrames?
        if manifest?.kind == .theme {
            if let themeFile {
                if let value = collector.decode(themeFile, problems: &problems) {
                    theme = ThemeFrames.parse(value, entry: themeFile.path, problems: &problems)
                }
            } else {
                problems.append(PackProblem(.badTheme, "no \(ThemeFrames.fileName): a theme pack has its drawings beside its manifest"))
            }
            for list in lists {
                problems.append(PackProblem(.badTheme, entry: root + list.path, "a theme pack holds drawings, not word lists"))
            }
        } else {
            if lists.isEmpty && !collector.sawWordListFile {
                problems.append(PackProblem(.noWordList, "no word list: a pack needs at least one *.plist of words beside its manifest"))
            }
            checkDuplicates(lists, root: root, folding: LetterFolding(language: manifest?.language ?? "en"), problems: &problems)
            if let daily = manifest?.dailyList, !lists.contains(where: { $0.path == daily }), !collector.hadWordProblems {
                problems.append(PackProblem(.badDailyList, entry: root + daily, "DailyList names \(daily), which is no word list of the pack"))
            }
        }

        guard let manifest else { return nil }
        let wordCount = lists.reduce(0) { $0 + $1.wordCount }
        if let declared = manifest.wordCount, declared != wordCount, !collector.hadWordProblems {
            problems.append(PackProblem(
                .wordCountMismatch, entry: manifestFile?.path,
                "WordCount is \(declared) but the word lists hold \(wordCount) words"))
        }
        if let listed = manifest.files {
            // A theme's drawings are listed like any file: only the manifest and the signature are not.
            let unlisted = special.subtracting([contentInfo?.file.path, themeFile?.path].compactMap { $0 })
            checkFiles(listed, collector: collector, root: root, exclude: unlisted, problems: &problems)
        }
        let signature = checkSignature(signatureFile, manifestFile: manifestFile, manifest: manifest, collector: collector, problems: &problems)

        let others = collector.files.keys.filter { !special.contains($0) && !isPropertyListName($0) }.map(relative).sorted()
        return WordPack(manifest: manifest, layout: layout, lists: lists, signature: signature, otherFiles: others, theme: theme)
    }

    /// The manifest of a hosted-content pack: from `ContentInfo.plist`, checked against an
    /// `Info.plist` when the pack also has one.
    private func hostedManifest(
        _ file: CollectedFile, collector: EntryCollector, manifest: PackManifest?, lists: [WordList],
        problems: inout [PackProblem]
    ) -> PackManifest? {
        guard let value = collector.decode(file, problems: &problems) else { return manifest }
        guard case .dictionary(let dict) = value else {
            problems.append(PackProblem(.manifestNotDictionary, entry: file.path, "root is \(value.typeName), expected a dictionary"))
            return manifest
        }
        guard case .string(let id)? = dict["IAPProductIdentifier"] else {
            problems.append(PackProblem(.manifestMissingKey, entry: file.path, "'IAPProductIdentifier' (a string) is missing"))
            return manifest
        }
        guard case .string(let versionText)? = dict["ContentVersion"] else {
            problems.append(PackProblem(.manifestMissingKey, entry: file.path, "'ContentVersion' (a string) is missing"))
            return manifest
        }
        guard let productID = ProductID(rawValue: id) else {
            problems.append(PackProblem(.badProductIdentifier, entry: file.path, "IAPProductIdentifier '\(id)' is not a reverse-DNS identifier"))
            return manifest
        }
        guard let version = ContentVersion(versionText) else {
            problems.append(PackProblem(.badContentVersion, entry: file.path, "ContentVersion '\(versionText)' is not dotted integers (like 1, 1.2 or 2.0.3)"))
            return manifest
        }
        if let manifest {
            if manifest.productIdentifier != productID || manifest.contentVersion != version {
                problems.append(PackProblem(
                    .manifestMismatch, entry: file.path,
                    "says \(productID) \(version) but Info.plist says \(manifest.productIdentifier) \(manifest.contentVersion)"))
            }
            return manifest
        }
        let name = lists.first?.name ?? productID.rawValue
        return PackManifest(productIdentifier: productID, contentVersion: version, displayName: name)
    }

    /// Words the game cannot tell apart, compared the way a game in the pack's language compares letters.
    private func checkDuplicates(_ lists: [WordList], root: String, folding: LetterFolding, problems: inout [PackProblem]) {
        var starts: [Int] = []
        var total = 0
        for list in lists {
            starts.append(total)
            total += list.wordCount
        }
        /// The list holding word `index` of all lists.
        func owner(_ index: Int) -> Int {
            var low = 0
            var high = starts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= index { low = middle } else { high = middle - 1 }
            }
            return low
        }
        var reported: [Int: Int] = [:]  // list -> duplicates found in it
        for duplicate in DuplicateWords.find(in: lists, folding: folding) {
            let list = owner(duplicate.index)
            let count = reported[list, default: 0]
            reported[list] = count + 1
            guard count < maxProblemsPerList else { continue }
            let firstList = owner(duplicate.firstIndex)
            let word = lists[list].word(duplicate.index - starts[list])
            let firstWord = lists[firstList].word(duplicate.firstIndex - starts[firstList])
            let whereFirst = firstList == list ? "earlier in this list" : "in \(lists[firstList].path)"
            problems.append(PackProblem(
                .duplicateWord, entry: root + lists[list].path,
                "duplicate word '\(printable(word))' (a game in \(folding.language) cannot tell it from '\(printable(firstWord))' \(whereFirst))"))
        }
        for (list, count) in reported.sorted(by: { $0.key < $1.key }) where count > maxProblemsPerList {
            problems.append(PackProblem(.duplicateWord, entry: root + lists[list].path, "and \(count - maxProblemsPerList) more duplicate words in this list"))
        }
    }

    private func checkFiles(
        _ listed: [String: PackManifest.FileRecord], collector: EntryCollector, root: String, exclude: Set<String>,
        problems: inout [PackProblem]
    ) {
        for (path, record) in listed.sorted(by: { $0.key < $1.key }) {
            guard let file = collector.files[root + path] else {
                problems.append(PackProblem(.listedFileMissing, entry: root + path, "listed in the manifest's Files but not in the archive"))
                continue
            }
            if file.size != record.size {
                problems.append(PackProblem(.fileSizeMismatch, entry: file.path, "is \(file.size) bytes but the manifest's Files says \(record.size)"))
            } else if file.sha256 != record.sha256 {
                problems.append(PackProblem(.fileHashMismatch, entry: file.path, "SHA-256 is \(file.sha256.hex) but the manifest's Files says \(record.sha256.hex): the file was changed after the pack was built"))
            }
        }
        for path in collector.files.keys.sorted() where !exclude.contains(path) && listed[String(path.dropFirst(root.count))] == nil {
            problems.append(PackProblem(.fileNotListed, entry: path, "not listed in the manifest's Files: the file was added after the pack was built"))
        }
    }

    private func checkSignature(
        _ file: CollectedFile?, manifestFile: CollectedFile?, manifest: PackManifest, collector: EntryCollector,
        problems: inout [PackProblem]
    ) -> PackSignature? {
        guard let file else {
            if requireSignature {
                problems.append(PackProblem(.signatureMissing, "the pack is not signed (no \(PackSignature.fileName)) and a signature is required"))
            }
            return nil
        }
        guard let value = collector.decode(file, problems: &problems),
            let signature = PackSignature.parse(value, entry: file.path, problems: &problems)
        else { return nil }
        guard let manifestFile, let manifestBytes = manifestFile.bytes else {
            problems.append(PackProblem(.signatureInvalid, entry: file.path, "there is no Info.plist manifest for the signature to cover"))
            return nil
        }
        guard signature.isValid(for: manifestBytes) else {
            problems.append(PackProblem(
                .signatureInvalid, entry: file.path,
                "signature does not match the bytes of \(manifestFile.path): the manifest was changed after signing"))
            return nil
        }
        if !trustedKeys.isEmpty && !trustedKeys.contains(signature.publicKey) {
            problems.append(PackProblem(
                .signatureUntrusted, entry: file.path,
                "signed by key \(signature.publicKey.keyID), which is not the trusted key (\(trustedKeys.map(\.keyID).joined(separator: ", ")))"))
            return nil
        }
        if manifest.files == nil {
            problems.append(PackProblem(
                .signatureIncomplete, entry: file.path,
                "the signed manifest has no Files list, so the word lists are not covered by the signature: build the pack with 'hangman pack build'"))
        }
        return signature
    }
}

/// Whether a path names a property list (`*.plist`, any case).
func isPropertyListName(_ path: String) -> Bool {
    path.lowercased().hasSuffix(".plist")
}

