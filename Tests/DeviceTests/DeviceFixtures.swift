import Foundation
import TestSupport
import Signing
import SQLite
import WordPacks

/// A folder for one test (pack sources, packs folders, a state directory), removed at the end.
final class DeviceScratch {
    private let directory: TemporaryDirectory
    var path: String { directory.path }

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// The state directory (`--home`).
    var home: String { path + "/home" }

    /// The device database the commands write.
    var deviceDatabase: String { home + "/device/device.sqlite" }

    /// Writes a packs folder: `Catalog.plist` offering `base` free and `paid` as non-consumables
    /// (plus one consumable, so that the catalog looks like a real one), and their archives, each
    /// with the SHA-256 and size that publishing records.
    func packsFolder(_ name: String, base: [FixturePack], paid: [FixturePack]) throws -> String {
        let folder = path + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var recorded: [String: String] = [:]
        for pack in base + paid {
            let bytes = try pack.archive()
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + pack.fileName))
            recorded[pack.fileName] = "<key>SHA256</key><string>\(SHA256.hash(bytes).hex)</string><key>Size</key><integer>\(bytes.count)</integer>"
        }
        let products = paid.map { pack in
            """
            <dict><key>ProductIdentifier</key><string>\(pack.id)</string><key>Type</key><string>NonConsumable</string>
            <key>DisplayName</key><string>\(pack.name)</string><key>Description</key><string>Words.</string>
            <key>Price</key><string>1.99</string><key>Pack</key><string>\(pack.fileName)</string>\(recorded[pack.fileName] ?? "")</dict>
            """
        }
        let hints = """
            <dict><key>ProductIdentifier</key><string>com.example.hints.10</string><key>Type</key><string>Consumable</string>
            <key>DisplayName</key><string>10 Hints</string><key>Description</key><string>Ten hints.</string>
            <key>Price</key><string>0.99</string><key>HintCount</key><integer>10</integer></dict>
            """
        let catalog = FixturePack.plist("""
            <dict><key>BundleIdentifier</key><string>com.example.hangman</string><key>CatalogVersion</key><integer>1</integer>
            <key>BasePacks</key><array>\(base.map { "<dict><key>Pack</key><string>\($0.fileName)</string>\(recorded[$0.fileName] ?? "")</dict>" }.joined())</array>
            <key>Products</key><array>\(products.joined())\(hints)</array></dict>
            """)
        try Data(catalog.utf8).write(to: URL(fileURLWithPath: folder + "/Catalog.plist"))
        return folder
    }
}

/// A word pack written for a test: what its archive holds is what the device must end up with.
struct FixturePack {
    var id: String
    var version: String
    var name: String
    /// The categories in archive order: (name, words).
    var lists: [(name: String, words: [String])]

    var productID: ProductID { ProductID(rawValue: id)! }
    var fileName: String { id.split(separator: ".").last.map(String.init)! + ".wordpack" }
    var wordCount: Int { lists.reduce(0) { $0 + $1.words.count } }

    static func plist(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\(body)</plist>\n"
    }

    /// The `.wordpack` bytes, built the way `hangman pack build` builds them (with WordCount and Files).
    func archive() throws -> [UInt8] {
        var files = [PackSource.File(path: "Info.plist", bytes: Array(Self.plist("""
            <dict><key>FormatVersion</key><integer>1</integer><key>ProductIdentifier</key><string>\(id)</string>
            <key>ContentVersion</key><string>\(version)</string><key>DisplayName</key><string>\(name)</string></dict>
            """).utf8))]
        for (index, list) in lists.enumerated() {
            // Files are read in path order: number them so that the categories keep the order given here.
            files.append(PackSource.File(path: "words/\(index)-list.plist", bytes: Array(Self.plist(
                "<dict><key>name</key><string>\(list.name)</string><key>words</key><array>"
                    + list.words.map { "<string>\($0)</string>" }.joined() + "</array></dict>").utf8)))
        }
        return try PackBuilder().build(PackSource(files: files)).bytes
    }
}

/// Distinct made-up words ("babcad"-like: three consonant-vowel syllables), enough for large packs.
enum SyllableWords {
    private static let syllables: [String] = "bcdfghjklmnprstvwxz".flatMap { consonant in "aeiou".map { "\(consonant)\($0)" } }

