import Foundation
import Testing
import TestSupport

/// Issue 12, bullet 1: a hint revealed is a hint paid, exactly once, whatever the seeds,
/// terminals, crashes or retries; and `stats` counts every finished game.
@Suite struct HintsPaidOnceTests {
    static let hints = "com.example.hints.10"

    /// A packs folder whose one word has ten different letters (nine hints a game), and 10 hints bought.
    static func world(hints packs: Int = 1) async throws -> PlayCommandTests.OneWordWorld {
        let world = try await PlayCommandTests.OneWordWorld(word: "blacksmith", clue: "Works iron")
        for _ in 0..<packs {
            let bought = try await world.hangman(["buy", hints])
            try #require(bought.status == 0, "\(bought.stderr)")
        }
        return world
    }

    /// Hints paid from the account, as the ledger records them (the `sqlite3` tool knows nothing of this code).
    static func debited(_ world: PlayCommandTests.OneWordWorld) throws -> Int {
        let tool = "/usr/bin/sqlite3"
        try #require(FileManager.default.isExecutableFile(atPath: tool), "the sqlite3 tool (Debian package sqlite3) is needed")
        let out = try ExternalProcess.run(tool, [world.home + "/account/account.sqlite", "SELECT count(*) FROM hint_ledger WHERE reason = 'spend'"])
        return try #require(Int(out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "sqlite3: \(out.stderr)")
    }

    static func balance(_ world: PlayCommandTests.OneWordWorld) async throws -> Int {
        let result = try await world.hangman(["hints", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["hintBalance"] as? Int, "\(result.stdout) \(result.stderr)")
    }

    /// Waits until some process holds `flock(2)` on the file, as `/proc/locks` shows (looking, not locking).
    static func waitUntilLocked(_ path: String) async throws {
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
        for _ in 0..<1200 {
            let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
            if locks.split(separator: "\n").contains(where: { $0.contains("FLOCK") && $0.contains(":\(inode) ") }) { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("nobody took \(path)")
    }

    static func revealed(_ output: String) -> Int {
        output.split(separator: "\n").filter { $0.hasPrefix("HINT ") }.count
    }

    /// `printf '?\n?\n?\nquit\n' | hangman play --plain --seed 42 --new`, five times: 15 hints
    /// revealed for 3 paid, because every replay drew the same game id from the seed.
    @Test func replayingASeedPaysForEveryHint() async throws {
        let world = try await Self.world()
        var revealed = 0
        for _ in 0..<5 {
            let played = try await world.play("?\n?\n?\nquit\n", ["--plain", "--seed", "42", "--new"])
            #expect(played.status == 0, "\(played.stderr)")
            revealed += Self.revealed(played.stdout)
        }
        #expect(revealed == 10, "10 hints bought: the first 10 requests are revealed, the rest refused")
        #expect(try Self.debited(world) == revealed)
        #expect(try await Self.balance(world) == 0)
    }

    /// Games started with the same seed and abandoned with `--new` were dropped from `stats` (one
    /// row per game id); each is a game of its own.
    @Test func statsCountEveryGamePlayedWithTheSameSeed() async throws {
        let world = try await PlayCommandTests.OneWordWorld(word: "zebra")
        for _ in 0..<3 {
            let won = try await world.play("zebra\nn\n", ["--plain", "--seed", "7", "--new"])
            #expect(won.stdout.contains("WON zebra"), "\(won.stdout)")
        }
        for _ in 0..<2 { _ = try await world.play("quit\n", ["--plain", "--seed", "7", "--new"]) }
        let stats = try await world.hangman(["stats", "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
        // Three won, then a game abandoned by the second --new; the last one is still saved.
        #expect(document?["played"] as? Int == 4, "\(stats.stdout)")
        #expect(document?["won"] as? Int == 3, "\(stats.stdout)")
    }

    /// Two terminals resuming one saved game each got a letter for one debit. Now the second one,
    /// finding the saved game open elsewhere, says so and plays a game of its own.
    @Test func aSecondPlayOnAnOpenSavedGameGetsItsOwnGame() async throws {
        let world = try await Self.world()
        _ = try await world.play("?\nquit\n", ["--plain"])
        #expect(try Self.debited(world) == 1)
        // A first terminal holds the saved game: its input stays open until the test ends it.
        let first = try ExternalProcess(
            HangmanBinary.path, ["play", "--plain", "--home", world.home, "--packs", world.packs], holdingInput: true)
        try await Self.waitUntilLocked(world.home + "/device/game-1.lock")
        let second = try await world.play("?\nquit\n", ["--plain"])
        // Only the process this test started is ended, by its id.
        let held = first.kill()
        #expect(held.stdout.contains("resumed"), "the first terminal resumed the saved game: \(held.stdout)")
        #expect(!second.stdout.contains("resumed"), "\(second.stdout)")
        #expect(second.stderr.contains("Your saved game is open in another 'hangman play': this is a new game beside it."), "\(second.stderr)")
        #expect(Self.revealed(second.stdout) == 1)
        #expect(try Self.debited(world) == 2, "each revealed letter paid once")
    }

    /// Many `hangman play` processes at once, on one saved game and then on fresh games started
    /// with one seed, asking for far more hints than the account holds.
    @Test func manyPlayersAtOnceRevealExactlyWhatTheyPayFor() async throws {
        let world = try await Self.world()
        _ = try await world.play("quit\n", ["--plain"])  // the saved game they all find
        let asks = String(repeating: "?\n", count: 6) + "quit\n"
        func playAtOnce(_ extra: [String]) throws -> [ProcessResult] {
            let started = try (0..<8).map { _ in
                try ExternalProcess(
                    HangmanBinary.path, ["play", "--plain", "--home", world.home, "--packs", world.packs] + extra, input: Array(asks.utf8))
            }
            return started.map { $0.wait(killAfter: 120) }
        }

        let onSavedGame = try playAtOnce([])
        #expect(onSavedGame.allSatisfy { $0.status == 0 && !$0.wasSignaled }, "\(onSavedGame.map(\.stderr))")
        // The saved game is played by one process at a time: another may resume it after that one quits.
        #expect(onSavedGame.contains { $0.stdout.contains(" resumed") })
        let revealedFirst = onSavedGame.map { Self.revealed($0.stdout) }.reduce(0, +)
        // 48 asked of 10 hints: at most 10 revealed, fewer when the one saved game, played in turn,
        // came down to its last letter (no hint then); each one revealed was paid, once.
        #expect((1...10).contains(revealedFirst), "48 asked, 10 paid for: \(onSavedGame.map { $0.stderr + $0.stdout.suffix(300) })")
        #expect(try Self.debited(world) == revealedFirst)
        #expect(try await Self.balance(world) == 10 - revealedFirst)

        let bought = try await world.hangman(["buy", Self.hints])
        try #require(bought.status == 0, "\(bought.stderr)")
        let fresh = try playAtOnce(["--new", "--seed", "42"])
        #expect(fresh.allSatisfy { $0.status == 0 && !$0.wasSignaled }, "\(fresh.map(\.stderr))")
        let revealedSecond = fresh.map { Self.revealed($0.stdout) }.reduce(0, +)
        // Fresh games have room for every hint left: all of them are spent, each revealed once.
        #expect(revealedSecond == 20 - revealedFirst, "\(fresh.map { $0.stderr + $0.stdout.suffix(300) })")
        #expect(try Self.debited(world) == revealedFirst + revealedSecond)
        #expect(try await Self.balance(world) == 0)
    }
}
