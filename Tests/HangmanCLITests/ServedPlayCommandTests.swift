import Foundation
import HTTPServer
import Messages
import PackServer
import PackServiceAPI
import PackServiceClient
import SQLite
import TestSupport
import Testing

/// `hangman play` on a home bound to a pack server: the server's game, the word never in the
/// home; resumed on a second device; the daily word, its share line and the leaderboard; the
/// installed packs when the server is gone.
@Suite struct ServedPlayCommandTests {
    static let hints10 = "com.hangmanpacks.hints.10"

    final class World {
        let scratch: TemporaryDirectory
        var http: HTTPServer?
        let server: PackServer
        var url: String

        init(environment: ReceiptEnvironment = .sandbox) throws {
            scratch = try TemporaryDirectory()
            let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path
            server = try PackServer(PackServerConfiguration(
                dataFolder: scratch.file("server"), packsFolder: packs, environment: environment, testControls: environment == .sandbox))
            let server = self.server
            let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
            self.http = http
            url = http.url
        }

        deinit { http?.stop() }

        func stop() {
            http?.stop()
            http = nil
        }

        /// The server back at the address it had.
        func restart() throws {
            var configuration = HTTPServerConfiguration()
            configuration.port = UInt16(url.split(separator: ":").last.flatMap { Int($0) } ?? 0)
            let server = self.server
            http = try HTTPServer(configuration) { server.handle($0) }
        }

        func hangman(_ player: String, _ arguments: [String], input: String = "", environment: [String: String] = [:]) async throws -> CLI.Result {
            try await CLI.run(
                arguments, environment: ["HANGMAN_HOME": scratch.file(player), "HANGMAN_SERVICE": url].merging(environment) { $1 }, input: input)
        }
    }

