import Foundation
import HTTPServer
import PackServer
import PackServiceAPI
import Testing
import TestSupport

/// Subscriptions through the built binary, as a player uses them: the README's walk-through on
/// the embedded store, a process killed between a renewal's charge and its credit, "deleting the
/// app" and restoring, and offline play on a pack server's pass.
@Suite struct SubscriptionCommandTests {
    static let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path

    /// `hangman ARGS` on an embedded home under `scratch`, prices in the C locale.
    private func hangman(_ scratch: Scratch, _ arguments: [String], environment: [String: String] = [:], input: String = "") async throws -> CLI.Result {
        try await CLI.run(
            arguments + ["--home", scratch.file("home"), "--packs", Self.packs], environment: ["LC_ALL": "C.UTF-8"].merging(environment) { _, new in new },
            input: input)
    }

    @Test func theReadmeWalkThrough() async throws {
        let scratch = try Scratch()
        let bought = try await hangman(scratch, ["buy", "monthly", "--yes"])
        #expect(bought.status == 0, "\(bought.stderr)")
        #expect(bought.stdout.contains("Started Hangman Pass (monthly)'s free trial: nothing is charged now."), "\(bought.stdout)")
        #expect(bought.stdout.contains("free trial until "), "\(bought.stdout)")
        let packs = try await hangman(scratch, ["packs"])
        #expect(packs.stdout.contains("subscribed until ") && packs.stdout.contains(" (Hangman Pass"), "\(packs.stdout)")
        let play = try await hangman(scratch, ["play", "--pack", "hard", "--plain", "--new"], input: "quit\n")
        #expect(play.status == 0, "\(play.stdout)\(play.stderr)")
        let advanced = try await hangman(scratch, ["store", "clock", "advance", "P1W"])
        #expect(advanced.stdout.contains("1 renewal processed"), "\(advanced.stdout)")
        #expect(try await hangman(scratch, ["hints"]).stdout == "20 hints\n")
        let listed = try await hangman(scratch, ["subscriptions"])
        #expect(listed.stdout.contains("monthly  active"), "\(listed.stdout)")
        let cancelled = try await hangman(scratch, ["subscriptions", "cancel", "monthly"])
        #expect(cancelled.stdout.contains("will not renew"), "\(cancelled.stdout)")
        _ = try await hangman(scratch, ["store", "clock", "advance", "P1M"])
        let ended = try await hangman(scratch, ["packs"])
        #expect(ended.stdout.contains("locked since ") && ended.stdout.contains(" (Hangman Pass"), "\(ended.stdout)")
        let refused = try await hangman(scratch, ["play", "--pack", "hard", "--plain", "--new"], input: "quit\n")
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("Hangman Pass (monthly) ended on "), "\(refused.stderr)")
        #expect(refused.stderr.contains("'hangman buy com.hangmanpacks.pass.monthly'"), "\(refused.stderr)")
        // The hints stay; nothing renewed after the cancel.
        #expect(try await hangman(scratch, ["hints"]).stdout == "20 hints\n")
        let json = try await hangman(scratch, ["subscriptions", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 1 && rows[0]["state"] as? String == "expired" && rows[0]["willAutoRenew"] as? Bool == false)
        #expect(rows[0]["productID"] as? String == "com.hangmanpacks.pass.monthly" && rows[0]["originalTransactionID"] is String)
    }

    /// A game saved on a pass's pack is kept, not resumed, once the pass ends: plain 'play' says
    /// so, starts a game from what the account may play, and no hint is spent on the saved one.
    @Test func aSavedGameOnAnEndedPassIsKeptNotResumed() async throws {
        let scratch = try Scratch()
        #expect(try await hangman(scratch, ["buy", "monthly", "--yes"]).status == 0)
        _ = try await hangman(scratch, ["store", "clock", "advance", "P1W"])
        let saved = try await hangman(scratch, ["play", "--pack", "hard", "--plain", "--new", "--seed", "1"], input: "quit\n")
        #expect(saved.stdout.contains("GAME pack=com.hangmanpacks.words.hard") && saved.stdout.contains("SAVED"), "\(saved.stdout)")
        #expect(try await hangman(scratch, ["subscriptions", "cancel", "monthly"]).status == 0)
        _ = try await hangman(scratch, ["store", "clock", "advance", "P2M"])
        let before = try await hangman(scratch, ["hints"]).stdout
        // A hint, then the alphabet until the game ends, and no other game.
        let alphabet = "abcdefghijklmnopqrstuvwxyz".map { "\($0)\n" }.joined()
        let played = try await hangman(scratch, ["play", "--plain"], input: "?\n" + alphabet + "n\n")
        #expect(played.status == 0, "\(played.stdout)\(played.stderr)")
        #expect(played.stderr.contains("Your saved game from Hard Words is kept, not resumed"), "\(played.stderr)")
        #expect(!played.stdout.contains("pack=com.hangmanpacks.words.hard") && !played.stdout.contains("resumed"), "\(played.stdout)")
        // The hint was spent on the new game, not on the kept one.
        #expect(played.stdout.contains("HINT "), "\(played.stdout)")
        #expect(before == "20 hints\n")
        #expect(try await hangman(scratch, ["hints"]).stdout == "19 hints\n")
        // Subscribed again, the kept game resumes.
        #expect(try await hangman(scratch, ["buy", "monthly", "--yes"]).status == 0)
        let resumed = try await hangman(scratch, ["play", "--plain"], input: "quit\n")
        #expect(resumed.stdout.contains("GAME pack=com.hangmanpacks.words.hard") && resumed.stdout.contains("resumed"), "\(resumed.stdout)\(resumed.stderr)")
    }

