import LetterFolding
import Testing

@Suite struct LetterFoldingTests {
    @Test(arguments: [
        ("en", "\u{E9}", "e"), ("en", "\u{C9}", "e"), ("en", "\u{F1}", "n"), ("fr", "\u{E7}", "c"), ("pt", "\u{E3}", "a"),
        ("es", "\u{F3}", "o"), ("es", "\u{F1}", "\u{F1}"), ("es", "\u{D1}", "\u{F1}"), ("de", "\u{F6}", "\u{F6}"),
        ("de", "\u{DF}", "\u{DF}"), ("de", "\u{E9}", "e"), ("ru", "\u{41C}", "\u{43C}"), ("tr", "\u{131}", "\u{131}"),
        ("en", "e\u{301}", "e"), ("es-MX", "\u{F1}", "\u{F1}"), ("EN-gb", "\u{E9}", "e"),
    ])
    func keyOfALetter(_ language: String, _ letter: Character, _ key: String) {
        #expect(LetterFolding(language: language).key(letter) == key)
    }

    /// ASCII takes a path of its own: every ASCII character gets the key the Unicode rule gives it.
    @Test(arguments: ["en", "es", "de", "tr", "ru"])
    func asciiKeysFollowTheUnicodeRule(_ language: String) {
        let folding = LetterFolding(language: language)
        for value in UInt8(0)...UInt8(127) {
            let character = Character(Unicode.Scalar(value))
            let expected = character.isLetter ? String(character).lowercased() : nil
            #expect(folding.key(character) == expected, "\(value)")
        }
        #expect(folding.key("\r\n") == nil)
    }

    @Test(arguments: [" ", "-", "'", "\u{2019}", "7", "."] as [Character])
    func separatorsAndDigitsHaveNoKey(_ character: Character) {
        #expect(LetterFolding(language: "en").key(character) == nil)
    }

    @Test(arguments: [
        ("en", "cafe", "caf\u{E9}"), ("en", "resume", "r\u{E9}sum\u{E9}"), ("en", "CAF\u{C9}", "cafe"), ("en", "nino", "ni\u{F1}o"),
        ("es", "cafe", "caf\u{E9}"), ("es", "Ni\u{F1}o", "ni\u{F1}o"), ("de", "\u{DC}ber", "\u{FC}ber"), ("de", "Caf\u{E9}", "cafe"), ("fr", "garcon", "gar\u{E7}on"),
        ("de", "sch\u{F6}n", "scho\u{308}n"), ("ru", "\u{41C}\u{438}\u{440}", "\u{43C}\u{438}\u{440}"),
    ])
    func sameWord(_ language: String, _ one: String, _ other: String) {
        let folding = LetterFolding(language: language)
        #expect(folding.foldedWord(one) == folding.foldedWord(other))
    }

    @Test(arguments: [
        ("es", "nino", "ni\u{F1}o"), ("de", "uber", "\u{FC}ber"), ("de", "schon", "sch\u{F6}n"), ("de", "strasse", "stra\u{DF}e"), ("ru", "\u{435}", "\u{451}"),
        ("en", "ice cream", "ice-cream"), ("en", "ice cream", "icecream"), ("en", "rock 'n' roll", "rock \u{2019}n\u{2019} roll"),
        ("tr", "isik", "\u{131}\u{15F}\u{131}k"), ("xx", "cafe", "caf\u{E9}"),
    ])
    func differentWords(_ language: String, _ one: String, _ other: String) {
        let folding = LetterFolding(language: language)
        #expect(folding.foldedWord(one) != folding.foldedWord(other))
    }

    @Test func foldedWordKeepsSeparatorsAndFoldsLetters() {
        #expect(LetterFolding(language: "en").foldedWord("Jack-o'-Lantern") == "jack-o'-lantern")
        #expect(LetterFolding(language: "en").foldedWord("Cr\u{E8}me Br\u{FB}l\u{E9}e") == "creme brulee")
        #expect(LetterFolding(language: "es").foldedWord("Ma\u{F1}ana") == "ma\u{F1}ana")
    }

    /// Equal keys must be equal bytes: the duplicate search hashes them.
    @Test func foldedWordIsNFC() {
        let folded = LetterFolding(language: "de").foldedWord("SCHO\u{308}N")
        #expect(Array(folded.utf8) == Array("sch\u{F6}n".utf8))
    }
}
