import Device
import PackServiceClient
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
    /// `play --daily` (and its `--language`): the day's word, a served game.
    var daily = false
    var language: String?
    /// What stays on the shell's screen after the day's word: its verdict and share line.
    private var dailyEnding: [String] = []
    /// The first served game, asked for before the screen opens.
    private var firstGame: (any PlayedGame)?
    /// `play --seed`: a served game's request carries it (a sandbox server with test controls takes it).
    var seed: UInt64?
    /// The theme the gallows is drawn in (`nil`: the stick figure), read once when the games begin.
    private var theme: ThemeFrames?

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
        theme = await player.drawnTheme()
        // A home bound to a pack server that answers plays served games: the word stays there.
        // The embedded store, and a server out of reach, play on this device.
        var seat: GameSeat?
        // The slot is free for the next game once this one is over, however the command ends.
        defer { seat?.leave() }
        var served = player.gameService
        if let games = served, !daily {
            // The first game is asked for before the screen opens: a server that no longer knows
            // this device (a revoked token, a closed account) or that went away since the home
            // opened leaves the packs installed here to play.
            do {
                if !fresh { fresh = try await liveGameConflicts(games) }
                firstGame = try await start(seat: nil, fresh: fresh, generator: &generator)
                fresh = false
            } catch let error as PlayerError {
                guard case .store(let failure) = error, [.unauthorized, .unavailable].contains(failure.kind) else { throw error }
                served = nil
            } catch let failure as ServiceError where [.unauthorized, .unavailable].contains(failure.kind) {
                served = nil
            }
        }
        if served == nil {
            if daily { _ = try player.dailyWordService() }
            let taken = try player.takeSeat(playable: playable)
            if !taken.setAside.isEmpty {
                let names = taken.setAside.joined(separator: ", ")
                let one = taken.setAside.count == 1
                screen.context.error(
                    "Your saved \(one ? "game from \(names) is" : "games from \(names) are") kept, not resumed: this account may not play \(one ? "that pack" : "those packs") now (see 'hangman packs'). This is a new game from the packs you may play.")
            }
            if taken.passedOverSavedGame && !fresh {
                screen.context.error("Your saved game is open in another 'hangman play': this is a new game beside it.")
            }
            if !fresh {
                let conflicts = try savedGameConflicts(taken)
                if !conflicts.isEmpty { fresh = try decideOnConflicts(conflicts) }
            }
            seat = taken
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
        if screen.style != .plain {
            // The day's word asks nothing after it: its verdict and share line stay on the shell's screen.
            for line in dailyEnding { screen.context.out(TerminalText(trusted: line)) }
            summarize()
        }
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

    /// The game to play next: on this device in `seat`, or served by the account's pack server.
    private func start(seat: GameSeat?, fresh: Bool, generator: inout SeededGenerator) async throws -> (any PlayedGame)? {
        if let firstGame {
            self.firstGame = nil
            return firstGame
        }
        guard let seat else {
            guard daily else {
                return try await player.startServedGame(
                    requested: requestedPacks, playing: packs, category: category, lives: requestedLives, new: fresh, seed: seed)
            }
            let games = try player.dailyWordService()
            let game: ServedGame
            do {
                game = try await DailyLanguage.choose(language) { (tag: String?) async throws(ServiceError) -> ServedGame in
                    try await games.startGame(GameRequest(daily: true, language: tag))
                }
            } catch {
                let failure: ServiceError = error
                // Played already today: the store's refusal, said as such (69).
                guard failure.kind == .wrongState else { throw failure }
                throw CommandFailure(code: .storeRefused, message: failure.message)
            }
            return ServedSession(game: game, service: games)
        }
        return try player.startGame(seat: seat, packs: packs, category: category, lives: lives, fresh: fresh, using: &generator)
    }

    private func session(seat: GameSeat?, fresh: Bool, generator: inout SeededGenerator) async throws -> ExitCode {
        var fresh = fresh
        while true {
            guard let session = try await start(seat: seat, fresh: fresh, generator: &generator) else {
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
                let board = session.board
                if board.status == .won { tally.won += 1 } else { tally.lost += 1 }
                tally.score += board.score
                screen.end(session, suggestion: suggestion, askingAgain: !daily)
                try screen.context.checkWrites()
                // The day's word is played once: no other comes after it.
                if daily {
                    if let served = session as? ServedSession {
                        let environment = screen.context.environment
                        let letters = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
                        dailyEnding = (screen.isFullScreen ? GameLayout.verdict(board) : [])
                            + (DailyShare.lines(served.game, letters: letters).map { ["Share it:"] + $0.map(TerminalText.escaped) } ?? [])
                    }
                    return .ok
                }
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

    private func play(_ session: any PlayedGame, generator: inout SeededGenerator) async throws -> Ending {
        await readHints()
        screen.begin(session, hints: hints?.hints, offline: hints.map { !$0.isCurrent } ?? true)
        var opening: [String] = []
        if session.isResumed {
            opening.append(
                daily ? "Resuming today's word." : session.servedID != nil ? "Resuming your unfinished game, kept on the server (play --new starts over)."
                    : "Resuming your unfinished game (play --new starts over).")
        }
        if let offline = hints?.offline ?? hintsFailure { opening.append(Self.offlineLine(offline)) }
        let day = (session as? ServedSession)?.game.daily
        var view = GameView(
            game: session.board, packName: day.map { "Daily word \($0)" } ?? session.packName,
            category: day == nil ? session.category : session.packName, hints: nil,
            event: opening.isEmpty ? nil : opening.joined(separator: " "), theme: theme)
        var eventPlain: TerminalText?
        showWaitsOnBoard()
        while session.board.status == .playing {
            view.game = session.board
            showHints(in: &view)
            screen.show(view, eventPlain: eventPlain)
            shownView = view
            screen.prompt()
            // Output that no longer reaches anyone ends the game: no hint is spent unseen.
            try screen.context.checkWrites()
            let move = nextMove(view)
            switch move {
            case .endOfInput, .interrupted, .quit:
                if screen.style == .plain { screen.context.out("SAVED") }
                leaveScreen()
                if screen.style == .text && move != .quit { screen.context.out("") }
                if screen.style != .plain {
                    screen.context.out(
                        daily ? "Today's word is kept on the server: 'hangman play --daily' resumes it, on any device of the account."
                            : session.servedID != nil ? "Game kept on the server: 'hangman play' resumes it, on any device of the account."
                            : "Game saved: run 'hangman play' to resume it.")
                }
                return .saved(move == .interrupted ? .interrupted : .ok)
            default:
                let (event, plainLine) = try await handle(move, session: session, view: view, generator: &generator)
                view.event = event?.text
                eventPlain = plainLine
            }
        }
        view.game = session.board
        showHints(in: &view)
        let suggestion = await PackSuggestion(player: playerContext.player, prices: PriceText(environment: screen.context.environment))
            .line(afterGame: tally.played)
        if screen.isFullScreen {
            view.event = ([view.event].compactMap { $0 } + GameLayout.verdict(session.board) + [suggestion?.text.text].compactMap { $0 })
                .joined(separator: "\n")
        }
        screen.show(view, eventPlain: eventPlain)
        return .finished(view, suggestion: suggestion)
    }

    /// The board last drawn: a wait for the pack server is said on it.
    var shownView: GameView?

    /// A hint (or a purchase) that waits because the pack server asks for it says so on the
    /// board, not on standard error under it; plain output says nothing there (its readers parse it).
    private func showWaitsOnBoard() {
        guard screen.style != .plain else { return }
        let client = playerContext.store.service
        let board = BoardNotice(loop: self)
        client.observe { event in
            guard case .waiting(let seconds, _, let reason) = event else { return }
            board.say("Waiting \(seconds) s for the pack server: \(reason)")
        }
    }

    /// The hint balance shown: read when a game starts and after a purchase, then kept as the
    /// service's answers change it (a hint spent, none left, the server gone).
    var hints: HintCount?
    /// Why the balance could not be read at all, when it could not.
    var hintsFailure: ServiceError?

}

/// The loop's board, for a notice from the pack server's client. The client calls it only from
/// inside a request the loop is awaiting, never beside the loop's own drawing.
private final class BoardNotice: @unchecked Sendable {
    unowned let loop: PlayLoop

    init(loop: PlayLoop) { self.loop = loop }

    func say(_ text: String) {
        guard var view = loop.shownView else { return }
        view.event = text
        loop.screen.show(view, eventPlain: nil)
    }
}
