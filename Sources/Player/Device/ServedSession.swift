import HangmanGame
import Messages
import PackServiceAPI

/// A game as `hangman play` plays it: on this device (``GameSession``, the word in the home) or
/// on the account's pack server (``ServedSession``, the word never on the device before the end).
public protocol PlayedGame: AnyObject {
    /// What the player sees now.
    var board: GameBoard { get }
    /// The game was started earlier (on this device, or for a served game on any device) and is resumed.
    var isResumed: Bool { get }
    var pack: ProductID { get }
    var packName: String { get }
    var category: String { get }
    /// A served game's id; `nil` for a game played on this device.
    var servedID: String? { get }
    /// A letter or the whole word.
    func play(_ text: String) async throws -> Game.Outcome
    /// One hint paid and one letter revealed.
    func hint<G: RandomNumberGenerator>(using generator: inout G) async throws -> GameSession.HintOutcome
}

extension GameSession: PlayedGame {
    public var board: GameBoard { game.board }
    public var pack: ProductID { word.pack }
    public var packName: String { word.packName }
    public var category: String { word.category }
    public var servedID: String? { nil }

    public func play(_ text: String) async throws -> Game.Outcome { try guess(text) }
}

/// A game the account's pack server plays: every move is one request and its answer; a hint is
/// paid and its letter revealed by the server in one transaction, under a key made of the game's
/// id and the hint's number, so a retry, or a second device asking for the same hint, pays once.
public final class ServedSession: PlayedGame {
    public private(set) var game: ServedGame
    let service: any GameService

    public init(game: ServedGame, service: any GameService) {
        self.game = game
        self.service = service
    }

    public var board: GameBoard { game.board }
    public var isResumed: Bool { game.resumed == true }
    public var pack: ProductID { game.pack }
    public var packName: String { game.packName }
    public var category: String { game.category }
    public var servedID: String? { game.id }

    /// The server's answer: a guess it refuses is `invalid` with its sentence, a game that ended
    /// elsewhere (another device) is `gameOver` and the board shows how. Anything else (the
    /// server gone) is thrown: the move was not played.
    public func play(_ text: String) async throws -> Game.Outcome {
        let answer: ServedGame
        do {
            answer = try await service.guess(game: game.id, text)
        } catch {
            let failure: ServiceError = error
            if failure.kind == .invalidRequest { return .invalid(failure.message) }
            guard failure.kind == .wrongState else { throw failure }
            try await refresh()
            return .gameOver
        }
        game = answer
        return answer.outcome ?? .repeated(text)
    }

    public func hint<G: RandomNumberGenerator>(using generator: inout G) async throws -> GameSession.HintOutcome {
        guard game.canHint else { return .notNow }
        let key = "\(game.id)-hint-\(game.hinted.count + 1)"
        let answer: ServedGame
        do {
            answer = try await service.hint(game: game.id, idempotencyKey: key)
        } catch {
            let failure: ServiceError = error
            switch failure.kind {
            case .notEnoughHints: return .noHints
            case .unavailable: return .serviceUnavailable(failure)
            case .unauthorized: return .signedOut(failure)
            case .wrongState:
                try await refresh()
                return .notNow
            default: throw failure
            }
        }
        game = answer
        return .revealed(letter: answer.move?.text ?? "?", balance: answer.hints ?? 0)
    }

    /// Gives the game up (it counts as lost); the answer shows the word.
    public func abandon() async throws(ServiceError) {
        game = try await service.abandonGame(game.id)
    }

    /// The game as the server has it now (another device may have moved it on).
    private func refresh() async throws(ServiceError) {
        game = try await service.game(game.id)
    }
}

extension Player {
    /// The account's pack server, when this session plays served games (a home bound to a server
    /// that answers); `nil` for the embedded store and offline.
    public var gameService: (any GameService)? { service.servedGames }

    /// The service the day's word is played on: the account's pack server, or the embedded
    /// store's own daily word (on no board). Refused with a sentence (69) when the server cannot
    /// be reached now (the word, its board and the streak are the service's).
    public func dailyWordService() throws(PlayerError) -> any GameService {
        if let games = service.dailyWords { return games }
        throw .store(ServiceError(
            .unavailable,
            L10n.text("the daily word is played on the pack server, which cannot be reached now: try again when it is back ('hangman play' plays the packs installed here)")))
    }

    /// Starts a served game from the `requested` packs, or, without any, from the packs a game on
    /// this device would draw from (`playing`: installed, playable, in the languages the home
    /// plays), never every pack the account may play on the server: one rule for both places.
    public func startServedGame(
        requested: [ProductID], playing: [InstalledPack], category: String?, lives: Int?, new: Bool, seed: UInt64?, hard: Bool = false
    ) async throws(PlayerError) -> ServedSession {
        let packs = requested.isEmpty ? playing.map(\.productID) : requested
        return try await startServedGame(GameRequest(packs: packs, category: category, lives: lives, new: new, seed: seed, hard: hard))
    }

    /// Starts a served game, or resumes the account's live one (`request.new`: abandons it first).
    public func startServedGame(_ request: GameRequest) async throws(PlayerError) -> ServedSession {
        guard let games = gameService else {
            throw .store(ServiceError(.unavailable, L10n.text("served games need the account's pack server, and this session has none")))
        }
        do {
            return ServedSession(game: try await games.startGame(request), service: games)
        } catch {
            throw .store(error)
        }
    }
}
