import Foundation
import PackServiceAPI
import Synchronization
import Testing
import TestSupport

/// What a command costs over a network: its requests, counted in the built server's log, and a
/// client that waits its turn when the server asks it to.
@Suite struct CommandRoundTripTests {
    /// The routes of each request the server logged between two marks (a health check the test
    /// makes itself), in order.
    final class CountingServer {
        let process: ExternalProcess
        let url: String
        private let marks = Mutex(0)

        init(_ directory: TemporaryDirectory, port: Int = 0, crashAt: String? = nil, extra: [String] = []) throws {
            (process, url) = try ServeProcess.start(data: directory.file("data"), port: port, crashAt: crashAt, extra: extra)
        }

        deinit { _ = process.kill() }

        /// The requests `body` made, as `METHOD /route` in the order the server logged them.
        func requests(during body: () throws -> Void) throws -> [String] {
            let before = try mark()
            try body()
            let after = try mark()
            let log = process.errorSoFar
            guard let start = log.range(of: before), let end = log.range(of: after, range: start.upperBound..<log.endIndex) else {
                throw ServiceError(.unavailable, "the marks are not in the server's log: \(log.suffix(600))")
            }
            return log[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
                let fields = line.split(separator: " ")
                guard fields.count > 5, fields[3].hasPrefix("GET") || fields[3].hasPrefix("POST") || fields[3].hasPrefix("PUT") || fields[3].hasPrefix("DELETE")
                else { return nil }
                return "\(fields[3]) \(fields[4])"
            }
        }

        /// A health check of its own, and its request id once the server has logged it: every
        /// request before it was logged before it (one client, one request at a time).
        private func mark() throws -> String {
            let number = marks.withLock { $0 += 1; return $0 }
            let id = "mark-\(number)-\(UUID().uuidString.prefix(8))"
            _ = try shell("curl -s -o /dev/null -H 'X-Request-ID: \(id)' \(url)/v1/health")
            guard eventually(within: 10, { process.errorSoFar.contains(id) }) else { throw ServiceError(.unavailable, "the server did not log \(id)") }
            return id
        }
    }

