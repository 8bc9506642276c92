import Foundation
import HangmanGame
import LetterFolding
import Testing
@testable import WordPacks

@Suite struct DuplicateWordsTests {
    /// What "the same word" means, written again from LetterFolding's documented rules with
    /// Foundation's own tables, and not with the production folding: a folding bug makes the
    /// two disagree instead of moving both sides. Case never matters; separators (space, hyphen,
    /// apostrophe) stay as they are ("ice cream" and "ice-cream" are two words); English, Spanish
    /// and German drop accents, except the letters of their own (Spanish ñ; German ä, ö, ü, ß);
    /// other languages compare letters exactly.
    static func referenceFold(_ word: String, language: String) -> String {
        let keeps: Set<Character> = language == "es" ? ["ñ"] : language == "de" ? ["ä", "ö", "ü", "ß"] : []
        let stripsAccents = ["en", "es", "de"].contains(language)
        var folded = ""
        for character in word.precomposedStringWithCanonicalMapping.lowercased() {
            if stripsAccents && !keeps.contains(character) {
                folded += String(character).folding(options: .diacriticInsensitive, locale: nil)
            } else {
                folded.append(character)
            }
        }
        return folded
    }

    @Test(arguments: [0, 1, 2])
    func tinyInputs(_ count: Int) {
        #expect(DuplicateWords.find(in: Array(repeating: "same", count: count), folding: LetterFolding(language: "en")).count == max(0, count - 1))
    }

    /// Against the obvious dictionary search under the same key, on words drawn from a tiny
    /// alphabet so that repeats (by case, accents, normalisation and separators) are frequent.
    @Test(arguments: [("en", UInt64(1)), ("en", 2), ("es", 3), ("de", 4), ("ru", 5)])
    func agreesWithADictionarySearch(_ language: String, _ seed: UInt64) {
        let folding = LetterFolding(language: language)
        var generator = SeededGenerator(seed: seed)
        let pieces = ["a", "B", "e", "\u{E9}", "e\u{301}", "\u{C9}", "\u{F1}", "n", "\u{F6}", "o", "-", " "]
        let words = (0..<3000).map { _ in
            (0..<Int.random(in: 2...4, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "a" }.joined()
        }
        var firstSeen: [String: Int] = [:]
        var expected: [DuplicateWords.Duplicate] = []
        for (index, word) in words.enumerated() {
            let key = Self.referenceFold(word, language: language)
            if let first = firstSeen[key] {
                expected.append(.init(index: index, firstIndex: first))
            } else {
                firstSeen[key] = index
            }
        }
        #expect(!expected.isEmpty)
        #expect(DuplicateWords.find(in: words, folding: folding) == expected)
    }

    /// Enough words for the search to run on two threads (each pass over half of the words, the
    /// partitions searched in two groups): repeats within the first half, within the second, and
    /// across them are found, each against its first occurrence, as the dictionary search finds them.
    @Test func aSearchOnTwoThreadsFindsWhatOneFinds() {
        let folding = LetterFolding(language: "en")
        let count = DuplicateWords.wordsForTwoThreads * 2 + 17
        var words = (0..<count).map { index in "w" + String(index, radix: 26).map { letter in
            Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(String(letter), radix: 26)!))
        } }
        let middle = count / 2
        for (repeatAt, original) in [(10, 3), (middle - 1, 5), (middle + 1, middle), (middle + 7, 11), (count - 1, middle + 3), (count - 2, 0)] {
            words[repeatAt] = words[original].uppercased()
        }
        words[middle + 9] = "Caf\u{E9}s"
        words[3 * count / 4] = "cafes"
        var firstSeen: [String: Int] = [:]
        var expected: [DuplicateWords.Duplicate] = []
        for (index, word) in words.enumerated() {
            let key = Self.referenceFold(word, language: "en")
            if let first = firstSeen[key] {
                expected.append(.init(index: index, firstIndex: first))
            } else {
                firstSeen[key] = index
            }
        }
        #expect(expected.count == 7)
        #expect(DuplicateWords.find(in: words, folding: folding) == expected)
    }

    /// With enough words to be split into partitions (by their first folded bytes), words that
    /// are the same word still meet, also when folding composes a later byte into the first eight;
    /// and a German ä never meets an a.
    @Test(arguments: [
        ("de", "abcdefga\u{308}", "ABCDEFG\u{E4}", true), ("en", "abcdefge\u{301}x", "abcdefg\u{E9}X", true),
        ("en", "Longer words", "longer words", true), ("en", "Longer words", "longer-words", false), ("de", "abcdefga\u{308}", "abcdefga", false),
    ])
    func partitionedWordsStillMeet(_ language: String, _ first: String, _ second: String, _ same: Bool) {
        let folding = LetterFolding(language: language)
        let filler = (0..<20_000).map { "w\($0 * 7919)" }
        let words = filler + [first] + filler.map { $0 + "z" } + [second]
        let found = DuplicateWords.find(in: words, folding: folding)
        #expect(found == (same ? [.init(index: words.count - 1, firstIndex: filler.count)] : []), "\(found)")
    }

    /// ASCII words are hashed without folding them into a new string: that hash must be the folded form's.
    @Test(arguments: ["en", "es", "de", "tr"])
    func asciiAndFoldedHashesMeet(_ language: String) {
        let folding = LetterFolding(language: language)
        for (ascii, other) in [("Nino", "n\u{EC}no"), ("ROCK 'N' ROLL", "rock 'n' ro\u{13A}l"), ("Well-Known", "well-known")] {
            let same = Self.referenceFold(ascii, language: language) == Self.referenceFold(other, language: language)
            #expect((DuplicateWords.foldedHash(ascii, folding: folding) == DuplicateWords.foldedHash(other, folding: folding)) == same)
            #expect(DuplicateWords.find(in: [ascii, other], folding: folding).isEmpty == !same)
        }
    }
}
