import Foundation
import TestSupport
import Testing

/// Whole games played through a pipe, as a script or a screen reader would, and one on a real terminal.
@Suite struct PlayCommandTests {
    /// A packs folder whose base pack holds one word, so that every game is known in advance.
    final class OneWordWorld {
        let scratch: Scratch
        let home: String
        let packs: String

        init(word: String = "zebra", clue: String = "Striped horse") async throws {
            scratch = try Scratch()
            home = scratch.path + "/home"
            packs = scratch.path + "/packs"
            try scratch.write("src/Info.plist", """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict>
                <key>FormatVersion</key><integer>1</integer><key>ProductIdentifier</key><string>com.example.words.one</string>
                <key>ContentVersion</key><string>1</string><key>DisplayName</key><string>One Word</string>
                </dict></plist>
                """)
            try scratch.write("src/words.plist", """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>name</key><string>Animals</string><key>words</key><array>
                <dict><key>word</key><string>\(word)</string><key>clue</key><string>\(clue)</string></dict>
                </array></dict></plist>
                """)
            try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
            let built = try await CLI.run(["pack", "build", scratch.path + "/src", "-o", packs + "/one.wordpack"])
            #expect(built.status == 0, "\(built.stderr)")
            try scratch.write("packs/Catalog.plist", """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict>
                <key>BundleIdentifier</key><string>com.example.game</string>
                <key>BasePacks</key><array><string>one.wordpack</string></array>
                <key>Products</key><array>
                <dict><key>ProductIdentifier</key><string>com.example.hints.10</string><key>Type</key><string>Consumable</string>
                <key>DisplayName</key><string>10 Hints</string><key>Price</key><string>0.99</string><key>HintCount</key><integer>10</integer></dict>
                </array></dict></plist>
                """)
            let published = try await CLI.run(["catalog", "update", "--packs", packs])
            #expect(published.status == 0, "\(published.stderr)")
        }

        func play(_ input: String, _ extra: [String] = []) async throws -> CLI.Result {
            try await PlayCommandTests.run(["play", "--home", home, "--packs", packs] + extra, input: input)
        }

        func hangman(_ arguments: [String]) async throws -> CLI.Result {
            try await CLI.run(arguments + ["--home", home, "--packs", packs])
        }
    }

    static func run(_ arguments: [String], input: String) async throws -> CLI.Result {
        try await CLI.run(arguments, input: input)
    }

    /// The built binary with `input` on a pipe as its standard input.
    static func runBinary(_ arguments: [String], input: String) throws -> CLI.Result {
        try HangmanBinary.run(arguments, input: Array(input.utf8))
    }