    /// A home that played before makes one request per read command, `buy` one for hints and two
    /// for a pack (the purchase, the archive), and a game's first board two (the balance, the
    /// game); the first command of a fresh home is the same, since making the account kept the
    /// signed catalog. When the server sells from a newer catalog, the command asks for it once.
    @Test func aCommandIsOneRoundTripWhenNothingChanged() throws {
        let directory = try TemporaryDirectory()
        let server = try CountingServer(directory, extra: ["--requests-per-minute", "0", "--test-controls"])
        let environment = ["HANGMAN_HOME": directory.file("home"), "HANGMAN_SERVICE": server.url, "LANG": "C", "LC_ALL": ""]
        func run(_ arguments: [String], input: String? = nil) throws {
            let result = try HangmanBinary.run(arguments, environment: environment, input: input.map { Array($0.utf8) })
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        #expect(try HangmanBinary.run(["account", "create"], environment: environment).status == 0)
        let expected: [([String], [String])] = [
            (["hints"], ["GET /v1/account"]),
            // A fresh home's first start installs the free base pack: its archive, once.
            (["packs"], ["GET /v1/account", "GET /v1/packs/{id}/archive"]),
            (["packs"], ["GET /v1/account"]),
            (["products"], ["GET /v1/offers"]),
            (["transactions"], ["GET /v1/transactions"]),
            (["subscriptions"], ["GET /v1/subscriptions"]),
            (["stats"], ["GET /v1/games/stats"]),
            (["buy", "10", "--yes"], ["POST /v1/purchases"]),
            (["buy", "ios", "--yes"], ["POST /v1/purchases", "GET /v1/packs/{id}/archive"]),
            (["hints"], ["GET /v1/account"]),
        ]
        for (command, routes) in expected {
            #expect(try server.requests { try run(command) } == routes, "\(command)")
        }
        // A game's first board: the balance and the game; then its moves.
        let game = try server.requests { try run(["play", "--plain", "--new"], input: "quit\n") }
        #expect(game == ["GET /v1/account", "POST /v1/games"], "\(game)")
    }

    /// A purchase the server's crash left charged but unfinished: the next command's first answer
    /// says the account has one, and the command completes it (and reads the balance again).
    @Test func anUnfinishedPurchaseIsCompletedByTheNextCommand() throws {
        let directory = try TemporaryDirectory()
        var crashing: CountingServer? = try CountingServer(directory, crashAt: "after-charge")
        let url = try #require(crashing?.url)
        let port = try #require(Int(url.split(separator: ":").last ?? ""))
        let environment = ["HANGMAN_HOME": directory.file("home"), "HANGMAN_SERVICE": url, "LANG": "C", "LC_ALL": ""]
        #expect(try HangmanBinary.run(["account", "create"], environment: environment).status == 0)
        #expect(try HangmanBinary.run(["buy", "10", "--yes"], environment: environment).status != 0, "the server died with the purchase charged")
        #expect(eventually { !(crashing?.process.isRunning ?? false) })
        crashing = nil
        let server = try CountingServer(directory, port: port, extra: ["--test-controls"])
        var next: ProcessResult?
        let recovering = try server.requests { next = try HangmanBinary.run(["hints"], environment: environment) }
        #expect(recovering == ["GET /v1/account", "POST /v1/recover", "GET /v1/account"], "\(recovering)")
        #expect(next?.stderr.contains("completed an unfinished purchase") == true, "\(next?.stderr ?? "")")
        #expect(next?.stdout == "10 hints\n", "\(next?.stdout ?? "")")
        let again = try server.requests { next = try HangmanBinary.run(["hints"], environment: environment) }
        #expect(again == ["GET /v1/account"], "\(again)")
    }

    /// A wait longer than the bound is not waited: the command exits 69 at once, saying when to
    /// try again; a bound of 0 never waits; a bound that is not a number is a usage error.
    @Test func aWaitPastTheBoundIsNotWaited() throws {
        let directory = try TemporaryDirectory()
        // Four at once (making the account takes three: the key, the account, the catalog), then
        // one a minute: the fifth asks to wait 60 s.
        let server = try CountingServer(directory, extra: ["--request-burst", "4", "--requests-per-minute", "1"])
        let environment = ["HANGMAN_HOME": directory.file("home"), "HANGMAN_SERVICE": server.url, "LANG": "C", "LC_ALL": ""]
        #expect(try HangmanBinary.run(["account", "create"], environment: environment).status == 0)
        // The burst spent (which requests count toward it is the limiter's business), the next waits 60 s.
        var refused = try HangmanBinary.run(["hints"], environment: environment)
        for _ in 0..<6 where refused.status == 0 { refused = try HangmanBinary.run(["hints"], environment: environment) }
        #expect(refused.status == 69 && refused.stderr.contains("try again in"), "\(refused.status) \(refused.stderr)")
        #expect(refused.seconds < 5, "not waited: \(refused.seconds) s")
        let never = try HangmanBinary.run(["hints"], environment: environment.merging(["HANGMAN_MAX_WAIT": "0"]) { $1 })
        #expect(never.status == 69 && !never.stderr.contains("waiting"), "\(never.stderr)")
        let wrong = try HangmanBinary.run(["hints"], environment: environment.merging(["HANGMAN_MAX_WAIT": "soon"]) { $1 })
        #expect(wrong.status == 64 && wrong.stderr.contains("HANGMAN_MAX_WAIT"), "\(wrong.stderr)")
    }

    /// 200 `hangman hints` from one address, four at a time, against a server with its default
    /// limits (120 at once, 1,200 a minute): every one answers, none exits 69.
    @Test func twoHundredCommandsInARowAllAnswer() throws {
        try hintsInARow(200, extra: [])
    }

    /// The same under a tight limit (10 at once, 2 a second): the limit is met for certain, and
    /// every command waits its turn (one line on standard error past a second) and answers.
    @Test func commandsWaitTheirTurnUnderATightLimit() throws {
        let log = try hintsInARow(40, extra: ["--request-burst", "10", "--requests-per-minute", "120"])
        #expect(log.contains(" GET /v1/account 429 "), "the limit was met, and waited out")
    }

    @discardableResult
    private func hintsInARow(_ count: Int, extra: [String]) throws -> String {
        let directory = try TemporaryDirectory()
        let server = try CountingServer(directory, extra: extra)
        let environment = ["HANGMAN_HOME": directory.file("home"), "HANGMAN_SERVICE": server.url, "LANG": "C", "LC_ALL": ""]
        #expect(try HangmanBinary.run(["account", "create"], environment: environment).status == 0)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for _ in 0..<(count / 4) {
                do {
                    let result = try HangmanBinary.run(["hints"], environment: environment)
                    if result.status != 0 || result.stdout != "0 hints\n" { failures.withLock { $0.append("\(worker): \(result.status) \(result.stderr)") } }
                } catch {
                    failures.withLock { $0.append("\(worker): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(3))")
        // The log is written in batches (every 50 ms): its lines are waited for, with a deadline.
        let answered = { server.process.errorSoFar.components(separatedBy: " GET /v1/account 200 ").count - 1 }
        #expect(eventually(within: 5) { answered() >= count }, "every command answered: \(answered())")
        #expect(answered() == count, "every command answered once")
        return server.process.errorSoFar
    }
}
