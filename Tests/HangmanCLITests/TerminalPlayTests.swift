import Foundation
import HTTPServer
import PackServer
import TestSupport
import Testing

/// `hangman play` on a real terminal (tmux), as a person plays it: single keys, the alternate
/// screen, widths from 40 to 200 columns, a resize, Ctrl-Z and `fg`, a crash.
@Suite(.serialized)
struct TerminalPlayTests {
    /// A shell in a tmux window, with the one-word world's home and packs set.
    static func openShell(_ world: PlayCommandTests.OneWordWorld, width: Int = 80, height: Int = 24, term: String = "xterm") async throws -> TmuxTerminal {
        let terminal = try await TmuxTerminal(
            width: width, height: height, command: "bash --norc --noprofile",
            environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs, "NO_COLOR": "", "SWIFT_BACKTRACE": "enable=no,interactive=no"])
        // tmux sets TERM in the window, and bash its own prompt: both are set in the shell.
        try await terminal.type("export TERM=\(term) PS1='$ '; clear")
        try await terminal.press("Enter")
        try await terminal.waitFor("$ ")
        return terminal
    }

    static func play(_ terminal: TmuxTerminal, _ options: String = "") async throws -> String {
        try await terminal.type("clear; \(HangmanBinary.path) play \(options)")
        try await terminal.press("Enter")
        return try await terminal.waitFor("Esc save and quit")
    }

    /// Every line of `screen` is at most `width` characters (wrapped rows are joined by the capture).
    static func longestLine(_ screen: String) -> Int {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map(\.count).max() ?? 0
    }

    /// Where the gallows' top starts on the screen.
    static func gallowsIndent(_ screen: String) -> Int {
        screen.split(separator: "\n").first { $0.contains("+---+") }.map { $0.prefix { $0 == " " }.count } ?? -1
    }

    @Test func aLetterGuessesAtOnceAndArrowKeysDoNothing() async throws {
        let world = try await PlayCommandTests.OneWordWorld()
        let terminal = try await Self.openShell(world)
        let first = try await Self.play(terminal)
        #expect(first.contains("_ _ _ _ _"), "\(first)")
        try await terminal.press("z")
        let hit = try await terminal.waitFor("Yes! 'z'")
        #expect(hit.contains("z _ _ _ _"), "\(hit)")
        try await terminal.press("Up", "Down", "Left", "Right", "Home", "F5")
        try await terminal.press("e")
        let second = try await terminal.waitFor("Used: e z")
        #expect(second.contains("z e _ _ _"), "\(second)")
        #expect(second.contains("6/6"), "no key of an arrow's sequence was taken for a guess: \(second)")
        #expect(!second.contains("[A") && !second.contains("OA"))
        try await terminal.press("Escape")
        try await terminal.waitFor("Game saved")
        try await terminal.type("echo EXIT=$?")
        try await terminal.press("Enter")
        #expect(try await terminal.waitFor("EXIT=0").contains("EXIT=0"))
    }

    /// `--plain` on a terminal is a person's (a screen reader's): `buy` asks, and only `y` buys.
    @Test(arguments: [40, 80])
    func plainBuyOnATerminalAsksFirst(_ width: Int) async throws {
        let world = try await PlayCommandTests.OneWordWorld()
        let terminal = try await Self.openShell(world, width: width)
        try await terminal.type("\(HangmanBinary.path) play --plain")
        try await terminal.press("Enter")
        try await terminal.waitFor("STATE word=")
        try await terminal.type("buy")
        try await terminal.press("Enter")
        #expect(try await terminal.waitFor("ASK Buy 10 Hints for $0.99? [y/N]").contains("ASK"))
        try await terminal.type("n")
        try await terminal.press("Enter")
        try await terminal.waitFor("BUYFAILED declined")
        try await terminal.type("buy")
        try await terminal.press("Enter")
        try await terminal.type("y")
        try await terminal.press("Enter")
        try await terminal.waitFor("BOUGHT 10")
        try await terminal.type("quit")
        try await terminal.press("Enter")
        try await terminal.waitFor("SAVED")
        #expect(try await world.hangman(["hints"]).stdout == "10 hints\n")
        #expect(try await world.hangman(["transactions", "--json"]).stdout.components(separatedBy: "\"productID\"").count == 2, "one purchase")
    }

    /// Offline, `$` answers at once; the `y` typed by reflex next only dismisses that answer.
    @Test func offlineDollarThenYIsNotAGuess() async throws {
        let world = try await PlayCommandTests.OneWordWorld()
        let scratch = try Scratch()
        let server = try PackServer(PackServerConfiguration(dataFolder: scratch.file("server"), packsFolder: world.packs, environment: .sandbox))
        let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        let home = scratch.file("offline")
        #expect(try await CLI.run(["account", "create", "--service", http.url, "--home", home]).status == 0)
        // Online once: the free pack is installed and a game saved.
        let online = try await CLI.run(["play", "--plain", "--home", home], input: "quit\n")
        #expect(online.stdout.contains("SAVED"), "\(online.stdout)\(online.stderr)")
        http.stop()
        let terminal = try await TmuxTerminal(
            width: 80, height: 24, command: "bash --norc --noprofile",
            environment: ["HANGMAN_HOME": home, "NO_COLOR": "", "SWIFT_BACKTRACE": "enable=no,interactive=no"])
        try await terminal.type("export TERM=xterm PS1='$ '; clear")
        try await terminal.press("Enter")
        try await terminal.waitFor("$ ")
        _ = try await Self.play(terminal)
        try await terminal.press("$")
        let answered = try await terminal.waitFor("Any key goes on.")
        #expect(answered.contains("Not bought"), "\(answered)")
        try await terminal.press("y")
        try await terminal.press("z")
        let after = try await terminal.waitFor("Yes! 'z'")
        #expect(after.contains("6/6"), "the y was no guess: \(after)")
        #expect(!after.contains("Used: y") && !after.contains("No 'y'"), "\(after)")
        try await terminal.press("Escape")
        try await terminal.waitFor("Game saved")
    }

    @Test func aWordIsTypedAfterAnExclamationMarkEvenOneNamedLikeACommand() async throws {
        let world = try await PlayCommandTests.OneWordWorld()
        let terminal = try await Self.openShell(world)
        _ = try await Self.play(terminal)
        try await terminal.type("!quit")
        #expect(try await terminal.waitFor("Word: quit").contains("Word: quit"))
        try await terminal.press("Enter")
        let wrong = try await terminal.waitFor("has 4")
        #expect(wrong.contains("The word has 5 letters, 'quit' has 4"), "\(wrong)")
        try await terminal.type("!zebra")
        try await terminal.press("Enter")
        let won = try await terminal.waitFor("Play again?")
        #expect(won.contains("You won! The word was zebra."), "\(won)")
        #expect(won.contains("Score 170: 5 letters × 10 + 6 lives left × 20."), "\(won)")
        try await terminal.press("n")
        let after = try await terminal.waitFor("This session")
        #expect(after.contains("This session: 1 game, 1 won, 0 lost, 170 points."), "\(after)")
    }

    @Test func theGameHasItsOwnScreenAndLeavesTheScrollbackAsItWas() async throws {
        let world = try await PlayCommandTests.OneWordWorld()
        let terminal = try await Self.openShell(world)
        try await terminal.type("echo before the game")
        try await terminal.press("Enter")
        try await terminal.type("\(HangmanBinary.path) play")
        try await terminal.press("Enter")
        try await terminal.waitFor("Esc save and quit")
        try await terminal.press("z")
        try await terminal.waitFor("Yes! 'z'")
        try await terminal.press("q")
        try await terminal.waitFor("No 'q'")
        try await terminal.press("Escape")
        try await terminal.waitFor("Game saved")
        let history = try await terminal.history()
        #expect(history.contains("before the game"))
        #expect(history.contains("Game saved: run 'hangman play' to resume it."))
        #expect(!history.contains("+---+"), "no board is left behind: \(history)")
        #expect(!history.contains("HANGMAN"), "\(history)")
    }

    @Test(arguments: [40, 200])
    func theScreenFitsTheWidth(width: Int) async throws {
        let world = try await PlayCommandTests.OneWordWorld(word: "zebra", clue: "A striped horse of the African plains, seen in herds that graze beside wildebeest")
        let terminal = try await Self.openShell(world, width: width, height: 30)
        let screen = try await Self.play(terminal)
        #expect(Self.longestLine(screen) <= width, "\(screen)")
        #expect(screen.contains("Clue: A striped horse"), "the clue shows during the game: \(screen)")
        #expect(screen.contains("One Word · Animals"), "\(screen)")
        let indent = Self.gallowsIndent(screen)
        if width == 200 {
            #expect(indent > 60, "centred on a wide terminal: \(screen)")
        } else {
            #expect(indent >= 0 && indent < 6, "\(screen)")
        }
        try await terminal.press("Tab")
        let help = try await terminal.waitFor("Keys: a letter")
        #expect(Self.longestLine(help) <= width, "\(help)")
        try await terminal.press("Escape")
        try await terminal.waitFor("Game saved")
    }

    /// Below 30 columns the board would break into fragments: the screen says the window is too
    /// small and what to do, the word and lives stay, keys still play, and a resize brings the board back.
    @Test func aWindowTooSmallSaysSo() async throws {
        let world = try await PlayCommandTests.OneWordWorld()
        let terminal = try await Self.openShell(world, width: 25, height: 8)
        try await terminal.type("clear; \(HangmanBinary.path) play")
        try await terminal.press("Enter")
        let small = try await terminal.waitFor("too small")
        #expect(small.contains("Window too small (25x8)") && small.contains("30x5") && small.contains("_ _ _ _ _  6/6"), "\(small)")
        #expect(Self.longestLine(small) <= 25, "\(small)")
        try await terminal.press("z")
        #expect(try await terminal.waitFor("z _ _ _ _").contains("6/6"))
        try await terminal.resize(width: 80, height: 24)
        let board = try await terminal.waitFor("Esc save and quit")
        #expect(board.contains("+---+") && !board.contains("too small"), "\(board)")
        try await terminal.press("Escape")
        try await terminal.waitFor("Game saved")
    }

    @Test func aResizeRedrawsForTheNewWidth() async throws {
        let world = try await PlayCommandTests.OneWordWorld()
        let terminal = try await Self.openShell(world, width: 100, height: 30)
        let wide = try await Self.play(terminal)
        #expect(Self.gallowsIndent(wide) > 10, "centred at 100 columns: \(wide)")
        try await terminal.press("z")
        try await terminal.waitFor("Yes! 'z'")
        try await terminal.resize(width: 40, height: 30)
        var narrow = ""
        for _ in 0..<100 {
            narrow = try await terminal.screen()
            if Self.gallowsIndent(narrow) < 6 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(Self.gallowsIndent(narrow) < 6, "laid out again for 40 columns: \(narrow)")
        #expect(Self.longestLine(narrow) <= 40, "\(narrow)")
        #expect(narrow.contains("z _ _ _ _"))
        // Wider than the game started: what the board drew at 200 columns must not spill into the
        // scrollback when the game leaves its screen.
        try await terminal.resize(width: 200, height: 30)
        for _ in 0..<100 where Self.gallowsIndent(try await terminal.screen()) < 60 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(Self.gallowsIndent(try await terminal.screen()) > 60)
        try await terminal.press("Escape")
        try await terminal.waitFor("Game saved")
        let history = try await terminal.history()
        #expect(!history.contains("+---+") && !history.contains("HANGMAN"), "\(history)")

    }

    @Test func ctrlZPutsTheTerminalBackAndFgComesBackToTheGame() async throws {
        let world = try await PlayCommandTests.OneWordWorld()
        let terminal = try await Self.openShell(world)
        _ = try await Self.play(terminal)
        try await terminal.press("z")
        try await terminal.waitFor("Yes! 'z'")
        try await terminal.press("C-z")
        let stopped = try await terminal.waitFor("Stopped")
        #expect(stopped.contains("Stopped"), "\(stopped)")
        #expect(!stopped.contains("+---+"), "the shell's screen is back: \(stopped)")
        try await terminal.type("stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo")
        try await terminal.press("Enter")
        // The command line itself shows "icanon": wait for stty's own lines (echo is listed last).
        let modes = try await terminal.waitFor("\necho")
        #expect(modes.contains("\nicanon") && modes.contains("\necho"), "line editing and echo are back while stopped: \(modes)")
        try await terminal.type("fg")
        try await terminal.press("Enter")
        let back = try await terminal.waitFor("Esc save and quit")
        #expect(back.contains("z _ _ _ _"), "\(back)")
        try await terminal.press("e")
        #expect(try await terminal.waitFor("z e _ _ _").contains("z e _ _ _"), "single keys again after fg")
        try await terminal.press("Escape")
        try await terminal.waitFor("Game saved")
    }

    /// Under `sh -c` (no job control: an interactive bash would put the terminal's modes back
    /// itself after a job dies of a signal), so only the game's own handler can restore them:
    /// after Ctrl-C typed, SIGTERM, SIGHUP, or SIGSEGV from outside (standing for a crash).
    @Test(arguments: ["C-c", "TERM", "HUP", "SEGV"])
    func anEndingPutsTheTerminalBack(_ ending: String) async throws {
        let world = try await PlayCommandTests.OneWordWorld()
        let terminal = try await Self.openShell(world)
        // `trap : INT`: the shell outlives a Ctrl-C to run stty (the game, exec'd, has its own handler).
        try await terminal.type("clear; sh -c 'trap : INT; \(HangmanBinary.path) play; stty -a | tr \" ;\" \"\\n\\n\" | grep -x -e icanon -e -icanon | sed s/^/MODE:/'")
        try await terminal.press("Enter")
        try await terminal.waitFor("Esc save and quit")
        if ending == "C-c" {
            try await terminal.press("C-c")
        } else {
            // The game is the child of the shell's child: the signal goes to it alone.
            let shellID = try await terminal.tmux(["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
            let runner = try TestSupport.shell("pgrep -P \(shellID)").trimmingCharacters(in: .whitespacesAndNewlines)
            let gameID = try #require(Int32(try TestSupport.shell("pgrep -P \(runner)").trimmingCharacters(in: .whitespacesAndNewlines)))
            kill(gameID, ["TERM": SIGTERM, "HUP": SIGHUP, "SEGV": SIGSEGV][ending] ?? SIGKILL)
        }
        let after = try await terminal.waitFor("MODE:")
        #expect(after.contains("MODE:icanon"), "line editing is back: \(after)")
        #expect(!after.contains("+---+"), "the alternate screen is left: \(after)")
    }

    @Test func optionsThatDifferFromTheSavedGameAreAskedAbout() async throws {
        let world = try await PlayCommandTests.OneWordWorld()
        let terminal = try await Self.openShell(world)
        _ = try await Self.play(terminal)
        try await terminal.press("z")
        try await terminal.waitFor("Yes! 'z'")
        try await terminal.press("Escape")
        try await terminal.waitFor("Game saved")
        try await terminal.type("clear; \(HangmanBinary.path) play --lives 8")
        try await terminal.press("Enter")
        let question = try await terminal.waitFor("[Y/n]")
        // Broken between words at the terminal's width.
        #expect(question.replacingOccurrences(of: "\n", with: " ").contains("--lives 8 (the saved game has 6)"), "\(question)")
        // Enter takes the options typed.
        try await terminal.press("Enter")
        let fresh = try await terminal.waitFor("Esc save and quit")
        #expect(fresh.contains("8/8") && fresh.contains("_ _ _ _ _"), "a new game with 8 lives: \(fresh)")
        try await terminal.press("Escape")
        try await terminal.waitFor("Game saved")
        try await terminal.type("clear; \(HangmanBinary.path) play --lives 6")
        try await terminal.press("Enter")
        try await terminal.waitFor("[Y/n]")
        try await terminal.type("n")
        try await terminal.press("Enter")
        let kept = try await terminal.waitFor("Esc save and quit")
        #expect(kept.contains("8/8") && kept.contains("Resuming"), "n keeps the saved game: \(kept)")
        try await terminal.press("Escape")
        try await terminal.waitFor("Game saved")
    }

    @Test func aDumbTerminalGetsNoEscapeSequence() async throws {
        let world = try await PlayCommandTests.OneWordWorld()
        let terminal = try await Self.openShell(world, term: "dumb")
        let recording = world.scratch.path + "/terminal.raw"
        try await terminal.record(to: recording)
        try await terminal.type("\(HangmanBinary.path) play")
        try await terminal.press("Enter")
        try await terminal.waitFor("> ")
        try await terminal.type("z")
        try await terminal.press("Enter")
        try await terminal.waitFor("Yes! 'z'")
        try await terminal.type("quit")
        try await terminal.press("Enter")
        let screen = try await terminal.waitFor("Game saved")
        #expect(screen.contains("z _ _ _ _"), "\(screen)")
        try await terminal.waitForRecording(recording, toContain: "Game saved")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: recording))
        #expect(bytes.count > 200)
        #expect(!bytes.contains(0x1B), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
    }
}

