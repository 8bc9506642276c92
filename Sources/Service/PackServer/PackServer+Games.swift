import HTTPServer
import Messages
import PackServiceWire
import Seller

/// Served games over HTTP: JSON, or with `Accept: text/plain` the lines of `hangman play --plain`.
extension PackServer {
    func game(_ request: HTTPRequest, _ route: Route, id: String, account: String, service: AccountService) throws(ServiceError) -> HTTPResponse {
        let plain = Self.acceptsPlainText(request)
        do throws(ServiceError) {
            let game: ServedGame?
            switch route {
            case .startGame:
                let asked = request.body.isEmpty ? GameRequest() : try API.startGame.body(of: request.body)
                if asked.seed != nil, !configuration.testControls {
                    throw ServiceError(
                        .invalidRequest, L10n.text("a seed makes the word predictable: only a sandbox server with test controls takes one (--seed is for tests)"))
                }
                if let challenge = asked.challenge {
                    guard asked.packs.isEmpty, asked.category == nil, asked.lives == nil, asked.seed == nil, !asked.daily, !asked.hard, !asked.new else {
                        throw ServiceError(.invalidRequest, L10n.text("a challenge's word is set: it takes no packs, category, lives, seed, daily, hard or new"))
                    }
                    game = try service.startChallenge(try seller.challengeToPlay(challenge, account: account, now: configuration.clock.now()))
                } else {
                    game = try service.startGame(asked, seed: asked.seed)
                }
            case .currentGame:
                game = try service.currentGame()
            case .game:
                game = try service.game(id)
            case .guess:
                game = try service.guess(id, try API.guess.body(of: request.body).guess)
            case .gameHint:
                guard let key = request.header(Wire.idempotencyHeader) else {
                    throw ServiceError(.invalidRequest, L10n.text("a hint needs an %s header, so that a retry does not pay twice", Wire.idempotencyHeader))
                }
                game = try service.hint(id, key: key)
            case .abandonGame:
                game = try service.abandonGame(id)
            default:
                throw ServiceError(.notFound, L10n.text("no such resource: %s %s", request.method, request.path))
            }
            if let game, game.challenge != nil, game.isOver {
                // Written again by the account's next list of challenges if this fails.
                try? seller.recordChallengeResult(game, account: account)
            }
            let status = route == .startGame && game?.resumed != true ? 201 : 200
            guard let game else {
                if plain { return .text(404, "NOGAME no game is being played: POST /v1/games starts one") }
                throw ServiceError(.notFound, L10n.text("no game is being played on this account: POST /v1/games starts one"))
            }
            if plain {
                return .text(status, ServedGamePlainText.lines(game, opening: route == .startGame || route == .currentGame || route == .game).joined(separator: "\n"))
            }
            // Every game route answers a ServedGame (``API/startGame`` and its neighbours).
            return .json(status, try API.game.answer(game))
        } catch where plain {
            return .text(Self.failure(error).status, ServedGamePlainText.refusal(error))
        }
    }

    /// `POST /v1/challenges`: the friend's packs read from the friend's store, then the word drawn
    /// on the challenger's, one store at a time (two challengers of each other never wait on each
    /// other), then the challenge kept across the service.
    func createChallenge(_ request: HTTPRequest, account: String) throws(ServiceError) -> HTTPResponse {
        let asked = try API.createChallenge.body(of: request.body)
        let friend = try seller.friendID(of: account, named: asked.friend)
        let friendPacks =
            asked.word != nil
            ? [] : try stores.with(friend, open: { () throws(ServiceError) in try store(for: friend) }) { service throws(ServiceError) in try service.playablePackIDs() }
        let word = try stores.with(account, open: { () throws(ServiceError) in try store(for: account) }) { service throws(ServiceError) in
            try service.challengeWord(asked, friendPacks: friendPacks)
        }
        let challenge = try seller.createChallenge(word, from: account, to: friend, now: configuration.clock.now())
        var response = HTTPResponse.json(201, try API.createChallenge.answer(challenge))
        response.logAccount = account
        return response
    }

    /// `GET /v1/challenges`.
    func challenges(account: String, service: AccountService) throws(ServiceError) -> HTTPResponse {
        let list = try seller.challenges(of: account, now: configuration.clock.now()) { id throws(ServiceError) in try service.challengeGame(id) }
        return .json(200, try API.challenges.answer(list))
    }

    /// Whether the client asked for text (`Accept: text/plain`, before any JSON it also takes).
    static func acceptsPlainText(_ request: HTTPRequest) -> Bool {
        guard let accept = request.header("Accept")?.lowercased() else { return false }
        let types = accept.split(separator: ",").map { type in
            String(type.split(separator: ";").first ?? "").filter { $0 != " " && $0 != "\t" }
        }
        guard let text = types.firstIndex(of: "text/plain") else { return false }
        return types.firstIndex(of: "application/json").map { text < $0 } ?? true
    }
}
