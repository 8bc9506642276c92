import HangmanGame
import Testing

@Suite struct GameTests {
    @Test func maskShowsSeparatorsFromTheStart() {
        #expect(Game(word: "rock 'n' roll").masked == "_ _ _ _   ' _ '   _ _ _ _")
        #expect(Game(word: "well-known").masked == "_ _ _ _ - _ _ _ _ _")
    }

    @Test func hitRevealsEveryOccurrence() {
        var game = Game(word: "banana")
        #expect(game.guess("a") == .hit(letter: "a", count: 3))
        #expect(game.masked == "_ a _ a _ a")
        #expect(game.livesLeft == 6)
    }

    @Test func missCostsALifeAndRepeatCostsNothing() {
        var game = Game(word: "cat")
        #expect(game.guess("z") == .miss(letter: "z"))
        #expect(game.guess("Z") == .repeated("z"))
        #expect(game.guess("c") == .hit(letter: "c", count: 1))
        #expect(game.guess("C") == .repeated("c"))
        #expect(game.livesLeft == 5)
        #expect(game.wrongLetters == ["z"])
    }

    @Test func sixMissesLose() {
        var game = Game(word: "cat")
        for letter in ["b", "d", "e", "f", "g"] { game.guess(letter) }
        #expect(game.status == .playing)
        #expect(game.guess("h") == .miss(letter: "h"))
        #expect(game.status == .lost)
        #expect(game.guess("c") == .gameOver)
        #expect(game.masked == "c a t")
        #expect(game.score == 0)
    }

    @Test func livesCanBeChosen() {
        var game = Game(word: "cat", lives: 2)
        game.guess("x")
        game.guess("y")
        #expect(game.status == .lost)
    }

    @Test func guessingEveryLetterWins() {
        var game = Game(word: "ice cream")
        for letter in ["i", "c", "e", "r", "a"] { game.guess(letter) }
        #expect(game.status == .playing)
        game.guess("m")
        #expect(game.status == .won)
        #expect(game.score == 8 * 10 + 6 * 20)
    }

    @Test func wholeWordIgnoresCaseAndSeparators() {
        var game = Game(word: "ice cream")
        #expect(game.guess("ICECREAM") == .solved)
        #expect(game.status == .won)
    }

    @Test func wrongWordCostsALifeOnce() {
        var game = Game(word: "apple")
        #expect(game.guess("angle") == .wrongWord("angle"))
        #expect(game.guess("Angle") == .repeated("Angle"))
        #expect(game.livesLeft == 5)
        #expect(game.guess("pear") == .invalid("the word has 5 letters, 'pear' has 4"))
        #expect(game.guess("7") == .invalid("'7' is not a letter"))
        #expect(game.livesLeft == 5)
    }

    @Test func frenchEFindsAccentedEs() {
        var game = Game(word: "\u{E9}l\u{E8}ve", language: "fr")
        #expect(game.guess("e") == .hit(letter: "e", count: 3))
        #expect(game.masked == "\u{E9} _ \u{E8} _ e")
    }

    @Test func spanishKeepsEnyeApartButFoldsAccents() {
        var game = Game(word: "ma\u{F1}ana", language: "es")
        #expect(game.guess("n") == .hit(letter: "n", count: 1))
        #expect(game.masked == "_ _ _ _ n _")
        #expect(game.guess("\u{F1}") == .hit(letter: "\u{F1}", count: 1))
        var accent = Game(word: "canci\u{F3}n", language: "es")
        #expect(accent.guess("o") == .hit(letter: "o", count: 1))
    }

    @Test func decomposedInputMatchesComposedWord() {
        var game = Game(word: "ma\u{F1}ana", language: "es")
        #expect(game.guess("n\u{303}") == .hit(letter: "\u{F1}", count: 1))
    }

    @Test func germanSharpSNeverBreaksTheLayout() {
        var game = Game(word: "stra\u{DF}e", language: "de")
        #expect(game.masked.split(separator: " ").count == 6)
        #expect(game.guess("\u{DF}") == .hit(letter: "\u{DF}", count: 1))
        #expect(game.guess("S") == .hit(letter: "s", count: 1))
        #expect(game.masked == "s _ _ _ \u{DF} _")
        #expect(game.guess("\u{E4}") == .miss(letter: "\u{E4}"))
    }

