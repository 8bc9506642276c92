import Device
import Foundation
import HangmanGame
import SQLite
import Testing
import TestSupport
import WordPacks

/// Words are stored 64 to a row: every word and clue must come back, whatever its place in a row,
/// and a device written before rows of words must keep playing, updating and uninstalling.
@Suite struct WordChunkTests {
    /// Always draws the same offset `index` of `count` from `Int.random(in: 0..<count, using:)`.
    struct Draw: RandomNumberGenerator {
        let value: UInt64
        init(_ index: Int, of count: Int) {
            value = UInt64(2 * index + 1) &* (UInt64.max / UInt64(2 * count))
        }
        mutating func next() -> UInt64 { value }
    }

    static func pack(id: String = "com.example.words.chunks", version: String = "1.0", lists: [(String, [PackWord])]) throws -> WordPack {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        var files = [PackSource.File(path: "Info.plist", bytes: Array("""
            <plist><dict><key>FormatVersion</key><integer>1</integer><key>ProductIdentifier</key><string>\(id)</string>
            <key>ContentVersion</key><string>\(version)</string><key>DisplayName</key><string>Chunks</string></dict></plist>
            """.utf8))]
        for (name, words) in lists {
            let items = words.map { word in
                word.clue.map { "<dict><key>word</key><string>\(word.text)</string><key>clue</key><string>\(escape($0))</string></dict>" }
                    ?? "<string>\(word.text)</string>"
            }
            files.append(PackSource.File(path: "\(name).plist", bytes: Array(
                "<plist><dict><key>name</key><string>\(name)</string><key>words</key><array>\(items.joined())</array></dict></plist>".utf8)))
        }
        // Clues with line breaks and tabs: no author may publish them, but the device stores
        // whatever a store serves, byte for byte.
        var builder = PackBuilder()
        builder.allowsUnsafeText = true
        return try builder.build(PackSource(files: files)).pack
    }

    /// Distinct words from an index: "ba", "be", ..., two letters per base-5 digit.
    static func word(_ index: Int) -> String {
        var text = ""
        var rest = index
        repeat {
            text += ["ba", "be", "bi", "bo", "bu"][rest % 5]
            rest /= 5
        } while rest > 0
        return text + "x"
    }

    @Test(arguments: [1, 63, 64, 65, 128, 130])
    func everyWordAndClueComesBackFromItsPlaceInARow(_ count: Int) throws {
        let clues = ["say \"hi\"", "back\\slash", "two\nlines", "tab\there", "caf\u{E9} \u{1F600}", ""]
        let words = (0..<count).map { index in PackWord(Self.word(index), clue: index % 5 == 0 ? clues[(index / 5) % clues.count] : nil) }
        let folder = try TemporaryDirectory()
        let device = try DeviceDatabase(folder: folder.path)
        _ = try device.install(try Self.pack(lists: [("Long", words), ("Short", [PackWord("cat"), PackWord("dog", clue: "barks")])]), archiveSHA256: String(repeating: "a", count: 64), isBase: false, now: 1)
        let installed = try device.installedPacks()
        #expect(installed.first?.categories.map(\.wordCount) == [count, 2])
        for (index, expected) in (words + [PackWord("cat"), PackWord("dog", clue: "barks")]).enumerated() {
            var draw = Draw(index, of: count + 2)
            let found = try #require(try device.randomWord(from: installed, using: &draw))
            #expect(found.word == expected.text, "word \(index)")
            #expect(found.clue == expected.clue, "clue of word \(index)")
        }
        let database = try Database(path: folder.path + "/device.sqlite")
        let rows = try database.query("SELECT word, clue FROM words ORDER BY id").map { PackWord(try $0.string(0), clue: try $0[1].stringValue) }
        #expect(rows == words + [PackWord("cat"), PackWord("dog", clue: "barks")], "the words view shows every word once, in order")
        #expect(try database.int64("SELECT count(*) FROM word_chunks") == Int64((count + 63) / 64 + 1))
    }

