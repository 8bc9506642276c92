import Foundation
import PostgreSQL
@testable import Seller
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
        let (a1, b2) = ("00000000000000a1", "00000000000000b2")
        for account in [a1, b2] {
            let service = try AccountService(catalog: catalog, packsFolder: packs, accountFolder: directory.path + "/accounts/" + account, clock: clock.clock)
            _ = try service.buy(StoreFixture.hints10, quantity: account == a1 ? 1 : 2)
        }
        // A folder that is no account's (no ledger in it, or not named as an account id) is passed over.
        try FileManager.default.createDirectory(atPath: directory.path + "/accounts/empty", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory.path + "/accounts/00000000000000c3", withIntermediateDirectories: true)
        let all = try SQLiteLedgers.allTransactions(folder: directory.path)
        #expect(all.map(\.account) == [a1, b2] && all.map(\.transaction.quantity) == [1, 2], "\(all)")
        #expect(all.allSatisfy { $0.transaction.state == .finished && $0.transaction.price != nil })
        #expect(try SQLiteLedgers.allTransactions(folder: directory.path + "/none").isEmpty)
    }

    @Test func postgreSQLLedgersAreReadInOneQuery() throws {
        // A database of its own: every account in it is this test's.
        let server = try TestPostgreSQL.shared()
        let name = "hangman_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        try PostgreSQL.Connection(connectionString: server).execute("CREATE DATABASE \(name)")
        let ledgers = try PostgreSQLLedgers(connectionString: server.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(name)"), connections: 2)
        // Ledgers alone, before any server made its accounts' table: none made yet, as on SQLite.
        #expect(try ledgers.accountsMade().isEmpty)
        #expect(try SQLiteLedgers.accountsMade(folder: "/nonexistent").isEmpty)
        let directory = try TemporaryDirectory()
        let packs = try StoreFixture.makePacksFolder(in: directory)
        let catalog = try Catalog.load(folder: packs)
        let clock = SteppingClock()
        let key = try ServiceKey.loadOrCreate(at: directory.path + "/key")
        for (account, quantity) in [("00000000000000a1", 1), ("00000000000000b2", 3)] {
            let service = try AccountService(
                catalog: catalog, packsFolder: packs, ledgers: ledgers, account: account, clock: clock.clock, signingKey: key, environment: .sandbox)
            _ = try service.buy(StoreFixture.hints10, quantity: quantity)
        }
        let all = try ledgers.allTransactions()
        #expect(all.map(\.account) == ["00000000000000a1", "00000000000000b2"] && all.map(\.transaction.quantity) == [1, 3], "\(all)")
        #expect(all.allSatisfy { $0.transaction.state == .finished && $0.transaction.price != nil })
    }
}