    @Test func englishFoldsAccents() {
        var game = Game(word: "caf\u{E9}")
        #expect(game.guess("e") == .hit(letter: "e", count: 1))
    }

    @Test func otherScriptsCompareExactly() {
        var game = Game(word: "\u{43C}\u{438}\u{440}", language: "ru")
        #expect(game.guess("\u{41C}") == .hit(letter: "\u{43C}", count: 1))
        #expect(game.masked == "\u{43C} _ _")
    }

    @Test func hintRevealsOneHiddenLetterEverywhere() throws {
        var game = Game(word: "banana")
        var generator = SeededGenerator(seed: 3)
        let hint = game.revealHint(using: &generator)
        let letter = try #require(hint)
        #expect(["b", "a", "n"].contains(letter))
        #expect(game.hiddenLetters.count == 2)
        #expect(game.masked.split(separator: " ").filter { $0 == Substring(letter) }.count == (letter == "b" ? 1 : 3 - (letter == "n" ? 1 : 0)))
        #expect(game.livesLeft == 6)
    }

    @Test func hintNeverGivesAwayTheLastBlank() {
        var game = Game(word: "aab")
        game.guess("a")
        var generator = SeededGenerator(seed: 1)
        #expect(game.revealHint(using: &generator) == nil)
        #expect(!game.canHint)
    }

    /// Whether a hint is offered tells nothing the board does not show: two blanks of one letter
    /// (`o _ _ o r t u n i t y`) are offered a hint as two blanks of two letters are, and that hint
    /// finds the word, its cost counted. Over many games, `canHint` is exactly "more than one blank".
    @Test func aHintIsOfferedFromTheBlanksAlone() {
        var game = Game(word: "opportunity")
        for letter in ["o", "r", "t", "u", "n", "i", "y"] { game.guess(letter) }
        #expect(game.masked == "o _ _ o r t u n i t y")
        #expect(game.canHint)
        var generator = SeededGenerator(seed: 1)
        #expect(game.revealHint(using: &generator) == "p")
        #expect(game.status == .won && game.score == 11 * 10 + 6 * 20 - 15)

        var random = SeededGenerator(seed: 42)
        let words = ["banana", "letter", "opportunity", "committee", "mississippi", "abc", "aab", "bookkeeper", "zz"]
        for round in 0..<2_000 {
            var game = Game(word: words[round % words.count])
            while game.status == .playing {
                let blanks = game.masked.split(separator: " ").filter { $0 == "_" }.count
                #expect(game.canHint == (blanks > 1), "\(game.masked)")
                if Bool.random(using: &random), game.canHint {
                    _ = game.revealHint(using: &random)
                } else {
                    game.guess(String("abcdefghijklmnopqrstuvwxyz".randomElement(using: &random)!))
                }
            }
        }
    }

    @Test func hintsLowerTheScore() {
        var game = Game(word: "abc")
        var generator = SeededGenerator(seed: 5)
        let hinted = game.revealHint(using: &generator)
        for letter in ["a", "b", "c"] where letter != hinted { game.guess(letter) }
        #expect(game.status == .won)
        #expect(game.score == 3 * 10 + 6 * 20 - 15)
    }

    @Test func sameSeedSameHints() {
        var first = Game(word: "abcdefgh")
        var second = Game(word: "abcdefgh")
        var a = SeededGenerator(seed: 42)
        var b = SeededGenerator(seed: 42)
        let x = (0..<4).map { _ in first.revealHint(using: &a) }
        let y = (0..<4).map { _ in second.revealHint(using: &b) }
        #expect(x == y)
    }

    @Test func replayRestoresTheSameGame() {
        var played = Game(word: "giraffe")
        var generator = SeededGenerator(seed: 8)
        played.guess("z")
        let hint = played.revealHint(using: &generator)
        played.guess("f")
        played.guess("x")
        var resumed = Game(word: "giraffe")
        resumed.replay([.guess("z"), .hint(hint ?? ""), .guess("f"), .guess("x")])
        #expect(resumed == played)
    }
}
