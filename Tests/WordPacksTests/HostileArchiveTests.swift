import Archive
import Foundation
import TestSupport
import Testing
import WordPacks

/// One hostile archive and the reason it must be refused for.
struct HostileCase: Sendable, CustomTestStringConvertible {
    var name: String
    var expected: PackProblem.Kind
    var make: @Sendable () throws -> [UInt8]
    var testDescription: String { name }
}

private func pack(_ extra: [ArchiveWriter.Entry], format: ArchiveWriter.Format = .pax) throws -> [UInt8] {
    try Fixture.archive(Fixture.validEntries() + extra, format: format)
}

private func replacing(_ name: String, with bytes: [UInt8]) throws -> [UInt8] {
    try Fixture.archive(Fixture.validEntries().map { $0.rawName == Array("pack/\(name)".utf8) ? .file("pack/\(name)", bytes) : $0 })
}

private func nested(_ depth: Int) -> [UInt8] {
    Fixture.xml(String(repeating: "<array>", count: depth) + "<string>deep</string>" + String(repeating: "</array>", count: depth))
}

/// A binary plist whose root array contains itself.
private let cyclicBinaryPlist: [UInt8] = {
    var bytes = Array("bplist00".utf8)
    bytes += [0xA1, 0x00]  // object 0: array of one element, a reference to object 0
    let offsetTable = bytes.count
    bytes += [0x08]  // object 0 starts at offset 8
    bytes += [0, 0, 0, 0, 0, 0]  // trailer: unused
    bytes += [1, 1]  // offset int size, object ref size
    bytes += [0, 0, 0, 0, 0, 0, 0, 1]  // one object
    bytes += [0, 0, 0, 0, 0, 0, 0, 0]  // top object 0
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(offsetTable)]
    return bytes
}()

