import Foundation
import PackServer
import PackServiceClient
import Seller
import Synchronization
import Testing
import TestSupport

/// Challenges between friends through two servers of one service, on both engines: the server's
/// choice played by both and compared, a word of one's own played by the friend alone, hard mode
/// for both, nobody else's, and expiry.
@Suite struct ChallengeTests {
    typealias Service = DailyWordTests.Service

    /// Two friends named Ana and Ben, each on another server.
    private func friends(_ service: Service) async throws -> (ana: HTTPPackService, ben: HTTPPackService) {
        let ana = try await service.first.newClient()
        let ben = try await service.second.newClient()
        _ = try await ana.setDisplayName("Ana")
        _ = try await ben.setDisplayName("Ben")
        let invite = try await ana.inviteFriend()
        _ = try await ben.addFriend(code: invite.code)
        return (ana, ben)
    }

    /// Plays the challenge `id` with the letters in English's order until it ends.
    private func play(_ client: HTTPPackService, challenge id: String) async throws -> ServedGame {
        var game = try await client.startGame(GameRequest(challenge: id))
        #expect(game.challenge == id && game.word == nil)
        for letter in "etaoinshrdlcumwfgypbvkjxqzäöüßéèàçñãõ" where game.state == .playing {
            game = try await client.guess(game: game.id, String(letter))
        }
        return game
    }

    @Test(arguments: DailyWordTests.Engine.allCases)
    func bothPlayTheServersChoiceAndSeeTheirResultsSideBySide(_ engine: DailyWordTests.Engine) async throws {
        let service = try Service(engine)
        let (ana, ben) = try await friends(service)
        let set = try await ana.challenge(ChallengeRequest(friend: "ben"))
        #expect(set.from == "Ana" && set.to == "Ben" && set.sent && set.state == .toPlay && set.word == nil && set.letters > 1)
        // Ben sees it, nothing of Ana's yet.
        let received = try #require(try await ben.challenges().first)
        #expect(received.id == set.id && !received.sent && received.state == .toPlay && received.them == nil)
        let bens = try await play(ben, challenge: set.id)
        #expect(bens.isOver)
        let waiting = try #require(try await ben.challenges().first)
        #expect(waiting.state == .waiting && waiting.you?.state == bens.state && waiting.them == nil && waiting.word == bens.word)
        // Ana has not played: Ben's result is not shown to her yet.
        #expect(try await ana.challenges().first?.them == nil)
        let anas = try await play(ana, challenge: set.id)
        #expect(anas.word == bens.word, "one word for both")
        let done = try #require(try await ana.challenges().first)
        #expect(done.state == .done && done.you?.score == (anas.score ?? 0) && done.them?.score == (bens.score ?? 0))
        #expect(try await ben.challenges().first?.them?.state == anas.state)
        // Played once: the start answers the ended game.
        let again = try await ana.startGame(GameRequest(challenge: set.id))
        #expect(again.id == anas.id && again.isOver)
        // Nobody else's: a stranger neither sets one for Ana nor plays hers.
        let cai = try await service.first.newClient()
        let notFriend = await refusal { () async throws(ServiceError) in _ = try await cai.challenge(ChallengeRequest(friend: "Ana")) }
        #expect(notFriend?.kind == .notFound)
        let notTheirs = await refusal { () async throws(ServiceError) in _ = try await cai.startGame(GameRequest(challenge: set.id)) }
        #expect(notTheirs?.kind == .notFound)
    }

    @Test(arguments: DailyWordTests.Engine.allCases)
    func aWordOfOnesOwnIsPlayedByTheFriendAlone(_ engine: DailyWordTests.Engine) async throws {
        let service = try Service(engine)
        let (ana, ben) = try await friends(service)
        let set = try await ana.challenge(ChallengeRequest(friend: "Ben", word: "Zebra"))
        #expect(set.ownWord == true && set.letters == 5 && set.state == .waiting && set.word == "zebra")
        let own = await refusal { () async throws(ServiceError) in _ = try await ana.startGame(GameRequest(challenge: set.id)) }
        #expect(own?.kind == .wrongState)
        let bens = try await play(ben, challenge: set.id)
        #expect(bens.word == "zebra")
        let seen = try #require(try await ana.challenges().first)
        #expect(seen.state == .done && seen.them?.state == bens.state && seen.you == nil)
        // A word that is none, or not of its language, is refused with a sentence.
        for (word, language) in [("x", "en"), ("h4ck", "en"), ("жук", "en"), ("a  b", "en")] {
            let refused = await refusal { () async throws(ServiceError) in _ = try await ana.challenge(ChallengeRequest(friend: "Ben", word: word, language: language)) }
            #expect(refused?.kind == .invalidRequest, "\(word): \(String(describing: refused))")
        }
        let german = try await ana.challenge(ChallengeRequest(friend: "Ben", word: "Bär", language: "de"))
        #expect(german.language == "de" && german.letters == 3)
    }

    @Test(arguments: DailyWordTests.Engine.allCases)
    func aHardChallengeIsHardForBothAndAChallengeExpiresAfterAWeek(_ engine: DailyWordTests.Engine) async throws {
        let service = try Service(engine)
        let (ana, ben) = try await friends(service)
        let hard = try await ana.challenge(ChallengeRequest(friend: "Ben", hard: true))
        #expect(hard.hard == true)
        let bens = try await ben.startGame(GameRequest(challenge: hard.id))
        let anas = try await ana.startGame(GameRequest(challenge: hard.id))
        #expect(bens.hard == true && anas.hard == true && bens.masked == anas.masked)
        // The challenge's game is beside the live game, not in its place.
        let live = try await ana.startGame(GameRequest())
        #expect(live.id != anas.id && live.challenge == nil)
        let other = try await ana.challenge(ChallengeRequest(friend: "Ben"))
        service.advance(days: 8)
        let late = await refusal { () async throws(ServiceError) in _ = try await ben.startGame(GameRequest(challenge: other.id)) }
        #expect(late?.kind == .wrongState)
        #expect(try await ben.challenges().isEmpty)
    }
}
