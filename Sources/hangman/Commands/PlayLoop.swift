import Device
import HangmanGame
import PackServiceAPI
import SystemCalls
import WordPacks
import TerminalText

/// The conversation of `hangman play`: read a move, play it, draw the result; game after game.
/// On a terminal a move is one key (`KeyReader`, raw mode); through a pipe, with `--plain` or on
/// a `TERM=dumb` terminal it is one line (`LineReader`).
final class PlayLoop {
    enum Input {
        case keys(KeyReader)
        case lines(LineReader)
    }

    /// The games of this `hangman play`, for the summary at its end.
    struct Tally {
        var won = 0, lost = 0, score = 0
        var played: Int { won + lost }
    }

    let playerContext: PlayerContext
    let screen: GameScreen
    let input: Input
    let packs: [InstalledPack]
    let category: String?
    let lives: Int
    private var tally = Tally()
    /// The options given, to compare with a saved game (`--pack`, `--lives`).
    var requestedPacks: [ProductID] = []
    var requestedLives: Int?
    /// `play --yes`: an in-game purchase asks nothing.
    var buysWithoutAsking = false
    /// Every pack the account may play now: a saved game on another is kept, not resumed.
    var playable: Set<ProductID> = []

    var player: Player { playerContext.player }

    /// The consumable the game offers when hints run out.
    var hintProduct: Product? { playerContext.catalog.hintOffer }

    init(playerContext: PlayerContext, screen: GameScreen, input: Input, packs: [InstalledPack], category: String?, lives: Int) {
        self.playerContext = playerContext
        self.screen = screen
        self.input = input
        self.packs = packs
        self.category = category
        self.lives = lives
    }

    static let keysHelp = "Keys: a letter guesses it. ! or Enter opens a line for the whole word (Enter guesses it, Esc goes back). ? spends a hint, $ buys hints, Tab shows this, Esc or Ctrl-D saves and quits, Ctrl-C too. Arrows do nothing."
    static let linesHelp = "Type a letter, or the whole word. ? or hint reveals a letter for one hint; buy buys hints (buy! without asking); quit saves and leaves. =WORD guesses a word that is a command (=quit)."

    /// Plays until the player stops: a summary of the session at the end, on a terminal.
    func run(fresh: Bool, generator: inout SeededGenerator) async throws -> ExitCode {
        var fresh = fresh
        let seat = try player.takeSeat(playable: playable)
        if !seat.setAside.isEmpty {
            let names = seat.setAside.joined(separator: ", ")
            let one = seat.setAside.count == 1
            screen.context.error(
                "Your saved \(one ? "game from \(names) is" : "games from \(names) are") kept, not resumed: this account may not play \(one ? "that pack" : "those packs") now (see 'hangman packs'). This is a new game from the packs you may play.")
        }
        if seat.passedOverSavedGame && !fresh {
            screen.context.error("Your saved game is open in another 'hangman play': this is a new game beside it.")
        }
        if !fresh {
            let conflicts = try savedGameConflicts(seat)
            if !conflicts.isEmpty { fresh = try decideOnConflicts(conflicts) }
        }
        if case .keys = input, screen.context.input == .standardInput {
            guard RawTerminal.enter(setup: GameScreen.enterScreen, teardown: GameScreen.leaveScreen) else {
                throw CommandFailure(code: .ioError, message: "cannot set up the terminal for single-key play (try --plain)")
            }
        } else if screen.isFullScreen {
            screen.context.out(TerminalText(trusted: GameScreen.enterScreen), terminator: "")
        }
        let code: ExitCode
        do {
            code = try await session(seat: seat, fresh: fresh, generator: &generator)
        } catch {
            leaveScreen()
            throw error
        }
        leaveScreen()
        if screen.style != .plain { summarize() }
        return code
    }

    /// Puts the terminal back and leaves the game's screen (once; no-op in plain and text styles).
    private func leaveScreen() {
        guard screen.isFullScreen, !screenLeft else { return }
        screenLeft = true
        if screen.context.input == .standardInput {
            RawTerminal.leave()
        } else {
            screen.context.out(TerminalText(trusted: GameScreen.leaveScreen), terminator: "")
        }
    }

    private var screenLeft = false

    private func summarize() {
        if tally.played > 0 {
            let games = tally.played == 1 ? "1 game" : "\(tally.played) games"
            screen.context.out("This session: \(games), \(tally.won) won, \(tally.lost) lost, \(tally.score) points.")
        }
    }

