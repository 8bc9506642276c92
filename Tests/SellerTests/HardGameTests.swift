import HangmanGame
import Seller
import Testing
import TestSupport

/// Hard mode through the one door into an account, on both ledgers: the service answers from the
/// words it has not ruled out, every answer fits the word it shows at the end, a hint commits it
/// to one word, a seed gives the same game, and a won game scores twice.
@Suite struct HardGameTests {
    private static let hints10 = ProductID(rawValue: "com.hangmanpacks.hints.10")!

    /// The answers a game of `word` gives to `moves`, played from the start.
    private static func replayed(_ word: String, language: String, lives: Int, _ moves: [String]) -> [String] {
        var game = Game(word: word, language: language, lives: lives)
        return moves.map { move in
            game.guess(move)
            return game.masked
        }
    }

    @Test(arguments: Engine.allCases)
    func everyAnswerFitsTheWordShownAtTheEnd(_ engine: Engine) throws {
        let account = try StoreAccount(shipped: true, engine: engine)
        let service = try account.service()
        var game = try service.startGame(GameRequest(hard: true), seed: 21)
        #expect(game.hard == true && game.word == nil && game.clue == nil)
        var guesses: [String] = []
        var shown: [String] = []
        for letter in "etaoinshrdlcumwfgypbvkjxqz" where game.state == .playing {
            game = try service.guess(game.id, String(letter))
            guesses.append(String(letter))
            shown.append(game.masked)
            if game.state == .playing { #expect(game.word == nil) }
        }
        let word = try #require(game.word)
        var boards = Self.replayed(word, language: game.language, lives: game.lives, guesses)
        // The last board shows the word (the game ended); the rest are as the word would answer.
        boards.removeLast()
        shown.removeLast()
        #expect(boards == shown, "\(word): \(shown) against \(boards)")
        #expect(game.state != .playing && game.hard == true)
        // The same seed on another account: the same answers and the same word.
        let other = try StoreAccount(shipped: true, engine: engine).service()
        var again = try other.startGame(GameRequest(hard: true), seed: 21)
        for letter in guesses where again.state == .playing { again = try other.guess(again.id, letter) }
        #expect(again.word == word && again.state == game.state)
    }

    /// A hint commits the game to one word: after it, every answer is that word's.
    @Test(arguments: Engine.allCases)
    func aHintCommitsTheGameToOneWord(_ engine: Engine) throws {
        let account = try StoreAccount(shipped: true, engine: engine)
        let service = try account.service()
        _ = try service.buy(Self.hints10, quantity: 1)
        var game = try service.startGame(GameRequest(lives: 26, hard: true), seed: 4)
        game = try service.guess(game.id, "e")
        let afterE = game.masked
        let hinted = try service.hint(game.id, key: "hard-hint-1")
        let letter = try #require(hinted.move?.text)
        #expect(hinted.hints == 9 && hinted.hinted == [letter] && hinted.masked.contains(letter))
        var guesses = ["e"]
        game = hinted
        #expect(game.state == .playing)
        for letter in "taoinshrdlcumwfgypbvkjxqzäöüß" where game.state == .playing {
            game = try service.guess(game.id, String(letter))
            guesses.append(String(letter))
        }
        #expect(game.state == .won)
        let word = try #require(game.word)
        // The word holds the hinted letter, and the first guess's answer.
        var check = Game(word: word, language: game.language, lives: 26)
        check.guess("e")
        #expect(check.masked == afterE && word.contains(letter))
        // Every move played again on the word, the hint where it came, gives the board the game ended on.
        var replayed = Game(word: word, language: game.language, lives: 26)
        replayed.replay([.guess("e"), .hint(letter)] + guesses.dropFirst().map { .guess($0) })
        #expect(replayed.masked == game.masked && replayed.status == .won)
    }

    /// A won hard game scores twice what the same game scores in normal mode.
    @Test(arguments: Engine.allCases)
    func aWonHardGameScoresTwice(_ engine: Engine) throws {
        let service = try StoreAccount(shipped: true, engine: engine).service()
        var game = try service.startGame(GameRequest(lives: 26, hard: true), seed: 8)
        for letter in "etaoinshrdlcumwfgypbvkjxqz" where game.state == .playing { game = try service.guess(game.id, String(letter)) }
        #expect(game.state == .won)
        var normal = Game(word: try #require(game.word), language: game.language, lives: 26)
        for letter in game.guessed { normal.guess(letter) }
        #expect(normal.status == .won && game.score == normal.score * HardMode.scoreFactor, "\(String(describing: game.score)) against \(normal.score)")
    }
}
