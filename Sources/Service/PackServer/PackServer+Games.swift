import HTTPServer
import PackServiceWire
import Seller

/// Served games over HTTP: JSON, or with `Accept: text/plain` the lines of `hangman play --plain`.
extension PackServer {
    func game(_ request: HTTPRequest, _ route: Route, id: String, service: AccountService) throws(ServiceError) -> HTTPResponse {
        let plain = Self.acceptsPlainText(request)
        do throws(ServiceError) {
            let game: ServedGame?
            switch route {
            case .startGame:
                let asked = request.body.isEmpty ? GameRequest() : try API.startGame.body(of: request.body)
                if asked.seed != nil, !configuration.testControls {
                    throw ServiceError(
                        .invalidRequest, "a seed makes the word predictable: only a sandbox server with test controls takes one (--seed is for tests)")
                }
                game = try service.startGame(asked, seed: asked.seed)
            case .currentGame:
                game = try service.currentGame()
            case .game:
                game = try service.game(id)
            case .guess:
                game = try service.guess(id, try API.guess.body(of: request.body).guess)
            case .gameHint:
                guard let key = request.header(Wire.idempotencyHeader) else {
                    throw ServiceError(.invalidRequest, "a hint needs an \(Wire.idempotencyHeader) header, so that a retry does not pay twice")
                }
                game = try service.hint(id, key: key)
            case .abandonGame:
                game = try service.abandonGame(id)
            default:
                throw ServiceError(.notFound, "no such resource: \(request.method) \(request.path)")
            }
            let status = route == .startGame && game?.resumed != true ? 201 : 200
            guard let game else {
                if plain { return .text(404, "NOGAME no game is being played: POST /v1/games starts one") }
                throw ServiceError(.notFound, "no game is being played on this account: POST /v1/games starts one")
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
