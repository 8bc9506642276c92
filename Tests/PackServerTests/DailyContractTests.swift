import PackServiceAPI
import Testing

/// The daily word's rules through every door: the embedded store's own daily word and a server's
/// (SQLite, PostgreSQL) are one rule, decided once by the account service.
@Suite struct DailyContractTests {
    @Test(arguments: StoreBackend.allCases)
    func theDailyWordIsOneGameADayWithSixLivesForEveryone(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        let games = try #require(world.service.dailyWords, "every door has a daily word")
        // Lives, packs and a fresh start are not the player's to choose.
        let lives = await refusal { () async throws(ServiceError) in try await games.startGame(GameRequest(lives: 26, daily: true)) }
        #expect(lives?.kind == .invalidRequest && lives?.message.contains("6 lives") == true, "\(String(describing: lives))")
        let pack = await refusal { () async throws(ServiceError) in
            try await games.startGame(GameRequest(packs: [ProductID(rawValue: "com.hangmanpacks.words.base")!], daily: true))
        }
        #expect(pack?.kind == .invalidRequest, "\(String(describing: pack))")

        let before = try await games.daily(language: nil)
        #expect(before.game == nil && before.played == 0)
        var game = try await games.startGame(GameRequest(lives: 6, daily: true))
        #expect(game.lives == 6 && game.daily == before.date && game.word == nil)
        // The same game again until it ends; then it is over for the day.
        #expect(try await games.startGame(GameRequest(daily: true)).id == game.id)
        for letter in "etaoinshrdlucmfwypvbgkjqxz" where !game.isOver {
            game = try await games.guess(game: game.id, String(letter))
        }
        #expect(game.isOver && game.word != nil && game.score != nil)
        let again = await refusal { () async throws(ServiceError) in try await games.startGame(GameRequest(daily: true)) }
        #expect(again?.kind == .wrongState && again?.message.contains("already") == true, "\(String(describing: again))")

        let after = try await games.daily(language: nil)
        #expect(after.played == 1 && after.won == (game.state == .won ? 1 : 0))
        #expect(after.game?.id == game.id && after.game?.moveKinds?.isEmpty == false)
    }

    /// A game given up is the day's word lost: its streak ends and it is not played again.
    @Test(arguments: StoreBackend.allCases)
    func aDailyWordGivenUpIsLost(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        let games = try #require(world.service.dailyWords)
        let game = try await games.startGame(GameRequest(daily: true))
        let ended = try await games.abandonGame(game.id)
        #expect(ended.state == .abandoned && ended.word != nil)
        #expect(await refusal { () async throws(ServiceError) in try await games.startGame(GameRequest(daily: true)) }?.kind == .wrongState)
        #expect(try await games.daily(language: nil).currentStreak == 0)
    }

    /// A past day's word from the archive, through every door: listed, played once, marked, in no
    /// streak and on no board; a future day and one before the archive are refused.
    @Test(arguments: StoreBackend.allCases)
    func aPastDayIsPlayedFromTheArchiveOnceAndInNoStreak(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        let games = try #require(world.service.dailyWords)
        let today = try #require(DailyDate.day(parsing: try await games.daily(language: nil).date))
        let yesterday = DailyDate.text(day: today - 1)
        let listed = try await games.dailyArchive(language: nil, since: nil)
        #expect(listed.firstDate == "2026-01-01" && listed.days.count == min(30, Int(today - 20_454)), "\(listed.days.count)")
        #expect(listed.days.first == DailyArchive.Day(date: yesterday, result: .notPlayed, archive: false, score: nil))
        var game = try await games.startGame(GameRequest(daily: true, date: yesterday))
        #expect(game.daily == yesterday && game.archive == true && game.lives == 6 && game.word == nil)
        #expect(try await games.startGame(GameRequest(daily: true, date: yesterday)).id == game.id, "resumed")
        for letter in "etaoinshrdlucmfwypvbgkjqxz" where !game.isOver {
            game = try await games.guess(game: game.id, String(letter))
        }
        let again = await refusal { () async throws(ServiceError) in try await games.startGame(GameRequest(daily: true, date: yesterday)) }
        #expect(again?.kind == .wrongState && again?.message.contains("already") == true, "\(String(describing: again))")
        let record = try await games.daily(language: nil)
        #expect(record.played == 0 && record.won == 0 && record.currentStreak == 0 && record.game == nil, "an archive play is in no record: \(record)")
        let after = try await games.dailyArchive(language: nil, since: yesterday)
        #expect(after.days == [DailyArchive.Day(date: yesterday, result: game.state == .won ? .won : .lost, archive: true, score: game.state == .won ? game.score : nil)])
        // Today's word by its date is today's, not the archive's.
        let todays = try await games.startGame(GameRequest(daily: true, date: DailyDate.text(day: today)))
        #expect(todays.archive == nil && todays.daily == DailyDate.text(day: today))
        for date in [DailyDate.text(day: today + 1), "2025-12-31", "yesterday"] {
            let refused = await refusal { () async throws(ServiceError) in try await games.startGame(GameRequest(daily: true, date: date)) }
            #expect(refused?.kind == .invalidRequest, "\(date): \(String(describing: refused))")
        }
        if backend != .embedded {
            #expect(try await games.leaderboard(date: yesterday, language: nil, week: false).players == 0, "a past day's board is of those who played on the day")
        }
    }
}
