import Foundation
import HangmanGame
import Seller
import Synchronization
import Testing
import TestSupport

/// Served games through the one door into an account, on both ledgers: the word stays in the
/// ledger, a hint's debit and its letter are one transaction, a game lives on the account.
@Suite struct ServedGameTests {
    private static let hints10 = ProductID(rawValue: "com.hangmanpacks.hints.10")!

    private func account(_ engine: Engine) throws -> StoreAccount { try StoreAccount(shipped: true, engine: engine) }

    @Test(arguments: Engine.allCases)
    func aHintPaysOnceAndTheSameKeyAnswersTheSameLetter(_ engine: Engine) throws {
        let account = try account(engine)
        let service = try account.service()
        _ = try service.buy(Self.hints10, quantity: 1)
        let game = try service.startGame(GameRequest(), seed: 7)
        #expect(game.state == .playing && game.word == nil && game.clue == nil && game.hints == 10)
        let first = try service.hint(game.id, key: "hint-1")
        let letter = try #require(first.move?.text)
        #expect(first.move?.kind == .hint && first.hinted == [letter] && first.hints == 9)
        #expect(first.masked.contains(letter))
        // The same key, from another process: the same letter, nothing paid.
        let again = try account.service().hint(game.id, key: "hint-1")
        #expect(again.move?.text == letter && again.hinted == [letter] && again.hints == 9)
        #expect(try service.hintBalance() == 9)
        let rows = try account.ledgerRows().filter { $0.key.hasPrefix("game-hint:") }
        #expect(rows.count == 1 && rows.first?.amount == -1, "\(rows)")
    }

    /// 50 hint requests at once, 10 hints: the letters revealed are the hints paid, one for one.
    @Test(arguments: Engine.allCases)
    func concurrentHintsRevealExactlyTheLettersPaidFor(_ engine: Engine) throws {
        let account = try account(engine)
        let service = try account.service()
        _ = try service.buy(Self.hints10, quantity: 1)
        let game = try service.startGame(GameRequest(), seed: 11)
        let open = account.opener()
        let answers = Mutex<[String: String]>([:])
        let refusals = Mutex<[ServiceError.Kind]>([])
        DispatchQueue.concurrentPerform(iterations: 10) { worker in
            guard let mine = try? open() else { return }
            for index in 0..<5 {
                do {
                    let answer = try mine.hint(game.id, key: "key-\(worker)-\(index)")
                    answers.withLock { $0["key-\(worker)-\(index)"] = answer.move?.text }
                } catch let error as ServiceError {
                    refusals.withLock { $0.append(error.kind) }
                } catch {
                    Issue.record("\(error)")
                }
            }
        }
        // Hints may have found the word (its last blanks all one letter): the game as it is.
        let final = try service.game(game.id)
        let paid = 10 - (try service.hintBalance())
        #expect(final.hinted.count == paid, "revealed \(final.hinted) for \(paid) hints")
        #expect(answers.withLock { $0.count } == paid)
        #expect(Set(answers.withLock { Array($0.values) }) == Set(final.hinted))
        #expect(refusals.withLock { $0.allSatisfy { [.notEnoughHints, .wrongState].contains($0) } }, "\(refusals.withLock { $0 })")
        #expect(answers.withLock { $0.count } + refusals.withLock { $0.count } == 50)
        #expect(try account.ledgerRows().filter { $0.key.hasPrefix("game-hint:") }.count == paid)
    }

    /// A game lives on the account: another process resumes it, with its moves.
    @Test(arguments: Engine.allCases)
    func aGameResumesWhereverTheAccountIsOpened(_ engine: Engine) throws {
        let account = try account(engine)
        let game = try account.service().startGame(GameRequest(lives: 8), seed: 3)
        #expect(game.resumed == nil && game.lives == 8)
        let moved = try account.service().guess(game.id, "e")
        #expect(moved.guessed == ["e"])
        let resumed = try account.service().startGame(GameRequest())
        #expect(resumed.id == game.id && resumed.resumed == true && resumed.guessed == ["e"] && resumed.lives == 8)
        #expect(try account.service().currentGame()?.id == game.id)
    }

    @Test(arguments: Engine.allCases)
    func aNewGameAbandonsTheLiveOneAsLost(_ engine: Engine) throws {
        let account = try account(engine)
        let service = try account.service()
        let first = try service.startGame(GameRequest(), seed: 1)
        let second = try service.startGame(GameRequest(new: true), seed: 2)
        #expect(second.id != first.id && second.resumed == nil)
        let old = try service.game(first.id)
        #expect(old.state == .abandoned && old.word != nil && old.score == 0)
        #expect(storeError { () throws(ServiceError) in try service.guess(first.id, "e") }?.kind == .wrongState)
    }