/// The store's questions on a real terminal (tmux): a purchase declined, then one confirmed, by
/// `buy` and by the game's `$`.
@Suite(.serialized)
struct TerminalPurchaseTests {
    private func shell() async throws -> (TmuxTerminal, Scratch) {
        let scratch = try Scratch()
        let terminal = try await TmuxTerminal(
            width: 80, height: 24, command: "bash --norc --noprofile",
            environment: [
                "HANGMAN_HOME": scratch.path + "/home", "HANGMAN_PACKS": HangmanBinary.packageRoot.appendingPathComponent("Packs").path,
                "LC_ALL": "en_US.UTF-8", "NO_COLOR": "",
            ])
        try await terminal.type("export TERM=xterm PS1='$ '; clear")
        try await terminal.press("Enter")
        try await terminal.waitFor("$ ")
        return (terminal, scratch)
    }

    @Test func buyDeclinedThenConfirmed() async throws {
        let (terminal, scratch) = try await shell()
        defer { withExtendedLifetime(scratch) {} }
        try await terminal.type("\(HangmanBinary.path) buy hard; echo EXIT=$?")
        try await terminal.press("Enter")
        let asked = try await terminal.waitFor("Buy Hard Words for $1.99? [y/N]")
        #expect(asked.contains("1,000 words with rare letters"), "\(asked)")
        try await terminal.type("n")
        try await terminal.press("Enter")
        let declined = try await terminal.waitFor("EXIT=1")
        #expect(declined.contains("Not bought: nothing was charged."), "\(declined)")
        try await terminal.type("clear; \(HangmanBinary.path) buy hard; echo EXIT=$?")
        try await terminal.press("Enter")
        try await terminal.waitFor("[y/N]")
        try await terminal.type("y")
        try await terminal.press("Enter")
        let bought = try await terminal.waitFor("EXIT=0")
        #expect(bought.contains("Purchased Hard Words for $1.99"), "\(bought)")
        #expect(bought.contains("Installed Hard Words 1.0 (1,000 words)"), "\(bought)")
    }

    @Test func dollarInTheGameDeclinedThenConfirmed() async throws {
        let (terminal, scratch) = try await shell()
        defer { withExtendedLifetime(scratch) {} }
        try await terminal.type("clear; \(HangmanBinary.path) play")
        try await terminal.press("Enter")
        try await terminal.waitFor("Esc save and quit", seconds: 20)
        try await terminal.press("$")
        try await terminal.waitFor("Buy 10 Hints for $0.99? [y/N]")
        try await terminal.press("n")
        try await terminal.waitFor("Not bought: nothing was charged.")
        try await terminal.press("$")
        try await terminal.waitFor("[y/N]")
        try await terminal.press("y")
        let bought = try await terminal.waitFor("Bought 10 Hints for $0.99: +10 hints.")
        #expect(bought.contains("Hints: 10"), "\(bought)")
        try await terminal.press("Escape")
        try await terminal.waitFor("Game saved")
    }
}
