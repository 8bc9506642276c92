import Foundation
@testable import hangman
import HTTPServer
import PackServer
import Testing
import TestSupport

/// A home belongs to one store: after `account create --service URL` every command uses that
/// service without `--service`, at any address whose server proves the pinned key; offline it
/// shows what the server last signed, and never mixes in the embedded store.
@Suite struct HomeBindingTests {
    /// Pack servers that share one data folder (one signing key, one set of ledgers), each at its
    /// own address, and a stranger with a key of its own.
    final class Service {
        let scratch: TemporaryDirectory
        private(set) var servers: [HTTPServer] = []

        init(servers count: Int) throws {
            scratch = try TemporaryDirectory()
            for _ in 0..<count { servers.append(try Self.serve(data: scratch.file("server"))) }
        }

        deinit { for server in servers { server.stop() } }

        static func serve(data: String) throws -> HTTPServer {
            let server = try PackServer(PackServerConfiguration(
                dataFolder: data, packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path,
                environment: .sandbox, testControls: true))
            return try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        }

        var home: String { scratch.file("player") }

        /// `hangman arguments` with the player's home and no service named.
        func hangman(_ arguments: String..., input: String = "") async throws -> CLI.Result {
            try await CLI.run(arguments, environment: ["HANGMAN_HOME": home], input: input)
        }
    }

    static let hints10 = "com.hangmanpacks.hints.10"

    @Test func everyCommandUsesTheHomesServiceWithoutNamingIt() async throws {
        let service = try Service(servers: 1)
        let url = service.servers[0].url
        #expect(try await service.hangman("account", "create", "--service", url).status == 0)
        let buy = try await service.hangman("buy", Self.hints10)
        #expect(buy.status == 0, "\(buy.stderr)")
        #expect(try await service.hangman("hints").stdout == "10 hints\n")
        let play = try await service.hangman("play", "--plain", "--new", input: "?\nquit\n")
        #expect(play.stdout.contains("\nHINT "), "\(play.stdout)\(play.stderr)")
        // The server's balance moved, and no embedded account was made beside the service's.
        let stranger = try await CLI.run(["hints", "--service", url], environment: ["HANGMAN_HOME": service.home])
        #expect(stranger.stdout == "9 hints\n", "\(stranger.stderr)")
        #expect(!FileManager.default.fileExists(atPath: service.home + "/account/account.sqlite"))
    }

    @Test func aSecondServerOfTheSameServiceIsTheSameHome() async throws {
        let service = try Service(servers: 2)
        let (first, second) = (service.servers[0].url, service.servers[1].url)
        #expect(try await service.hangman("account", "create", "--service", first).status == 0)
        #expect(try await service.hangman("buy", Self.hints10).status == 0)
        let there = try await service.hangman("hints", "--service", second)
        #expect(there.status == 0, "\(there.stderr)")
        #expect(there.stdout == "10 hints\n")
        // The new address is remembered: the next command, naming none, goes there.
        let show = try await service.hangman("account", "show")
        #expect(show.stdout.contains("service     \(second)  (the address last used)\n            \(first)\n"), "\(show.stdout)")
        service.servers[0].stop()
        #expect(try await service.hangman("hints").stdout == "10 hints\n")
    }