    @Test func winAGameThroughAPipe() async throws {
        let world = try await OneWordWorld()
        let result = try PlayCommandTests.runBinary(["play", "--home", world.home, "--packs", world.packs], input: "z\ne\nq\nb\nr\na\nn\n")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "GAME pack=com.example.words.one category=\"Animals\" letters=5 lives=6 hints=0",
            "STATE word=\"_ _ _ _ _\" lives=6/6 used=\"\" hints=0",
            "HIT z 1",
            "STATE word=\"z _ _ _ _\" lives=6/6 used=\"z\" hints=0",
            "HIT e 1",
            "STATE word=\"z e _ _ _\" lives=6/6 used=\"e z\" hints=0",
            "MISS q",
            "STATE word=\"z e _ _ _\" lives=5/6 used=\"e q z\" hints=0",
            "HIT b 1",
            "STATE word=\"z e b _ _\" lives=5/6 used=\"b e q z\" hints=0",
            "HIT r 1",
            "STATE word=\"z e b r _\" lives=5/6 used=\"b e q r z\" hints=0",
            "HIT a 1",
            "WON zebra score=150",
            "CLUE Striped horse",
            "AGAIN?",
        ])
        let stats = try await world.hangman(["stats", "--json"])
        #expect(stats.stdout.contains("\"won\" : 1"))
        #expect(stats.stdout.contains("\"currentStreak\" : 1"))
    }

    @Test func loseAGameAndTheStreakBreaks() async throws {
        let world = try await OneWordWorld()
        _ = try await world.play("zebra\nn\n")
        let result = try await world.play("c\nd\nf\ng\nh\ni\nn\n")
        #expect(result.stdout.contains("LOST zebra"))
        #expect(!result.stdout.contains("WON"))
        let stats = try await world.hangman(["stats", "--json"])
        #expect(stats.stdout.contains("\"played\" : 2"))
        #expect(stats.stdout.contains("\"currentStreak\" : 0"))
        #expect(stats.stdout.contains("\"bestStreak\" : 1"))
    }

    @Test func hintSpendsFromTheLedgerAndOutOfHintsOffersToBuy() async throws {
        let world = try await OneWordWorld()
        let result = try await world.play("?\nbuy!\n?\nquit\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("NOHINTS com.example.hints.10"))
        #expect(result.stdout.contains("BOUGHT 10"))
        #expect(result.stdout.contains("HINT "))
        #expect(result.stdout.contains("SAVED"))
        #expect(try await world.hangman(["hints"]).stdout == "9 hints\n")
        let transactions = try await world.hangman(["transactions"])
        #expect(transactions.stdout.contains("10 Hints  $0.99  finished, 10 hints"))
    }

    /// Through a pipe nothing asks before a purchase, so 'buy' alone charges nothing: 'buy!' or
    /// 'play --yes' buys.
    @Test func throughAPipeBuyNeedsAnExclamationMarkOrYes() async throws {
        let world = try await OneWordWorld()
        let refused = try await world.play("buy\nquit\n")
        #expect(refused.status == 0)
        #expect(refused.stdout.contains("BUYFAILED unconfirmed: type buy! or run 'hangman play --yes'"), "\(refused.stdout)")
        #expect(try await world.hangman(["hints"]).stdout == "0 hints\n")
        let yes = try await world.play("buy\nquit\n", ["--yes"])
        #expect(yes.stdout.contains("BOUGHT 10"), "\(yes.stdout)")
        #expect(try await world.hangman(["hints"]).stdout == "10 hints\n")
    }

    @Test func quitSavesAndPlayResumes() async throws {
        let world = try await OneWordWorld()
        _ = try await world.play("z\nq\nquit\n")
        let resumed = try await world.play("e\n")
        #expect(resumed.stdout.hasPrefix("GAME pack=com.example.words.one category=\"Animals\" letters=5 lives=6 hints=0 resumed\n"))
        #expect(resumed.stdout.contains("STATE word=\"z e _ _ _\" lives=5/6 used=\"e q z\" hints=0"), "letters in alphabetical order")
    }

    /// Options that differ from the saved game are the player's wish: on a terminal, Enter starts
    /// a new game with them, `n` resumes the saved one.
    @Test(arguments: [("\n", true), ("n\n", false)])
    func enterTakesTheOptionsTypedOverTheSavedGame(_ answer: String, _ fresh: Bool) async throws {
        let world = try await OneWordWorld()
        _ = try await world.play("z\nq\nquit\n")  // saved: 5 of 6 lives left
        let result = try await CLI.run(
            ["play", "--lives", "8", "--home", world.home, "--packs", world.packs], environment: ["TERM": "xterm", "NO_COLOR": "1"],
            input: answer + "\u{1B}", terminal: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Start a new game with these options (Enter), or resume the saved one (n)?"), "\(result.stderr)")
        #expect(result.stderr.contains("[Y/n]"), "\(result.stderr)")
        #expect(result.stdout.contains(fresh ? "8/8" : "5/6"), "\(result.stdout.suffix(400))")
    }

    @Test func endOfInputSavesCleanly() async throws {
        let world = try await OneWordWorld()
        let result = try await world.play("z\n")
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("SAVED\n"))
        #expect(result.stderr.isEmpty || !result.stderr.contains("Fatal"))
    }

    @Test func repeatedAndInvalidGuessesCostNothing() async throws {
        let world = try await OneWordWorld()
        let result = try await world.play("z\nZ\n7\nhorse\nquit\n")
        #expect(result.stdout.contains("REPEAT z"))
        #expect(result.stdout.contains("INVALID '7' is not a letter"))
        #expect(result.stdout.contains("WRONG horse"))
        #expect(result.stdout.contains("STATE word=\"z _ _ _ _\" lives=5/6"))
    }

    @Test func badOptionsAreUsageErrors() async throws {
        let world = try await OneWordWorld()
        #expect(try await world.play("", ["--lives", "0"]).status == 64)
        #expect(try await world.play("", ["--seed", "minus"]).status == 64)
        #expect(try await world.play("", ["--pack", "com.nobody.pack"]).status == 64)
        #expect(try await world.play("", ["--category", "Nope", "--new"]).status == 64)
    }

    /// A real terminal: a pseudo-terminal from util-linux `script`, typed into through its input.
    /// The raw bytes show the alternate screen entered and left, a key played without Enter, and
    /// Ctrl-C saving the game.
    @Test func realTerminalShowsTheGallows() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
            "/usr/bin/script is missing: this test plays in its pseudo-terminal (apt-get install bsdutils)")
        let world = try await OneWordWorld()
        let typescript = world.scratch.path + "/typescript"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-f", "-e", "-c", "\(HangmanBinary.path) play --home \(world.home) --packs \(world.packs)", typescript]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment["TERM"] = "xterm"
        environment.removeValue(forKey: "NO_COLOR")
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        func screen(until text: String) async -> String {
            for _ in 0..<100 {
                let raw = (try? String(contentsOfFile: typescript, encoding: .utf8)) ?? ""
                if raw.contains(text) { return raw }
                try? await Task.sleep(for: .milliseconds(100))
            }
            return (try? String(contentsOfFile: typescript, encoding: .utf8)) ?? ""
        }
        let first = await screen(until: "Esc save and quit")
        #expect(first.contains("HANGMAN"))
        #expect(first.contains("One Word · Animals"))
        #expect(first.contains("+---+"))
        #expect(first.contains("\u{1B}[?1049h"), "the game has a screen of its own")
        input.fileHandleForWriting.write(Data("q".utf8))
        let second = await screen(until: "No 'q'.")
        #expect(second.contains("  O   |"))
        #expect(second.contains("5/6"))
        input.fileHandleForWriting.write(Data([0x03]))  // Ctrl-C, turned into SIGINT by the terminal
        let last = await screen(until: "Game saved")
        for _ in 0..<50 where process.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(last.contains("\u{1B}[?1049l"), "the shell's screen is back")
        #expect(last.contains("Game saved"))
        #expect(!last.contains("Fatal error"))
        #expect(process.terminationStatus == 130)
    }

    /// Keys as a terminal sends them, in-process: letters play at once, an arrow's whole sequence
    /// is ignored, `!` opens a line for a word (Enter on an empty one goes back), a lone Esc saves and quits.
    /// A bare `hangman` on a terminal starts a game, as bsdgames' does; without a terminal it
    /// prints the help, as before.
    @Test func aBareHangmanPlaysOnATerminalAndHelpsAScript() async throws {
        let world = try await OneWordWorld()
        let played = try await CLI.run([], environment: ["TERM": "xterm", "NO_COLOR": "1", "HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs],
            input: "z\u{1B}", terminal: true)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout.hasPrefix("\u{1B}[?1049h") && played.stdout.contains("Used: z"), "\(played.stdout.prefix(200).debugDescription)")
        let help = try await CLI.run([], environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs])
        #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: "), "\(help.stdout.prefix(200))")
    }

    @Test func keysOnATerminalPlayAtOnceAndArrowsAreIgnored() async throws {
        let world = try await OneWordWorld()
        let keys = "z\u{1B}[A\u{1B}[1;5Ce\u{1B}OP!qu\u{7F}\u{7F}\rq\u{1B}"
        let result = try await CLI.run(
            ["play", "--home", world.home, "--packs", world.packs], environment: ["TERM": "xterm", "NO_COLOR": "1"], input: keys, terminal: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\u{1B}[?1049h"), "\(result.stdout.prefix(40).debugDescription)")
        #expect(result.stdout.contains("Word: qu_"), "the word line as typed")
        #expect(result.stdout.contains("Used: e q z"), "\(result.stdout)")
        #expect(!result.stdout.contains("Used: A") && !result.stdout.contains("P q"), "no byte of a sequence was a guess")
        #expect(result.stdout.contains("5/6"))
        #expect(result.stdout.hasSuffix("\u{1B}[?1049lGame saved: run 'hangman play' to resume it.\n"), "\(result.stdout.suffix(80).debugDescription)")
    }

    @Test func aWordThatIsACommandIsGuessedAfterAnEqualsSign() async throws {
        let world = try await OneWordWorld(word: "quit", clue: "Leave")
        let result = try await world.play("=help\n=quit\nn\n")
        #expect(result.stdout.contains("WRONG help"), "\(result.stdout)")
        #expect(result.stdout.contains("WON quit score="), "\(result.stdout)")
        #expect(!result.stdout.contains("SAVED"))
    }

    @Test func optionsThatDifferFromTheSavedGameStartANewOneAndSaySo() async throws {
        let world = try await OneWordWorld()
        _ = try await world.play("z\nquit\n")
        let same = try await world.play("quit\n", ["--lives", "6"])
        #expect(same.stdout.contains("resumed"), "the same options resume: \(same.stdout)")
        let other = try await world.play("quit\n", ["--lives", "8"])
        #expect(other.stderr.contains("--lives 8 (the saved game has 6)"), "\(other.stderr)")
        #expect(other.stdout.hasPrefix("GAME pack=com.example.words.one category=\"Animals\" letters=5 lives=8 hints=0\n"), "\(other.stdout)")
        let category = try await world.play("quit\n", ["--category", "animals"])
        #expect(category.stdout.contains("resumed"), "a category named in another case is the same: \(category.stdout)")
    }
}