let hostileCases: [HostileCase] = [
    // Archive safety.
    HostileCase(name: "absolute path", expected: .absolutePath) { try pack([.file("/tmp/hangman-evil.plist", Fixture.wordList(["evil"]))]) },
    HostileCase(name: "parent reference", expected: .parentReference) { try pack([.file("../evil.plist", Fixture.wordList(["evil"]))]) },
    HostileCase(name: "parent reference inside", expected: .parentReference) { try pack([.file("pack/a/../../evil.plist", Fixture.wordList(["evil"]))]) },
    HostileCase(name: "symbolic link", expected: .symbolicLink) { try pack([ArchiveWriter.Entry("pack/link.plist", .symbolicLink(target: "/etc/passwd"))]) },
    HostileCase(name: "hard link", expected: .hardLink) { try pack([ArchiveWriter.Entry("pack/hard.plist", .hardLink(target: "/etc/passwd"))]) },
    HostileCase(name: "character device", expected: .device) { try pack([ArchiveWriter.Entry("pack/null", .characterDevice)]) },
    HostileCase(name: "block device", expected: .device) { try pack([ArchiveWriter.Entry("pack/disk", .blockDevice)]) },
    HostileCase(name: "FIFO", expected: .fifo) { try pack([ArchiveWriter.Entry("pack/pipe", .fifo)]) },
    HostileCase(name: "duplicate entry", expected: .duplicateEntry) { try pack([.file("pack/words.plist", Fixture.wordList(["other"]))]) },
    HostileCase(name: "duplicate by case", expected: .duplicateEntry) { try pack([.file("pack/WORDS.plist", Fixture.wordList(["other"]))]) },
    HostileCase(name: "duplicate by Unicode normalisation", expected: .duplicateEntry) {
        try pack([.file("pack/caf\u{E9}.plist", Fixture.wordList(["one"])), .file("pack/cafe\u{301}.plist", Fixture.wordList(["two"]))])
    },
    HostileCase(name: "control character in a name", expected: .controlCharacter) { try pack([.file("pack/bad\nname.plist", Fixture.wordList(["other"]))]) },
    HostileCase(name: "bidirectional override in a name", expected: .controlCharacter) { try pack([.file("pack/evil\u{202E}tsilp.txt", [1])]) },
    HostileCase(name: "name not UTF-8", expected: .nameNotUTF8) { try pack([ArchiveWriter.Entry(rawName: Array("pack/bad".utf8) + [0xFF, 0xFE] + Array(".plist".utf8), .file(Fixture.wordList(["other"])))]) },
    HostileCase(name: "7z archive", expected: .unsupportedFormat) { try Fixture.archive(Fixture.validEntries(), format: .sevenZip, compression: .none) },
    HostileCase(name: "cpio archive", expected: .unsupportedFormat) { try Fixture.archive(Fixture.validEntries(), format: .cpio, compression: .gzip) },
    HostileCase(name: "not an archive", expected: .unsupportedFormat) { Array(String(repeating: "just some text\n", count: 100).utf8) },
    HostileCase(name: "empty file", expected: .corrupt) { [] },
    HostileCase(name: "truncated gzip stream", expected: .corrupt) {
        let whole = try Fixture.archive(Fixture.validEntries() + [.file("pack/big.txt", Array(repeating: 7, count: 200_000))])
        return Array(whole.prefix(whole.count / 2))
    },
    HostileCase(name: "gzip inside gzip", expected: .nestedCompression) { storedGzip(try Fixture.archive(Fixture.validEntries())) },
    HostileCase(name: "three compression layers", expected: .nestedCompression) {
        storedGzip(storedGzip(try Fixture.archive(Fixture.validEntries(), compression: .bzip2)))
    },
    HostileCase(name: "too many entries", expected: .tooManyEntries) {
        try pack((0..<10_001).map { ArchiveWriter.Entry.file("pack/extra/\($0).txt", []) }, format: .ustar)
    },
    HostileCase(name: "entry over 64 MiB", expected: .entryTooLarge) { try pack([.file("pack/bomb.txt", Array(repeating: 0, count: (64 << 20) + 1))]) },
    // Property lists.
    HostileCase(name: "plist nested 65 deep", expected: .plistTooDeep) { try pack([.file("pack/deep.plist", nested(65))]) },
    HostileCase(name: "plist nested 100,000 deep", expected: .plistTooDeep) { try pack([.file("pack/deeper.plist", nested(100_000))]) },
    HostileCase(name: "cyclic binary plist", expected: .plistCyclic) { try pack([.file("pack/cycle.plist", cyclicBinaryPlist)]) },
    HostileCase(name: "malformed XML", expected: .plistMalformed) { try pack([.file("pack/broken.plist", Array("<plist><array><string>cat</array>".utf8))]) },
    // The manifest.
    HostileCase(name: "no manifest", expected: .missingManifest) { try Fixture.archive([.file("pack/words.plist", Fixture.wordList(Fixture.animals))]) },
    HostileCase(name: "manifest is an array", expected: .manifestNotDictionary) { try replacing("Info.plist", with: Fixture.xml("<array/>")) },
    HostileCase(name: "manifest missing DisplayName", expected: .manifestMissingKey) {
        try replacing("Info.plist", with: Fixture.xml("<dict><key>FormatVersion</key><integer>1</integer><key>ProductIdentifier</key><string>com.example.x</string><key>ContentVersion</key><string>1</string></dict>"))
    },
    HostileCase(name: "FormatVersion is a string", expected: .manifestWrongType) { try replacing("Info.plist", with: Fixture.manifest(formatVersion: "<string>1</string>")) },
    HostileCase(name: "FormatVersion newer than supported", expected: .formatVersionTooNew) { try replacing("Info.plist", with: Fixture.manifest(formatVersion: "<integer>2</integer>")) },
    HostileCase(name: "ContentVersion not dotted integers", expected: .badContentVersion) { try replacing("Info.plist", with: Fixture.manifest(version: "1.0-beta")) },
    HostileCase(name: "ProductIdentifier not reverse DNS", expected: .badProductIdentifier) { try replacing("Info.plist", with: Fixture.manifest(id: "ios words")) },
    HostileCase(name: "WordCount that does not match", expected: .wordCountMismatch) {
        try replacing("Info.plist", with: Fixture.manifest(extra: "<key>WordCount</key><integer>7</integer>"))
    },
    HostileCase(name: "Files hash that does not match", expected: .fileHashMismatch) {
        let digest = String(repeating: "ab", count: 32)
        let size = Fixture.wordList(Fixture.animals).count
        return try replacing("Info.plist", with: Fixture.manifest(extra: "<key>Files</key><dict><key>words.plist</key><dict><key>SHA256</key><string>\(digest)</string><key>Size</key><integer>\(size)</integer></dict></dict>"))
    },
    // The words.
    HostileCase(name: "no word list", expected: .noWordList) { try Fixture.archive([.file("pack/Info.plist", Fixture.manifest())]) },
    HostileCase(name: "empty word list", expected: .emptyWordList) { try replacing("words.plist", with: Fixture.xml("<array/>")) },
    HostileCase(name: "word list root is a string", expected: .wordListRoot) { try replacing("words.plist", with: Fixture.xml("<string>cat</string>")) },
    HostileCase(name: "word that is a number", expected: .wordNotString) { try replacing("words.plist", with: Fixture.xml("<array><string>cat</string><integer>7</integer></array>")) },
    HostileCase(name: "word with digits", expected: .invalidWord) { try replacing("words.plist", with: Fixture.wordList(["cat", "r2d2"])) },
    HostileCase(name: "word of one letter", expected: .invalidWord) { try replacing("words.plist", with: Fixture.wordList(["cat", "a"])) },
    HostileCase(name: "word of 41 letters", expected: .invalidWord) { try replacing("words.plist", with: Fixture.wordList(["cat", String(repeating: "a", count: 41)])) },
    HostileCase(name: "double space in a word", expected: .invalidWord) { try replacing("words.plist", with: Fixture.wordList(["ice  cream"])) },
    HostileCase(name: "word not in NFC", expected: .wordNotNFC) { try replacing("words.plist", with: Fixture.wordList(["cafe\u{301}"])) },
    HostileCase(name: "duplicate words by case", expected: .duplicateWord) { try replacing("words.plist", with: Fixture.wordList(["Zebra", "zebra"])) },
]

