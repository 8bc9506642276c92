import HangmanGame
import Testing
import WordPacks

/// A pack's duplicate words are the words a game in the pack's language cannot tell apart.
@Suite struct LanguageDuplicatesTests {
    /// An archive of a pack in `language` (no `Language` key when `nil`) holding `words`.
    static func archive(language: String?, _ words: [String]) throws -> [UInt8] {
        let languageEntry = language.map { "<key>Language</key><string>\($0)</string>" } ?? ""
        let manifest = Fixture.xml("""
            <dict>
            <key>FormatVersion</key><integer>1</integer>
            <key>ProductIdentifier</key><string>\(Fixture.productID)</string>
            <key>ContentVersion</key><string>1.0</string>
            <key>DisplayName</key><string>Test Words</string>
            \(languageEntry)
            </dict>
            """)
        return try Fixture.archive([.file("p/Info.plist", manifest), .file("p/words.plist", Fixture.wordList(words))])
    }

    static func duplicateProblems(language: String?, _ words: [String]) throws -> [PackProblem] {
        PackVerifier().verify(try archive(language: language, words)).problems.filter { $0.kind == .duplicateWord }
    }

    @Test(arguments: [("en", "cafe", "caf\u{E9}"), ("en", "resume", "r\u{E9}sum\u{E9}"), (nil, "cafe", "caf\u{E9}"), ("es", "cafe", "caf\u{E9}")])
    func accentsMakeDuplicates(_ language: String?, _ first: String, _ second: String) throws {
        let result = PackVerifier().verify(try Self.archive(language: language, [first, "tea", second]))
        #expect(!result.isValid)
        #expect(result.problems.map(\.kind) == [.duplicateWord])
        #expect(result.problems.first?.entry == "p/words.plist")
        #expect(result.problems.first?.message.contains("'\(second)'") == true)
        #expect(result.problems.first?.message.contains("a game in \(language ?? "en")") == true)
    }

    @Test(arguments: [("es", "nino", "ni\u{F1}o"), ("es-MX", "ano", "a\u{F1}o"), ("de", "schon", "sch\u{F6}n"), ("ru", "\u{435}\u{436}", "\u{451}\u{436}")])
    func lettersOfTheirOwnAreNoDuplicates(_ language: String, _ first: String, _ second: String) throws {
        let result = PackVerifier().verify(try Self.archive(language: language, [first, "tea", second]))
        #expect(result.isValid, "\(result.problems)")
    }

    /// Each pair is in one pack: the verifier calls it a duplicate exactly when two games, one of
    /// each word, show the same board and answer every letter of either word the same way.
    @Test(arguments: [
        ("en", "cafe", "caf\u{E9}"), ("en", "Resume", "r\u{E9}sum\u{E9}"), ("en", "nino", "ni\u{F1}o"), ("en", "naive", "na\u{EF}ve"),
        ("en", "ice cream", "ice-cream"), ("en", "ice cream", "icecream"), ("en", "rock 'n' roll", "rock \u{2019}n\u{2019} roll"),
        ("en", "strasse", "stra\u{DF}e"), ("en", "cat", "cut"), ("en", "Zebra", "zebra"),
        ("es", "nino", "ni\u{F1}o"), ("es", "cafe", "caf\u{E9}"), ("es", "cancion", "canci\u{F3}n"), ("es", "NI\u{D1}O", "ni\u{F1}o"),
        ("de", "schon", "sch\u{F6}n"), ("de", "uber", "\u{DC}ber"), ("de", "cafe", "Caf\u{E9}"), ("fr", "garcon", "gar\u{E7}on"),
        ("ru", "\u{435}\u{436}", "\u{451}\u{436}"), ("ru", "\u{41C}\u{438}\u{440}", "\u{43C}\u{438}\u{440}"), ("tr", "isik", "\u{131}\u{15F}\u{131}k"),
    ])
    func verifierAgreesWithTheGame(_ language: String, _ first: String, _ second: String) throws {
        let verifierSaysDuplicate = try !Self.duplicateProblems(language: language, [first, second]).isEmpty
        #expect(verifierSaysDuplicate == Self.gameTreatsAlike(first, second, language: language))
    }

    /// Plays both words side by side, guessing every letter of either: alike when the boards hide the
    /// same places at every step and every guess has the same outcome.
    static func gameTreatsAlike(_ first: String, _ second: String, language: String) -> Bool {
        var one = Game(word: first, language: language, lives: 100)
        var other = Game(word: second, language: language, lives: 100)
        func hiddenPlaces(_ game: Game) -> [Bool] { game.masked.split(separator: " ", omittingEmptySubsequences: false).map { $0 == "_" } }
        guard one.masked == other.masked else { return false }
        for letter in first + second where letter.isLetter {
            guard one.guess(String(letter)) == other.guess(String(letter)), hiddenPlaces(one) == hiddenPlaces(other) else { return false }
        }
        return one.status == other.status
    }
}