    /// `count` words starting at the `offset`-th combination (95^3 = 857,375 in all).
    static func make(_ count: Int, offset: Int = 0) -> [String] {
        let n = syllables.count
        return (offset..<(offset + count)).map { index in
            syllables[index / (n * n) % n] + syllables[index / n % n] + syllables[index % n]
        }
    }
}

/// What `device.sqlite` holds, read with the SQLite module after the commands ran.
struct DeviceSnapshot {
    struct Category: Equatable {
        var name: String
        /// The category's `word_count`, and the rows actually in its id range.
        var wordCount: Int
        var rows: Int
        /// The words in its id range, in id order, separated by spaces.
        var words: String
    }

    struct Pack {
        var version: String
        var wordCount: Int
        var categories: [Category]
    }

    /// `PRAGMA integrity_check` problems: empty when sound.
    var integrityProblems: [String]
    var packs: [String: Pack]
    /// Rows of `words`, all packs together.
    var totalWords: Int
    /// Words outside every category's id range: left behind by a pack that is no longer there.
    var strayWords: Int
    /// Categories whose pack row is gone.
    var orphanCategories: Int

    static func read(_ path: String) throws -> DeviceSnapshot {
        let db = try Database(path: path)
        var packs: [String: Pack] = [:]
        for row in try db.query("SELECT product_id, content_version, word_count FROM packs") {
            var categories: [Category] = []
            for category in try db.query("SELECT name, first_word, word_count FROM categories WHERE pack = ? ORDER BY first_word", .text(try row.string(0))) {
                let first = try category.int64(1)
                let count = try category.int64(2)
                let last = first + count - 1
                let range = try db.query(
                    "SELECT count(*), group_concat(word, ' ') FROM (SELECT word FROM words WHERE id BETWEEN ? AND ? ORDER BY id)", .integer(first), .integer(last))
                categories.append(Category(
                    name: try category.string(0), wordCount: Int(count), rows: try range.first?.int(0) ?? -1, words: try range.first?[1].stringValue ?? ""))
            }
            packs[try row.string(0)] = Pack(version: try row.string(1), wordCount: try row.int(2), categories: categories)
        }
        return DeviceSnapshot(
            integrityProblems: try db.integrityCheck(),
            packs: packs,
            totalWords: Int(try db.int64("SELECT count(*) FROM words") ?? -1),
            strayWords: Int(try db.int64("""
                SELECT count(*) FROM words w WHERE NOT EXISTS
                    (SELECT 1 FROM categories c WHERE w.id BETWEEN c.first_word AND c.first_word + c.word_count - 1)
                """) ?? -1),
            orphanCategories: Int(try db.int64("SELECT count(*) FROM categories WHERE pack NOT IN (SELECT product_id FROM packs)") ?? -1))
    }

    /// Whether `pack` is installed completely: its version, its word count, every category with exactly its words.
    func holds(_ pack: FixturePack) -> Bool {
        guard let installed = packs[pack.id] else { return false }
        return installed.version == pack.version && installed.wordCount == pack.wordCount
            && installed.categories == pack.lists.map { Category(name: $0.name, wordCount: $0.words.count, rows: $0.words.count, words: $0.words.joined(separator: " ")) }
    }

    /// Every word belongs to exactly the packs listed, nothing more, nothing less.
    var isConsistent: Bool {
        integrityProblems.isEmpty && strayWords == 0 && orphanCategories == 0
            && totalWords == packs.values.reduce(0) { $0 + $1.wordCount }
            && packs.values.allSatisfy { $0.categories.reduce(0) { $0 + $1.wordCount } == $0.wordCount && $0.categories.allSatisfy { $0.rows == $0.wordCount } }
    }
}

extension HangmanBinary {
    /// Runs `hangman arguments` to its end with `HANGMAN_HOME` and `HANGMAN_PACKS` set; with
    /// `killAfter`, sends SIGKILL if it still runs by then.
    static func run(_ arguments: [String], home: String, packs: String, killAfter: Double? = nil) throws -> ProcessResult {
        try run(arguments, environment: ["HANGMAN_HOME": home, "HANGMAN_PACKS": packs], killAfter: killAfter)
    }
}
