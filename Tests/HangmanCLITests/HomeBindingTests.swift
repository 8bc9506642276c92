import Foundation
@testable import hangman
import HTTPServer
import PackServer
import Synchronization
import Testing
import TestSupport

/// A home belongs to one store: after `account create --service URL` every command uses that
/// service without `--service`, at any address whose server proves the pinned key; offline it
/// shows what the server last signed, and never mixes in the embedded store.
@Suite struct HomeBindingTests {
    /// A request handler set once its server knows its address.
    final class HandlerBox: Sendable {
        let handler = Mutex<(@Sendable (HTTPRequest) -> HTTPResponse)?>(nil)
        func handle(_ request: HTTPRequest) -> HTTPResponse {
            handler.withLock { $0 }?(request) ?? .text(503, "starting")
        }
    }

    /// Pack servers that share one data folder (one signing key, one set of ledgers), each at its
    /// own address, and a stranger with a key of its own.
    final class Service {
        let scratch: TemporaryDirectory
        private(set) var servers: [HTTPServer] = []

        /// `count` servers of one service, which name each other's addresses (`--public-url`), as
        /// an operator does: a home accepts any of them once its server proves the key.
        init(servers count: Int) throws {
            scratch = try TemporaryDirectory()
            let handlers = (0..<count).map { _ in HandlerBox() }
            for box in handlers { servers.append(try HTTPServer(HTTPServerConfiguration()) { box.handle($0) }) }
            for box in handlers {
                let server = try Self.packServer(data: scratch.file("server"), publicURLs: servers.map(\.url))
                box.handler.withLock { $0 = { server.handle($0) } }
            }
        }

        deinit { for server in servers { server.stop() } }

        static func packServer(data: String, publicURLs: [String] = []) throws -> PackServer {
            var configuration = PackServerConfiguration(
                dataFolder: data, packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path,
                environment: .sandbox, testControls: true)
            configuration.publicURLs = publicURLs
            return try PackServer(configuration)
        }

        /// A server of a service of its own that names no address (no `--public-url`).
        static func serve(data: String) throws -> HTTPServer {
            let server = try packServer(data: data)
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

    /// A service that names no address of its own (no `--public-url`): a new address that proves
    /// its key could be a relay, so the token goes there only once a person confirms it on a
    /// terminal, or the script names that address in HANGMAN_TRUST_ADDRESS (M4).
    @Test func aNewAddressOfAServiceThatNamesNoneIsConfirmedFirst() async throws {
        let scratch = try TemporaryDirectory()
        let first = try Service.serve(data: scratch.file("server")), second = try Service.serve(data: scratch.file("server"))
        defer { first.stop(); second.stop() }
        let environment = ["HANGMAN_HOME": scratch.file("player")]
        #expect(try await CLI.run(["account", "create", "--service", first.url], environment: environment).status == 0)
        let refused = try await CLI.run(["hints", "--service", second.url], environment: environment)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("names no address of its own") && refused.stderr.contains("HANGMAN_TRUST_ADDRESS=\(second.url)"), "\(refused.stderr)")
        #expect(!(try await CLI.run(["account", "show"], environment: environment)).stdout.contains(second.url), "not remembered")
        var trusting = environment
        trusting["HANGMAN_TRUST_ADDRESS"] = second.url
        let confirmed = try await CLI.run(["hints", "--service", second.url], environment: trusting)
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        // Once confirmed it is one of the home's addresses: not asked again.
        #expect(try await CLI.run(["hints", "--service", second.url], environment: environment).status == 0)
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