    /// The server picks and keeps the word: the home never holds it while the game is played, a
    /// second device of the account resumes the game, and the word comes with the last answer.
    @Test func aServedGameIsResumedOnASecondDeviceAndItsWordNeverReachesTheHome() async throws {
        let world = try World()
        #expect(try await world.hangman("alice", ["account", "create"]).status == 0)
        #expect(try await world.hangman("alice", ["buy", Self.hints10]).status == 0)
        // English words, which the letters a to z below always win (a German word may hold an
        // umlaut; without chosen languages the server draws from every base pack).
        let english = try await world.hangman("alice", ["settings", "languages", "en"])
        #expect(english.status == 0, "\(english.stdout)\(english.stderr)")
        let first = try await world.hangman("alice", ["play", "--plain", "--lives", "26"], input: "e\n?\nquit\n")
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n").map(String.init)
        let opening = try #require(lines.first)
        #expect(opening.hasPrefix("GAME id=") && opening.contains(" lives=26 hints=10"), "\(first.stdout)")
        #expect(lines.contains { $0.hasPrefix("HINT ") } && lines.contains { $0.hasSuffix("hints=9") } && lines.last == "SAVED", "\(first.stdout)")
        let id = String(opening.dropFirst("GAME id=".count).prefix(32))

        // A second device of the account.
        let token = try await world.hangman("alice", ["account", "token"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let login = try await world.hangman("bob", ["account", "login"], environment: ["HANGMAN_TOKEN": token])
        #expect(login.status == 0, "\(login.stderr)")
        let resumed = try await world.hangman("bob", ["play", "--plain"], input: "quit\n")
        #expect(resumed.stdout.hasPrefix("GAME id=\(id) ") && resumed.stdout.contains(" resumed"), "\(resumed.stdout)\(resumed.stderr)")
        // Played to its end from the second device, a letter a run, each run resumed and saved:
        // nothing is typed after the win but the quit (a letter there would answer "play again?",
        // and a 'y' would start a second game).
        var answers = ""
        for letter in "etaoinshrdlcumwfgypbvkjxqz" {
            let step = try await world.hangman("bob", ["play", "--plain"], input: "\(letter)\nquit\n")
            #expect(step.status == 0, "\(step.stdout)\(step.stderr)")
            answers += step.stdout
            if step.stdout.contains("WON ") { break }
        }
        let won = try #require(answers.split(separator: "\n").first { $0.hasPrefix("WON ") }, "\(answers)")
        let word = String(won.dropFirst(4).prefix { $0 != " " })
        #expect(word.count > 1)
        // Before the WON line, no answer spelt the word: no word of the answers is it, their field
        // names (`lives=`, `used=`) and the opening lines (the pack's identifier, its category,
        // `letters=`) aside, which a word like "letter" or "used" would match by chance.
        let before = (answers.components(separatedBy: "WON ")[0] + first.stdout).split(separator: "\n").filter { !$0.hasPrefix("GAME ") }
        let spelt = Set(before.flatMap { line in
            line.replacingOccurrences(of: "[a-z]+=", with: " ", options: .regularExpression).split { !$0.isLetter }.map(String.init)
        })
        #expect(!spelt.contains(word), "the word before the end: \(before.joined(separator: "\n"))")
        // Neither home saved the game or its answer (the installed packs' word lists are there,
        // thousands of words, for playing offline): no saved game, no game record.
        for player in ["alice", "bob"] {
            let device = try Database(path: world.scratch.file(player) + "/device/device.sqlite")
            let kept = try device.int64("SELECT (SELECT count(*) FROM saved_games) + (SELECT count(*) FROM saved_moves) + (SELECT count(*) FROM games)")
            #expect(kept == 0, "\(player)'s home kept a game")
        }
        let stats = try await world.hangman("alice", ["stats", "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any], "\(stats.stdout)")
        #expect(document["played"] as? Int == 1 && document["won"] as? Int == 1, "\(stats.stdout)")
    }

    /// A home bound to a server plays the languages it would play on its own: an English reader's
    /// games are English words, though every base pack is free on the server; `settings` says so.
    @Test func anEnglishReaderOnAServerPlaysEnglishWordsOnly() async throws {
        let world = try World()
        let english = ["LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8"]
        #expect(try await world.hangman("alice", ["account", "create"], environment: english).status == 0)
        var packs: Set<String> = []
        for _ in 0..<12 {
            let played = try await world.hangman("alice", ["play", "--plain", "--new"], input: "quit\n", environment: english)
            let opening = try #require(played.stdout.split(separator: "\n").first, "\(played.stdout)\(played.stderr)")
            packs.insert(String(try #require(opening.split(separator: " ").first { $0.hasPrefix("pack=") })))
        }
        #expect(packs == ["pack=com.hangmanpacks.words.base"], "\(packs)")
        let settings = try await world.hangman("alice", ["settings"], environment: english)
        #expect(settings.stdout.contains("languages  English (en): the installed packs' languages"), "\(settings.stdout)")
    }

    /// `--seed` reaches only a sandbox server with test controls; a production server refuses it (64).
    @Test func aSeedIsRefusedByAProductionServer() async throws {
        let world = try World(environment: .production)
        #expect(try await world.hangman("alice", ["account", "create"]).status == 0)
        let refused = try await world.hangman("alice", ["play", "--plain", "--seed", "3"], input: "quit\n")
        #expect(refused.status == 64 && refused.stderr.contains("a seed makes the word predictable"), "\(refused.stdout)\(refused.stderr)")
    }

    /// The day's word once, its share line in emoji or letters, and the leaderboard with two players.
    @Test func theDailyWordIsSharedAndRanked() async throws {
        let world = try World()
        for player in ["alice", "bob"] { #expect(try await world.hangman(player, ["account", "create"]).status == 0) }
        #expect(try await world.hangman("alice", ["account", "name", "Alice"]).status == 0)
        let taken = try await world.hangman("bob", ["account", "name", "ALICE"])
        #expect(taken.status == 69 && taken.stderr.contains("'ALICE' is taken"), "\(taken.stderr)")
        // Six lives for everyone: more are refused before anything is asked of the server.
        let moreLives = try await world.hangman("alice", ["play", "--daily", "--plain", "--lives", "26"], input: "e\n")
        #expect(moreLives.status == 64 && moreLives.stderr.contains("6 lives for every player"), "\(moreLives.stderr)")
        // Carol types the alphabet and learns the word, won or lost; Alice and Bob then type the
        // same letters, and score the same.
        #expect(try await world.hangman("carol", ["account", "create"]).status == 0)
        let alphabet = "etaoinshrdlcumwfgypbvkjxqz".map { "\($0)\n" }.joined()
        let carol = try await world.hangman("carol", ["play", "--daily", "--plain"], input: alphabet)
        let ending = try #require(carol.stdout.split(separator: "\n").first { $0.hasPrefix("WON ") || $0.hasPrefix("LOST ") }, "\(carol.stdout)")
        let word = String(ending.split(separator: " ")[1])
        var seen = Set<Character>()
        let letters = word.filter { $0.isLetter && seen.insert($0).inserted }.map { "\($0)\n" }.joined()
        var endings: [String] = []
        for player in ["alice", "bob"] {
            let played = try await world.hangman(player, ["play", "--daily", "--plain"], input: letters)
            #expect(played.status == 0 && played.stdout.contains("\nWON ") && !played.stdout.contains("AGAIN?"), "\(played.stdout)\(played.stderr)")
            endings.append(played.stdout.split(separator: "\n").first { $0.hasPrefix("WON ") }.map(String.init) ?? "")
        }
        #expect(endings[0] == endings[1] && !endings[0].isEmpty, "\(endings)")
        let again = try await world.hangman("alice", ["play", "--daily", "--plain"], input: "e\n")
        #expect(again.status == 69 && again.stderr.contains("already"), "\(again.stderr)")
        // A German reader is refused in German: the server writes the sentence in the language
        // the client asks for.
        let inGerman = try await world.hangman("alice", ["play", "--daily", "--language", "en", "--plain"], input: "e\n", environment: ["LANG": "de_DE.UTF-8"])
        let next = L10n.$language.withValue("de") { L10n.text("the next comes at 00:00 UTC; 'hangman daily' shows your record") }
        #expect(inGerman.status == 69 && !next.contains("next comes") && inGerman.stderr.contains(next), "\(inGerman.stderr)")
        let daily = try await world.hangman("alice", ["daily"], environment: ["NO_COLOR": ""])
        #expect(daily.status == 0 && daily.stdout.contains("Today: won, ") && daily.stdout.contains("Streak 1"), "\(daily.stdout)")
        let share = daily.stdout.split(separator: "\n").suffix(2).map(String.init)
        #expect(share.first?.hasPrefix("Hangman Packs daily ") == true && share.first?.contains("6/6 lives · 0 hints") == true, "\(share)")
        #expect(share.last.map { !$0.isEmpty && $0.allSatisfy { "🟩⬛💡".contains($0) } } == true, "\(share)")
        // In words, for a screen reader: the same game as the squares.
        let words = try await world.hangman("alice", ["daily", "--share"])
        let squares = share.last ?? ""
        #expect(words.status == 0 && words.stdout.contains("won with 6 of 6 lives, 0 hints: \(squares.count) hit") && words.stdout.contains(", 0 misses."), "\(words.stdout)")
        #expect(words.stdout.hasPrefix(share.first.map { String($0.prefix(29)) } ?? "?"), "\(words.stdout)")
        // High contrast: orange hits and blue misses, the same moves.
        let palette = try await world.hangman("alice", ["settings", "palette", "high-contrast"])
        #expect(palette.status == 0 && palette.stdout.contains("orange"), "\(palette.stdout)\(palette.stderr)")
        let contrast = try await world.hangman("alice", ["daily"], environment: ["NO_COLOR": ""])
        let contrastSquares = contrast.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(contrastSquares == squares.replacingOccurrences(of: "🟩", with: "🟧").replacingOccurrences(of: "⬛", with: "🟦"), "\(contrast.stdout)")
        #expect(try await world.hangman("alice", ["settings", "palette", "standard"]).status == 0)
        let plain = try await world.hangman("alice", ["daily"], environment: ["NO_COLOR": "1"])
        #expect(plain.stdout.split(separator: "\n").last.map { $0.allSatisfy { "HMR".contains($0) } } == true, "\(plain.stdout)")
        let board = try await world.hangman("bob", ["leaderboard"])
        #expect(board.status == 0 && board.stdout.contains("3 players") && board.stdout.contains("Alice") && board.stdout.contains("← you"), "\(board.stdout)")
        let json = try await world.hangman("bob", ["leaderboard", "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let top = try #require(document["top"] as? [[String: Any]])
        #expect(top.count == 3 && (document["you"] as? [String: Any])?["displayName"] as? String != "Alice")
        // A past day nobody played, and a day not come yet.
        let past = try await world.hangman("bob", ["leaderboard", "2020-01-01"])
        #expect(past.status == 0 && past.stdout.contains("Nobody finished the daily word of 2020-01-01."), "\(past.stdout)")
        let future = try await world.hangman("bob", ["leaderboard", "2999-01-01"])
        #expect(future.status == 64 && future.stderr.contains("is after today"), "\(future.stderr)")
        let german = try await world.hangman("bob", ["daily", "--language", "de"])
        #expect(german.stdout.contains("'hangman play --daily --language de' plays it"), "\(german.stdout)")
        // The served documents follow the one scheme too.
        for (player, command) in [("bob", ["leaderboard", "--json"]), ("alice", ["daily", "--json"]), ("alice", ["leaderboard", "--week", "--json"])] {
            let answer = try await world.hangman(player, command)
            #expect(try JSONSchemeTests.problems(answer.stdout, command).problems.isEmpty, "\(answer.stdout)")
        }
        // Alice and Bob share the first rank, whoever finished first.
        #expect(top.prefix(2).allSatisfy { $0["rank"] as? Int == 1 } && (document["you"] as? [String: Any])?["rank"] as? Int == 1, "\(top)")
    }

    /// Friends by code, both ways, and their board: a third player is on the public board, not on
    /// the friends'; a code serves once; removed, a friend leaves the board.
    @Test func friendsByCodeShareABoardOfTheirOwn() async throws {
        let world = try World()
        for player in ["alice", "bob", "carol"] { #expect(try await world.hangman(player, ["account", "create"]).status == 0) }
        #expect(try await world.hangman("alice", ["account", "name", "Alice"]).status == 0)
        #expect(try await world.hangman("bob", ["account", "name", "Bob"]).status == 0)
        let invite = try await world.hangman("alice", ["friends", "invite"])
        let code = try #require(invite.stdout.split(separator: "\n").first.map(String.init), "\(invite.stdout)")
        #expect(invite.status == 0 && code.count == 16 && invite.stdout.contains("good once"), "\(invite.stdout)")
        let own = try await world.hangman("alice", ["friends", "add", code])
        #expect(own.status == 64 && own.stderr.contains("your own invitation"), "\(own.stderr)")
        let added = try await world.hangman("bob", ["friends", "add", code.lowercased()])
        #expect(added.status == 0 && added.stdout.contains("You and Alice are friends"), "\(added.stdout)\(added.stderr)")
        let used = try await world.hangman("carol", ["friends", "add", code])
        #expect(used.status == 64 && used.stderr.contains("used already"), "\(used.stderr)")
        #expect(try await world.hangman("alice", ["friends"]).stdout.hasPrefix("Bob  since "))
        #expect(try await world.hangman("bob", ["friends"]).stdout.hasPrefix("Alice  since "))
        let alphabet = "etaoinshrdlcumwfgypbvkjxqz".map { "\($0)\n" }.joined()
        for player in ["alice", "bob", "carol"] {
            #expect(try await world.hangman(player, ["play", "--daily", "--plain"], input: alphabet).status == 0)
        }
        let everyone = try await world.hangman("alice", ["leaderboard"])
        #expect(everyone.stdout.contains("3 players"), "\(everyone.stdout)")
        let friends = try await world.hangman("alice", ["leaderboard", "--friends"])
        #expect(friends.status == 0 && friends.stdout.contains("of your friends") && friends.stdout.contains("2 players"), "\(friends.stdout)")
        #expect(friends.stdout.contains("Bob") && friends.stdout.contains("Alice") && !friends.stdout.contains("Player "), "\(friends.stdout)")
        let removed = try await world.hangman("bob", ["friends", "remove", "alice"])
        #expect(removed.status == 0 && removed.stdout.contains("You and Alice are no longer friends."), "\(removed.stdout)\(removed.stderr)")
        #expect(try await world.hangman("alice", ["leaderboard", "--friends"]).stdout.contains("1 player"))
        #expect(try await world.hangman("alice", ["friends", "remove", "Bob"]).status == 64)
    }

    /// A challenge from the command line: set by one friend, listed and played by the other by
    /// the first 8 characters of its id, then by its setter, and both results side by side.
    @Test func aChallengeIsSetPlayedByBothAndCompared() async throws {
        let world = try World()
        for player in ["alice", "bob"] { #expect(try await world.hangman(player, ["account", "create"]).status == 0) }
        #expect(try await world.hangman("alice", ["account", "name", "Alice"]).status == 0)
        #expect(try await world.hangman("bob", ["account", "name", "Bob"]).status == 0)
        let code = try #require(try await world.hangman("alice", ["friends", "invite"]).stdout.split(separator: "\n").first.map(String.init))
        #expect(try await world.hangman("bob", ["friends", "add", code]).status == 0)
        let set = try await world.hangman("alice", ["challenge", "Bob"])
        #expect(set.status == 0 && set.stdout.contains("Challenge set for Bob"), "\(set.stdout)\(set.stderr)")
        let id = try #require(set.stdout.split(separator: "'").first { $0.hasPrefix("hangman play --challenge ") }.map { String($0.split(separator: " ").last!) })
        let listed = try await world.hangman("bob", ["challenges"])
        #expect(listed.stdout.contains("Alice challenged you") && listed.stdout.contains("To play: hangman play --challenge \(id.prefix(8))"), "\(listed.stdout)")
        let alphabet = "etaoinshrdlcumwfgypbvkjxqz".map { "\($0)\n" }.joined()
        let bobs = try await world.hangman("bob", ["play", "--challenge", String(id.prefix(8)), "--plain"], input: alphabet)
        #expect(bobs.status == 0 && bobs.stdout.hasPrefix("GAME id=") && bobs.stdout.contains("category=\""), "\(bobs.stdout)\(bobs.stderr)")
        #expect(try await world.hangman("bob", ["challenges"]).stdout.contains("Waiting for Alice to play."))
        #expect(try await world.hangman("alice", ["play", "--challenge", id, "--plain"], input: alphabet).status == 0)
        let done = try await world.hangman("alice", ["challenges"])
        #expect(done.stdout.contains("You: ") && done.stdout.contains("Bob: ") && done.stdout.contains("The word was "), "\(done.stdout)")
        // Hard mode on the server: the plain opening says so.
        let hard = try await world.hangman("alice", ["play", "--hard", "--plain"], input: "quit\n")
        #expect(hard.status == 0 && hard.stdout.split(separator: "\n").first?.hasSuffix(" hard") == true, "\(hard.stdout)\(hard.stderr)")
    }

    /// Offline the installed packs play, and the board says so; the daily word waits for the server.
    @Test func offlineTheInstalledPacksPlayAndTheDailyWordWaits() async throws {
        let world = try World()
        #expect(try await world.hangman("alice", ["account", "create"]).status == 0)
        #expect(try await world.hangman("alice", ["play", "--plain"], input: "quit\n").stdout.hasPrefix("GAME id="))
        world.stop()
        let offline = try await world.hangman("alice", ["play", "--plain"], input: "e\nquit\n")
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout.hasPrefix("GAME pack=") && offline.stdout.split(separator: "\n")[0].hasSuffix(" offline"), "\(offline.stdout)")
        let daily = try await world.hangman("alice", ["play", "--daily", "--plain"], input: "e\n")
        #expect(daily.status == 69 && daily.stderr.contains("cannot be reached"), "\(daily.stderr)")
        // The server back: the game started while it was away is resumed here, and says so.
        try world.restart()
        let back = try await world.hangman("alice", ["play", "--plain"], input: "quit\n")
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stderr.contains("started on this device while the pack server was away"), "\(back.stderr)")
        #expect(back.stdout.hasPrefix("GAME pack=") && back.stdout.contains("used=\"e\""), "\(back.stdout)")
        // --new leaves it waiting and starts a served game.
        let served = try await world.hangman("alice", ["play", "--plain", "--new"], input: "quit\n")
        #expect(served.stdout.hasPrefix("GAME id="), "\(served.stdout)\(served.stderr)")
    }
}
