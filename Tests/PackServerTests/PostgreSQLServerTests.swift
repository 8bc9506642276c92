import Foundation
import HTTPServer
import PackServer
import PackServiceClient
import PackServiceWire
import PostgreSQL
import Signing
import Synchronization
import Testing
import TestSupport

private let hints10 = ProductID(rawValue: "com.hangmanpacks.hints.10")!
private let ios = ProductID(rawValue: "com.hangmanpacks.words.ios")!

/// A database of its own on a PostgreSQL server, so that a test's invariants see only its accounts.
struct FreshDatabase {
    let connectionString: String

    init(on server: String) throws {
        let name = "hangman_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        try PostgreSQL.Connection(connectionString: server).execute("CREATE DATABASE \(name)")  // a fixed shape: no value from outside
        connectionString = server.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(name)")
    }

    func connection() throws -> PostgreSQL.Connection { try PostgreSQL.Connection(connectionString: connectionString) }

    /// The first column of the first row, as an integer.
    func integer(_ sql: String) throws -> Int { Int(try connection().execute(sql).scalar ?? "") ?? -1 }
}

/// `hangman serve --database` as processes of their own, on a shared PostgreSQL database.
@Suite struct PostgreSQLServerTests {
    /// Starts the built binary's server with its ledgers in `database` and returns it with its URL.
    private func serve(_ data: String, database: String, port: Int = 0, extra: [String] = []) async throws -> (ExternalProcess, String) {
        let process = try ExternalProcess(HangmanBinary.path, [
            "serve", "--listen", "127.0.0.1:\(port)", "--data", data, "--database", database, "--environment", "sandbox",
            "--packs", HangmanBinary.packageRoot.appendingPathComponent("Packs").path,
        ] + extra)
        for _ in 0..<400 {
            let line = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/fd/1", encoding: .utf8)) ?? ""
            if let range = line.range(of: "listening on ") {
                return (process, String(line[range.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        let failed = process.wait(killAfter: 0)
        throw ServiceError(.unavailable, "the server did not start: \(failed.stderr)")
    }

    /// The same account through another server.
    private func client(_ credentials: ServiceCredentials, at url: String, attempts: Int = 4) -> HTTPPackService {
        var moved = credentials
        moved.service = url
        return HTTPPackService(credentials: moved, attempts: attempts)
    }

    /// A served game on two servers of one database: started through one, continued through the
    /// other; two moves sent at once through both are applied in turn, once each; a SIGKILL of a
    /// server mid-game loses no move it answered and no hint it was paid for.
    @Test func aServedGameSurvivesItsServerAndTakesMovesFromBoth() async throws {
        let database = try FreshDatabase(on: try TestPostgreSQL.shared())
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        let (first, urlA) = try await serve(data, database: database.connectionString, extra: ["--requests-per-minute", "0", "--test-controls"])
        let (second, urlB) = try await serve(data, database: database.connectionString, extra: ["--requests-per-minute", "0", "--test-controls"])
        defer { _ = second.wait(killAfter: 0) }
        let account = try await HTTPPackService.createAccount(at: urlA)
        let atA = client(account, at: urlA, attempts: 1)
        let atB = client(account, at: urlB)
        _ = try await atA.buy(hints10, quantity: 1)
        // A word the moves below cannot win before the kill: five letters or more besides e and t
        // (a short word, won early, ended the moves before two hints were answered). The seed that
        // draws one is found by giving games up: a game's word is told when it ends.
        var chosen: UInt64?
        for seed in UInt64(1)..<100 {
            let trial = try await atA.abandonGame(try await atA.startGame(GameRequest(lives: 26, new: true, seed: seed)).id)
            if let word = trial.word, Set(word.lowercased()).subtracting("et").count >= 5 {
                chosen = seed
                break
            }
        }
        let seed: UInt64 = try #require(chosen, "no seed in 100 draws a long enough word")
        var game = try await atA.startGame(GameRequest(lives: 26, new: true, seed: seed))
        #expect(try await atB.currentGame()?.id == game.id, "one game, through either server")
        // Two letters at once, one through each server: both applied, each once.
        let id = game.id
        async let one = atA.guess(game: id, "e")
        async let other = atB.guess(game: id, "t")
        let (a, b) = try await (one, other)
        let both = [a, b].max { $0.guessed.count < $1.guessed.count }!
        #expect(Set(both.guessed) == ["e", "t"] && both.guessed.count == 2 && Set([a.guessed.count, b.guessed.count]) == [1, 2], "the second saw the first")
        // Moves through the first server until it is killed: what it answered stays.
        var answeredGuesses: [String] = []
        var answeredHints: [String] = []
        let firstServer = first.processIdentifier
        for (index, letter) in "aoinshrdlcumwfgypbvkjxqz".enumerated() {
            if index == 4 { kill(firstServer, SIGKILL) }
            do {
                if index % 2 == 0 {
                    game = try await atA.hint(game: id, idempotencyKey: "\(id)-hint-\(answeredHints.count + 1)")
                    answeredHints.append(game.move?.text ?? "")
                } else {
                    game = try await atA.guess(game: id, String(letter))
                    answeredGuesses.append(String(letter))
                }
            } catch {
                break
            }
        }
        #expect(first.wait(killAfter: 5).wasSignaled)
        #expect(answeredHints.count >= 2 && answeredGuesses.count >= 2, "\(answeredHints) \(answeredGuesses)")
        let after = try await atB.game(id)
        // A guess of a letter a hint had revealed is answered `repeated`, and is the hint's.
        #expect(Set(answeredGuesses).isSubset(of: Set(after.guessed + after.hinted)) && Set(answeredHints).isSubset(of: Set(after.hinted)), "\(answeredGuesses) \(answeredHints) \(after)")
        // Letters revealed = hints paid, by construction and through the kill.
        #expect(try await atB.hintBalance() == 10 - after.hinted.count)
        #expect(try database.integer("SELECT count(*) FROM hint_ledger WHERE entry_key LIKE 'game-hint:%'") == after.hinted.count)
    }

    /// nginx in front of two servers on one PostgreSQL database, as the README configures it:
    /// players buy and spend through it while one server is killed with SIGKILL mid-run; every
    /// player finishes (the proxy moves what is safe, the client sends the rest again with its
    /// key), nothing is lost or doubled, and the servers see the players' addresses.
    @Test func behindNginxOneServerKilledMidRunLosesNothing() async throws {
        let database = try FreshDatabase(on: try TestPostgreSQL.shared())
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        let proxyFlags = ["--trusted-proxy", "127.0.0.1", "--connections-per-address", "0", "--requests-per-minute", "0", "--log-format", "json"]
        let (first, urlA) = try await serve(data, database: database.connectionString, extra: proxyFlags)
        let (second, urlB) = try await serve(data, database: database.connectionString, extra: proxyFlags)
        defer { _ = second.wait(killAfter: 0) }
        let proxy = try Nginx(folder: directory.file("nginx"), upstreams: [urlA, urlB])
        defer { proxy.stop() }

        var accounts: [ServiceCredentials] = []
        for _ in 0..<4 { accounts.append(try await HTTPPackService.createAccount(at: proxy.url)) }
        let progress = Progress()
        let firstServer = first.processIdentifier
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Once the players are well under way, the first server dies without a word.
                while progress.count.load(ordering: .relaxed) < 40 { try await Task.sleep(for: .milliseconds(5)) }
                kill(firstServer, SIGKILL)
            }
            for account in accounts {
                let client = client(account, at: proxy.url, attempts: 12)
                group.addTask {
                    for round in 0..<5 {
                        _ = try await client.buy(hints10, quantity: 1)
                        for spend in 0..<4 {
                            _ = try await client.spendHint(idempotencyKey: "round-\(round)-\(spend)")
                            progress.count.add(1, ordering: .relaxed)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(first.wait(killAfter: 5).wasSignaled, "the first server was killed mid-run")
        for account in accounts {
            let after = client(account, at: proxy.url)
            #expect(try await after.hintBalance() == 5 * 10 - 5 * 4)
            #expect(try await after.transactions().filter { $0.productID == hints10 }.count == 5, "one charge per purchase, through the kill")
        }
        #expect(try database.integer("""
            SELECT count(*) FROM (SELECT account_id, sum(amount) AS total, (array_agg(balance_after ORDER BY seq DESC))[1] AS last
            FROM hint_ledger GROUP BY account_id) AS balances WHERE total <> last
            """) == 0)
        #expect(try database.integer("SELECT count(*) FROM hint_ledger WHERE reason = 'spend'") == 4 * 5 * 4)
        #expect(try database.integer("SELECT count(*) FROM transactions WHERE state IN ('purchasing', 'purchased')") == 0)
        // The survivor logged the players by the address nginx forwarded (its X-Forwarded-For).
        let log = second.kill().stderr
        #expect(log.contains(#""client":"127.0.0.1""#) && log.contains(#""route":"/v1/hints/spend""#), "\(log.suffix(400))")
    }

    /// A rolling deploy behind nginx: two servers share a data folder (key and accounts), one
    /// already on a newer catalog. A player's commands go back and forth between them through the
    /// proxy, and every one succeeds; when the older one answers, the command says so.
    @Test func aRollingDeployBehindTheProxyFailsNoCommand() throws {
        let directory = try TemporaryDirectory()
        let packs = directory.file("Packs")
        try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: packs)
        let catalogFile = packs + "/Catalog.plist"
        let text = try String(contentsOfFile: catalogFile, encoding: .utf8)
        let version = try #require(text.range(of: #"<key>CatalogVersion</key>\s*<integer>\d+</integer>"#, options: .regularExpression))
        try text.replacingCharacters(in: version, with: "<key>CatalogVersion</key><integer>99</integer>").write(toFile: catalogFile, atomically: true, encoding: .utf8)
        let data = directory.file("data")
        let (newer, newerURL) = try ServeProcess.start(data: data, port: 0, packs: packs, extra: ["--requests-per-minute", "0"])
        defer { _ = newer.kill() }
        let (older, olderURL) = try ServeProcess.start(data: data, port: 0, extra: ["--requests-per-minute", "0"])
        defer { _ = older.kill() }
        let proxy = try Nginx(folder: directory.file("nginx"), upstreams: [newerURL, olderURL])
        defer { proxy.stop() }
        let environment = ["HANGMAN_HOME": directory.file("home"), "HANGMAN_SERVICE": proxy.url, "LANG": "C", "LC_ALL": ""]
        #expect(try HangmanBinary.run(["account", "create"], environment: environment).status == 0)
        var notes = 0
        let commands: [[String]] = [
            ["products"], ["hints"], ["buy", "10", "--yes"], ["packs"], ["transactions"], ["products"], ["hints"], ["buy", "ios", "--yes"],
            ["packs"], ["restore"], ["products"], ["hints"],
        ]
        for (index, command) in commands.enumerated() {
            let result = try HangmanBinary.run(command, environment: environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            if result.stderr.contains("still offers catalog version") { notes += 1 }
            // One request more or less, so that the commands' first requests take turns between the servers.
            if index % 2 == 0 { _ = try shell("curl -s -o /dev/null \(proxy.url)/v1/health") }
        }
        #expect(notes >= 1, "the older server answered a catalog request at least once")
        #expect(try HangmanBinary.run(["hints"], environment: environment).stdout == "10 hints\n")
    }

    /// Tokens per device on PostgreSQL, made on one server and used on the other: a second
    /// token, listed, revoked alone, rotated; the account closed, its receipt then 21010.
    @Test func tokensPerDeviceOnPostgreSQL() async throws {
        let database = try FreshDatabase(on: try TestPostgreSQL.shared())
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        let (first, urlA) = try await serve(data, database: database.connectionString)
        defer { _ = first.wait(killAfter: 0) }
        let (second, urlB) = try await serve(data, database: database.connectionString)
        defer { _ = second.wait(killAfter: 0) }
        let account = try await HTTPPackService.createAccount(at: urlA)
        let phone = try await HTTPPackService.login(at: urlB, token: account.token)
        #expect(phone.accountID == account.accountID && phone.token != account.token)
        let onB = client(phone, at: urlB)
        _ = try await onB.buy(hints10, quantity: 1)
        let listed = try await client(account, at: urlA).tokens()
        #expect(listed.count == 2 && listed.filter(\.current).count == 1)
        // When each was last used is recorded (a bigint: milliseconds since 1970).
        #expect(listed.allSatisfy { $0.lastUsedDate != nil }, "\(listed)")
        let phoneID = try #require(listed.first { !$0.current }?.tokenID)
        try await client(account, at: urlA).revokeToken(phoneID)
        let refused = await #expect(throws: ServiceError.self) { try await onB.hintBalance() }
        #expect(refused?.kind == .unauthorized)
        let rotated = try await client(account, at: urlB).rotateToken()
        var fresh = account
        fresh.token = rotated.token
        #expect(try await client(fresh, at: urlA).hintBalance() == 10)
        let receipt = try await client(fresh, at: urlA).receipt()
        try await client(fresh, at: urlB).closeAccount()
        #expect(await HTTPPackService.verifyReceipt(receipt.bytes, at: urlA, password: nil).status.rawValue == 21010)
        #expect(try database.integer("SELECT count(*) FROM tokens WHERE account_id = '\(account.accountID)' AND revoked_date IS NULL") == 0)
    }

    @Test func twoServersOnOneDatabaseKeepEveryInvariant() async throws {
        let database = try FreshDatabase(on: try TestPostgreSQL.shared())
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        let (first, urlA) = try await serve(data, database: database.connectionString)
        defer { _ = first.wait(killAfter: 0) }
        let (second, urlB) = try await serve(data, database: database.connectionString)
        defer { _ = second.wait(killAfter: 0) }
        #expect(urlA != urlB)

        // Accounts made on either server; each played through both at once.
        var accounts: [ServiceCredentials] = []
        for index in 0..<4 { accounts.append(try await HTTPPackService.createAccount(at: index % 2 == 0 ? urlA : urlB)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for account in accounts {
                for url in [urlA, urlB] {
                    let client = client(account, at: url)
                    group.addTask {
                        _ = try await client.buy(hints10, quantity: 1)
                        // The same 15 keys from both servers: each spends once.
                        for key in 0..<15 { _ = try? await client.spendHint(idempotencyKey: "hint-\(key)") }
                        // Both servers sell the same pack at the same moment: one charge.
                        _ = try? await client.buy(ios, quantity: 1)
                        _ = try await client.restore()
                    }
                }
            }
            try await group.waitForAll()
        }

        for account in accounts {
            let throughB = client(account, at: urlB)
            #expect(try await throughB.hintBalance() == 20 - 15)
            #expect(try await throughB.entitlements().filter { $0.productID == ios && $0.isActive }.count == 1)
            // A receipt signed by one server verifies on the other: they share the key in --data.
            let receipt = try await client(account, at: urlA).receipt()
            #expect(await throughB.verifyReceipt(receipt.bytes).status == .valid)
        }
        // The invariants, in SQL.
        #expect(try database.integer("SELECT count(DISTINCT account_id) FROM hint_ledger") == 4)
        #expect(try database.integer("""
            SELECT count(*) FROM (SELECT account_id, sum(amount) AS total, (array_agg(balance_after ORDER BY seq DESC))[1] AS last
            FROM hint_ledger GROUP BY account_id) AS balances WHERE total <> last
            """) == 0)
        #expect(try database.integer("SELECT count(*) FROM hint_ledger WHERE balance_after < 0") == 0)
        #expect(try database.integer("""
            SELECT count(*) FROM transactions AS t WHERE consumable = 1 AND state IN ('delivered', 'finished')
            AND (SELECT count(*) FROM hint_ledger AS h WHERE h.account_id = t.account_id AND h.transaction_id = t.id AND h.reason = 'purchase') <> 1
            """) == 0)
        #expect(try database.integer("SELECT count(*) FROM transactions WHERE consumable = 1 AND state IN ('delivered', 'finished')") == 8)
        #expect(try database.integer("SELECT count(*) FROM transactions WHERE consumable = 0 AND state IN ('delivered', 'finished')") == 4)
        #expect(try database.integer("SELECT count(*) FROM entitlements WHERE revoked_date IS NULL") == 4)
        #expect(try database.integer("SELECT count(*) FROM transactions WHERE state IN ('purchasing', 'purchased')") == 0)
    }

    @Test func aDatabaseThatGoesAwayAnswers503AndTheRetryCompletesOnceItIsBack() async throws {
        let server = try TestPostgreSQL()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let (serving, url) = try await serve(directory.file("data"), database: server.connectionString)
        defer { _ = serving.wait(killAfter: 0) }
        let account = try await HTTPPackService.createAccount(at: url)
        #expect(try await client(account, at: url).buy(hints10, quantity: 1).purchasedTransaction != nil)

        // Mid-request: the purchase waits for the account's row, which another session holds,
        // when the database stops.
        let blocker = try PostgreSQL.Connection(connectionString: server.connectionString)
        try blocker.execute("BEGIN")
        #expect(try blocker.execute("SELECT 1 FROM ledgers WHERE account_id = $1 FOR UPDATE", [account.accountID]).rows.count == 1)
        let request = [
            "-X", "POST", "-H", "Authorization: Bearer \(account.token)", "-H", "Idempotency-Key: retry-me", "-H", "Content-Type: application/json",
            "--data", #"{"productID":"com.hangmanpacks.hints.10","quantity":1}"#, url + "/v1/purchases",
        ]
        let inFlight = try ExternalProcess("/usr/bin/curl", ["-sS", "--max-time", "20", "-w", "\n%{http_code}"] + request)
        var waiting = 0
        for _ in 0..<100 where waiting == 0 {
            try await Task.sleep(for: .milliseconds(20))
            waiting = Int(try blocker.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'").scalar ?? "") ?? 0
        }
        #expect(waiting == 1, "the purchase never waited for the lock")
        server.kill()
        let cut = await inFlight.finished()
        let lines = cut.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let refused = (status: Int(lines.last ?? "") ?? 0, body: lines.dropLast().joined(separator: "\n"))
        #expect(refused.status == 503, "\(refused)")
        #expect(refused.body.contains("unavailable"))
        // What libpq said (the socket's folder, the role) is the operator's: in the log, not the answer.
        let socketFolder = server.connectionString.split(separator: " ").first { $0.hasPrefix("host=") }?.dropFirst("host=".count) ?? "host"
        #expect(!refused.body.contains(socketFolder), "\(refused.body)")
        // Alive, not ready: a load balancer sends players elsewhere meanwhile.
        #expect(try curl([url + "/v1/health"]).status == 200)
        var notReady = (status: 0, body: "")
        #expect(try await eventually(within: 5) { () async throws in
            notReady = try curl([url + "/v1/ready"])
            return notReady.status == 503
        }, "\(notReady)")
        #expect(notReady.body.contains("the accounts database cannot be used"), "\(notReady)")
        #expect(!notReady.body.contains(socketFolder), "\(notReady.body)")

        // The client keeps the key across its retries; the database comes back meanwhile.
        let patient = client(account, at: url, attempts: 9)
        func refusedPurchases() -> Int { serving.errorSoFar.components(separatedBy: "POST /v1/purchases 503").count - 1 }
        let refusedBefore = refusedPurchases()
        let purchase = Task { try await patient.buy(hints10, quantity: 1) }
        // The database comes back only once the client's request has met the outage (503) and
        // will be sent again.
        // Waited for without holding a thread of the pool the client's task runs on.
        #expect(await eventually(within: 60) { () async in refusedPurchases() > refusedBefore }, "the client's purchase never met the outage: \(serving.errorSoFar.suffix(400))")
        try server.start()
        #expect(try await purchase.value.purchasedTransaction != nil)
        // Readiness is checked at most once a second: back within one.
        var ready = (status: 0, body: "")
        #expect(try await eventually(within: 5) { () async throws in
            ready = try curl([url + "/v1/ready"])
            return ready.status == 200
        }, "\(ready)")
        #expect(ready.body.contains(#""status":"ready""#), "\(ready)")

        // The refused request, sent again with its key, is done once; a third time finds it.
        let retried = try curl(request)
        #expect(retried.status == 200, "\(retried)")
        // The same outcome; the statement beside it is the account's at each answer.
        let again = try curl(request)
        #expect(try Wire.decode(PurchaseOutcome.self, from: Array(again.body.utf8)) == Wire.decode(PurchaseOutcome.self, from: Array(retried.body.utf8)))
        #expect(try await patient.hintBalance() == 30)
        #expect(try await patient.transactions().count == 3)
    }

    private func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let result = try ExternalProcess.run("/usr/bin/curl", ["-sS", "--max-time", "20", "-w", "\n%{http_code}"] + arguments)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }
}

extension PurchaseOutcome {
    fileprivate var purchasedTransaction: StoreTransaction? {
        if case .purchased(let transaction) = self { transaction } else { nil }
    }
}

/// A sandbox server in this process on a database of its own, its data in a temporary folder.
struct InProcessServer {
    let database: FreshDatabase
    let directory: TemporaryDirectory
    let http: HTTPServer
    var url: String { http.url }

    init(testControls: Bool = false) throws {
        database = try FreshDatabase(on: try TestPostgreSQL.shared())
        directory = try TemporaryDirectory()
        var configuration = PackServerConfiguration(
            dataFolder: directory.file("data"), packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, environment: .sandbox,
            testControls: testControls)
        configuration.database = .postgreSQL(database.connectionString)
        let server = try PackServer(configuration)
        http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
    }

    func stop() { http.stop() }
}

/// On one PostgreSQL database, accounts share tables: nothing of one account is reachable from
/// another, not by reusing its Idempotency-Key, nor by approving its transaction.
@Suite struct PostgreSQLIsolationTests {
    @Test func anAccountNeverReachesAnothersPurchases() async throws {
        let http = try InProcessServer(testControls: true)
        defer { http.stop() }
        let ann = try await HTTPPackService.createAccount(at: http.url)
        let bob = try await HTTPPackService.createAccount(at: http.url)

        // The same Idempotency-Key from two accounts: two purchases, one each.
        func purchase(_ who: ServiceCredentials) throws -> StoreTransaction? {
            let result = try ExternalProcess.run("/usr/bin/curl", [
                "-sS", "--max-time", "20", "-X", "POST", "-H", "Authorization: Bearer \(who.token)", "-H", "Idempotency-Key: shared-key",
                "-H", "Content-Type: application/json", "--data", #"{"productID":"com.hangmanpacks.hints.10","quantity":1}"#, http.url + "/v1/purchases",
            ])
            return try Wire.decode(PurchaseOutcome.self, from: Array(result.stdout.utf8)).purchasedTransaction
        }
        let annsPurchase = try #require(try purchase(ann))
        let bobsPurchase = try #require(try purchase(bob))
        #expect(annsPurchase.id != bobsPurchase.id)
        #expect(try await HTTPPackService(credentials: ann).hintBalance() == 10)
        #expect(try await HTTPPackService(credentials: bob).hintBalance() == 10)
        // Control: the same key from the same account is the same purchase.
        #expect(try purchase(ann)?.id == annsPurchase.id)

        // Ann's purchase waits for approval; Bob cannot approve it, and it still waits.
        let annsService = HTTPPackService(credentials: ann)
        var controls = try await annsService.controls()
        controls.askToBuy = true
        try await annsService.setControls(controls)
        guard case .deferred(let waiting) = try await annsService.buy(ios, quantity: 1) else {
            Issue.record("ask to buy did not defer the purchase")
            return
        }
        let refused = await #expect(throws: ServiceError.self) { try await HTTPPackService(credentials: bob).approve(waiting.id) }
        #expect(refused?.kind == .unknownTransaction, "\(refused?.message ?? "")")
        #expect(try await annsService.transactions().first { $0.id == waiting.id }?.state == .deferred)
        #expect(try await HTTPPackService(credentials: bob).entitlements().isEmpty)
    }
}

/// On PostgreSQL a hint spend checks its token in the spend's own call once the account's store
/// is open: a token that is not the account's, not live, or of a closed account spends nothing.
@Suite struct SpendCheckingItsTokenTests {
    @Test func aSpendWithATokenThatIsNotLiveAndTheAccountsSpendsNothing() async throws {
        let http = try InProcessServer()
        defer { http.stop() }
        let database = http.database
        let ann = try await HTTPPackService.createAccount(at: http.url)
        let bob = try await HTTPPackService.createAccount(at: http.url)
        _ = try await HTTPPackService(credentials: ann).buy(hints10, quantity: 1)
        _ = try await HTTPPackService(credentials: bob).buy(hints10, quantity: 1)
        func spend(_ who: ServiceCredentials, _ key: String) async -> ServiceError? {
            do {
                _ = try await HTTPPackService(credentials: who).spendHint(idempotencyKey: key)
                return nil
            } catch {
                return error
            }
        }
        func hintRows(_ account: String) throws -> Int {
            try database.integer("SELECT count(*) FROM hint_ledger WHERE account_id = '\(account)' AND reason = 'spend'")
        }
        #expect(await spend(ann, "first") == nil)
        #expect(try hintRows(ann.accountID) == 1)

        // Bob's secret under Ann's account id: a live token, but not Ann's.
        var forged = ann
        forged.token = "hp1.\(ann.accountID)." + bob.token.split(separator: ".")[2]
        #expect(await spend(forged, "forged")?.kind == .unauthorized)
        forged.token = "hp1.\(ann.accountID)." + String(repeating: "A", count: 43)
        #expect(await spend(forged, "made-up")?.kind == .unauthorized)
        #expect(try hintRows(ann.accountID) == 1 && hintRows(bob.accountID) == 0)

        // A second device spends, then is signed out: its next spend is refused.
        let phone = try await HTTPPackService.login(at: http.url, token: ann.token)
        #expect(await spend(phone, "phone") == nil)
        let phoneID = try #require(try await HTTPPackService(credentials: ann).tokens().first { !$0.current }?.tokenID)
        try await HTTPPackService(credentials: ann).revokeToken(phoneID)
        #expect(await spend(phone, "phone-after")?.kind == .unauthorized)
        #expect(try hintRows(ann.accountID) == 2)

        // Closed: no token of the account spends.
        #expect(await spend(ann, "before-close") == nil)
        try await HTTPPackService(credentials: ann).closeAccount()
        #expect(await spend(ann, "after-close")?.kind == .unauthorized)
        #expect(try hintRows(ann.accountID) == 3)
        #expect(try await HTTPPackService(credentials: bob).hintBalance() == 10)
    }
}

@Suite struct LedgerFolderTests {
    @Test func sqliteLedgersCanLiveInAFolderOtherThanTheData() async throws {
        let directory = try TemporaryDirectory()
        var configuration = PackServerConfiguration(
            dataFolder: directory.file("data"), packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, environment: .sandbox)
        configuration.database = try #require(LedgerDatabase(argument: directory.file("ledgers")))
        let server = try PackServer(configuration)
        let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        defer { http.stop() }
        let credentials = try await HTTPPackService.createAccount(at: http.url)
        #expect(try await HTTPPackService(credentials: credentials).buy(hints10, quantity: 1).purchasedTransaction != nil)
        #expect(FileManager.default.fileExists(atPath: directory.file("ledgers/accounts.sqlite")))
        #expect(FileManager.default.fileExists(atPath: directory.file("ledgers/accounts/\(credentials.accountID)/account.sqlite")))
        #expect(FileManager.default.fileExists(atPath: directory.file("data/service-signing.key")))
        #expect(!FileManager.default.fileExists(atPath: directory.file("data/accounts.sqlite")))
    }

    @Test(arguments: [
        ("postgresql://db.example/hangman", true), ("postgres://u@h/d", true), ("host=/run/postgresql dbname=hangman", true),
        ("/var/lib/hangman/ledgers", false), ("mysql://db/hangman", nil), ("", nil),
    ] as [(String, Bool?)])
    func theDatabaseArgumentIsReadOneWay(_ text: String, _ postgres: Bool?) {
        switch LedgerDatabase(argument: text) {
        case .postgreSQL(let connection)?: #expect(postgres == true && connection == text)
        case .sqlite(let folder)?: #expect(postgres == false && folder == text)
        case nil: #expect(postgres == nil)
        }
    }
}

/// nginx (Debian's nginx-light) in the foreground on a loopback port, in front of `upstreams`, as
/// the README configures it, or serving what `http` says; stopped with the test.
final class Nginx {
    let process: ExternalProcess
    let url: String
    let port: Int

    /// In front of `upstreams`, as the README configures it.
    convenience init(folder: String, upstreams: [String]) throws {
        let servers = upstreams.map { "server \($0.dropFirst("http://".count)) max_fails=1 fail_timeout=10s;" }.joined(separator: "\n        ")
        try self.init(folder: folder, ready: ("/v1/health", "200")) { port in
            """
            access_log off;
            upstream hangman {
                \(servers)
                keepalive 16;
            }
            server {
                listen 127.0.0.1:\(port);
                location / {
                    proxy_pass http://hangman;
                    proxy_http_version 1.1;
                    proxy_set_header Connection "";
                    proxy_set_header Host $host;
                    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                    proxy_next_upstream error timeout http_502 http_503;
                    proxy_buffering off;
                    client_max_body_size 8m;
                }
            }
            """
        }
    }

    /// Serving what `http(port)` puts in its `http` block (a free loopback port given), started
    /// once `ready`'s path answers `ready`'s status.
    init(folder: String, ready: (path: String, status: String), http: (Int) -> String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = try Self.freePort()
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(folder)/nginx.pid;
            error_log \(folder)/error.log;
            events { worker_connections 256; }
            http {
                client_body_temp_path \(folder)/body; proxy_temp_path \(folder)/proxy; fastcgi_temp_path \(folder)/fastcgi;
                uwsgi_temp_path \(folder)/uwsgi; scgi_temp_path \(folder)/scgi;
            \(http(port))
            }
            """
        try configuration.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"), "nginx is missing: 'make test' installs nginx-light")
        process = try ExternalProcess("/usr/sbin/nginx", ["-c", folder + "/nginx.conf", "-p", folder])
        url = "http://127.0.0.1:\(port)"
        for _ in 0..<200 {
            if (try? shell("curl -s -o /dev/null -w '%{http_code}' \(url)\(ready.path)")) == ready.status { return }
            usleep(25_000)
        }
        throw ServiceError(.unavailable, "nginx did not start: \((try? String(contentsOfFile: folder + "/error.log", encoding: .utf8)) ?? "")")
    }

    func stop() { _ = process.kill() }

    /// A loopback port nobody listens on now.
    static func freePort() throws -> Int {
        let found = try shell("python3 -c 'import socket; s=socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])'")
        return Int(found.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}

/// How far the players got, read by the task that kills a server.
final class Progress: Sendable {
    let count = Atomic<Int>(0)
}
