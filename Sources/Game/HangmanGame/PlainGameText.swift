import TerminalText

/// The lines of the plain game format (`hangman play --plain`, and a served game's answers to
/// `Accept: text/plain`): one line per state or event, fields by spaces, text quoted. The one
/// place they are written, so that a script reads the same lines from the executable and from `curl`.
public enum PlainGameText {
    /// `GAME [id=<id>] pack=<id> category="<name>" letters=<n> lives=<n> hints=<n|?> [resumed] [offline] [hard]`
    /// (`id`: a served game's).
    public static func opening(
        id: String? = nil, pack: String, category: String, letters: Int, lives: Int, hints: Int?, resumed: Bool, offline: Bool = false,
        hard: Bool = false
    ) -> String {
        (id.map { "GAME id=\($0) " } ?? "GAME ") + "pack=\(pack) category=\(quoted(category)) letters=\(letters) lives=\(lives) hints=\(count(hints))"
            + (resumed ? " resumed" : "") + (offline ? " offline" : "") + (hard ? " hard" : "")
    }

    /// `STATE word="<masked>" lives=<left>/<n> used="<letters>" hints=<n|?>`
    public static func state(_ board: GameBoard, hints: Int?) -> String {
        "STATE word=\(quoted(board.masked)) lives=\(board.livesLeft)/\(board.lives) used=\(quoted(board.usedLetters.joined(separator: " "))) hints=\(count(hints))"
    }

    /// `HIT <letter> <count>`, `MISS <letter>`, `SOLVED`, `WRONG <word>`, `REPEAT <guess>`,
    /// `INVALID <why>`; nothing for a move on a finished game.
    public static func move(_ outcome: Game.Outcome) -> String? {
        let line: String? =
            switch outcome {
            case .hit(let letter, let count): "HIT \(letter) \(count)"
            case .miss(let letter): "MISS \(letter)"
            case .solved: "SOLVED"
            case .wrongWord(let word): "WRONG \(word)"
            case .repeated(let guess): "REPEAT \(guess)"
            case .invalid(let why): "INVALID \(why)"
            case .gameOver: nil
            }
        return line.map(escaped)
    }

    /// `HINT <letter>`
    public static func hint(_ letter: String) -> String { escaped("HINT \(letter)") }

    /// `WON <word> score=<n>` or `LOST <word>`, then `CLUE <text>` when there is one.
    public static func end(_ board: GameBoard) -> [String] {
        let word = board.word ?? ""
        var lines = [escaped(board.status == .won ? "WON \(word) score=\(board.score)" : "LOST \(word)")]
        if let clue = board.clue, !clue.isEmpty { lines.append(escaped("CLUE \(clue)")) }
        return lines
    }

    private static func count(_ hints: Int?) -> String { hints.map(String.init) ?? "?" }

    /// In double quotes, with `"` and `\` escaped, then escaped as any text from outside is
    /// (`TerminalText`: no control or format character reaches a terminal).
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return TerminalText.escaped(out + "\"")
    }

    /// Every line is escaped as any text from outside is: a word or clue cannot fake a line.
    static func escaped(_ line: String) -> String { TerminalText.escaped(line) }

    /// A refusal's line: its tag (`INVALID`, `NOHINTS`, `ERROR kind`) and its sentence, escaped
    /// as every other line (a refused guess quoted in it cannot fake a line either).
    public static func refusal(_ tag: String, _ message: String) -> String { escaped(tag + " " + message) }
}
