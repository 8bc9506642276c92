import Foundation
import PackServer
import PackServiceClient
import Seller
import Testing
import TestSupport

/// The daily word's hard mode through two servers of one service, on both engines: every player
/// gets the same answers to the same guesses, it is played beside the day's word, on a board of
/// its own and in no streak, and the archive has none.
@Suite struct HardDailyTests {
    typealias Service = DailyWordTests.Service

    private func play(_ client: HTTPPackService, letters: String) async throws -> ServedGame {
        var game = try await client.startGame(GameRequest(daily: true, hard: true))
        #expect(game.hard == true && game.daily != nil)
        for letter in letters where game.state == .playing { game = try await client.guess(game: game.id, String(letter)) }
        return game
    }

    @Test(arguments: DailyWordTests.Engine.allCases)
    func everyPlayerMeetsTheSameHardWordOnABoardOfItsOwn(_ engine: DailyWordTests.Engine) async throws {
        let service = try Service(engine)
        let ana = try await service.first.newClient()
        let ben = try await service.second.newClient()
        let letters = "etaoinshrdlcumwfgypbvkjxqz"
        let anas = try await play(ana, letters: letters)
        let bens = try await play(ben, letters: letters)
        #expect(anas.isOver && anas.word == bens.word && anas.masked == bens.masked && anas.score == bens.score, "\(anas) \(bens)")
        #expect(anas.moveKinds == bens.moveKinds)
        // Beside the day's word: the day's word is still to play, and its board does not have them.
        let normal = try await ana.startGame(GameRequest(daily: true))
        #expect(normal.id != anas.id && normal.hard == nil && normal.state == .playing)
        #expect(try await ana.leaderboard(date: nil, language: nil, week: false).players == 0)
        let hardBoard = try await ana.leaderboard(date: nil, language: nil, week: false, hard: true)
        #expect(hardBoard.players == 2 && hardBoard.hard == true && hardBoard.language == "en", "\(hardBoard)")
        // Once a day: started again, it is answered as it ended (409).
        let again = await refusal { () async throws(ServiceError) in _ = try await ana.startGame(GameRequest(daily: true, hard: true)) }
        #expect(again?.kind == .wrongState)
        // In no streak, and the archive has no hard mode.
        let status = try await ana.daily(language: nil)
        #expect(status.played == 0 && status.currentStreak == 0)
        let archived = await refusal { () async throws(ServiceError) in _ = try await ana.startGame(GameRequest(daily: true, date: "2026-12-01", hard: true)) }
        #expect(archived?.kind == .invalidRequest)
    }
}
