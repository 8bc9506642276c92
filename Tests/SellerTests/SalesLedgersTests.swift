import CivilCalendar
import Foundation
import PostgreSQL
@testable import Seller
import Testing
import TestSupport

/// The numbers every account's ledger keeps, as the seller's reports read them, on both engines:
/// summed across accounts, a folder that is no account's passed over.
@Suite struct SalesLedgersTests {
    @Test func sqliteLedgersAreSummedAccountByAccount() throws {
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
        let today = UTCDateTime.day(ofMilliseconds: clock.clock.now())
        let days = try SQLiteLedgers.salesDays(folder: directory.path, firstDay: today - 1, lastDay: today + 1, storefront: nil)
        #expect(days.rows.count == 1 && days.rows.first?.charged == 2 && days.rows.first?.units == 3 && days.rows.first?.day == today, "\(days)")
        #expect(try SQLiteLedgers.salesDays(folder: directory.path, firstDay: today + 1, lastDay: today + 9, storefront: nil).rows.isEmpty)
        #expect(try SQLiteLedgers.salesDays(folder: directory.path + "/none", firstDay: 0, lastDay: today, storefront: nil).rows.isEmpty)
        #expect(try SQLiteLedgers.salesAggregateDifferences(folder: directory.path).isEmpty)
    }

    @Test func postgreSQLLedgersAreSummedInOneQuery() throws {
        // A database of its own: every account in it is this test's.
        let server = try TestPostgreSQL.shared()
        let name = "hangman_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        try PostgreSQL.Connection(connectionString: server).execute("CREATE DATABASE \(name)")
        let ledgers = try PostgreSQLLedgers(connectionString: server.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(name)"), connections: 2)
        // Ledgers alone, before any server made its accounts' table: none made yet, as on SQLite.
        #expect(try ledgers.accountsMade(firstDay: 0, lastDay: 100_000).isEmpty)
        #expect(try SQLiteLedgers.accountsMade(folder: "/nonexistent", firstDay: 0, lastDay: 100_000).isEmpty)
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
        let today = UTCDateTime.day(ofMilliseconds: clock.clock.now())
        let days = try ledgers.salesDays(firstDay: today, lastDay: today, storefront: nil)
        #expect(days.rows.count == 1 && days.rows.first?.charged == 2 && days.rows.first?.units == 4, "summed over the shards: \(days)")
        #expect(try ledgers.salesDays(firstDay: today, lastDay: today, storefront: "DEU").rows.isEmpty)
        #expect(try ledgers.salesAggregateDifferences().isEmpty)
    }
}
