import Foundation
import PackIdentifiers
import PackServiceAPI
import PackServiceClient
import Testing
import TestSupport

/// `hangman serve` killed (SIGKILL) inside a refund decision's database transaction: nothing of
/// it is kept, and the decision made again applies once; on an SQLite data folder and on
/// PostgreSQL.
@Suite struct RefundDecisionCrashTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgreSQL
        var testDescription: String { rawValue }
    }

    @Test(arguments: Store.allCases)
    func aDecisionCutByAKillIsAppliedOnceWhenMadeAgain(_ store: Store) async throws {
        let directory = try TemporaryDirectory()
        let database = store == .postgreSQL ? try FreshDatabase(on: try TestPostgreSQL.shared()) : nil
        let engine = database.map { ["--database", $0.connectionString] } ?? []
        func serve(crashAt: String?, port: Int) throws -> (ExternalProcess, String) {
            // With a crash point, the server has its test controls already.
            try ServeProcess.start(data: directory.file("data"), port: port, crashAt: crashAt, extra: (crashAt == nil ? ["--test-controls"] : []) + engine)
        }
        let (plain, url) = try serve(crashAt: nil, port: 0)
        let port = Int(url.split(separator: ":").last ?? "") ?? 0
        let client = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url), attempts: 1)
        guard case .purchased(let hints) = try await client.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1) else {
            throw ServiceError(.wrongState, "not bought")
        }
        _ = try await client.requestRefund(hints.id, reason: .fulfillmentIssue)
        _ = plain.wait(killAfter: 0)

        for (decision, balance, state) in [(RefundDecision.grant, 0, RefundCase.State.granted), (.reverse, 10, .reversed)] {
            let (dying, _) = try serve(crashAt: "in-refund-decision", port: port)
            await #expect(throws: ServiceError.self) { _ = try await client.decideRefund(hints.id, decision) }
            let died = await dying.finished()
            #expect(died.wasSignaled && died.status == 9, "the server died in the \(decision) decision: \(died.stderr)")
            let (again, _) = try serve(crashAt: nil, port: port)
            let before = try await client.refundCase(hints.id)?.state
            #expect(before == (decision == .grant ? .requested : .granted), "nothing of the killed decision was kept: \(String(describing: before))")
            #expect(try await client.hintBalance() == (decision == .grant ? 10 : 0))
            let decided = try await client.decideRefund(hints.id, decision)
            #expect(decided.refundCase.state == state && decided.hints == 10)
            #expect(try await client.decideRefund(hints.id, decision).hints == 0, "made again: nothing more")
            #expect(try await client.hintBalance() == balance)
            _ = again.wait(killAfter: 0)
        }
    }
}