@Suite struct HostileArchiveTests {
    @Test(arguments: hostileCases)
    func refusedWithItsReason(_ hostile: HostileCase) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("hostile.wordpack", try hostile.make())
        let before = directory.listing()

        let result = PackVerifier().verify(fileAt: file)

        #expect(!result.isValid)
        #expect(result.problems.contains { $0.kind == hostile.expected }, "problems: \(result.problems)")
        // Verification happens in memory: nothing appears beside the archive, nor at the absolute path.
        #expect(directory.listing() == before)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/hangman-evil.plist"))
    }

    @Test func everyProblemIsReportedNotOnlyTheFirst() throws {
        let bytes = try Fixture.archive([
            .file("pack/Info.plist", Fixture.manifest(version: "one")),
            .file("pack/words.plist", Fixture.wordList(["cat", "c4t", "dog", "Dog"])),
            ArchiveWriter.Entry("pack/link", .symbolicLink(target: "/etc")),
        ])
        let kinds = Set(PackVerifier().verify(bytes).problems.map(\.kind))
        #expect(kinds == [.badContentVersion, .invalidWord, .duplicateWord, .symbolicLink])
    }

    @Test func manyBadWordsAreCountedAfterTheFirstTwenty() throws {
        let words = (0..<500).map { "w\($0)" }
        let bytes = try Fixture.archive([.file("pack/Info.plist", Fixture.manifest()), .file("pack/words.plist", Fixture.wordList(words))])
        let problems = PackVerifier().verify(bytes).problems
        #expect(problems.count == 21)
        #expect(problems.last?.message == "and 480 more problems with words in this list")
    }

    @Test func bombStopsAtTheEntryLimit() throws {
        // 96 MiB of zeros compress to about 96 KiB; reading must stop at 64 MiB.
        let writer = ArchiveWriter(format: .pax, compression: .gzip)
        let bomb = try writer.write(Fixture.validEntries() + [.file("pack/bomb.txt", Array(repeating: 0, count: 96 << 20))])
        #expect(bomb.count < 2 << 20)
        let result = PackVerifier().verify(bomb)
        #expect(result.problems.map(\.kind) == [.entryTooLarge])
    }

    @Test func totalSizeLimitHoldsAcrossEntries() throws {
        let limits = ArchiveLimits(maxEntries: 100, maxEntrySize: 1000, maxTotalSize: 2500)
        let bytes = try pack((0..<4).map { .file("pack/blob\($0).txt", Array(repeating: 1, count: 900)) })
        let result = PackVerifier(archiveLimits: limits).verify(bytes)
        #expect(result.problems.map(\.kind) == [.totalTooLarge])
    }

    @Test func fileMissingIsItsOwnKind() {
        let result = PackVerifier().verify(fileAt: "/nonexistent/hangman/pack.wordpack")
        #expect(result.problems.map(\.kind) == [.missingFile])
    }
}
