import Foundation
import PackServer
import PackServiceClient
import Seller
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

    /// The day's word, learned as anyone can: a throw-away account starts it and gives it up
    /// (the account has lost that day's word).
    private func learnTheWord(_ service: Service, language: String? = nil) async throws -> String {
        let learner = try await service.first.newClient()
        let started = try await learner.startGame(GameRequest(daily: true, language: language))
        return try #require(try await learner.abandonGame(started.id).word)
    }

    /// Plays `game` to a win with no miss: each letter of `word` once.
    private func finish(_ client: HTTPPackService, _ game: ServedGame, word: String) async throws -> ServedGame {
        var game = game
        var seen = Set<Character>()
        for letter in word.lowercased() where letter.isLetter && seen.insert(letter).inserted && game.state == .playing {
            game = try await client.guess(game: game.id, String(letter))
        }
        return game
    }

    @Test(arguments: Engine.allCases)
    func theDailyWordIsTheSameForEveryPlayerOnEveryServerAndChangesWithTheDay(_ engine: Engine) async throws {
        let service = try Service(engine)
        let ana = try await service.first.newClient()
        let ben = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: service.second.url), statePath: nil)
        // Six lives for everyone: more are refused, saying why.
        let moreLives = await storeError { () async throws(ServiceError) in _ = try await ana.startGame(GameRequest(lives: 26, daily: true)) }
        #expect(moreLives?.kind == .invalidRequest && moreLives?.message.contains("6 lives by every player") == true, "\(String(describing: moreLives))")
        let anaDaily = try await ana.startGame(GameRequest(daily: true))
        let benDaily = try await ben.startGame(GameRequest(lives: 6, daily: true))
        #expect(anaDaily.daily == "2026-12-02" && anaDaily.word == nil && anaDaily.masked == benDaily.masked)
        #expect(anaDaily.lives == 6 && benDaily.lives == 6)
        let word = try await learnTheWord(service)
        // The daily word sits beside the live game: one of each.
        let live = try await ana.startGame(GameRequest(lives: 12))
        #expect(live.daily == nil && live.id != anaDaily.id)
        #expect(try await ana.currentGame()?.id == live.id)
        // Started on one server, resumed through the other.
        var elsewhere = ana.credentials
        elsewhere.service = service.second.url
        let anaElsewhere = HTTPPackService(credentials: elsewhere, statePath: nil)
        #expect(try await anaElsewhere.startGame(GameRequest(daily: true)).id == anaDaily.id)
        let anaDone = try await finish(anaElsewhere, anaDaily, word: word)
        let benDone = try await finish(ben, benDaily, word: word)
        #expect(anaDone.state == .won && anaDone.word == word && benDone.word == word)
        // Drawn from the base pack's daily list, in each language.
        func dailyList(_ folder: String) throws -> Set<String> {
            let data = try Data(contentsOf: HangmanBinary.packageRoot.appendingPathComponent("Packs/\(folder)/daily.plist"))
            let entries = (try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])?["words"] as? [Any] ?? []
            // A word is a string, or {word, clue}.
            return Set(entries.compactMap { ($0 as? String) ?? (($0 as? [String: Any])?["word"] as? String) })
        }
        #expect(try dailyList("base-english").contains(word), "\(word)")
        let frenchWord = try await learnTheWord(service, language: "fr")
        let french = try await finish(ana, try await ana.startGame(GameRequest(daily: true, language: "fr")), word: frenchWord)
        #expect(try dailyList("base-french").contains(try #require(french.word)), "\(String(describing: french.word))")
        // Once a day: a second start is refused, saying why.
        let again = await storeError { () async throws(ServiceError) in _ = try await ana.startGame(GameRequest(daily: true)) }
        #expect(again?.kind == .wrongState && again?.message.contains("2026-12-02 already") == true, "\(String(describing: again))")
        // The share line's moves: one per move, no letter in them.
        let status = try await ana.daily(language: nil)
        #expect(status.game?.moveKinds?.count == anaDone.guessed.count && status.played == 1 && status.won == 1 && status.currentStreak == 1)
        // The next day (00:00 UTC passed), another word.
        service.advance(days: 1)
        let tomorrowsWord = try await learnTheWord(service)
        let tomorrow = try await finish(ana, try await ana.startGame(GameRequest(daily: true)), word: tomorrowsWord)
        #expect(tomorrow.daily == "2026-12-03" && tomorrow.word != word, "\(String(describing: tomorrow.word)) twice")
        #expect(try await ana.daily(language: nil).currentStreak == 2)
        // A language without a base pack says which there are.
        let spanish = await storeError { () async throws(ServiceError) in _ = try await ana.daily(language: "xx") }
        #expect(spanish?.kind == .notFound && spanish?.message.contains("base packs in en") == true, "\(String(describing: spanish))")
        let stats = try await ana.gameStatistics()
        #expect(stats.played == 3, "\(stats)")
        // Whoever gives the day's word up has lost it: no second try, and its streak ends.
        let quitter = try await service.first.newClient()
        let given = try await quitter.startGame(GameRequest(daily: true))
        _ = try await quitter.abandonGame(given.id)
        let retry = await storeError { () async throws(ServiceError) in _ = try await quitter.startGame(GameRequest(daily: true)) }
        #expect(retry?.kind == .wrongState && retry?.message.contains("abandoned") == true, "\(String(describing: retry))")
        let quitterStatus = try await quitter.daily(language: nil)
        #expect(quitterStatus.played == 1 && quitterStatus.won == 0 && quitterStatus.currentStreak == 0)
    }

    @Test(arguments: Engine.allCases)
    func theLeaderboardRanksByScoreThenHintsThenMissesAndEqualGamesShareARank(_ engine: Engine) async throws {
        let service = try Service(engine)
        let hints10 = ProductID(rawValue: "com.hangmanpacks.hints.10")!
        var players: [HTTPPackService] = []
        for index in 0..<4 {
            let server = index % 2 == 0 ? service.first : service.second
            let client = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: server.url), statePath: nil)
            _ = try await client.buy(hints10, quantity: 1)
            players.append(client)
        }
        // A throw-away account learns the word by giving it up at 00:00; Ben plays it at once, Dan
        // the same moves hours later; Ana after a hint; Cleo after a miss.
        service.advance(milliseconds: 60_000)
        let word = try await learnTheWord(service)
        let miss = try #require("zqxjkvwyfbgpmuhdcltsnroiae".first { !word.lowercased().contains($0) })
        func solve(_ player: HTTPPackService, hints: Int = 0, misses: Int = 0, later: Int64 = 1000) async throws -> ServedGame {
            service.advance(milliseconds: later)
            var game = try await player.startGame(GameRequest(daily: true))
            for number in 0..<hints { game = try await player.hint(game: game.id, idempotencyKey: "\(game.id)-hint-\(number + 1)") }
            if misses > 0 { game = try await player.guess(game: game.id, String(miss)) }
            return try await player.guess(game: game.id, word)
        }
        let ben = try await solve(players[1])
        let ana = try await solve(players[0], hints: 1)
        let cleo = try await solve(players[2], misses: 1)
        let dan = try await solve(players[3], later: 3 * 3_600_000)
        #expect([ana, ben, cleo, dan].allSatisfy { $0.state == .won })
        // The same moves score the same, whenever they are played.
        #expect(ben.score == dan.score && (ana.score ?? 0) < (ben.score ?? 0) && (cleo.score ?? 0) < (ben.score ?? 0))
        #expect(try await players[0].setDisplayName("  Ana  ") == "Ana")
        let taken = await storeError { () async throws(ServiceError) in _ = try await players[1].setDisplayName("ANA") }
        #expect(taken?.kind == .wrongState && taken?.message.contains("taken") == true, "\(String(describing: taken))")
        let control = await storeError { () async throws(ServiceError) in _ = try await players[1].setDisplayName("Ben\u{202E}") }
        #expect(control?.kind == .invalidRequest && control?.message.contains("U+202E") == true, "\(String(describing: control))")
        #expect(try await players[1].setDisplayName("Ben") == "Ben")
        #expect(try await players[2].setDisplayName("Cleo") == "Cleo")
        #expect(try await players[3].setDisplayName("Dan") == "Dan")
        let board = try await players[1].leaderboard(date: nil, language: nil, week: false)
        #expect(board.players == 5 && board.date == "2026-12-03", "\(board)")
        // Ben and Dan played the same game: one rank, whoever finished first. Then the better
        // score, fewer hints, fewer misses; the player who gave up last.
        #expect(Set(board.top.prefix(2).map(\.name)) == ["Ben", "Dan"] && board.top.prefix(2).allSatisfy { $0.rank == 1 }, "\(board.top)")
        #expect(board.top.map(\.rank) == [1, 1, 3, 4, 5], "\(board.top)")
        #expect(zip(board.top, board.top.dropFirst()).allSatisfy { a, b in
            a.score > b.score || a.score == b.score && (a.hints < b.hints || a.hints == b.hints && a.misses <= b.misses)
        }, "\(board.top)")
        #expect(board.top.last?.score == 0 && board.top.last?.won == 0)
        #expect(board.top.first { $0.name == "Cleo" }?.misses == 1 && board.top.first { $0.name == "Ana" }?.hints == 1)
        #expect(board.you?.name == "Ben" && board.you?.rank == 1)
        let anaBoard = try await players[0].leaderboard(date: nil, language: nil, week: false)
        #expect(anaBoard.you?.rank == anaBoard.top.first { $0.name == "Ana" }?.rank)
        let week = try await players[0].leaderboard(date: nil, language: nil, week: true)
        #expect(week.week && week.top.count == 5 && week.you?.name == "Ana" && week.top.map(\.rank) == board.top.map(\.rank), "\(week)")
        // The next day's week still counts this day; the day's own board is empty.
        service.advance(days: 1)
        let nextWeek = try await players[0].leaderboard(date: nil, language: nil, week: true)
        #expect(nextWeek.players == 5 && nextWeek.you?.score == ana.score, "\(nextWeek)")
        #expect(try await players[0].leaderboard(date: nil, language: nil, week: false).players == 0)
        let yesterday = try await players[0].leaderboard(date: "2026-12-02", language: nil, week: false)
        #expect(yesterday.players == 0 && yesterday.top.isEmpty && yesterday.you == nil)
        let badDay = await storeError { () async throws(ServiceError) in _ = try await players[0].leaderboard(date: "2026-13-01", language: nil, week: false) }
        #expect(badDay?.kind == .invalidRequest)
    }

    /// A name that looks like a taken one is taken (TR39 skeletons through ICU); one that mixes
    /// scripts or hides marks is refused with a sentence (400); a pile of marks is 400, not 500.
    @Test(arguments: Engine.allCases)
    func lookAlikeNamesAreTakenAndMixedOnesRefused(_ engine: Engine) async throws {
        let service = try Service(engine)
        let ana = try await service.first.newClient()
        let cleo = try await service.first.newClient()
        let other = try await service.second.newClient()
        #expect(try await ana.setDisplayName("Ana B") == "Ana B")
        #expect(try await cleo.setDisplayName("Sam") == "Sam")
        for (name, kind, says) in [
            ("ANA B", ServiceError.Kind.wrongState, "taken"), ("Ａｎａ Ｂ", .wrongState, "looks like"), ("𝐀𝐧𝐚 𝐁", .wrongState, "looks like"),
            ("Sarn", .wrongState, "looks like"), ("\u{0410}na B", .invalidRequest, "one script"), ("Ana\u{034F} B", .invalidRequest, "invisible"),
            ("A" + String(repeating: "\u{0301}", count: 3000) + "na", .invalidRequest, "accents written apart"),
            ("Player 75e2", .invalidRequest, "without a name"),
        ] {
            let refused = await storeError { () async throws(ServiceError) in _ = try await other.setDisplayName(name) }
            #expect(refused?.kind == kind && refused?.message.contains(says) == true, "\(name.prefix(12)): \(String(describing: refused))")
        }
        #expect(try await other.setDisplayName("Ben") == "Ben")
        // Her own name in another form is hers to take.
        #expect(try await ana.setDisplayName("ANA B") == "ANA B")
        // A closed account's name is released.
        try await cleo.closeAccount()
        #expect(try await other.setDisplayName("Sam") == "Sam")
    }

    @Test func theDailyWordsOfAYearAreAllDifferent() async throws {
        let service = try Service(.sqlite)
        let learner = try await service.first.newClient()
        var words: [String] = []
        for _ in 0..<366 {
            let started = try await learner.startGame(GameRequest(daily: true))
            words.append(try #require(try await learner.abandonGame(started.id).word))
            service.advance(days: 1)
        }
        #expect(Set(words).count == 366, "\(words.count - Set(words).count) repeated")
    }
}

/// The error `body` throws, or `nil`.
private func storeError(_ body: () async throws(ServiceError) -> Void) async -> ServiceError? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