    /// Played to the end: the last answer carries the word and the score; a move after it is 409.
    @Test(arguments: Engine.allCases)
    func theLastAnswerCarriesTheWordAndTheScore(_ engine: Engine) throws {
        let account = try account(engine)
        let service = try account.service()
        var game = try service.startGame(GameRequest(lives: 26), seed: 5)
        for letter in "etaoinshrdlcumwfgypbvkjxqz" where game.state == .playing {
            game = try service.guess(game.id, String(letter))
            if game.state == .playing { #expect(game.word == nil && game.score == nil) }
        }
        #expect(game.state == .won, "\(game)")
        let word = try #require(game.word)
        #expect(game.masked == word.map(String.init).joined(separator: " "))
        #expect((game.score ?? 0) > 0)
        #expect(storeError { () throws(ServiceError) in try service.guess(game.id, "e") }?.kind == .wrongState)
    }

    @Test(arguments: Engine.allCases)
    func anotherAccountsGameIsNotFoundAndABadGuessIsSaid(_ engine: Engine) throws {
        let mine = try account(engine).service()
        let theirs = try account(engine).service()
        let game = try mine.startGame(GameRequest(), seed: 9)
        #expect(storeError { () throws(ServiceError) in try theirs.guess(game.id, "e") }?.kind == .notFound)
        #expect(storeError { () throws(ServiceError) in try theirs.game("../../etc/passwd") }?.kind == .notFound)
        let refusal = storeError { () throws(ServiceError) in try mine.guess(game.id, "7") }
        #expect(refusal?.kind == .invalidRequest && refusal?.message == "'7' is not a letter", "\(String(describing: refusal))")
        #expect(storeError { () throws(ServiceError) in try mine.startGame(GameRequest(lives: 0, new: true)) }?.kind == .invalidRequest)
        #expect(storeError { () throws(ServiceError) in try mine.startGame(GameRequest(packs: [ProductID(rawValue: "com.hangmanpacks.words.hard")!], new: true)) }?.kind == .notEntitled)
        #expect(storeError { () throws(ServiceError) in try mine.startGame(GameRequest(category: "Nope", new: true)) }?.kind == .invalidRequest)
    }

    /// An account that starts game after game keeps a bounded number of them: the oldest ended
    /// games are let go, and its statistics still count every one, the same as replaying them.
    @Test(arguments: Engine.allCases)
    func anAccountsGamesAreBoundedAndItsStatisticsCountThemAll(_ engine: Engine) throws {
        let account = try account(engine)
        let service = try account.service()
        // One won (26 lives, the alphabet), then 150 given up by starting the next.
        var won = try service.startGame(GameRequest(lives: 26), seed: 5)
        for letter in "etaoinshrdlcumwfgypbvkjxqz" where won.state == .playing { won = try service.guess(won.id, String(letter)) }
        #expect(won.state == .won)
        let firstAbandoned = try service.startGame(GameRequest(new: true), seed: 1)
        for seed in 2...151 { _ = try service.startGame(GameRequest(new: true), seed: UInt64(seed)) }
        let stats = try service.statistics()
        #expect(stats.played == 151 && stats.won == 1 && stats.currentStreak == 0 && stats.bestStreak == 1, "\(stats)")
        // Kept: the live game and the newest 100 ended ones; the first ones are gone.
        let kept: Int64
        if engine == .postgresql {
            kept = Int64(try account.postgres().execute("SELECT count(*) FROM games WHERE account_id = $1", [account.accountID]).rows.first?.first??.description ?? "") ?? -1
        } else {
            kept = try account.database().int64("SELECT count(*) FROM games") ?? -1
        }
        #expect(kept == 101, "\(kept) games kept")
        #expect(storeError { () throws(ServiceError) in _ = try service.game(firstAbandoned.id) }?.kind == .notFound)
        #expect(storeError { () throws(ServiceError) in _ = try service.game(won.id) }?.kind == .notFound)
        // A new service (another server) reads the same totals, and adds to them.
        let other = try account.service()
        #expect(try other.statistics() == stats)
        _ = try other.startGame(GameRequest(new: true), seed: 500)
        #expect(try other.statistics().played == 152)
    }
}
