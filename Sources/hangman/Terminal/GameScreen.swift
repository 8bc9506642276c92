import Device
import HangmanGame
import Messages
import SystemCalls
import TerminalText
import WordPacks

/// Draws a game in one of three ways:
/// - `.fullScreen`: a terminal that takes escape sequences: the alternate screen, redrawn in
///   place, fitted to the window's width and height (colour unless `NO_COLOR`);
/// - `.text`: a terminal that takes none (`TERM=dumb`): the same board as plain text, printed
///   again after each move, with no escape sequence at all;
/// - `.plain`: not a terminal, or `--plain`: one line per state in a stable format that a script
///   or a screen reader can follow.
struct GameScreen {
    enum Style: Equatable {
        case fullScreen(colour: Bool)
        case text
        case plain
    }

    let context: CommandContext
    let style: Style

    var plain: Bool { style == .plain }

    var isFullScreen: Bool {
        if case .fullScreen = style { return true }
        return false
    }

    /// Enters the alternate screen (`.fullScreen`): what is on the screen now stays as it was.
    static let enterScreen = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
    /// Leaves it, and shows the cursor (put back by the terminal handlers too, on Ctrl-Z or a crash).
    /// The board is erased first: tmux reflows the alternate screen to the width the game started
    /// at before leaving it, and lines wider than that would spill into the scrollback.
    static let leaveScreen = "\u{1B}[H\u{1B}[2J\u{1B}[?25h\u{1B}[?1049l"

    /// The plain format, documented in `hangman play --help`.
    static let plainFormat = """
        PLAIN FORMAT (not a terminal, or --plain): a line each, fields by spaces.
        Written:
          GAME [id=<id>] pack=<id> category="<name>" letters=<n> lives=<n>
              hints=<n> [resumed] [offline] [hard]
              (id: a game the pack server plays, the word kept there;
              hard: hard mode, the word not chosen yet;
              offline: the pack server cannot be reached; hints=<n> is the
              last balance it signed, or ? when there is none)
          STATE word="<masked>" lives=<left>/<n> used="<letters>" hints=<n>
          HIT <letter> <count> | MISS <letter> | SOLVED | WRONG <word>
              | REPEAT <guess> | INVALID <why>
          HINT <letter> | NOHINTS <product> | NOSERVICE | SIGNEDOUT
              | BOUGHT <hints> | BUYFAILED <why> | HELP <text>
          WON <word> score=<n> | LOST <word> | CLUE <text>
              | SUGGEST <product> <text> | SAVED | AGAIN?
          ASK <question> (buy, when standard input is a terminal: y buys)
        Read, a line each: a letter, a word, ?, hint, buy, buy!, help or quit;
        AGAIN? and ASK take y or n. Through a pipe, buy buys only as buy! or
        with --yes. A word that is also a command is guessed with a leading =:
        =quit guesses the word "quit".
        """

    /// The window's width and height: the terminal's own, else `COLUMNS`/`LINES`, else 80 x 24.
    var size: (columns: Int, rows: Int?) {
        if let window = RawTerminal.windowSize(of: .output) { return (window.columns, window.rows > 0 ? window.rows : nil) }
        return (context.environment["COLUMNS"].flatMap { Int($0) } ?? 80, context.environment["LINES"].flatMap { Int($0) })
    }

    func begin(_ session: any PlayedGame, hints: Int?, offline: Bool) {
        guard plain else { return }
        let board = session.board
        line(
            PlainGameText.opening(
                id: session.servedID, pack: session.pack.rawValue, category: session.category, letters: board.letterCount, lives: board.lives,
                hints: hints, resumed: session.isResumed, offline: offline, hard: (session as? ServedSession)?.game.hard == true))
    }

    /// A line of the plain format (``PlainGameText``, which escapes what it writes).
    func line(_ text: String) {
        context.out(TerminalText(trusted: text))
    }

    /// The state, and the last event's message: the whole screen, or plain lines.
    func show(_ view: GameView, eventPlain: TerminalText?) {
        let game = view.game
        switch style {
        case .plain:
            if let eventPlain { context.out(eventPlain) }
            if game.status == .playing { line(PlainGameText.state(game, hints: view.hints)) }
        case .text:
            let lines = GameLayout.lines(view, width: size.columns, keys: false)
            context.out(TerminalText(trusted: "\n" + lines.map(\.text).joined(separator: "\n")))
        case .fullScreen(let colour):
            let window = size
            let lines = GameLayout.lines(view, width: window.columns, height: window.rows, keys: true)
            // Home, each line over the old one (erasing its rest), then erase what is below.
            var out = "\u{1B}[H"
            for (index, line) in lines.enumerated() {
                if index > 0 { out += "\r\n" }
                if colour, let code = line.style, !line.text.isEmpty {
                    let body = line.text.drop { $0 == " " }
                    out += String(line.text.prefix(line.text.count - body.count)) + "\u{1B}[\(code)m" + body + "\u{1B}[0m"
                } else {
                    out += line.text
                }
                out += "\u{1B}[K"
            }
            out += "\u{1B}[J"
            context.out(TerminalText(trusted: out), terminator: "")
        }
    }

    /// Erases the whole screen (`.fullScreen`), before drawing for a new window size.
    func clear() {
        guard isFullScreen else { return }
        context.out(TerminalText(trusted: "\u{1B}[H\u{1B}[2J"), terminator: "")
    }

    /// The line-mode prompt (`.text`).
    func prompt() {
        guard style == .text else { return }
        context.out("> ", terminator: "")
    }

    /// A line said between games or at the end (`.text` and `.plain` only: the full screen says
    /// it on its board).
    func say(_ text: TerminalText, plain plainText: TerminalText) {
        context.out(plain ? plainText : text)
    }

    /// The end of a game in plain or text form; on the full screen the board shows it.
    /// The free tier's suggestion follows the verdict (`SUGGEST <product> <text>` in plain form).
    func end(_ session: any PlayedGame, suggestion: PackSuggestion.Line? = nil, askingAgain: Bool = true) {
        let game = session.board
        switch style {
        case .plain:
            for text in PlainGameText.end(game) { line(text) }
            if let suggestion { context.out("SUGGEST \(suggestion.productID.rawValue) \(suggestion.text)") }
            if askingAgain { context.out("AGAIN?") }
        case .text:
            for line in GameLayout.verdict(game) { context.out(TerminalText(trusted: line)) }
            if let suggestion { context.out(suggestion.text) }
            if askingAgain { context.out(TerminalText(escaping: L10n.text("Play again? [Y/n]") + " "), terminator: "") }
        case .fullScreen:
            break
        }
    }
}

/// The gallows, drawn in as many steps as there are lives: the classic stick figure, what the
/// game draws without a theme (`Packs/theme-classic` holds the same drawings as a pack, each line
/// padded to the drawing's width).
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

    /// The short windows' version: three lines.
    static let smallStages: [[String]] = [
        ["|     ", "|     ", "|_____"],
        ["|  O  ", "|     ", "|_____"],
        ["|  O  ", "|  |  ", "|_____"],
        ["|  O  ", "| /|  ", "|_____"],
        ["|  O  ", "| /|\\ ", "|_____"],
        ["|  O  ", "| /|\\ ", "|_/___"],
        ["|  O  ", "| /|\\ ", "|_/_\\_"],
    ]

    /// The stick figure as a theme's drawings.
    static let classic = ThemeFrames(name: "Classic", frames: stages, smallFrames: smallStages)

    static func rows(misses: Int, lives: Int) -> [String] {
        classic.frame(misses: misses, lives: lives)
    }
}
