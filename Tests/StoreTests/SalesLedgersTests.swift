import Foundation
@testable import Store
import Testing
import TestSupport

/// Every account's transactions, as the seller's reports read them, on both engines: each with
/// its account, every state, by purchase date.
@Suite struct SalesLedgersTests {
    @Test func sqliteLedgersAreReadAccountByAccount() throws {
        let directory = try TemporaryDirectory()
        let packs = try StoreFixture.makePacksFolder(in: directory)
        let catalog = try Catalog.load(folder: packs)
        let clock = SteppingClock()
        for account in ["a1", "b2"] {
            let service = try AccountService(catalog: catalog, packsFolder: packs, accountFolder: directory.path + "/accounts/" + account, clock: clock.clock)
            _ = try service.buy(StoreFixture.hints10, quantity: account == "a1" ? 1 : 2)
        }
        // A folder that is no account's (no ledger in it) is passed over.
        try FileManager.default.createDirectory(atPath: directory.path + "/accounts/empty", withIntermediateDirectories: true)
        let all = try SQLiteLedgers.allTransactions(folder: directory.path)
        #expect(all.map(\.account) == ["a1", "b2"] && all.map(\.transaction.quantity) == [1, 2], "\(all)")
        #expect(all.allSatisfy { $0.transaction.state == .finished && $0.transaction.price != nil })
        #expect(try SQLiteLedgers.allTransactions(folder: directory.path + "/none").isEmpty)
    }

    @Test func postgreSQLLedgersAreReadInOneQuery() throws {
        let first = try StoreAccount(engine: .postgresql), second = try StoreAccount(engine: .postgresql)
        _ = try first.service().buy(StoreFixture.hints10, quantity: 1)
        _ = try second.service().buy(StoreFixture.hints10, quantity: 3)
        let ledgers = try PostgreSQLLedgers(connectionString: try #require(first.connectionString), connections: 1)
        let ours = try ledgers.allTransactions().filter { [first.accountID, second.accountID].contains($0.account) }
        #expect(ours.count == 2)
        #expect(ours.first { $0.account == second.accountID }?.transaction.quantity == 3, "\(ours)")
    }
}
