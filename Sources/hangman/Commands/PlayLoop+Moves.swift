import Device
import HangmanGame
import Messages
import PackServiceAPI
import SystemCalls
import TerminalText
import WordPacks

/// A move of the game loop and what it says, and a saved game that another device changed.
extension PlayLoop {
    func savedGameConflicts(_ seat: GameSeat) throws -> [String] {
        try player.savedGameConflicts(seat: seat, packs: requestedPacks, category: category, lives: requestedLives)
    }


    /// On a terminal, asks whether to resume the saved game or start a new one; in `--plain` or
    /// through a pipe, starts a new one and says so. `true` for a new game.
    func decideOnConflicts(_ conflicts: [String]) throws -> Bool {
        let differs = conflicts.joined(separator: ", ")
        if screen.style == .plain {
            screen.context.error(TerminalText(escaping: L10n.text("The saved game differs from the options given (%s): a new game starts, and the saved one counts as abandoned.", differs)))
            return true
        }
        // The options typed are the player's wish: Enter takes them; 'n' resumes the saved game.
        // Broken between words at the window's width, as every other question is; the answer goes after the last line.
        let width = screen.context.outputWidth
        let lines = GameLayout.wrap("You have a saved game, but it differs from the options given: \(differs).", width: width)
            + GameLayout.wrap("Start a new game with these options (Enter), or resume the saved one (n)? The saved one counts as abandoned if not resumed. [Y/n]", width: width)
        screen.context.errorRaw(TerminalText(trusted: lines.map { TerminalText.escaped($0) }.joined(separator: "\n") + " "))
        try screen.context.checkWrites()
        switch LineReader(screen.context.input).nextLine() {
        case .line(let answer) where Question.isYes(answer, emptyIsYes: true):
            return true
        case .interrupted:
            throw CommandFailure(code: .interrupted, message: L10n.text("nothing started: the saved game is kept"))
        default:
            screen.context.error(TerminalText(escaping: L10n.text("Resuming the saved game.")))
            return false
        }
    }

    /// Plays one move; returns the message for a terminal and the line for plain output.
    func handle(_ move: Move, session: any PlayedGame, view: GameView, generator: inout SeededGenerator) async throws -> (TerminalText?, TerminalText?) {
        switch move {
        case .quit, .endOfInput, .interrupted:
            return (nil, nil)
        case .help:
            let help = TerminalText(stringLiteral: Self.linesHelp)
            return (help, "HELP \(help)")
        case .hint:
            let outcome: GameSession.HintOutcome
            do {
                outcome = try await session.hint(using: &generator)
            } catch let error as DeviceError {
                throw CommandFailure(code: .ioError, message: error.message)
            }
            switch outcome {
            case .revealed(let letter, let balance):
                hints = HintCount(hints: balance)
                return (
                    TerminalText(escaping: L10n.text("Hint: '%s' revealed.", letter) + " " + L10n.plural("%d hint left.", "%d hints left.", balance)),
                    TerminalText(trusted: PlainGameText.hint(letter))
                )
            case .noHints:
                hints = HintCount(hints: 0)
                var sentence = L10n.text("No hints left.")
                if let product = hintProduct {
                    let name = ReaderLocale.current.name(of: product)
                    let price = await price(of: product)
                    let offer = if case .keys = input { L10n.text("Press $ to get %s for %s.", name, price) } else { L10n.text("Type buy to get %s for %s.", name, price) }
                    sentence += " " + offer
                }
                return (TerminalText(escaping: sentence), "NOHINTS \(hintProduct?.id.rawValue ?? "-")")
            case .notNow:
                return (TerminalText(escaping: L10n.text("No hint now: only one blank is left to fill.")), "INVALID no hint when one blank is left")
            case .serviceUnavailable(let error):
                hints = hints?.markedOffline(error)
                return (TerminalText(escaping: L10n.text("No hint: the pack server cannot be reached. Nothing was spent; play on.")), "NOSERVICE")
            case .signedOut:
                return (TerminalText(escaping: L10n.text("No hint: this device is signed out ('hangman hints' says what to do). Nothing was spent; play on.")), "SIGNEDOUT")
            }
        case .buy(let confirmed):
            return await buyHints(asking: view, confirmed: confirmed || buysWithoutAsking)
        case .guess(let text):
            let outcome: Game.Outcome
            do {
                outcome = try await session.play(text)
            } catch let error as ServiceError where error.kind == .unavailable {
                return (TerminalText(escaping: L10n.text("No answer: the pack server cannot be reached. The move was not played; try it again.")), "NOSERVICE")
            }
            let plain = PlainGameText.move(outcome).map(TerminalText.init(trusted:))
            switch outcome {
            case .hit(let letter, let count):
                return (TerminalText(escaping: count == 1 ? L10n.text("Yes! '%s' is there once.", letter) : L10n.text("Yes! '%s' is there %d times.", letter, count)), plain)
            case .miss(let letter): return (TerminalText(escaping: L10n.text("No '%s'.", letter)), plain)
            case .solved: return (TerminalText(escaping: L10n.text("Solved!")), plain)
            case .wrongWord(let word): return (TerminalText(escaping: L10n.text("'%s' is not the word.", word)), plain)
            case .repeated(let guess): return (TerminalText(escaping: L10n.text("You already tried '%s': it costs nothing.", guess)), plain)
            case .invalid(let why): return ("\(why.prefix(1).uppercased() + why.dropFirst()).", plain)
            case .gameOver: return (TerminalText(escaping: L10n.text("The game has ended (on another device).")), nil)
            }
        }
    }
}

extension PlayLoop {
    /// With --pack, --category or --lives that differ from the account's live served game: asks
    /// (a terminal) or starts a new game and says so (plain, a pipe). `true` for a new game.
    func liveGameConflicts(_ games: any GameService) async throws -> Bool {
        guard !requestedPacks.isEmpty || category != nil || requestedLives != nil, let live = try await games.currentGame() else { return false }
        let conflicts = GameSession.conflicts(
            pack: live.pack, category: live.category, lives: live.lives, packs: requestedPacks, category: category, lives: requestedLives)
        return conflicts.isEmpty ? false : try decideOnConflicts(conflicts)
    }
}
