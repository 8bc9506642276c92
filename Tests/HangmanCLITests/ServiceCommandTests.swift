import Base64
import Foundation
import PackServiceWire
import HTTPServer
import PackServer
import PackServiceClient
import Signing
import Testing
import TestSupport

/// The command line against a real pack server: every store and pack command, unchanged, through
/// `--service` / `HANGMAN_SERVICE`.
@Suite struct ServiceCommandTests {
    final class ServedWorld {
        let scratch: TemporaryDirectory
        let http: HTTPServer
        var url: String { http.url }

        /// A server selling the shipped packs, or what `preparePacks` makes of a copy of them.
        init(preparePacks: ((String) throws -> Void)? = nil) throws {
            scratch = try TemporaryDirectory()
            var packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path
            if let preparePacks {
                let copy = scratch.file("Packs")
                try FileManager.default.copyItem(atPath: packs, toPath: copy)
                try preparePacks(copy)
                packs = copy
            }
            let server = try PackServer(PackServerConfiguration(
                dataFolder: scratch.file("server"), packsFolder: packs,
                environment: .sandbox, testControls: true))
            http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        }

        deinit { http.stop() }

        /// `hangman arguments` for the player whose home is `player`, through the server.
        func hangman(_ player: String, _ arguments: String..., input: String = "") async throws -> CLI.Result {
            try await CLI.run(arguments, environment: ["HANGMAN_HOME": scratch.file(player), "HANGMAN_SERVICE": url], input: input)
        }
    }