    @Test func aServerWithAnotherKeyIsAnotherServiceAndIsRefused() async throws {
        let service = try Service(servers: 1)
        #expect(try await service.hangman("account", "create", "--service", service.servers[0].url).status == 0)
        let stranger = try Service.serve(data: service.scratch.file("stranger"))
        defer { stranger.stop() }
        let refused = try await service.hangman("hints", "--service", stranger.url)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("is another service"), "\(refused.stderr)")
        // Nothing of it is remembered.
        #expect(!(try await service.hangman("account", "show")).stdout.contains(stranger.url))
    }

    /// The account's own commands take --service and --ca-file as every store command does: at
    /// another server of the service they work; a server with another key gets no token.
    @Test func theAccountsCommandsTakeTheServiceAsEveryStoreCommandDoes() async throws {
        let service = try Service(servers: 2)
        let (first, second) = (service.servers[0].url, service.servers[1].url)
        #expect(try await service.hangman("account", "create", "--service", first).status == 0)
        let stranger = try Service.serve(data: service.scratch.file("stranger"))
        defer { stranger.stop() }
        for command in [["account", "tokens"], ["account", "close", "--yes"]] {
            let refused = try await CLI.run(command + ["--service", stranger.url], environment: ["HANGMAN_HOME": service.home])
            #expect(refused.status == 65 && refused.stderr.contains("is another service"), "\(command): \(refused.stderr)")
        }
        let tokens = try await service.hangman("account", "tokens", "--service", second, "--ca-file", "/dev/null")
        #expect(tokens.status == 0 && tokens.stdout.contains("this device"), "\(tokens.stdout)\(tokens.stderr)")
        let shown = try await service.hangman("account", "show", "--service", second)
        #expect(shown.status == 0, "\(shown.stderr)")
        let closed = try await service.hangman("account", "close", "--yes", "--service", second)
        #expect(closed.status == 0, "\(closed.stderr)")
        #expect(try await service.hangman("hints", "--service", second).status == 77)
        // The help of every command that talks to a pack server names both options, or neither.
        for command in Hangman.commands {
            let names = Set(command.spec.options.flatMap(\.names))
            #expect(names.contains("--service") == names.contains("--ca-file"), "\(command.path)")
        }
    }

    @Test func offlineHintsAreTheLastSignedBalanceWithItsTimeAndExit69() async throws {
        let service = try Service(servers: 1)
        #expect(try await service.hangman("account", "create", "--service", service.servers[0].url).status == 0)
        #expect(try await service.hangman("buy", Self.hints10).status == 0)
        #expect(try await service.hangman("hints").stdout == "10 hints\n")
        // A spend after the last statement: its signed answer is the newest balance.
        #expect(try await service.hangman("hints", "spend").stdout == "Spent one hint. 9 left.\n")
        service.servers[0].stop()
        let offline = try await service.hangman("hints")
        #expect(offline.status == 69)
        #expect(offline.stdout.wholeMatch(of: #/9 hints \(as of \d\d:\d\d UTC, the pack server cannot be reached\)\n/#) != nil, "\(offline.stdout)")
        #expect(offline.stderr.contains("cannot be reached (couldn't connect to server)"), "\(offline.stderr)")
        let json = try await service.hangman("hints", "--json")
        #expect(json.status == 69)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        #expect(fields["hintBalance"] as? Int == 9 && fields["offline"] as? Bool == true, "\(json.stdout)")
        #expect((fields["signedAt"] as? String)?.hasSuffix("Z") == true, "\(json.stdout)")
        // One sentence: no parentheses inside parentheses.
        let buy = try await service.hangman("buy", Self.hints10)
        #expect(buy.status == 69)
        for line in buy.stderr.split(separator: "\n") {
            #expect(line.wholeMatch(of: #/(error|warning): [^()]*(\([^()]*\)[^()]*)?/#) != nil, "\(line)")
        }
        // What needs the server exits 69 (the server cannot be reached), not 74 (local storage).
        for command in [["install", "ios"], ["buy", "ios"]] {
            let result = try await CLI.run(command, environment: ["HANGMAN_HOME": service.home])
            #expect(result.status == 69, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("cannot be reached"), "\(command): \(result.stderr)")
        }
    }

    @Test func theEmbeddedStoreAndAServiceAreNeverMixed() async throws {
        let service = try Service(servers: 1)
        let url = service.servers[0].url
        let embedded = service.scratch.file("embedded")
        // A home that plays on the embedded store is refused a service, and joins one only when
        // told to (no terminal to ask on: --yes).
        #expect(try await CLI.run(["hints"], environment: ["HANGMAN_HOME": embedded]).status == 0)
        let named = try await CLI.run(["hints", "--service", url], environment: ["HANGMAN_HOME": embedded])
        #expect(named.status == 64, "\(named.stderr)")
        #expect(named.stderr.contains("plays on the embedded store") && named.stderr.contains("account create --service"))
        let join = try await CLI.run(["account", "create", "--service", url], environment: ["HANGMAN_HOME": embedded])
        #expect(join.status == 73 && join.stderr.contains("--yes"), "\(join.stderr)")
        #expect(FileManager.default.fileExists(atPath: embedded + "/account/account.sqlite"), "a refused join leaves the embedded store where it was")
        // A home bound to a service is refused the embedded store's packs folder.
        #expect(try await service.hangman("account", "create", "--service", url).status == 0)
        let packs = try await service.hangman("hints", "--packs", HangmanBinary.packageRoot.appendingPathComponent("Packs").path)
        #expect(packs.status == 64, "\(packs.stderr)")
        #expect(packs.stderr.contains("belongs to the pack server at \(url)"))
    }

    /// `make play`, then a server: the home joins it. What was bought on the embedded store is
    /// said to stay behind and is kept whole beside the account; the device's games and settings
    /// come along; the daily word is then the server's. A join stopped between saving the token
    /// and setting the store aside is finished by the next command.
    @Test func aHomeOnTheEmbeddedStoreJoinsAPackServer() async throws {
        let service = try Service(servers: 1)
        let url = service.servers[0].url
        let home = service.scratch.file("made-by-make-play")
        let environment = ["HANGMAN_HOME": home]
        #expect(try await CLI.run(["buy", "10", "--yes"], environment: environment).status == 0)
        #expect(try await CLI.run(["settings", "languages", "en", "es"], environment: environment).status == 0)
        let joined = try await CLI.run(["account", "create", "--service", url, "--yes"], environment: environment)
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout.contains("10 hints") && joined.stdout.contains("stays with it"), "\(joined.stdout)")
        #expect(joined.stdout.contains("come along"), "\(joined.stdout)")
        let kept = home + "/account/embedded-store"
        for name in ["account.sqlite", "service-signing.key"] {
            #expect(FileManager.default.fileExists(atPath: kept + "/" + name), "\(name) kept")
            #expect(!FileManager.default.fileExists(atPath: home + "/account/" + name), "\(name) moved")
        }
        #expect(try await CLI.run(["hints"], environment: environment).stdout == "0 hints\n", "the server's account starts with its own")
        let settings = try await CLI.run(["settings"], environment: environment)
        #expect(settings.stdout.contains("es"), "the device's settings come along: \(settings.stdout)")
        let daily = try await CLI.run(["daily", "--json"], environment: environment)
        #expect(daily.status == 0, "\(daily.stderr)")
        #expect(try await CLI.run(["leaderboard"], environment: environment).status == 0)

        // Stopped after the token was saved: the next command sets the embedded store aside.
        let other = service.scratch.file("stopped-join")
        #expect(try await CLI.run(["hints"], environment: ["HANGMAN_HOME": other]).status == 0)
        try FileManager.default.copyItem(atPath: home + "/account/service.json", toPath: other + "/account/service.json")
        try FileManager.default.copyItem(atPath: home + "/account/service-token", toPath: other + "/account/service-token")
        #expect(try await CLI.run(["account", "show"], environment: ["HANGMAN_HOME": other]).status == 0)
        #expect(FileManager.default.fileExists(atPath: other + "/account/embedded-store/account.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: other + "/account/account.sqlite"))
    }
}