    /// A device whose packs were installed a row per word, as before rows of 64: it plays them,
    /// installs new packs beside them in rows of 64, and updates and removes them.
    @Test func aDeviceFromBeforeChunksKeepsWorking() async throws {
        let folder = try TemporaryDirectory()
        do {
            let database = try Database(path: folder.path + "/device.sqlite")
            try database.execute(sql: Self.schemaBeforeChunks)
        }
        let device = try DeviceDatabase(folder: folder.path)
        var installed = try device.installedPacks()
        #expect(installed.first?.categories.first?.firstChunk == nil)
        var seen: Set<String> = []
        for index in 0..<3 {
            var draw = Draw(index, of: 3)
            let word = try #require(try device.randomWord(from: installed, using: &draw))
            seen.insert(word.word + "/" + (word.clue ?? "-"))
        }
        #expect(seen == ["owl/hoots", "bat/-", "elk/-"])

        _ = try device.install(try Self.pack(id: "com.example.words.new", lists: [("New", [PackWord("newt"), PackWord("gnu")])]), archiveSHA256: String(repeating: "b", count: 64), isBase: false, now: 2)
        installed = try device.installedPacks()
        let new = try #require(installed.first { $0.productID.rawValue == "com.example.words.new" })
        #expect(new.categories.first?.firstWord == 4, "numbered after the rows already there")
        var draw = Draw(1, of: 2)
        #expect(try device.randomWord(from: [new], using: &draw)?.word == "gnu")

        _ = try device.install(try Self.pack(id: "com.example.words.old", version: "2.0", lists: [("Birds", [PackWord("crow"), PackWord("wren")])]), archiveSHA256: String(repeating: "c", count: 64), isBase: false, now: 3)
        let database = try Database(path: folder.path + "/device.sqlite")
        #expect(try database.int64("SELECT count(*) FROM word_rows") == 0, "the update removed the old rows")
        #expect(try database.query("SELECT word FROM words ORDER BY id").map { try $0.string(0) } == ["newt", "gnu", "crow", "wren"])
        #expect(try device.uninstall(try #require(ProductID(rawValue: "com.example.words.old"))))
        #expect(try database.query("SELECT word FROM words ORDER BY id").map { try $0.string(0) } == ["newt", "gnu"])
        #expect(try device.integrityProblems().isEmpty)
    }

    /// The first three migrations as they shipped, and one pack installed a row per word.
    static let schemaBeforeChunks = """
        CREATE TABLE schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
        INSERT INTO schema_migrations (name) VALUES ('1-device'), ('2-games'), ('3-deliveries');
        CREATE TABLE packs (
            product_id TEXT PRIMARY KEY, content_version TEXT NOT NULL, display_name TEXT NOT NULL, language TEXT NOT NULL,
            archive_sha256 TEXT NOT NULL CHECK (length(archive_sha256) = 64), installed_date INTEGER NOT NULL,
            is_base INTEGER NOT NULL CHECK (is_base IN (0, 1)), word_count INTEGER NOT NULL CHECK (word_count >= 0));
        CREATE TABLE categories (
            id INTEGER PRIMARY KEY, pack TEXT NOT NULL REFERENCES packs(product_id) ON DELETE CASCADE, name TEXT NOT NULL,
            first_word INTEGER NOT NULL, word_count INTEGER NOT NULL CHECK (word_count > 0));
        CREATE INDEX categories_by_pack ON categories(pack);
        CREATE TABLE words (id INTEGER PRIMARY KEY, word TEXT NOT NULL, clue TEXT, folded TEXT);
        CREATE TABLE current_game (
            id INTEGER PRIMARY KEY CHECK (id = 1), game_id TEXT NOT NULL, word TEXT NOT NULL, clue TEXT, pack TEXT NOT NULL,
            pack_name TEXT NOT NULL, category TEXT NOT NULL, language TEXT NOT NULL, lives INTEGER NOT NULL CHECK (lives > 0),
            started_date INTEGER NOT NULL);
        CREATE TABLE current_moves (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('guess', 'hint')), value TEXT NOT NULL);
        CREATE TABLE games (
            id TEXT PRIMARY KEY, pack TEXT NOT NULL, category TEXT NOT NULL, word TEXT NOT NULL,
            result TEXT NOT NULL CHECK (result IN ('won', 'lost', 'abandoned')), misses INTEGER NOT NULL, hints INTEGER NOT NULL,
            score INTEGER NOT NULL, finished_date INTEGER NOT NULL);
        CREATE TABLE deliveries (
            transaction_id TEXT PRIMARY KEY, product_id TEXT NOT NULL, how TEXT NOT NULL CHECK (how IN ('installed', 'owned-before')),
            recorded_date INTEGER NOT NULL);
        CREATE TABLE device_facts (name TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO packs VALUES ('com.example.words.old', '1.0', 'Old', 'en', '\(String(repeating: "d", count: 64))', 0, 0, 3);
        INSERT INTO categories (pack, name, first_word, word_count) VALUES ('com.example.words.old', 'Animals', 1, 3);
        INSERT INTO words (id, word, clue, folded) VALUES (1, 'owl', 'hoots', NULL), (2, 'bat', NULL, NULL), (3, 'elk', NULL, 'elk');
        """
}
