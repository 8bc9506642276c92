import Foundation
import Testing

/// Whole games played through a pipe, as a script or a screen reader would, and one on a real terminal.
@Suite struct PlayCommandTests {
    /// A packs folder whose base pack holds one word, so that every game is known in advance.
    final class OneWordWorld {
        let scratch: Scratch
        let home: String
        let packs: String

        init(word: String = "zebra", clue: String = "Striped horse") throws {
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
            let built = try CLI.run(["pack", "build", scratch.path + "/src", "-o", packs + "/one.wordpack"])
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
        }

        func play(_ input: String, _ extra: [String] = []) throws -> CLI.Result {
            try PlayCommandTests.run(["play", "--home", home, "--packs", packs] + extra, input: input)
        }

        func hangman(_ arguments: [String]) throws -> CLI.Result {
            try CLI.run(arguments + ["--home", home, "--packs", packs])
        }
    }

    static func run(_ arguments: [String], input: String) throws -> CLI.Result {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    @Test func winAGameThroughAPipe() throws {
        let world = try OneWordWorld()
        let result = try world.play("z\ne\nq\nb\nr\na\nn\n")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "GAME pack=com.example.words.one category=\"Animals\" letters=5 lives=6 hints=0",
            "STATE word=\"_ _ _ _ _\" lives=6/6 used=\"\" hints=0",
            "HIT z 1",
            "STATE word=\"z _ _ _ _\" lives=6/6 used=\"z\" hints=0",
            "HIT e 1",
            "STATE word=\"z e _ _ _\" lives=6/6 used=\"z e\" hints=0",
            "MISS q",
            "STATE word=\"z e _ _ _\" lives=5/6 used=\"z e q\" hints=0",
            "HIT b 1",
            "STATE word=\"z e b _ _\" lives=5/6 used=\"z e q b\" hints=0",
            "HIT r 1",
            "STATE word=\"z e b r _\" lives=5/6 used=\"z e q b r\" hints=0",
            "HIT a 1",
            "WON zebra score=150",
            "CLUE Striped horse",
            "AGAIN?",
        ])
        let stats = try world.hangman(["stats", "--json"])
        #expect(stats.stdout.contains("\"won\" : 1"))
        #expect(stats.stdout.contains("\"currentStreak\" : 1"))
    }

    @Test func loseAGameAndTheStreakBreaks() throws {
        let world = try OneWordWorld()
        _ = try world.play("zebra\nn\n")
        let result = try world.play("c\nd\nf\ng\nh\ni\nn\n")
        #expect(result.stdout.contains("LOST zebra"))
        #expect(!result.stdout.contains("WON"))
        let stats = try world.hangman(["stats", "--json"])
        #expect(stats.stdout.contains("\"played\" : 2"))
        #expect(stats.stdout.contains("\"currentStreak\" : 0"))
        #expect(stats.stdout.contains("\"bestStreak\" : 1"))
    }

    @Test func hintSpendsFromTheLedgerAndOutOfHintsOffersToBuy() throws {
        let world = try OneWordWorld()
        let result = try world.play("?\nbuy\n?\nquit\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("NOHINTS com.example.hints.10"))
        #expect(result.stdout.contains("BOUGHT 10"))
        #expect(result.stdout.contains("HINT "))
        #expect(result.stdout.contains("SAVED"))
        #expect(try world.hangman(["hints"]).stdout == "9 hints\n")
        let transactions = try world.hangman(["transactions"])
        #expect(transactions.stdout.contains("10 Hints  finished, 10 hints"))
    }

    @Test func quitSavesAndPlayResumes() throws {
        let world = try OneWordWorld()
        _ = try world.play("z\nq\nquit\n")
        let resumed = try world.play("e\n")
        #expect(resumed.stdout.hasPrefix("GAME pack=com.example.words.one category=\"Animals\" letters=5 lives=6 hints=0 resumed\n"))
        #expect(resumed.stdout.contains("STATE word=\"z e _ _ _\" lives=5/6 used=\"z q e\" hints=0"))
    }

    @Test func endOfInputSavesCleanly() throws {
        let world = try OneWordWorld()
        let result = try world.play("z\n")
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("SAVED\n"))
        #expect(result.stderr.isEmpty || !result.stderr.contains("Fatal"))
    }

    @Test func repeatedAndInvalidGuessesCostNothing() throws {
        let world = try OneWordWorld()
        let result = try world.play("z\nZ\n7\nhorse\nquit\n")
        #expect(result.stdout.contains("REPEAT z"))
        #expect(result.stdout.contains("INVALID '7' is not a letter"))
        #expect(result.stdout.contains("WRONG horse"))
        #expect(result.stdout.contains("STATE word=\"z _ _ _ _\" lives=5/6"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let world = try OneWordWorld()
        #expect(try world.play("", ["--lives", "0"]).status == 64)
        #expect(try world.play("", ["--seed", "minus"]).status == 64)
        #expect(try world.play("", ["--pack", "com.nobody.pack"]).status == 64)
        #expect(try world.play("", ["--category", "Nope", "--new"]).status == 64)
    }

    @Test func realTerminalShowsTheGallows() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else { return }
        let world = try OneWordWorld()
        let session = "hangman-test-\(UUID().uuidString.prefix(8))"
        let command = "SWIFT_BACKTRACE=interactive=no \(CLI.binary.path) play --home \(world.home) --packs \(world.packs); sleep 5"
        // The tmux server outlives this command: keep it off our pipes, or reading them never ends.
        _ = try shellOutput("tmux new-session -d -s \(session) -x 80 -y 30 \"\(command)\" </dev/null >/dev/null 2>&1")
        defer { _ = try? shellOutput("tmux kill-session -t \(session)") }
        func screen() throws -> String {
            for _ in 0..<50 {
                let text = try shellOutput("tmux capture-pane -p -t \(session)")
                if text.contains("Guess a letter") { return text }
                usleep(100_000)
            }
            return try shellOutput("tmux capture-pane -p -t \(session)")
        }
        let first = try screen()
        #expect(first.contains("HANGMAN"))
        #expect(first.contains("One Word · Animals"))
        #expect(first.contains("+---+"))
        _ = try shellOutput("tmux send-keys -t \(session) q Enter")
        usleep(500_000)
        let second = try screen()
        #expect(second.contains("No 'q'."))
        #expect(second.contains("  O   |"))
        #expect(second.contains("(5/6)"))
        _ = try shellOutput("tmux send-keys -t \(session) C-c")
        usleep(500_000)
        let last = try shellOutput("tmux capture-pane -p -t \(session)")
        #expect(last.contains("Game saved"))
        #expect(!last.contains("Fatal error"))
    }
}
