import Foundation
import Testing
import TestSupport

/// The server under a slow-client attack (`Benchmarks/slow-clients`, loopback only): 8 addresses
/// open 64 connections each that never finish a request, after 2,000 accounts have been made and
/// used, with an open-file limit of 1024. A player on another address is answered every time.
/// How fast is the benchmark's business (`make bench` holds the p99 to 100 ms); here a request
/// not answered within 5 s counts as refused, which is what the attack did before: every slot
/// taken, the player waiting for a 60 s cut or turned away.
@Suite struct SlowClientTests {
    struct Outcome: Decodable {
        struct Latency: Decodable { var p50: Double, p99: Double, max: Double }
        var accounts: Int
        var slow_asked: Int
        var slow_held: Int
        var slow_refused: Int
        var slow_still_held_at_end: Int
        var requests: Int
        var attacked_ms: Latency
        var failure_count: Int
        var failures: [String]
        var server_note: String?
    }

    @Test func aPlayerIsServedWhileEightAddressesHoldSlowConnections() throws {
        let script = HangmanBinary.packageRoot.appendingPathComponent("Benchmarks/slow-clients").path
        let result = try ExternalProcess.run(
            "/usr/bin/python3", [script], environment: ["HANGMAN": HangmanBinary.path, "ACCOUNTS": "2000", "REQUESTS": "200"], killAfter: 240)
        let line = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let outcome = try #require(try? JSONDecoder().decode(Outcome.self, from: Data(line.utf8)), "\(result.stdout) \(result.stderr)")
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(outcome.accounts == 2000)
        // The server knew its limit and shared it.
        #expect(outcome.server_note?.contains("the open-file limit is 1024") == true, "\(outcome.server_note ?? "no note")")
        // The attack was in place: each address held its share (32), the rest closed at once, and
        // the held ones were still open when the player's last request was answered.
        #expect(outcome.slow_asked == 512)
        #expect(outcome.slow_held == 8 * 32, "\(outcome.slow_held) held")
        #expect(outcome.slow_refused == 512 - 8 * 32)
        #expect(outcome.slow_still_held_at_end >= outcome.slow_held * 9 / 10)
        // The player: every request answered 200.
        #expect(outcome.failure_count == 0, "\(outcome.failures)")
        #expect(outcome.requests == 200)
    }
}
