import Device
import HangmanGame

/// Draws a game: on a terminal, a gallows, colour and a redrawn screen; otherwise (or with
/// `--plain`) one line per state in a stable format that a script or a screen reader can follow.
struct GameScreen {
    let context: CommandContext
    let plain: Bool
    let colour: Bool

    /// The plain format, documented in `hangman play --help`.
    static let plainFormat = """
        PLAIN FORMAT (not a terminal, or --plain): one line each, fields separated by spaces:
          GAME pack=<id> category="<name>" letters=<n> lives=<n> hints=<n> [resumed]
          STATE word="<masked>" lives=<left>/<n> used="<letters>" hints=<n>
          HIT <letter> <count> | MISS <letter> | SOLVED | WRONG <word> | REPEAT <guess> | INVALID <why>
          HINT <letter> | NOHINTS <product> | BOUGHT <hints> | BUYFAILED <why> | HELP <text>
          WON <word> score=<n> | LOST <word> | CLUE <text> | SAVED | AGAIN?
        Then one line of input is read: a letter, a word, ?, hint, buy, help or quit (AGAIN? takes y or n).
        """

    /// `text` in colour (escaped first: the colour's sequences are the only ones that reach the terminal).
    private func paint(_ text: String, _ code: String) -> TerminalText {
        colour ? "\u{1B}[\(TerminalText(trusted: code))m\(text)\u{1B}[0m" : "\(text)"
    }

    /// `text` in double quotes, with `"` and `\` escaped, and escaped like any text.
    static func quoted(_ text: String) -> TerminalText {
        var out = "\""
        for character in text {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return TerminalText(escaping: out + "\"")
    }

    func begin(_ session: GameSession, hints: Int) {
        guard plain else { return }
        let resumed: TerminalText = session.isResumed ? " resumed" : ""
        context.out("GAME pack=\(session.word.pack) category=\(Self.quoted(session.word.category)) letters=\(session.game.letterCount) lives=\(session.game.lives) hints=\(hints)\(resumed)")
    }

    /// The state, and the last event's message.
    func show(_ session: GameSession, hints: Int, event: TerminalText?, eventPlain: TerminalText?) {
        let game = session.game
        if plain {
            if let eventPlain { context.out(eventPlain) }
            if game.status == .playing {
                context.out("STATE word=\(Self.quoted(game.masked)) lives=\(game.livesLeft)/\(game.lives) used=\(Self.quoted(used(game))) hints=\(hints)")
            }
            return
        }
        var lines: [TerminalText] = []
        lines.append("\u{1B}[H\u{1B}[2J")  // home, clear
        lines.append("  \(paint("HANGMAN", "1"))  \(session.word.packName) · \(session.word.category)      Hints: \(hints)")
        lines.append("")
        for row in Gallows.rows(misses: game.misses, lives: game.lives) { lines.append("     \(paint(row, game.status == .lost ? "31" : "0"))") }
        lines.append("")
        let cells = game.masked.split(separator: " ", omittingEmptySubsequences: false).map { cell -> TerminalText in
            cell == "_" ? paint("_", "2") : paint(String(cell), game.status == .lost ? "31" : "1;32")
        }
        lines.append("     \(TerminalText(trusted: cells.map(\.text).joined(separator: " ")))")
        lines.append("")
        let hearts = String(repeating: "♥", count: game.livesLeft) + String(repeating: "♡", count: game.lives - game.livesLeft)
        lines.append("  Lives: \(paint(hearts, "31")) (\(game.livesLeft)/\(game.lives))     Used: \(used(game).isEmpty ? "-" : used(game))")
        lines.append("")
        if let event { lines.append("  \(event)") }
        context.out(.lines(lines))
    }

    func prompt() {
        guard !plain else { return }
        context.out("  Guess a letter or the word (? hint, buy, help, quit): ", terminator: "")
    }

    func say(_ text: TerminalText, plain plainText: TerminalText) {
        context.out(plain ? plainText : text.text.hasPrefix("\n") ? text : "  \(text)")
    }

    func end(_ session: GameSession) {
        let game = session.game
        if plain {
            context.out(game.status == .won ? "WON \(game.word) score=\(game.score)" : "LOST \(game.word)")
            if let clue = game.clue { context.out("CLUE \(clue)") }
            context.out("AGAIN?")
            return
        }
        let verdict: TerminalText = game.status == .won
            ? "\(paint("You won!", "1;32")) The word was \(paint(game.word, "1")). Score: \(game.score)."
            : "\(paint("You lost.", "1;31")) The word was \(paint(game.word, "1"))."
        context.out("  \(verdict)")
        if let clue = game.clue { context.out("  \(paint(clue, "3"))") }
        context.out("  Play again? [Y/n] ", terminator: "")
    }

    private func used(_ game: Game) -> String {
        (game.guesses + game.hinted).joined(separator: " ")
    }
}

/// The gallows, drawn in as many steps as there are lives.
enum Gallows {
    static let stages: [[String]] = [
        ["  +---+", "  |   |", "      |", "      |", "      |", "      |", "========="],
        ["  +---+", "  |   |", "  O   |", "      |", "      |", "      |", "========="],
        ["  +---+", "  |   |", "  O   |", "  |   |", "      |", "      |", "========="],
        ["  +---+", "  |   |", "  O   |", " /|   |", "      |", "      |", "========="],
        ["  +---+", "  |   |", "  O   |", " /|\\  |", "      |", "      |", "========="],
        ["  +---+", "  |   |", "  O   |", " /|\\  |", " /    |", "      |", "========="],
        ["  +---+", "  |   |", "  O   |", " /|\\  |", " / \\  |", "      |", "========="],
    ]

    static func rows(misses: Int, lives: Int) -> [String] {
        let stage = lives <= 0 ? 6 : min(6, (misses * 6 + lives - 1) / lives)
        return stages[stage]
    }
}
