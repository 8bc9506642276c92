import Device
import HangmanGame
import Messages
import PackServiceAPI
import PackServiceClient
import SystemCalls
import TerminalText
import WordPacks

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
    /// The options given, to compare with a saved game (`--pack`, `--lives`).
    var requestedPacks: [ProductID] = []
    var requestedLives: Int?
    /// `play --yes`: an in-game purchase asks nothing.
    var buysWithoutAsking = false
    /// Every pack the account may play now: a saved game on another is kept, not resumed.
    var playable: Set<ProductID> = []
    /// `play --daily` (and its `--language`): the day's word, a served game.
    var daily = false
    /// A past day's daily word, from the archive (`2026-11-30`); `nil`: today's.
    var dailyDate: String?
    /// Hard mode (`--hard`): served games only.
    var hard = false
    /// A friend's challenge (`--challenge`): its whole id.
    var challenge: String?
    var language: String?
    /// What stays on the shell's screen after the day's word: its verdict and share line.
    var dailyEnding: [String] = []
    /// The first served game, asked for before the screen opens.
    var firstGame: (any PlayedGame)?
    /// The service the day's word is played on (`play --daily`).
    var dailyGames: (any GameService)?
    /// `play --seed`: a served game's request carries it (a sandbox server with test controls takes it).
    var seed: UInt64?
    /// The theme the gallows is drawn in (`nil`: the stick figure), read once when the games begin.
    var theme: ThemeFrames?
    /// The colours of hits and misses, read once when the games begin.
    var palette = DeviceSettings.Palette.standard
    private var screenLeft = false
    var tally = Tally()
    /// The board last drawn: a wait for the pack server is said on it.
    var shownView: GameView?

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

    static var keysHelp: String {
        L10n.text(
            "Keys: a letter guesses it. ! or Enter opens a line for the whole word (Enter guesses it, Esc goes back). ? spends a hint, $ buys hints, Tab shows this, Esc or Ctrl-D saves and quits, Ctrl-C too. Arrows do nothing.")
    }
    static var linesHelp: String {
        L10n.text(
            "Type a letter, or the whole word. ? or hint reveals a letter for one hint; buy buys hints (buy! without asking); quit saves and leaves. =WORD guesses a word that is a command (=quit).")
    }


    /// Plays until the player stops: a summary of the session at the end, on a terminal.
    func run(fresh: Bool, generator: inout SeededGenerator) async throws -> ExitCode {
        theme = await player.drawnTheme()
        palette = (try? player.settings().palette) ?? .standard
        var fresh = fresh
        let seat = try await openGames(fresh: &fresh, generator: &generator)
        // The slot is free for the next game once this one is over, however the command ends.
        defer { seat?.leave() }
        if case .keys = input, screen.context.input == .standardInput {
            guard RawTerminal.enter(setup: GameScreen.enterScreen, teardown: GameScreen.leaveScreen) else {
                throw CommandFailure(code: .ioError, message: L10n.text("cannot set up the terminal for single-key play (try --plain)"))
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

    func leaveScreen() {
        guard screen.isFullScreen, !screenLeft else { return }
        screenLeft = true
        if screen.context.input == .standardInput {
            RawTerminal.leave()
        } else {
            screen.context.out(TerminalText(trusted: GameScreen.leaveScreen), terminator: "")
        }
    }


    /// The game to play next: on this device in `seat`, or served by the account's pack server.

    private func session(seat: GameSeat?, fresh: Bool, generator: inout SeededGenerator) async throws -> ExitCode {
        var fresh = fresh
        while true {
            guard let session = try await start(seat: seat, fresh: fresh, generator: &generator) else { throw noWords() }
            fresh = false
            switch try await play(session, generator: &generator) {
            case .saved(let code): return code
            case .finished(let view, let suggestion):
                let board = session.board
                if board.status == .won { tally.won += 1 } else { tally.lost += 1 }
                tally.score += board.score
                screen.end(session, suggestion: suggestion, askingAgain: !daily && challenge == nil)
                try screen.context.checkWrites()
                // A challenge is played once: its result goes beside the friend's.
                if challenge != nil {
                    dailyEnding = (screen.isFullScreen ? GameLayout.verdict(board) : []) + [L10n.text("'%s' shows your result beside your friend's.", "hangman challenges")]
                    return .ok
                }
                // The day's word is played once: no other comes after it.
                if daily {
                    if let served = session as? ServedSession {
                        let environment = screen.context.environment
                        let letters = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
                        dailyEnding = (screen.isFullScreen ? GameLayout.verdict(board) : [])
                            + (DailyShare.lines(served.game, letters: letters, palette: palette).map { [L10n.text("Share it:")] + $0.map(TerminalText.escaped) } ?? [])
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


    /// The hint balance shown: read when a game starts and after a purchase, then kept as the
    /// service's answers change it (a hint spent, none left, the server gone).
    var hints: HintCount?
    /// Why the balance could not be read at all, when it could not.
    var hintsFailure: ServiceError?
}
