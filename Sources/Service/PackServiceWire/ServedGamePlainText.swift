import PackServiceAPI

/// A served game's answer as `hangman play --plain` prints a game: `GAME`, then the move (`HIT e 1`,
/// `MISS x`, `SOLVED`, `WRONG word`, `REPEAT e`, `HINT e`), then `STATE ...` while it is played, or
/// `WON word score=N` / `LOST word` and `CLUE ...` at its end. For `Accept: text/plain`, so that a
/// script or `curl` plays the served loop as `hangman play --plain` does.
public enum ServedGamePlainText {
    /// The lines answering one request: `opening` starts with the `GAME` line (a start or resume).
    public static func lines(_ game: ServedGame, opening: Bool) -> [String] {
        var lines: [String] = []
        let hints = game.hints.map(String.init) ?? "?"
        if opening {
            lines.append(
                "GAME id=\(game.id) pack=\(game.pack) category=\(quoted(game.category)) letters=\(game.letters) lives=\(game.lives) hints=\(hints)"
                    + (game.resumed == true ? " resumed" : ""))
        }
        if let move = game.move {
            switch move.kind {
            case .hit: lines.append("HIT \(move.text) \(move.count ?? 1)")
            case .miss: lines.append("MISS \(move.text)")
            case .solved: lines.append("SOLVED")
            case .wrongWord: lines.append("WRONG \(move.text)")
            case .repeated: lines.append("REPEAT \(move.text)")
            case .hint: lines.append("HINT \(move.text)")
            }
        }
        switch game.state {
        case .playing:
            let used = (game.guessed + game.hinted).sorted().joined(separator: " ")
            lines.append("STATE word=\(quoted(game.masked)) lives=\(game.livesLeft)/\(game.lives) used=\(quoted(used)) hints=\(hints)")
        case .won:
            lines.append("WON \(game.word ?? "") score=\(game.score ?? 0)")
        case .lost, .abandoned:
            lines.append("LOST \(game.word ?? "")")
        }
        if game.isOver, let clue = game.clue { lines.append("CLUE \(clue)") }
        return lines
    }

    /// A refusal, as the plain format says one: `INVALID why` for a guess the game refuses,
    /// `NOHINTS` with no hint left, `ERROR kind message` for anything else.
    public static func refusal(_ error: StoreError) -> String {
        switch error.kind {
        case .invalidRequest: "INVALID \(error.message)"
        case .notEnoughHints: "NOHINTS \(error.message)"
        default: "ERROR \(error.kind.rawValue) \(error.message)"
        }
    }

    /// Quoted as the plain format quotes: `"` and `\` escaped, control characters shown as `\u{..}`.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" {
                out += "\\" + String(scalar)
            } else if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