    private func session(seat: GameSeat, fresh: Bool, generator: inout SeededGenerator) async throws -> ExitCode {
        var fresh = fresh
        while true {
            let started = try player.startGame(seat: seat, packs: packs, category: category, lives: lives, fresh: fresh, using: &generator)
            guard let session = started else {
                if let category {
                    var names: [String] = []
                    for name in packs.flatMap({ $0.categories.map(\.name) }) where !names.contains(name) { names.append(name) }
                    throw CommandFailure.usage(
                        "no words in category '\(category)' of the chosen packs" + (names.isEmpty ? "" : ": their categories are " + names.map { "'\($0)'" }.joined(separator: ", ")))
                }
                let names = ProductNames(playerContext.catalog)
                let free = playerContext.catalog.basePacks.map { "'hangman install \(names.shortName(of: $0.productID))' (\($0.displayName), free)" }
                // A damaged free pack is the store's to fix: say so rather than send the player round in circles.
                let damaged = playerContext.catalog.unavailableBasePacks.map { "the free pack \($0.reason): it comes back when the store publishes it again" }
                throw CommandFailure(
                    code: .notEntitled,
                    message: "no words installed: " + (damaged.isEmpty ? "" : damaged.joined(separator: "; ") + "; ")
                        + (free.isEmpty ? "" : free.joined(separator: ", ") + " brings one back; ") + "'hangman restore' brings the packs you own, 'hangman products' lists the rest")
            }
            fresh = false
            switch try await play(session, generator: &generator) {
            case .saved(let code): return code
            case .finished(let view, let suggestion):
                if session.game.status == .won { tally.won += 1 } else { tally.lost += 1 }
                tally.score += session.game.score
                screen.end(session, suggestion: suggestion)
                try screen.context.checkWrites()
                switch again(view) {
                case .interrupted:
                    if !screen.isFullScreen { screen.say("", plain: "") }
                    return .interrupted
                case .quit: return .ok
                default: continue
                }
            }
        }
    }

    /// How a game ended: finished (with the free tier's suggestion, if any), or saved.
    enum Ending { case finished(GameView, suggestion: PackSuggestion.Line?), saved(ExitCode) }

    private func play(_ session: GameSession, generator: inout SeededGenerator) async throws -> Ending {
        await readHints()
        screen.begin(session, hints: hints?.hints, offline: hints.map { !$0.isCurrent } ?? true)
        var opening: [String] = []
        if session.isResumed { opening.append("Resuming your unfinished game (play --new starts over).") }
        if let offline = hints?.offline ?? hintsFailure { opening.append(Self.offlineLine(offline)) }
        var view = GameView(
            game: session.game, packName: session.word.packName, category: session.word.category, hints: nil,
            event: opening.isEmpty ? nil : opening.joined(separator: " "))
        var eventPlain: TerminalText?
        while session.game.status == .playing {
            view.game = session.game
            showHints(in: &view)
            screen.show(view, eventPlain: eventPlain)
            screen.prompt()
            // Output that no longer reaches anyone ends the game: no hint is spent unseen.
            try screen.context.checkWrites()
            let move = nextMove(view)
            switch move {
            case .endOfInput, .interrupted, .quit:
                if screen.style == .plain { screen.context.out("SAVED") }
                leaveScreen()
                if screen.style == .text && move != .quit { screen.context.out("") }
                if screen.style != .plain { screen.context.out("Game saved: run 'hangman play' to resume it.") }
                return .saved(move == .interrupted ? .interrupted : .ok)
            default:
                let (event, plainLine) = try await handle(move, session: session, view: view, generator: &generator)
                view.event = event?.text
                eventPlain = plainLine
            }
        }
        view.game = session.game
        showHints(in: &view)
        let suggestion = await PackSuggestion(player: playerContext.player, prices: PriceText(environment: screen.context.environment))
            .line(afterGame: tally.played)
        if screen.isFullScreen {
            view.event = ([view.event].compactMap { $0 } + GameLayout.verdict(session.game) + [suggestion?.text.text].compactMap { $0 })
                .joined(separator: "\n")
        }
        screen.show(view, eventPlain: eventPlain)
        return .finished(view, suggestion: suggestion)
    }

    /// The hint balance shown: read when a game starts and after a purchase, then kept as the
    /// service's answers change it (a hint spent, none left, the server gone).
    var hints: HintCount?
    /// Why the balance could not be read at all, when it could not.
    var hintsFailure: StoreError?

}
