import Device
import TestSupport
import Foundation
import HangmanGame
import SQLite
import Testing
import WordPacks

private func xml(_ body: String) -> [UInt8] {
    Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\(body)</plist>\n".utf8)
}

private func pack(id: String = "com.example.words.test", version: String = "1.0", lists: [String: [String]]) throws -> WordPack {
    var files = [PackSource.File(path: "Info.plist", bytes: xml("""
        <dict><key>FormatVersion</key><integer>1</integer><key>ProductIdentifier</key><string>\(id)</string>
        <key>ContentVersion</key><string>\(version)</string><key>DisplayName</key><string>Test</string></dict>
        """))]
    for (name, words) in lists.sorted(by: { $0.key < $1.key }) {
        files.append(PackSource.File(path: "\(name).plist", bytes: xml("<dict><key>name</key><string>\(name)</string><key>words</key><array>"
            + words.map { "<string>\($0)</string>" }.joined() + "</array></dict>")))
    }
    return try PackBuilder().build(PackSource(files: files)).pack
}

private let digest = String(repeating: "a", count: 64)

typealias DeviceFolder = TemporaryDirectory

@Suite struct DeviceStoreTests {
    @Test func installThenEveryWordCanBePicked() async throws {
        let folder = try DeviceFolder()
        let device = try DeviceDatabase(folder: folder.path)
        let outcome = try device.install(try pack(lists: ["Animals": ["cat", "dog", "emu"], "Colours": ["red", "blue"]]), archiveSHA256: digest, isBase: false, now: 7)
        #expect(outcome == .installed(try #require(ContentVersion("1.0"))))
        let installed = try device.installedPacks()
        #expect(installed.map(\.wordCount) == [5])
        #expect(installed.first?.categories.map(\.name) == ["Animals", "Colours"])
        var generator = SeededGenerator(seed: 1)
        var seen: Set<String> = []
        for _ in 0..<200 {
            seen.insert(try #require(try device.randomWord(from: installed, using: &generator)).word)
        }
        #expect(seen == ["cat", "dog", "emu", "red", "blue"])
    }

    @Test func categoryNarrowsThePick() async throws {
        let folder = try DeviceFolder()
        let device = try DeviceDatabase(folder: folder.path)
        _ = try device.install(try pack(lists: ["Animals": ["cat", "dog"], "Colours": ["red", "blue"]]), archiveSHA256: digest, isBase: false, now: 7)
        var generator = SeededGenerator(seed: 9)
        let installed = try device.installedPacks()
        for _ in 0..<50 {
            let word = try #require(try device.randomWord(from: installed, category: "colours", using: &generator))
            #expect(["red", "blue"].contains(word.word))
            #expect(word.category == "Colours")
        }
        #expect(try device.randomWord(from: installed, category: "Nope", using: &generator) == nil)
    }

    @Test func sameVersionIsANoOpAndOlderIsRefused() async throws {
        let folder = try DeviceFolder()
        let device = try DeviceDatabase(folder: folder.path)
        _ = try device.install(try pack(version: "1.2", lists: ["A": ["one", "two"]]), archiveSHA256: digest, isBase: false, now: 1)
        let again = try device.install(try pack(version: "1.2.0", lists: ["A": ["one", "two"]]), archiveSHA256: digest, isBase: false, now: 2)
        #expect(again == .alreadyInstalled(try #require(ContentVersion("1.2"))))
        #expect(throws: DeviceError.self) {
            try device.install(try pack(version: "1.1", lists: ["A": ["one"]]), archiveSHA256: digest, isBase: false, now: 3)
        }
        #expect(try device.installedPacks().first?.contentVersion.text == "1.2")
    }

