import Foundation
import PackServer
import PackServiceClient
import Store
import Synchronization
import SystemCalls
import Testing
import TestSupport

/// The daily word, the account's statistics and leaderboards, through two servers of one service
/// (one data folder, or one PostgreSQL database), as clients meet them.
@Suite struct DailyWordTests {
    enum Engine: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgreSQL
        var testDescription: String { rawValue }
    }

    /// Two servers of one service on `engine`, with a clock the test moves.
    final class Service {
        let first: RunningServer
        let second: RunningServer
        let time = Time()
        let database: FreshDatabase?

        /// The store's time, moved by the test.
        final class Time: Sendable {
            let now = Mutex<Int64>(1_796_255_940_000)  // 2026-12-02, 23:59 UTC
        }

        init(_ engine: Engine) throws {
            let time = self.time
            let clock = Clock { time.now.withLock { $0 } }
            database = engine == .postgreSQL ? try FreshDatabase(on: try TestPostgreSQL.shared()) : nil
            let ledger = database.map { LedgerDatabase.postgreSQL($0.connectionString) } ?? .sqlite
            first = try RunningServer(environment: .sandbox, clock: clock, database: ledger)
            second = try RunningServer(environment: .sandbox, dataFolder: first.directory.file("data"), clock: clock, database: ledger)
        }

        func advance(days: Int64 = 0, milliseconds: Int64 = 0) { time.now.withLock { $0 += days * 86_400_000 + milliseconds } }
    }

    /// Plays `game` to its end with 26 lives, a letter at a time in English's frequency order.
    private func finish(_ client: HTTPPackService, _ game: ServedGame, hints: Int = 0) async throws -> ServedGame {
        var game = game
        for number in 0..<hints {
            game = try await client.hint(game: game.id, idempotencyKey: "\(game.id)-hint-\(number + 1)")
        }
        for letter in "etaoinshrdlcumwfgypbvkjxqz" where game.state == .playing {
            game = try await client.guess(game: game.id, String(letter))
        }
        return game
    }

    @Test(arguments: Engine.allCases)
    func theDailyWordIsTheSameForEveryPlayerOnEveryServerAndChangesWithTheDay(_ engine: Engine) async throws {
        let service = try Service(engine)
        let ana = try await service.first.newClient()
        let ben = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: service.second.url), statePath: nil)
        let anaDaily = try await ana.startGame(GameRequest(lives: 26, daily: true))
        let benDaily = try await ben.startGame(GameRequest(lives: 26, daily: true))
        #expect(anaDaily.daily == "2026-12-02" && anaDaily.word == nil && anaDaily.masked == benDaily.masked)
        // The daily word sits beside the live game: one of each.
        let live = try await ana.startGame(GameRequest(lives: 26))
        #expect(live.daily == nil && live.id != anaDaily.id)
        #expect(try await ana.currentGame()?.id == live.id)
        // Started on one server, resumed through the other.
        var elsewhere = ana.credentials
        elsewhere.service = service.second.url
        let anaElsewhere = HTTPPackService(credentials: elsewhere, statePath: nil)
        #expect(try await anaElsewhere.startGame(GameRequest(daily: true)).id == anaDaily.id)
        let anaDone = try await finish(anaElsewhere, anaDaily)
        let benDone = try await finish(ben, benDaily)
        let word = try #require(anaDone.word)
        #expect(anaDone.state == .won && benDone.word == word)
        // Drawn from the base pack's daily list, in each language.
        func dailyList(_ folder: String) throws -> Set<String> {
            let data = try Data(contentsOf: HangmanBinary.packageRoot.appendingPathComponent("Packs/\(folder)/daily.plist"))
            let entries = (try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])?["words"] as? [Any] ?? []
            // A word is a string, or {word, clue}.
            return Set(entries.compactMap { ($0 as? String) ?? (($0 as? [String: Any])?["word"] as? String) })
        }
        #expect(try dailyList("base-english").contains(word), "\(word)")
        let french = try await finish(ana, try await ana.startGame(GameRequest(lives: 26, daily: true, language: "fr")))
        #expect(try dailyList("base-french").contains(try #require(french.word)), "\(String(describing: french.word))")
        // Once a day: a second start is refused, saying why.
        let again = await storeError { () async throws(StoreError) in _ = try await ana.startGame(GameRequest(daily: true)) }
        #expect(again?.kind == .wrongState && again?.message.contains("2026-12-02 already") == true, "\(String(describing: again))")
        // The share line's moves: one per move, no letter in them.
        let status = try await ana.daily(language: nil)
        #expect(status.game?.moveKinds?.count == anaDone.guessed.count && status.played == 1 && status.won == 1 && status.currentStreak == 1)
        // The next day (00:00 UTC passed), another word.
        service.advance(days: 1)
        let tomorrow = try await finish(ana, try await ana.startGame(GameRequest(lives: 26, daily: true)))
        #expect(tomorrow.daily == "2026-12-03" && tomorrow.word != word, "\(String(describing: tomorrow.word)) twice")
        #expect(try await ana.daily(language: nil).currentStreak == 2)
        // A language without a base pack says which there are.
        let spanish = await storeError { () async throws(StoreError) in _ = try await ana.daily(language: "xx") }
        #expect(spanish?.kind == .notFound && spanish?.message.contains("base packs in en") == true, "\(String(describing: spanish))")
        let stats = try await ana.gameStatistics()
        #expect(stats.played == 3, "\(stats)")
    }

    @Test(arguments: Engine.allCases)
    func theLeaderboardRanksByScoreThenHintsThenTheEarlierFinish(_ engine: Engine) async throws {
        let service = try Service(engine)
        let hints10 = ProductID(rawValue: "com.hangmanpacks.hints.10")!
        var players: [HTTPPackService] = []
        for index in 0..<4 {
            let server = index % 2 == 0 ? service.first : service.second
            let client = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: server.url), statePath: nil)
            _ = try await client.buy(hints10, quantity: 1)
            players.append(client)
        }
        // Cleo finds the word letter by letter (and learns it); the others then guess it whole:
        // Ana after a hint, Ben, and Dan as Ben did but later.
        let cleo = try await finish(players[2], try await players[2].startGame(GameRequest(lives: 26, daily: true)))
        let word = try #require(cleo.word)
        func solve(_ player: HTTPPackService, hints: Int) async throws -> ServedGame {
            service.advance(milliseconds: 1000)
            var game = try await player.startGame(GameRequest(lives: 26, daily: true))
            for number in 0..<hints { game = try await player.hint(game: game.id, idempotencyKey: "\(game.id)-hint-\(number + 1)") }
            return try await player.guess(game: game.id, word)
        }
        let ana = try await solve(players[0], hints: 1)
        let ben = try await solve(players[1], hints: 0)
        let dan = try await solve(players[3], hints: 0)
        #expect([ana, ben, cleo, dan].allSatisfy { $0.state == .won })
        #expect(ben.score == dan.score && (ana.score ?? 0) < (ben.score ?? 0))
        #expect(try await players[0].setDisplayName("  Ana  ") == "Ana")
        let taken = await storeError { () async throws(StoreError) in _ = try await players[1].setDisplayName("ANA") }
        #expect(taken?.kind == .wrongState && taken?.message.contains("taken") == true, "\(String(describing: taken))")
        let control = await storeError { () async throws(StoreError) in _ = try await players[1].setDisplayName("Ben\u{202E}") }
        #expect(control?.kind == .invalidRequest && control?.message.contains("U+202E") == true, "\(String(describing: control))")
        #expect(try await players[1].setDisplayName("Ben") == "Ben")
        #expect(try await players[3].setDisplayName("Dan") == "Dan")
        let board = try await players[1].leaderboard(date: nil, language: nil, week: false)
        #expect(board.players == 4 && board.date == "2026-12-02", "\(board)")
        // Best first: the score, then fewer hints, then the earlier finish; Cleo's place is her score's.
        let names = board.top.map(\.name)
        let cleoName = "Player " + players[2].credentials.accountID.suffix(4)
        #expect(names.filter { $0 != cleoName } == ["Ben", "Dan", "Ana"], "\(board.top)")
        #expect(zip(board.top, board.top.dropFirst()).allSatisfy { a, b in
            a.score > b.score || a.score == b.score && (a.hints < b.hints || a.hints == b.hints && a.finished <= b.finished)
        }, "\(board.top)")
        #expect(board.top.map(\.rank) == [1, 2, 3, 4] && board.you?.name == "Ben" && board.you?.rank == names.firstIndex(of: "Ben").map { $0 + 1 })
        let week = try await players[0].leaderboard(date: nil, language: nil, week: true)
        #expect(week.week && week.top.count == 4 && week.you?.name == "Ana")
        let yesterday = try await players[0].leaderboard(date: "2026-12-01", language: nil, week: false)
        #expect(yesterday.players == 0 && yesterday.top.isEmpty && yesterday.you == nil)
        let badDay = await storeError { () async throws(StoreError) in _ = try await players[0].leaderboard(date: "2026-13-01", language: nil, week: false) }
        #expect(badDay?.kind == .invalidRequest)
    }
}

/// The error `body` throws, or `nil`.
private func storeError(_ body: () async throws(StoreError) -> Void) async -> StoreError? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
