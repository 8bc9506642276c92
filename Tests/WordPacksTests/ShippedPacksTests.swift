import Archive
import Foundation
import HangmanGame
import Testing
import WordPacks

/// The packs in `Packs/`: each archive verifies and holds exactly what a fresh build of its source holds.
@Suite struct ShippedPacksTests {
    static let packsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Packs").path

    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: packsFolder)) ?? []
        return files.filter { $0.hasSuffix(".wordpack") }.map { String($0.dropLast(".wordpack".count)) }.sorted()
    }()

    @Test func everySourceFolderHasItsArchive() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.packsFolder).filter {
            FileManager.default.fileExists(atPath: "\(Self.packsFolder)/\($0)/Info.plist")
        }
        #expect(folders.sorted() == Self.names)
        #expect(Self.names == [
            "base-english", "base-french", "base-german", "base-portuguese", "hard-words", "ios-words", "spanish", "theme-classic", "theme-robot", "theme-zombie",
        ])
    }

    @Test(arguments: names)
    func archiveVerifies(_ name: String) {
        let result = PackVerifier().verify(fileAt: "\(Self.packsFolder)/\(name).wordpack")
        #expect(result.isValid, "\(result.problems)")
        #expect(result.pack?.manifest.license?.isEmpty == false)
        #expect(result.pack?.manifest.attribution?.isEmpty == false)
    }

    @Test(arguments: names)
    func archiveHoldsWhatItsSourceBuildsTo(_ name: String) throws {
        let shipped = try Data(contentsOf: URL(fileURLWithPath: "\(Self.packsFolder)/\(name).wordpack"))
        let fresh = try PackBuilder().build(folder: "\(Self.packsFolder)/\(name)")
        #expect(try entries([UInt8](shipped)) == (try entries(fresh.bytes)), "rebuild with 'make packs'")
    }

    @Test func basePackHasTwoThousandCommonWords() {
        let pack = PackVerifier().verify(fileAt: "\(Self.packsFolder)/base-english.wordpack").pack
        #expect((pack?.wordCount ?? 0) >= 2000)
        #expect(pack?.manifest.productIdentifier.rawValue == "com.hangmanpacks.words.base")
    }

    @Test func spanishPackHasEnyeAndAccents() {
        let pack = PackVerifier().verify(fileAt: "\(Self.packsFolder)/spanish.wordpack").pack
        let words = pack?.lists.flatMap(\.words).map(\.text) ?? []
        #expect(pack?.manifest.language == "es")
        #expect(words.contains { $0.contains("\u{F1}") })
        #expect(words.contains { $0.contains("\u{E1}") || $0.contains("\u{E9}") || $0.contains("\u{F3}") })
    }

    @Test func iOSWordsHaveClues() {
        let pack = PackVerifier().verify(fileAt: "\(Self.packsFolder)/ios-words.wordpack").pack
        let words = pack?.lists.flatMap(\.words) ?? []
        #expect(words.count >= 100)
        #expect(words.allSatisfy { $0.clue != nil })
        #expect(pack?.manifest.displayName == "iOS Words")
    }

    static func pack(_ name: String) -> WordPack? { PackVerifier().verify(fileAt: "\(packsFolder)/\(name).wordpack").pack }

    /// A base pack in every storefront's language beside English, each with its licence and its
    /// daily list: at least 730 words of 5 to 9 letters (two years without a repeat), one of its
    /// lists (played like the others, counted once).
    @Test(arguments: [("base-english", "en"), ("base-german", "de"), ("base-french", "fr"), ("base-portuguese", "pt-BR")])
    func eachBasePackHasItsLanguageAndADailyList(_ name: String, _ language: String) throws {
        let pack = try #require(Self.pack(name))
        #expect(pack.manifest.language == language)
        #expect(pack.wordCount >= 2000, "\(pack.wordCount)")
        let daily = try #require(pack.dailyList, "\(name) has no DailyList")
        #expect(daily.wordCount >= 730, "\(daily.wordCount)")
        #expect(pack.wordCount == pack.lists.reduce(0) { $0 + $1.wordCount } && pack.manifest.wordCount == pack.wordCount)
        #expect(daily.words.allSatisfy { (5...9).contains($0.text.count) })
        #expect(pack.manifest.license?.isEmpty == false && pack.manifest.attribution?.isEmpty == false)
    }

    /// Each language's letters as its players expect them: a French é and ç found by a plain e
    /// and c, a Brazilian ã and ç too; a German ä, ö, ü and ß are letters of their own.
    @Test func eachLanguageFoldsItsOwnWords() throws {
        func words(_ name: String) -> [String] { Self.pack(name)?.lists.flatMap(\.words).map(\.text) ?? [] }
        let french = try #require(words("base-french").first { $0.contains("é") && $0.contains("e") == false })
        var game = Game(word: french, language: "fr")
        _ = game.guess("e")
        #expect(!game.masked.contains("_") || game.masked.contains("é"), "\(french): \(game.masked)")
        #expect(game.masked.contains("é"), "a French é found by e in \(french): \(game.masked)")
        let cedilla = try #require(words("base-french").first { $0.contains("ç") })
        game = Game(word: cedilla, language: "fr")
        _ = game.guess("c")
        #expect(game.masked.contains("ç"), "\(cedilla): \(game.masked)")
        let brazilian = try #require(words("base-portuguese").first { $0.contains("ã") })
        game = Game(word: brazilian, language: "pt-BR")
        _ = game.guess("a")
        #expect(game.masked.contains("ã"), "\(brazilian): \(game.masked)")
        let german = try #require(words("base-german").first { $0.contains("ß") && !$0.contains("s") })
        game = Game(word: german, language: "de")
        _ = game.guess("s")
        #expect(!game.masked.contains("ß") && game.misses == 1, "a German ß is not an s: \(german): \(game.masked)")
        _ = game.guess("ß")
        #expect(game.masked.contains("ß"), "\(german): \(game.masked)")
        let umlaut = try #require(words("base-german").first { $0.contains("ü") && !$0.contains("u") })
        game = Game(word: umlaut, language: "de")
        _ = game.guess("u")
        #expect(!game.masked.contains("ü") && game.misses == 1, "a German ü is not a u: \(umlaut): \(game.masked)")
        // Enough of each language's own letters to matter.
        for (name, letters) in [("base-german", "äöüß"), ("base-french", "éèêëàâîïôùûç"), ("base-portuguese", "ãõçáéíóúâêôà")] {
            let all = words(name)
            let share = Double(all.filter { $0.contains { letters.contains($0) } }.count) / Double(max(1, all.count))
            #expect(share >= 0.1, "\(name): \(share)")
        }
    }

    /// Everyday English has a clue for most words (WordNet's first sense), each one line of at
    /// most 70 characters that does not give its answer away.
    @Test func everydayEnglishCluesDoNotGiveTheAnswer() throws {
        let words = try #require(Self.pack("base-english")).lists.flatMap(\.words)
        let clued = words.filter { $0.clue != nil }
        #expect(clued.count * 2 > words.count, "\(clued.count) of \(words.count)")
        for word in clued + (Self.pack("ios-words")?.lists.flatMap(\.words) ?? []) {
            let clue = (word.clue ?? "").lowercased()
            let tokens = clue.split { !$0.isLetter }.map(String.init)
            #expect(!tokens.contains(word.text.lowercased()), "\(word.text): \(clue)")
            if word.text.count >= 5 {
                #expect(!tokens.contains { $0.hasPrefix(String(word.text.lowercased().prefix(max(4, word.text.count - 2)))) }, "\(word.text): \(clue)")
            }
        }
        #expect(clued.allSatisfy { ($0.clue ?? "").count <= 70 && !($0.clue ?? "").contains("\n") })
    }

    /// The themes: seven drawings and seven short ones each, verified like any pack.
    @Test(arguments: ["theme-classic", "theme-robot", "theme-zombie"])
    func eachThemeHasItsDrawings(_ name: String) throws {
        let pack = try #require(Self.pack(name))
        #expect(pack.manifest.kind == .theme && pack.lists.isEmpty)
        let theme = try #require(pack.theme)
        #expect(theme.frames.count == 7 && theme.smallFrames.count == 7)
        #expect(theme.frames.allSatisfy { $0.count <= 12 && $0.allSatisfy { $0.count <= 20 } })
        #expect(theme.smallFrames.allSatisfy { $0.count <= 4 })
        // Each stage its own drawing.
        #expect(Set(theme.frames).count == 7, "\(name)")
    }

    /// Names and bytes of every file (compressed bytes may differ between zlib versions).
    private func entries(_ bytes: [UInt8]) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let summary = ArchiveReader().read(bytes) { files[$0.name.path] = $0.bytes }
        try #require(summary.problems.isEmpty)
        return files
    }
}
