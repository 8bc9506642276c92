import PackServiceAPI

/// A served game's answer as `hangman play --plain` prints a game (``PlainGameText``): `GAME`, then
/// the move (`HIT e 1`, `MISS x`, `SOLVED`, `WRONG word`, `REPEAT e`, `HINT e`), then `STATE ...`
/// while it is played, or `WON word score=N` / `LOST word` and `CLUE ...` at its end. For
/// `Accept: text/plain`, so that a script or `curl` plays the served loop as `hangman play --plain` does.
public enum ServedGamePlainText {
    /// The lines answering one request: `opening` starts with the `GAME` line (a start or resume).
    public static func lines(_ game: ServedGame, opening: Bool) -> [String] {
        var lines: [String] = []
        let board = game.board
        if opening {
            lines.append(
                PlainGameText.opening(
                    id: game.id, pack: game.pack.rawValue, category: game.category, letters: game.letters, lives: game.lives, hints: game.hints,
                    resumed: game.resumed == true, hard: game.hard == true))
        }
        if let move = game.move {
            lines.append(move.kind == .hint ? PlainGameText.hint(move.text) : game.outcome.flatMap(PlainGameText.move) ?? "")
        }
        lines += board.status == .playing ? [PlainGameText.state(board, hints: game.hints)] : PlainGameText.end(board)
        return lines
    }

    /// A refusal, as the plain format says one: `INVALID why` for a guess the game refuses,
    /// `NOHINTS` with no hint left, `ERROR kind message` for anything else.
    public static func refusal(_ error: ServiceError) -> String {
        switch error.kind {
        case .invalidRequest: PlainGameText.refusal("INVALID", error.message)
        case .notEnoughHints: PlainGameText.refusal("NOHINTS", error.message)
        default: PlainGameText.refusal("ERROR \(error.kind.rawValue)", error.message)
        }
    }
}
