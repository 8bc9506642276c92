import Foundation
import PackServer
import PackServiceClient
import Seller
import Testing
import TestSupport

/// Streak freezes through two servers of one service, on both engines: bought as a consumable,
/// spent one per missed day when the next daily word is won (all the days missed, or none),
/// shown with the days they covered, and taken back by a refund as far as they are held.
@Suite struct StreakFreezeTests {
    typealias Service = DailyWordTests.Service
    static let freeze = ProductID(rawValue: "com.hangmanpacks.streak.freeze")!

    /// Wins today's daily word: a throw-away account learns it, then `player` types its letters.
    private func winToday(_ service: Service, _ player: HTTPPackService) async throws {
        let learner = try await service.first.newClient()
        let started = try await learner.startGame(GameRequest(daily: true))
        let word = try #require(try await learner.abandonGame(started.id).word)
        var game = try await player.startGame(GameRequest(daily: true))
        var seen = Set<Character>()
        for letter in word.lowercased() where letter.isLetter && seen.insert(letter).inserted && game.state == .playing {
            game = try await player.guess(game: game.id, String(letter))
        }
        #expect(game.state == .won)
    }

    @Test(arguments: DailyWordTests.Engine.allCases)
    func aFreezeCoversAMissedDayWhenTheNextWordIsWon(_ engine: DailyWordTests.Engine) async throws {
        let service = try Service(engine)
        let ana = try await service.first.newClient()
        guard case .purchased(let bought) = try await ana.buy(Self.freeze, quantity: 2) else { Issue.record("not purchased"); return }
        var second = ana.credentials
        second.service = service.second.url
        second.addresses = [service.second.url]
        let onSecond = HTTPPackService(credentials: second)
        #expect(try await onSecond.daily(language: nil).streakFreezes == 2)
        try await winToday(service, ana)  // 2026-12-02
        service.advance(days: 2)  // 12-03 missed
        let kept = try await onSecond.daily(language: nil)
        #expect(kept.currentStreak == 1 && kept.streakFreezes == 2 && kept.coveredDays == [], "the streak held over a day a freeze can cover")
        try await winToday(service, onSecond)  // 2026-12-04
        let covered = try await ana.daily(language: nil)
        #expect(covered.currentStreak == 2 && covered.streakFreezes == 1 && covered.coveredDays == ["2026-12-03"], "\(covered)")
        // Two days missed, one freeze: the streak is lost and the freeze kept.
        service.advance(days: 3)
        #expect(try await ana.daily(language: nil).currentStreak == 0)
        try await winToday(service, ana)  // 2026-12-07
        let restarted = try await ana.daily(language: nil)
        #expect(restarted.currentStreak == 1 && restarted.streakFreezes == 1 && restarted.coveredDays == ["2026-12-03"], "\(restarted)")
        // A refund takes back what is held of what was bought: the one spent stays spent.
        _ = try await ana.refund(bought.id)
        #expect(try await onSecond.daily(language: nil).streakFreezes == 0)
        // A refund reversed gives back what it took, once.
        _ = try await ana.decideRefund(bought.id, .reverse)
        #expect(try await onSecond.daily(language: nil).streakFreezes == 1)
        #expect(await (try? ana.decideRefund(bought.id, .reverse)) != nil)
        #expect(try await ana.daily(language: nil).streakFreezes == 1)
    }
}