    /// Tokens per device: a second device logs in with the first one's token and gets its own;
    /// the account lists them; one is revoked alone; a token is rotated; closing the account
    /// revokes every token and its receipts verify as 21010.
    @Test func devicesHaveTokensOfTheirOwnAndAnAccountCanBeClosed() async throws {
        let world = try ServedWorld()
        #expect(try await world.hangman("alice", "account", "create").status == 0)
        let aliceToken = try await world.hangman("alice", "account", "token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let login = try await CLI.run(
            ["account", "login"], environment: ["HANGMAN_HOME": world.scratch.file("bob"), "HANGMAN_SERVICE": world.url, "HANGMAN_TOKEN": aliceToken])
        #expect(login.status == 0 && login.stdout.contains("joined account"), "\(login.stdout)\(login.stderr)")
        let bobToken = try await world.hangman("bob", "account", "token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(bobToken != aliceToken && bobToken.hasPrefix(String(aliceToken.prefix(20))), "a token of its own, on the same account")
        #expect(try await world.hangman("bob", "buy", Self.hints10).status == 0)
        #expect(try await world.hangman("alice", "hints").stdout == "10 hints\n", "one account")

        let listed = try await world.hangman("alice", "account", "tokens", "--json")
        let tokens = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(tokens.count == 2 && tokens.filter { $0["thisDevice"] as? Bool == true }.count == 1, "\(listed.stdout)")
        #expect(!listed.stdout.contains(aliceToken) && !listed.stdout.contains(bobToken), "never a secret")
        let bobID = try #require(tokens.first { $0["thisDevice"] as? Bool == false }?["tokenID"] as? String)
        let table = try await world.hangman("alice", "account", "tokens").stdout
        #expect(table.contains("this device") && table.contains(#/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/#), "the day and the minute: \(table)")

        // Bob's device is signed out alone.
        #expect(try await world.hangman("alice", "account", "token", "revoke", bobID).status == 0)
        let signedOut = try await world.hangman("bob", "transactions")
        #expect(signedOut.status == 77)
        #expect(signedOut.stderr.contains("This device is signed out. On a device still on the account, 'hangman account token' prints its token;"), "\(signedOut.stderr)")
        #expect(signedOut.stderr.contains("hangman account login"), "\(signedOut.stderr)")
        #expect(try await world.hangman("alice", "hints").status == 0)
        #expect(try await world.hangman("alice", "account", "token", "revoke", bobID).status == 64, "already revoked")
        // A wrong token at login: no advice to log in, the token is named as the one refused.
        let wrong = try await CLI.run(
            ["account", "login"], environment: ["HANGMAN_HOME": world.scratch.file("bob"), "HANGMAN_SERVICE": world.url, "HANGMAN_TOKEN": bobToken])
        #expect(wrong.status == 77 && wrong.stderr.contains("does not know that token") && !wrong.stderr.contains("signed out"), "\(wrong.stderr)")
        // The signed-out device signs in again as it joined, and keeps its home.
        let again = try await CLI.run(
            ["account", "login"], environment: ["HANGMAN_HOME": world.scratch.file("bob"), "HANGMAN_SERVICE": world.url, "HANGMAN_TOKEN": aliceToken])
        #expect(again.status == 0 && again.stdout.contains("joined account"), "\(again.stdout)\(again.stderr)")
        #expect(try await world.hangman("bob", "hints").stdout == "10 hints\n")
        let live = try await CLI.run(
            ["account", "login"], environment: ["HANGMAN_HOME": world.scratch.file("bob"), "HANGMAN_SERVICE": world.url, "HANGMAN_TOKEN": aliceToken])
        #expect(live.status == 73, "a home whose token is live has an account already: \(live.stderr)")
        // A token of another account is refused for a signed-out home.
        #expect(try await world.hangman("carol", "account", "create").status == 0)
        let carolToken = try await world.hangman("carol", "account", "token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // Bob is signed out again (every other device's token revoked; the old one is already).
        let tokensNow = try #require(try JSONSerialization.jsonObject(with: Data(try await world.hangman("alice", "account", "tokens", "--json").stdout.utf8)) as? [[String: Any]])
        for row in tokensNow where row["thisDevice"] as? Bool == false {
            if let id = row["tokenID"] as? String, id != bobID { #expect(try await world.hangman("alice", "account", "token", "revoke", id).status == 0) }
        }
        #expect(try await world.hangman("bob", "hints").status == 77)
        let other = try await CLI.run(
            ["account", "login"], environment: ["HANGMAN_HOME": world.scratch.file("bob"), "HANGMAN_SERVICE": world.url, "HANGMAN_TOKEN": carolToken])
        #expect(other.status == 73 && other.stderr.contains("this home is account"), "\(other.stdout)\(other.stderr)")

        // Rotation: the old token stops working, the new one is in the home.
        #expect(try await world.hangman("alice", "account", "token", "rotate").status == 0)
        let rotated = try await world.hangman("alice", "account", "token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(rotated != aliceToken && rotated.hasPrefix("hp1."))
        let old = try shell("curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer \(aliceToken)' \(world.url)/v1/hints")
        #expect(old == "401")
        #expect(try await world.hangman("alice", "hints").stdout == "10 hints\n")

        // Closed: every token revoked, the receipt no longer valid.
        let receiptFile = world.scratch.file("receipt")
        #expect(try await world.hangman("alice", "receipt", "--output", receiptFile).status == 0)
        #expect(try await world.hangman("alice", "play", "--plain", input: "quit\n").status == 0, "the free pack installed")
        #expect(try await world.hangman("alice", "account", "close").status == 64, "no terminal, no --yes")
        #expect(try await world.hangman("alice", "account", "close", "--yes").status == 0)
        #expect(try await world.hangman("alice", "transactions").status == 77)
        // The closed account's home still plays its free pack, without hints (before: 77).
        let played = try await world.hangman("alice", "play", "--plain", input: "?\nquit\n")
        #expect(played.status == 0 && played.stdout.contains(" pack=com.hangmanpacks.words.base") && played.stdout.contains("SIGNEDOUT"), "\(played.stdout)\(played.stderr)")
        let verdict = await HTTPPackService.verifyReceipt(Array(try Data(contentsOf: URL(fileURLWithPath: receiptFile))), at: world.url, password: nil)
        #expect(verdict.status.rawValue == 21010, "\(verdict.status)")
    }

    /// Each token is listed under its device's name (issue 57.13): the machine's host name unless
    /// --device names it, kept through a rotation. A name that is not one is refused by the command
    /// (64) and by the server (400, in a sentence); a client that sends none makes a token with none.
    @Test func devicesAreListedByTheirNames() async throws {
        let world = try ServedWorld()
        func login(_ player: String, _ token: String, _ extra: [String]) async throws -> CLI.Result {
            try await CLI.run(
                ["account", "login"] + extra, environment: ["HANGMAN_HOME": world.scratch.file(player), "HANGMAN_SERVICE": world.url, "HANGMAN_TOKEN": token])
        }
        #expect(try await world.hangman("alice", "account", "create", "--device", "Alice's laptop").status == 0)
        let token = try await world.hangman("alice", "account", "token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let tablet = try await login("bob", token, ["--device", "Ana's tablet 📱"])
        #expect(tablet.status == 0, "\(tablet.stdout)\(tablet.stderr)")
        #expect(try await login("carol", token, ["--device", ""]).stderr.contains("option '--device' cannot be empty"))
        for bad in ["bad\u{1B}[31mname", String(repeating: "x", count: 41), " padded"] {
            let refused = try await login("carol", token, ["--device", bad])
            #expect(refused.status == 64 && refused.stderr.contains("a device's name is 1 to 40 characters"), "\(bad): \(refused.stderr)")
        }
        #expect(try await login("dave", token, []).status == 0)
        var host = [CChar](repeating: 0, count: 256)
        #expect(gethostname(&host, 255) == 0)
        let hostName = try #require(DeviceName.fitted(String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        #expect(try await world.hangman("bob", "account", "token", "rotate").status == 0)

        // The server's own check, and a client that gives no name.
        let bearer = "-H 'Authorization: Bearer \(token)'"
        let refused = try shell("curl -s -w ' %{http_code}' -X POST \(bearer) -H 'Content-Type: application/json' -d '{\"deviceName\":\"a\\u0007b\"}' \(world.url)/v1/account/tokens")
        #expect(refused.hasSuffix(" 400") && refused.contains("a device's name is 1 to 40 characters"), "\(refused)")
        let unnamed = try shell("curl -s -o /dev/null -w '%{http_code}' -X POST \(bearer) \(world.url)/v1/account/tokens")
        #expect(unnamed == "201")

        let listed = try await world.hangman("alice", "account", "tokens", "--json")
        let tokens = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let names = tokens.map { $0["deviceName"] as? String ?? "-" }
        #expect(names == ["Alice's laptop", "Ana's tablet 📱", hostName, "Ana's tablet 📱", "-"], "the rotated token keeps its name: \(listed.stdout)")
        let table = try await world.hangman("alice", "account", "tokens").stdout
        #expect(table.contains("DEVICE") && table.contains("Alice's laptop") && table.contains(hostName), "\(table)")
    }

    /// On a terminal, 'account login' asks for the token and does not show it as it is typed.
    @Test func loginReadsTheTokenWithoutEchoOnATerminal() async throws {
        let world = try ServedWorld()
        #expect(try await world.hangman("alice", "account", "create").status == 0)
        let token = try await world.hangman("alice", "account", "token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let terminal = try await TmuxTerminal(
            width: 80, height: 24, command: "bash --norc --noprofile",
            environment: ["HANGMAN_HOME": world.scratch.file("bob"), "HANGMAN_SERVICE": world.url, "SWIFT_BACKTRACE": "enable=no,interactive=no"])
        try await terminal.type("PS1='$ '; clear; \(HangmanBinary.path) account login")
        try await terminal.press("Enter")
        try await terminal.waitFor("not shown as you type):")
        try await terminal.type(token)
        try await terminal.press("Enter")
        let joined = try await terminal.waitFor("joined account")
        #expect(!joined.contains(token) && !joined.contains(String(token.suffix(12))), "\(joined)")
        // The terminal echoes again afterwards.
        try await terminal.type("echo typed-after")
        #expect(try await terminal.waitFor("$ echo typed-after").contains("typed-after"))
    }

    static let ios = "com.hangmanpacks.words.ios"
    static let hints10 = "com.hangmanpacks.hints.10"

    @Test func aPlayerBuysInstallsAndPlaysThroughTheServer() async throws {
        let world = try ServedWorld()
        let made = try await world.hangman("alice", "account", "create")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.hasPrefix("Made account "))
        #expect(try await world.hangman("alice", "account", "show").stdout.contains("service     \(world.url)"))
        #expect(try await world.hangman("alice", "products", "--wide").stdout.contains(Self.ios))
        #expect(try await world.hangman("alice", "buy", Self.hints10).status == 0)
        let buy = try await world.hangman("alice", "buy", Self.ios)
        #expect(buy.stdout.contains("Installed iOS Words 1.0 (197 words)."), "\(buy.stdout)\(buy.stderr)")
        let play = try await world.hangman("alice", "play", "--plain", "--new", "--pack", Self.ios, input: "?\nquit\n")
        #expect(play.stdout.contains("\nHINT "), "\(play.stdout)")
        #expect(try await world.hangman("alice", "hints").stdout == "9 hints\n")
        // Deleting the app: restore brings the pack back from the server.
        #expect(try await world.hangman("alice", "reset", "--yes").status == 0)
        let restore = try await world.hangman("alice", "restore")
        #expect(restore.stdout.contains("Restored iOS Words"), "\(restore.stdout)\(restore.stderr)")
        // The receipt is the server's, and the server says it is valid.
        let receiptPath = world.scratch.file("alice.receipt")
        #expect(try await world.hangman("alice", "receipt", "-o", receiptPath).status == 0)
        #expect(try await world.hangman("alice", "receipt", "verify", receiptPath).status == 0)
    }

    /// A server that publishes a hostile archive under its own signed catalog (the digest and the
    /// size match): the install is refused (65), the error names the cause, and nothing is
    /// written outside the home.
    @Test func anInstallRefusedForAHostileArchiveSaysWhy() async throws {
        let world = try ServedWorld { packs in
            let made = try ExternalProcess.run("/usr/bin/python3", ["-c", """
                import hashlib, io, sys, tarfile
                folder = sys.argv[1]
                buffer = io.BytesIO()
                with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
                    info = tarfile.TarInfo("../../escaped.txt")
                    info.size = 6
                    archive.addfile(info, io.BytesIO(b"pwned\\n"))
                data = buffer.getvalue()
                open(folder + "/ios-words.wordpack", "wb").write(data)
                text = open(folder + "/Catalog.plist").read()
                start = text.index("<string>com.hangmanpacks.words.ios</string>")
                def replace(text, key, open_tag, close_tag, value):
                    at = text.index(open_tag, text.index(key, start)) + len(open_tag)
                    return text[:at] + value + text[text.index(close_tag, at):]
                text = replace(text, "<key>SHA256</key>", "<string>", "</string>", hashlib.sha256(data).hexdigest())
                text = replace(text, "<key>Size</key>", "<integer>", "</integer>", str(len(data)))
                open(folder + "/Catalog.plist", "w").write(text)
                """, packs])
            try #require(made.status == 0, "\(made.stderr)")
        }
        #expect(try await world.hangman("mallory", "account", "create").status == 0)
        let buy = try await world.hangman("mallory", "buy", Self.ios, "--yes")
        let install = try await world.hangman("mallory", "install", Self.ios)
        #expect(install.status == 65, "\(install.stdout)\(install.stderr)")
        #expect(install.stderr.contains("the archive of \(Self.ios) is not a valid pack"), "\(install.stderr)")
        #expect(install.stderr.contains("../../escaped.txt: path contains '..'"), "\(install.stderr)")
        #expect(buy.stderr.contains("../../escaped.txt: path contains '..'"), "\(buy.stderr)")
        for folder in [world.scratch.path, world.scratch.file("mallory"), URL(fileURLWithPath: world.scratch.path).deletingLastPathComponent().path] {
            #expect(!FileManager.default.fileExists(atPath: folder + "/escaped.txt"), "written to \(folder)")
        }
    }

    /// A mistyped address says what is wrong with it (64), never "try again when it is back";
    /// https:// against a plain-HTTP server says so and gives the http:// address.
    @Test func aWrongAddressSaysWhatIsWrong() async throws {
        let world = try ServedWorld()
        let port = world.url.split(separator: ":").last.map(String.init) ?? ""
        let cases: [(String, Int32, String)] = [
            (world.url + "/v1", 64, "give \(world.url) without '/v1'"),
            ("http://127.0.0.1:99999", 64, "'99999' is not a port (1 to 65535)"),
            ("http//127.0.0.1:\(port)", 64, "it starts with neither http:// nor https://"),
            ("http://", 64, "it names no host"),
            ("https://127.0.0.1:\(port)", 69, "did not complete a TLS handshake (SSL connect error). If it serves plain HTTP, use \(world.url)."),
        ]
        for (index, (url, status, says)) in cases.enumerated() {
            let result = try await CLI.run(["account", "create", "--service", url, "--home", world.scratch.file("home-\(index)")])
            #expect(result.status == status, "\(url): \(result.stderr)")
            #expect(result.stderr.contains(says), "\(url): \(result.stderr)")
            #expect(!result.stderr.contains("try again when it is back"), "\(url): \(result.stderr)")
        }
        // The address with a trailing slash is the address.
        let made = try await CLI.run(["account", "create", "--service", world.url + "/", "--home", world.scratch.file("home-ok")])
        #expect(made.status == 0, "\(made.stderr)")
    }

    @Test func askToBuyThroughTheServerIsInstalledByTheNextCommand() async throws {
        let world = try ServedWorld()
        _ = try await world.hangman("bob", "account", "create")
        #expect(try await world.hangman("bob", "store", "ask-to-buy", "on").status == 0)
        let waiting = try await world.hangman("bob", "buy", Self.ios)
        #expect(waiting.status == 75)
        let id = try #require(waiting.stdout.split(separator: " ").first { $0.count == 16 }.map(String.init))
        #expect(try await world.hangman("bob", "store", "approve", id).status == 0)
        let packs = try await world.hangman("bob", "packs")
        #expect(packs.stderr.contains("Delivered iOS Words"), "\(packs.stderr)")
    }

    @Test func twoPlayersShareNothingButTheServer() async throws {
        let world = try ServedWorld()
        _ = try await world.hangman("carol", "account", "create")
        _ = try await world.hangman("dave", "account", "create")
        #expect(try await world.hangman("carol", "buy", Self.hints10).status == 0)
        #expect(try await world.hangman("dave", "hints").stdout == "0 hints\n")
        #expect(try await world.hangman("dave", "transactions").stdout.contains(Self.hints10) == false)
    }

    @Test func withoutAnAccountOrWithAnotherKeyNothingIsTrusted() async throws {
        let world = try ServedWorld()
        let none = try await world.hangman("erin", "hints")
        #expect(none.status == 77)
        #expect(none.stderr.contains("hangman account create --service \(world.url)"))
        _ = try await world.hangman("erin", "account", "create")
        // Another key pinned in the account's file: every signed answer is refused.
        let description = world.scratch.file("erin/account/service.json")
        var json = try String(contentsOfFile: description, encoding: .utf8)
        let other = SigningKey.generate().publicKey
        json.replace(#/"publicKey":"[^"]+"/#, with: "\"publicKey\":\"\(Base64.encode(other.bytes))\"")
        json.replace(#/"keyID":"[^"]+"/#, with: "\"keyID\":\"\(other.keyID)\"")
        try json.write(toFile: description, atomically: true, encoding: .utf8)
        let refused = try await world.hangman("erin", "packs")
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("not signed by its pinned key"))
    }
}

extension ServiceCommandTests {
    @Test func offlineTheOwnedPacksStillPlayAndAHintSaysItNeedsTheServer() async throws {
        let world = try ServedWorld()
        _ = try await world.hangman("frank", "account", "create")
        #expect(try await world.hangman("frank", "buy", Self.hints10).status == 0)
        #expect(try await world.hangman("frank", "buy", Self.ios).status == 0)
        world.http.stop()
        let play = try await world.hangman("frank", "play", "--plain", "--new", "--pack", Self.ios, input: "?\nquit\n")
        #expect(play.status == 0, "\(play.stderr)")
        // The game says it is offline in its own output, with the last balance the server signed;
        // nothing is written before it starts.
        #expect(!play.stderr.contains("warning"), "\(play.stderr)")
        #expect(play.stdout.contains(" hints=10 offline\n"), "\(play.stdout)")
        #expect(play.stdout.contains("\nNOSERVICE\nSTATE "), "\(play.stdout)")
        #expect(!play.stdout.contains("hints=0"), "a failed hint leaves the count as it was: \(play.stdout)")
        #expect(!play.stdout.contains("\nHINT "))
        // What needs the server says so.
        let buy = try await world.hangman("frank", "buy", Self.hints10)
        #expect(buy.status == 69, "\(buy.stderr)")
    }
}
