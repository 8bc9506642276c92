import Foundation
import HTTPServer
import PackServer
import PackServiceAPI
import Synchronization
import Testing
import TestSupport

/// A hostile address that relays the service's anonymous routes (its key, the key proof, the
/// catalog) passes a bare challenge; the service's signed addresses stop it, and without them
/// the question no script can answer does: no token reaches it, and the home keeps the address
/// it was bound to.
@Suite struct KeyProofRelayTests {
    /// What the relay saw of requests it did not pass on: their Authorization headers.
    final class Seen: Sendable {
        let authorizations = Mutex<[String]>([])
        let passedOn = Mutex<[String]>([])
    }

    @Test(arguments: [true, false])
    func aRelayGetsNoTokenWhenTheServiceNamesItsAddresses(named: Bool) async throws {
        let scratch = try TemporaryDirectory()
        let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path
        var configuration = PackServerConfiguration(dataFolder: scratch.file("server"), packsFolder: packs, environment: .sandbox)
        // The service's address is known only once its listener is up: the server is made after it.
        let box = Mutex<PackServer?>(nil)
        let http = try HTTPServer(HTTPServerConfiguration()) { request in
            box.withLock { $0 }?.handle(request) ?? .text(503, "starting")
        }
        defer { http.stop() }
        if named { configuration.publicURLs = [http.url] }
        let server = try PackServer(configuration)
        box.withLock { $0 = server }
        let seen = Seen()
        let anonymous: Set<String> = ["/v1/health", "/v1/ready", "/v1/service-key", "/v1/service-key/proof", "/v1/catalog"]
        let relay = try HTTPServer(HTTPServerConfiguration()) { request in
            if anonymous.contains(request.path) {
                seen.passedOn.withLock { $0.append(request.path) }
                return server.handle(request)
            }
            seen.authorizations.withLock { $0.append(request.headers["authorization"] ?? "none") }
            return .text(503, "relay")
        }
        defer { relay.stop() }
        let home = scratch.file("home")
        func hangman(_ arguments: [String]) async throws -> CLI.Result {
            try await CLI.run(arguments + ["--home", home], environment: [:])
        }
        let made = try await hangman(["account", "create", "--service", http.url])
        #expect(made.status == 0, "\(made.stderr)")
        let relayed = try await hangman(["hints", "--service", relay.url])
        #expect(seen.passedOn.withLock { $0 }.contains("/v1/service-key/proof"), "the relay was asked for the proof")
        // The proof names the service's address, not the relay's; or it names none, and no
        // person confirmed the relay's address: nothing goes further.
        let said = named ? "a relay would do this" : "names no address of its own"
        #expect(relayed.status == 65 && relayed.stderr.contains(said), "\(relayed.stdout)\(relayed.stderr)")
        #expect(seen.authorizations.withLock { $0 }.isEmpty, "a token reached the relay: \(seen.authorizations.withLock { $0 })")
        // Either way the home keeps the address it was bound to.
        let shown = try await hangman(["account", "show"])
        #expect(shown.stdout.contains(http.url) && !shown.stdout.contains(relay.url), "\(shown.stdout)\(shown.stderr)")
    }
}
