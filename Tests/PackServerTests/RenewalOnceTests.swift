import Foundation
import HTTPServer
import PackServer
import PackServiceClient
import Seller
import Synchronization
import SystemCalls
import Testing
import TestSupport

private let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!

/// A renewal that falls due is charged and credited once, however many servers see it at the
/// same moment: two servers on one SQLite data folder, and two on one PostgreSQL database.
@Suite struct RenewalOnceTests {
    enum Shared: String, CaseIterable, CustomTestStringConvertible {
        case sqliteFolder, postgreSQL
        var testDescription: String { rawValue }
    }

    @Test(arguments: Shared.allCases)
    func twoServersSeeingARenewalDueAtOnceRenewItOnce(_ shared: Shared) async throws {
        let directory = try TemporaryDirectory()
        let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path
        // Both servers' real clock, moved by the test: the renewal falls due for both at once.
        let real = Mutex(SystemCalls.Clock.system.now())
        var configuration = PackServerConfiguration(dataFolder: directory.file("data"), packsFolder: packs, environment: .sandbox, testControls: true)
        configuration.clock = SystemCalls.Clock { real.withLock { $0 } }
        configuration.requestsPerMinute = 0
        if shared == .postgreSQL {
            configuration.database = .postgreSQL(try FreshDatabase(on: try TestPostgreSQL.shared()).connectionString)
        }
        let servers = try (0..<2).map { _ in try PackServer(configuration) }
        let https = try servers.map { server in try HTTPServer(HTTPServerConfiguration()) { server.handle($0) } }
        defer { for http in https { http.stop() } }
        let credentials = try await HTTPPackService.createAccount(at: https[0].url)
        let clients = https.map { http in
            var moved = credentials
            moved.service = http.url
            return HTTPPackService(credentials: moved)
        }
        guard case .purchased(let first) = try await clients[0].buy(monthly, quantity: 1) else { throw ServiceError(.wrongState, "not bought") }
        // A week and a minute later (the trial's end), sixteen requests on both servers at once.
        real.withLock { $0 += 7 * 86_400_000 + 60_000 }
        let balances = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<16 {
                let client = clients[index % 2]
                group.addTask { try await client.hintBalance() }
            }
            var seen: [Int] = []
            for try await balance in group { seen.append(balance) }
            return seen
        }
        #expect(balances.allSatisfy { $0 == 20 }, "\(balances)")
        let periods = try await clients[1].transactions().filter { $0.originalTransactionID == first.id }
        #expect(periods.count == 2, "\(periods.map(\.id))")
        #expect(periods.map(\.hintsCredited) == [0, 20])
        #expect(try await clients[0].subscriptions().first?.state == .active)
    }
}

/// `hangman serve` killed between a renewal's charge and its credit: the next request completes
/// it, once.
@Suite struct RenewalCrashTests {
    @Test(arguments: ["after-renewal-charge", "after-deliver"])
    func aRenewalCutByAServerCrashIsCompletedOnce(_ point: String) async throws {
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        func serve(crashAt: String?, port: Int) throws -> (ExternalProcess, String) {
            try ServeProcess.start(data: data, port: port, crashAt: crashAt, extra: ["--test-controls"])
        }
        let (plain, url) = try serve(crashAt: nil, port: 0)
        let port = Int(url.split(separator: ":").last ?? "") ?? 0
        let client = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url), attempts: 1)
        guard case .purchased(let first) = try await client.buy(monthly, quantity: 1) else { throw ServiceError(.wrongState, "not bought") }
        _ = plain.wait(killAfter: 0)
        let (dying, _) = try serve(crashAt: point, port: port)
        // The trial ends: the renewal's charge is recorded, and the server dies.
        await #expect(throws: ServiceError.self) { try await client.advanceClock(by: StoreDuration(1, .week)) }
        let died = await dying.finished()
        #expect(died.wasSignaled && died.status == 9, "the server died at \(point): \(died.stderr)")
        let (again, _) = try serve(crashAt: nil, port: port)
        defer { _ = again.wait(killAfter: 0) }
        let retrying = HTTPPackService(credentials: client.credentials, attempts: 9)
        #expect(try await retrying.hintBalance() == 20)
        for _ in 0..<3 { #expect(try await retrying.hintBalance() == 20) }
        // What a player's next command does first: finish what a crash left delivered.
        _ = try await retrying.recoverUnfinished()
        #expect(try await retrying.hintBalance() == 20)
        let periods = try await retrying.transactions().filter { $0.originalTransactionID == first.id }
        #expect(periods.count == 2 && periods.allSatisfy { $0.state == .finished }, "\(periods)")
        #expect(try await retrying.subscriptions().first?.state == .active)
    }
}