    @Test(arguments: ["after-renewal-charge", "after-deliver"])
    func aRenewalKilledMidwayIsCompletedOnceByTheNextCommand(_ point: String) async throws {
        let scratch = try Scratch()
        #expect(try await hangman(scratch, ["buy", "monthly", "--yes"]).status == 0)
        let killed = try await hangman(scratch, ["store", "clock", "advance", "P1W"], environment: ["HANGMAN_CRASH_AT": point])
        #expect(killed.wasSignaled && killed.status == 9, "\(killed.stdout)\(killed.stderr)")
        for _ in 0..<3 { #expect(try await hangman(scratch, ["hints"]).stdout == "20 hints\n") }
        let json = try await hangman(scratch, ["transactions", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 2 && rows.allSatisfy { $0["state"] as? String == "finished" }, "\(rows)")
        #expect(rows.map { $0["hintsCredited"] as? Int } == [0, 20])
        #expect(rows.allSatisfy { $0["type"] as? String == "AutoRenewable" && $0["expiresDate"] is String })
        #expect(Set(rows.compactMap { $0["originalTransactionID"] as? String }).count == 1)
        let ledger = try ExternalProcess.run("/usr/bin/sqlite3", [scratch.file("home/account/account.sqlite"), "SELECT count(*), sum(amount) FROM hint_ledger"])
        #expect(ledger.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1|20")
    }

    /// A sandbox server with test controls on the shipped packs, its data in `scratch`.
    static func sandboxServer(in scratch: Scratch) throws -> HTTPServer {
        let server = try PackServer(PackServerConfiguration(
            dataFolder: scratch.file("server"), packsFolder: Self.packs, environment: .sandbox, testControls: true))
        return try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
    }

    /// A free trial is offered as the seller decides, once per group: not to an account that had
    /// one, online or offline (offline, the failed lookup of its subscriptions offered one).
    @Test func aFreeTrialIsNotOfferedAgainEvenOffline() async throws {
        let scratch = try Scratch()
        let http = try Self.sandboxServer(in: scratch)
        var running: HTTPServer? = http
        defer { running?.stop() }
        let home = ["--home", scratch.file("alice")]
        #expect(try await CLI.run(["account", "create", "--service", http.url] + home).status == 0)
        let before = try await CLI.run(["products", "--wide"] + home)
        #expect(before.stdout.contains("free trial"), "\(before.stdout)")
        #expect(try await CLI.run(["buy", "monthly", "--yes"] + home).status == 0)
        let online = try await CLI.run(["products", "--wide"] + home)
        #expect(online.status == 0 && !online.stdout.contains("free trial"), "\(online.stdout)")
        http.stop()
        running = nil
        let offline = try await CLI.run(["products", "--wide"] + home)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(!offline.stdout.contains("free trial"), "\(offline.stdout)")
        // Buying hints in a game offline: the player session refuses before anything is asked.
        let game = try await CLI.run(["play", "--plain", "--new"] + home, input: "buy\nquit\n")
        #expect(game.stdout.contains("BUYFAILED offline"), "\(game.stdout)")
    }

    /// A server's pass: "deleting the app" and restoring brings its packs back; with the server
    /// gone, they play from the last signed statement.
    @Test func aPassRestoresOnAFreshHomeAndPlaysOffline() async throws {
        let scratch = try Scratch()
        let http = try Self.sandboxServer(in: scratch)
        var running: HTTPServer? = http
        defer { running?.stop() }
        func player(_ arguments: String..., input: String = "") async throws -> CLI.Result {
            try await CLI.run(arguments + ["--home", scratch.file("alice")], environment: ["LC_ALL": "C.UTF-8"], input: input)
        }
        #expect(try await CLI.run(["account", "create", "--service", http.url, "--home", scratch.file("alice")]).status == 0)
        #expect(try await player("buy", "30days", "--yes").status == 0)
        #expect(try await player("reset", "--yes").status == 0)
        let restored = try await player("restore")
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("Hard Words"), "\(restored.stdout)")
        let packs = try await player("packs")
        #expect(packs.stdout.contains("subscribed until ") && packs.stdout.contains(" (Hangman 30-Day"), "\(packs.stdout)")
        // A second device: a new home with the account's credentials gets the pass's packs too.
        try FileManager.default.createDirectory(atPath: scratch.file("phone/account"), withIntermediateDirectories: true)
        for file in ["service.json", "service-token"] {
            try FileManager.default.copyItem(atPath: scratch.file("alice/account/" + file), toPath: scratch.file("phone/account/" + file))
        }
        let phone = try await CLI.run(["restore", "--home", scratch.file("phone")], environment: ["LC_ALL": "C.UTF-8"])
        #expect(phone.status == 0 && phone.stdout.contains("Hard Words"), "\(phone.stdout)\(phone.stderr)")
        http.stop()
        running = nil
        let offline = try await player("play", "--pack", "hard", "--plain", "--new", input: "quit\n")
        #expect(offline.status == 0, "\(offline.stdout)\(offline.stderr)")
        #expect(offline.stdout.contains("offline"), "\(offline.stdout)")
    }

    /// `receipt verify` through a server's Apple-compatible endpoint: from the home bound to it,
    /// and from any home with `--service`, as a backend checks a receipt; a subscription's
    /// receipt needs the shared secret.
    @Test func aReceiptIsVerifiedAtTheServersAppleEndpoint() async throws {
        let scratch = try Scratch()
        let secretFile = scratch.file("secret")
        try "a-shared-secret-of-this-test\n".write(toFile: secretFile, atomically: true, encoding: .utf8)
        var configuration = PackServerConfiguration(dataFolder: scratch.file("server"), packsFolder: Self.packs, environment: .sandbox, testControls: true)
        configuration.sharedSecret = SharedSecret(fileContents: Array("a-shared-secret-of-this-test".utf8))
        let server = try PackServer(configuration)
        let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        defer { http.stop() }
        let home = ["--home", scratch.file("alice")]
        #expect(try await CLI.run(["account", "create", "--service", http.url] + home).status == 0)
        #expect(try await CLI.run(["buy", "monthly", "--yes"] + home).status == 0)
        let file = scratch.file("receipt.plist")
        #expect(try await CLI.run(["receipt", "-o", file] + home).status == 0)
        let refused = try await CLI.run(["receipt", "verify", file] + home)
        #expect(refused.status == 65 && refused.stdout.hasPrefix("status 21004: "), "\(refused.stdout)")
        let verified = try await CLI.run(["receipt", "verify", file, "--shared-secret-file", secretFile] + home)
        #expect(verified.status == 0 && verified.stdout.hasPrefix("status 0: valid: 1 transactions"), "\(verified.stdout)")
        #expect(verified.stdout.contains("Hangman Pass (monthly)  (free trial, until "), "\(verified.stdout)")
        let elsewhere = try await CLI.run(["receipt", "verify", file, "--service", http.url, "--shared-secret-file", secretFile, "--home", scratch.file("backend")])
        #expect(elsewhere.status == 0 && elsewhere.stdout.contains("com.hangmanpacks.pass.monthly"), "\(elsewhere.stdout)\(elsewhere.stderr)")
        // The file read as the server reads its own: blanks around the line are no part of the
        // secret (the client sent them, and got 21004).
        let blanks = scratch.file("secret-with-blanks")
        try "  a-shared-secret-of-this-test \t\n".write(toFile: blanks, atomically: true, encoding: .utf8)
        let trimmed = try await CLI.run(["receipt", "verify", file, "--shared-secret-file", blanks] + home)
        #expect(trimmed.status == 0 && trimmed.stdout.hasPrefix("status 0: valid"), "\(trimmed.stdout)\(trimmed.stderr)")
        let short = scratch.file("short-secret")
        try "short\n".write(toFile: short, atomically: true, encoding: .utf8)
        let refusedShort = try await CLI.run(["receipt", "verify", file, "--shared-secret-file", short] + home)
        #expect(refusedShort.status != 0 && refusedShort.stderr.contains("must be one line of 8 to 256 characters"), "\(refusedShort.stderr)")
    }
}
