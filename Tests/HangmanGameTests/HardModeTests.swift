import Foundation
import HangmanGame
import Testing

/// Hard mode's rules over the shipped English words: the same guesses win fewer hard games than
/// normal ones, and every answer a hard game gave is the answer its final word would have given.
@Suite struct HardModeTests {
    /// The words of the shipped English base pack's lists, read from its sources.
    static let words: [HardMode.Candidate] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Packs/base-english/words")
        var found: [HardMode.Candidate] = []
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for file in files.sorted() where file.hasSuffix(".plist") {
            // The sources' own shape: `<key>word</key>` and the word's `<string>` on the next line.
            guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            for (index, line) in lines.enumerated() where line == "<key>word</key>" && index + 1 < lines.count {
                let value = lines[index + 1]
                guard value.hasPrefix("<string>"), value.hasSuffix("</string>") else { continue }
                found.append(.init(word: String(value.dropFirst(8).dropLast(9))))
            }
        }
        return found
    }()

    /// Letters in the order a player who knows English guesses them.
    static let strategy = Array("etaoinsrhldcumfpgwybvkxjqz").map(String.init)

    /// A hard game played as the ledger plays it: the candidates narrowed before each guess, the
    /// game replayed over the word standing for them. The answers given, and the final game.
    static func playHard(drawn: HardMode.Candidate, key: UInt64) -> (answers: [Game.Outcome], game: Game) {
        let folding = Game(word: drawn.word).folding
        let sameShape = words.filter { HardMode.shape(of: $0.word, folding: folding) == HardMode.shape(of: drawn.word, folding: folding) }
        var candidates = HardMode.startingSet(drawn: drawn, sameShape: sameShape.count, key: key) { sameShape[$0] }
        var moves: [Game.Move] = []
        var game = Game(word: HardMode.representative(of: candidates, key: key)!.word)
        var answers: [Game.Outcome] = []
        for letter in strategy where game.status == .playing {
            candidates = HardMode.candidates(after: letter, in: game, among: candidates, key: key)
            game = Game(word: HardMode.representative(of: candidates, key: key)!.word)
            game.replay(moves)
            answers.append(game.guess(letter))
            moves.append(.guess(letter))
        }
        return (answers, game)
    }

    @Test func theShippedWordsAreRead() {
        #expect(Self.words.count > 500)
    }

    /// 200 words, the same guesses: hard mode wins fewer, and each hard game's answers are those
    /// its revealed word gives.
    @Test func hardModeWinsFewerAndEveryAnswerFitsTheRevealedWord() {
        var generator = SeededGenerator(seed: 60)
        var normalWins = 0
        var hardWins = 0
        for index in 0..<200 {
            let drawn = Self.words.randomElement(using: &generator)!
            var normal = Game(word: drawn.word)
            for letter in Self.strategy where normal.status == .playing { normal.guess(letter) }
            if normal.status == .won { normalWins += 1 }

            let (answers, hard) = Self.playHard(drawn: drawn, key: UInt64(index))
            if hard.status == .won { hardWins += 1 }
            #expect(hard.status != .playing)
            // The revealed word, played from the start with the same guesses, answers the same.
            var check = Game(word: hard.word)
            let replayed = Self.strategy.prefix(answers.count).map { check.guess($0) }
            #expect(replayed == answers, "\(hard.word): \(answers) against \(replayed)")
        }
        #expect(hardWins < normalWins, "hard \(hardWins), normal \(normalWins) of 200")
    }

    /// The same key and guesses give the same game; ties go by the key, not by the order of the list.
    @Test func aKeyMakesAGameReproducible() {
        let drawn = Self.words.first { $0.word.count == 6 }!
        let first = Self.playHard(drawn: drawn, key: 42)
        let second = Self.playHard(drawn: drawn, key: 42)
        #expect(first.answers == second.answers && first.game.word == second.game.word)
        let words = (0..<20).map { Self.playHard(drawn: drawn, key: UInt64($0)).game.word }
        #expect(Set(words).count > 1, "every key revealed \(words[0])")
    }

    /// A whole word is wrong while another candidate is left, right when it is the last.
    @Test func aWholeWordIsAnsweredWrongWhileAnotherIsLeft() {
        let candidates = ["cat", "cot", "cut"].map { HardMode.Candidate(word: $0) }
        let game = Game(word: "cat")
        let kept = HardMode.candidates(after: "cat", in: game, among: candidates, key: 1)
        #expect(kept.map(\.word) == ["cot", "cut"])
        let last = HardMode.candidates(after: "cut", in: Game(word: "cut"), among: [.init(word: "cut")], key: 1)
        #expect(last.map(\.word) == ["cut"])
        // A miss keeps the largest family: 'z' is in none, so all three stay.
        #expect(HardMode.candidates(after: "z", in: game, among: candidates, key: 1).count == 3)
        // 'a' is in one word: the two without it stay, and 'a' is a miss.
        #expect(HardMode.candidates(after: "a", in: game, among: candidates, key: 1).map(\.word) == ["cot", "cut"])
    }

    /// Words of another shape (a hyphen, a space, another length) are never candidates.
    @Test func onlyWordsOfOneShapeAreCandidates() {
        let folding = Game(word: "x").folding
        #expect(HardMode.shape(of: "e-mail", folding: folding) == "_-____")
        #expect(HardMode.shape(of: "ice cream", folding: folding) == "___ _____")
        var read = 0
        let start = HardMode.startingSet(drawn: .init(word: "dog"), sameShape: 100_000, key: 7) { index in
            read += 1
            return .init(word: "w\(index)")
        }
        #expect(start.count == HardMode.maxCandidates && start.first?.word == "dog" && read == HardMode.maxCandidates - 1)
    }
}
