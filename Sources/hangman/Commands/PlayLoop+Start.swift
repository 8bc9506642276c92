import Device
import HangmanGame
import Messages
import PackServiceAPI
import TerminalText
import WordPacks

/// Where this `hangman play` plays: the day's word on its service, served games on the account's
/// pack server, or games on this device in a seat of their own.
extension PlayLoop {
    /// Opens the games before the screen does: the daily word's service (or its refusal), the
    /// first served game, or a seat on this device (with what it says of saved games). `fresh`
    /// is cleared once a first game has used it.
    func openGames(fresh: inout Bool, generator: inout SeededGenerator) async throws -> GameSeat? {
        if daily {
            // The pack server's daily word, or the embedded store's own: never a local game.
            dailyGames = try player.dailyWordService()
            return nil
        }
        // A home bound to a pack server that answers plays served games: the word stays there.
        // The embedded store, and a server out of reach, play on this device; and a game started
        // here while the server was away is finished here first (it counts on no leaderboard).
        let offlineGameWaits = !fresh && player.gameService != nil && requestedPacks.isEmpty && (try? player.device.hasSavedGame(playable: playable)) == true
        if offlineGameWaits {
            screen.context.error(
                TerminalText(
                    escaping: L10n.text(
                        "Resuming the game you started on this device while the pack server was away: it is finished here and counts on no leaderboard ('hangman play --new' starts a served game instead).")))
        }
        if !offlineGameWaits, let games = player.gameService {
            // The first game is asked for before the screen opens: a server that no longer knows
            // this device (a revoked token, a closed account) or that went away since the home
            // opened leaves the packs installed here to play.
            do {
                if !fresh { fresh = try await liveGameConflicts(games) }
                firstGame = try await start(seat: nil, fresh: fresh, generator: &generator)
                fresh = false
                return nil
            } catch let error as PlayerError {
                guard case .store(let failure) = error, [.unauthorized, .unavailable].contains(failure.kind) else { throw error }
            } catch let failure as ServiceError where [.unauthorized, .unavailable].contains(failure.kind) {}
        }
        let taken = try player.takeSeat(playable: playable)
        if !taken.setAside.isEmpty {
            let names = taken.setAside.joined(separator: ", ")
            screen.context.error(
                TerminalText(
                    escaping: L10n.plural(
                        "Your saved game from %s is kept, not resumed: this account may not play that pack now (see 'hangman packs'). This is a new game from the packs you may play.",
                        "Your saved games from %s are kept, not resumed: this account may not play those packs now (see 'hangman packs'). This is a new game from the packs you may play.",
                        taken.setAside.count, shown: names)))
        }
        if taken.passedOverSavedGame && !fresh {
            screen.context.error(TerminalText(escaping: L10n.text("Your saved game is open in another 'hangman play': this is a new game beside it.")))
        }
        if !fresh {
            let conflicts = try savedGameConflicts(taken)
            if !conflicts.isEmpty { fresh = try decideOnConflicts(conflicts) }
        }
        return taken
    }

    /// The game to play next: the day's word, on this device in `seat`, or served by the
    /// account's pack server.
    func start(seat: GameSeat?, fresh: Bool, generator: inout SeededGenerator) async throws -> (any PlayedGame)? {
        if let firstGame {
            self.firstGame = nil
            return firstGame
        }
        if let games = dailyGames {
            let game: ServedGame
            do {
                game = try await DailyLanguage.choose(language) { (tag: String?) async throws(ServiceError) -> ServedGame in
                    try await games.startGame(GameRequest(daily: true, language: tag, date: dailyDate, hard: hard))
                }
            } catch {
                let failure: ServiceError = error
                // Played already today: the store's refusal, said as such (69).
                guard failure.kind == .wrongState else { throw failure }
                throw CommandFailure(code: .storeRefused, message: failure.message)
            }
            return ServedSession(game: game, service: games)
        }
        if let challenge {
            return try await player.startServedGame(GameRequest(challenge: challenge))
        }
        guard let seat else {
            let served = try await player.startServedGame(
                requested: requestedPacks, playing: packs, category: category, lives: requestedLives, new: fresh, seed: seed, hard: hard)
            if hard, served.game.resumed == true, served.game.hard != true {
                screen.context.error(TerminalText(escaping: L10n.text("Your game in progress is resumed, in normal mode: 'hangman play --hard --new' gives it up and starts a hard one.")))
            }
            return served
        }
        if hard {
            throw CommandFailure(
                code: .storeRefused,
                message: L10n.text(
                    "hard mode is played on a pack server, which keeps the words it has not ruled out: a game on this device would hold them (see '%s')",
                    "hangman account login"))
        }
        return try player.startGame(seat: seat, packs: packs, category: category, lives: lives, fresh: fresh, using: &generator)
    }

    /// Why no game could start: no words in the category asked for, or none installed.
    func noWords() -> CommandFailure {
        if let category {
            var names: [String] = []
            for name in packs.flatMap({ $0.categories.map(\.name) }) where !names.contains(name) { names.append(name) }
            return CommandFailure.usage(
                "no words in category '\(category)' of the chosen packs" + (names.isEmpty ? "" : ": their categories are " + names.map { "'\($0)'" }.joined(separator: ", ")))
        }
        let names = ProductNames(playerContext.catalog)
        let free = playerContext.catalog.basePacks.map { "'hangman install \(names.shortName(of: $0.productID))' (\($0.displayName), free)" }
        // A damaged free pack is the store's to fix: say so rather than send the player round in circles.
        let damaged = playerContext.catalog.unavailableBasePacks.map { "the free pack \($0.reason): it comes back when the store publishes it again" }
        return CommandFailure(
            code: .notEntitled,
            message: "no words installed: " + (damaged.isEmpty ? "" : damaged.joined(separator: "; ") + "; ")
                + (free.isEmpty ? "" : free.joined(separator: ", ") + " brings one back; ") + "'hangman restore' brings the packs you own, 'hangman products' lists the rest")
    }
}