    @Test func updateReplacesEveryWord() async throws {
        let folder = try DeviceFolder()
        let device = try DeviceDatabase(folder: folder.path)
        _ = try device.install(try pack(version: "1", lists: ["A": ["old", "older"]]), archiveSHA256: digest, isBase: false, now: 1)
        _ = try device.install(try pack(id: "com.example.other", lists: ["B": ["keep", "kept"]]), archiveSHA256: digest, isBase: false, now: 1)
        let outcome = try device.install(try pack(version: "1.10", lists: ["A": ["new", "newer", "newest"]]), archiveSHA256: digest, isBase: false, now: 2)
        #expect(outcome == .updated(from: try #require(ContentVersion("1")), to: try #require(ContentVersion("1.10"))))
        let database = try Database(path: folder.path + "/device.sqlite")
        let words = try database.query("SELECT word FROM words ORDER BY word").map { try $0.string(0) }
        #expect(words == ["kept", "keep", "new", "newer", "newest"].sorted())
    }

    @Test func uninstallRemovesOnlyThatPack() async throws {
        let folder = try DeviceFolder()
        let device = try DeviceDatabase(folder: folder.path)
        _ = try device.install(try pack(lists: ["A": ["alpha", "beta"]]), archiveSHA256: digest, isBase: false, now: 1)
        _ = try device.install(try pack(id: "com.example.other", lists: ["B": ["gamma"]]), archiveSHA256: digest, isBase: false, now: 1)
        #expect(try device.uninstall(try #require(ProductID(rawValue: "com.example.words.test"))))
        #expect(try !device.uninstall(try #require(ProductID(rawValue: "com.example.words.test"))))
        let database = try Database(path: folder.path + "/device.sqlite")
        #expect(try database.query("SELECT word FROM words").map { try $0.string(0) } == ["gamma"])
        #expect(try device.integrityProblems().isEmpty)
    }

    /// The game folds letters by the pack's language itself, so the index keeps only the words as installed.
    @Test func wordsAreStoredAsInstalledWithoutAFoldedCopy() async throws {
        let folder = try DeviceFolder()
        let device = try DeviceDatabase(folder: folder.path)
        _ = try device.install(try pack(lists: ["A": ["Ma\u{F1}ana", "Caf\u{E9}", "Zebra"]]), archiveSHA256: digest, isBase: false, now: 1)
        let database = try Database(path: folder.path + "/device.sqlite")
        #expect(try database.query("SELECT word FROM words ORDER BY id").map { try $0.string(0) } == ["Ma\u{F1}ana", "Caf\u{E9}", "Zebra"])
        #expect(try database.int64("SELECT count(*) FROM words WHERE folded IS NOT NULL") == 0)
    }

    /// What lets a start skip its checks: every base pack installed, the baseline taken, every
    /// owned purchase delivered; anything missing sends it through them.
    @Test func upToDateMeansNothingForAStartToDo() async throws {
        let folder = try DeviceFolder()
        let device = try DeviceDatabase(folder: folder.path)
        let base = try #require(ProductID(rawValue: "com.example.words.test"))
        #expect(try !device.isUpToDate(basePacks: [], transactions: []), "no baseline yet")
        try device.recordDeliveryBaseline([("0000000000000001", base)], now: 1)
        #expect(try device.isUpToDate(basePacks: [], transactions: ["0000000000000001"]))
        #expect(try !device.isUpToDate(basePacks: [base], transactions: []), "the base pack is not installed")
        _ = try device.install(try pack(lists: ["A": ["alpha", "beta"]]), archiveSHA256: digest, isBase: true, now: 1)
        #expect(try device.isUpToDate(basePacks: [base], transactions: ["0000000000000001"]))
        #expect(try !device.isUpToDate(basePacks: [base], transactions: ["0000000000000001", "00000000000000f2"]), "a purchase not delivered")
        try device.recordDelivery(transaction: "00000000000000f2", product: base, now: 2)
        #expect(try device.isUpToDate(basePacks: [base], transactions: ["00000000000000f2", "0000000000000001"]))
        #expect(try device.isUpToDate(basePacks: [base], transactions: ["a\"b"]) == false, "ids are passed as data, whatever they hold")
    }

    @Test func eraseDeletesTheFolder() async throws {
        let folder = try DeviceFolder()
        _ = try DeviceDatabase(folder: folder.path)
        try DeviceDatabase.erase(folder: folder.path)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
