import HangmanGame
import Messages
import SystemCalls
import TerminalText

/// How `hangman play` reads a move: a line (a pipe, `--plain`, `TERM=dumb`), or keys on a
/// terminal, where a letter plays at once and commands are keys that are never letters.
extension PlayLoop {
    /// What the player asked for.
    enum Move: Equatable {
        case guess(String)
        /// Buy hints; `confirmed` when typed as `buy!`, which asks nothing.
        case buy(confirmed: Bool)
        case hint, help, quit
        case endOfInput, interrupted

        /// A line of line mode: a command's name, or a guess (`=WORD` guesses a word that is a command's name).
        static func parse(line: String) -> Move {
            let text = line.trimmingSpaces
            if text.hasPrefix("=") { return .guess(String(text.dropFirst()).trimmingSpaces) }
            switch text.lowercased() {
            case "quit": return .quit
            case "help": return .help
            case "?", "hint": return .hint
            case "buy": return .buy(confirmed: false)
            case "buy!": return .buy(confirmed: true)
            default: return .guess(text)
            }
        }
    }

    /// The next move: one line, or keys until a move is complete (a letter, or a typed word).
    func nextMove(_ view: GameView) -> Move {
        switch input {
        case .lines(let reader):
            switch reader.nextLine() {
            case .line(let line): return Move.parse(line: line)
            case .endOfInput: return .endOfInput
            case .interrupted: return .interrupted
            }
        case .keys(let keys):
            var view = view
            while true {
                switch keys.next() {
                case .interrupted: return .interrupted
                case .endOfInput: return view.entry == nil ? .endOfInput : .quit
                case .continued:
                    RawTerminal.reenter(setup: GameScreen.enterScreen)
                case .resized:
                    screen.clear()
                case .ignored:
                    break
                case .tab:
                    view.event = Self.keysHelp
                case .escape:
                    if view.entry == nil { return .quit }
                    view.entry = nil
                case .enter:
                    if let entry = view.entry {
                        let word = entry.trimmingSpaces
                        if !word.isEmpty { return .guess(word) }
                        view.entry = nil
                    } else {
                        view.entry = ""
                    }
                case .backspace:
                    if view.entry?.isEmpty == false { view.entry?.removeLast() }
                case .character(let character):
                    if view.entry != nil {
                        if (view.entry?.count ?? 0) < 64 { view.entry?.append(character) }
                    } else if character.isLetter {
                        return .guess(String(character))
                    } else if character == "!" {
                        view.entry = ""
                    } else if character == "?" {
                        return .hint
                    } else if character == "$" {
                        return .buy(confirmed: false)
                    } else {
                        view.event = "'\(TerminalText.escaped(String(character)))' is not a letter or a key of the game: Tab shows the keys."
                    }
                }
                screen.show(view, eventPlain: nil)
            }
        }
    }

    /// Asks before an in-game purchase: a key on the full screen (y buys, any other key does not),
    /// a line on a `TERM=dumb` terminal or in plain mode on a terminal (`ASK <question>`, a screen
    /// reader's user is a person). Through a pipe nothing asks: `nil`, and only `buy!` or
    /// `play --yes` buys.
    func confirmBuying(_ question: String, _ view: GameView) -> Bool? {
        switch input {
        case .lines(let reader):
            if screen.style == .plain {
                guard screen.context.inputIsTerminal else { return nil }
                screen.context.out(TerminalText(trusted: "ASK " + TerminalText.escaped(question)))
            } else {
                screen.context.out(TerminalText(trusted: TerminalText.escaped(question) + " "), terminator: "")
            }
            if case .line(let answer) = reader.nextLine() { return Question.isYes(answer) }
            return false
        case .keys(let keys):
            var view = view
            view.event = nil
            view.question = question
            screen.show(view, eventPlain: nil)
            while true {
                let key = keys.next()
                switch key {
                case .character("y"), .character("Y"): return true
                case .continued, .resized:
                    redraw(after: key, view)
                case .ignored: continue
                default: return false
                }
            }
        }
    }

    /// On the full screen, shows what `$` answered without asking (offline, nothing to sell) and
    /// waits for a key that only dismisses it: a `y` typed by reflex is not played as a guess.
    func dismiss(_ message: TerminalText, _ view: GameView) {
        guard case .keys(let keys) = input else { return }
        var view = view
        view.event = nil
        view.question = message.text + " Any key goes on."
        screen.show(view, eventPlain: nil)
        while true {
            let key = keys.next()
            switch key {
            case .continued, .resized: redraw(after: key, view)
            case .ignored: continue
            default: return
            }
        }
    }

    /// After `fg` (raw mode again) or a resize (a clear screen), the question drawn again.
    private func redraw(after key: KeyReader.Key, _ view: GameView) {
        if key == .continued { RawTerminal.reenter(setup: GameScreen.enterScreen) } else { screen.clear() }
        screen.show(view, eventPlain: nil)
    }

    /// Asks for another game: `.guess("")` for yes, `.quit` for no, `.interrupted` on Ctrl-C.
    func again(_ view: GameView) -> Move {
        switch input {
        case .lines(let reader):
            switch reader.nextLine() {
            case .line(let answer) where Question.isYes(answer, emptyIsYes: true): return .guess("")
            case .interrupted: return .interrupted
            default: return .quit
            }
        case .keys(let keys):
            var view = view
            view.question = L10n.text("Play again? [Y/n]")
            screen.show(view, eventPlain: nil)
            while true {
                let key = keys.next()
                switch key {
                case .character("y"), .character("Y"), .enter: return .guess("")
                case .character("n"), .character("N"), .character("q"), .escape, .endOfInput: return .quit
                case .interrupted: return .interrupted
                case .continued, .resized:
                    redraw(after: key, view)
                default: continue
                }
            }
        }
    }
}
