import Foundation
import PostgreSQL
@testable import Seller
import Testing
import TestSupport

/// The seller's customer search (``SellerService/findCustomers(_:limit:)``), on both engines: a
/// customer found by each of their keys, names by their first letters, and their story.
@Suite struct CustomerSearchTests {
    @Test(arguments: Engine.allCases) func aCustomerIsFoundByEachKey(engine: Engine) throws {
        let directory = try TemporaryDirectory()
        let packs = try StoreFixture.makePacksFolder(in: directory)
        let catalog = try Catalog.load(folder: packs)
        let clock = SteppingClock()
        let key = try ServiceKey.loadOrCreate(at: directory.path + "/key")
        let seller: SellerService
        if engine == .postgresql {
            // A database of its own: the names and tokens in it are this test's alone.
            let server = try TestPostgreSQL.shared()
            let name = "hangman_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            try PostgreSQL.Connection(connectionString: server).execute("CREATE DATABASE \(name)")
            seller = try SellerService(.postgreSQL(connectionString: server.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(name)"), connections: 2))
        } else {
            seller = try SellerService(.sqlite(folder: directory.path + "/data"))
        }
        func open(_ account: String) throws -> AccountService {
            let service = if let ledgers = seller.ledgers {
                try AccountService(catalog: catalog, packsFolder: packs, ledgers: ledgers, account: account, clock: clock.clock, signingKey: key)
            } else {
                try AccountService(catalog: catalog, packsFolder: packs, accountFolder: directory.path + "/data/accounts/" + account, clock: clock.clock, signingKey: key)
            }
            service.claimTransactionID = seller.transactionIDClaims(account: account)
            return service
        }
        let (anna, andre, ben) = try (
            seller.directory.create(deviceName: "Anna's phone", now: clock.clock.now()).accountID, seller.directory.create(now: 1).accountID,
            seller.directory.create(now: 1).accountID)
        for (account, name) in [(anna, "Anna"), (andre, "André"), (ben, "Ben")] {
            #expect(try seller.directory.setName(account: account, name: name, folded: DisplayName.folded(name), skeleton: DisplayNames.skeleton(name), now: 1))
        }
        let token = "4f0c8a5e-3b5d-4d8e-9a4f-0c1d2e3f4a5b"
        let bought = try #require(try open(anna).buy(StoreFixture.hints10, quantity: 1, options: PurchaseOptions(appAccountToken: token.uppercased())).purchasedTransaction)
        func found(_ text: String) throws -> [String] { try seller.findCustomers(text).map { "\($0.name) \($0.matchedBy.rawValue)" } }
        #expect(try found(anna) == ["Anna account"])
        #expect(try found(anna.uppercased()) == ["Anna account"], "an id is read in either case")
        #expect(try found(bought.id.rawValue) == ["Anna transaction"])
        #expect(try found(bought.id.number) == ["Anna transaction"], "the number Apple's shapes write")
        #expect(try found(bought.id.orderID.lowercased()) == ["Anna order-id"])
        #expect(try found(token.uppercased()) == ["Anna app-account-token"])
        let named = try found("an")
        #expect(named == ["André name", "Anna name"], "names by their first letters, folded, in their order: \(named)")
        #expect(try found("  BEN ") == ["Ben name"])
        #expect(try found("zed").isEmpty)
        #expect(try found("ffffffffffffffff").isEmpty)
        #expect(throws: ServiceError.self) { try seller.findCustomers("") }
        #expect(throws: ServiceError.self) { try seller.findCustomers(String(repeating: "x", count: 65)) }
        // Her story: the device, the hints, the purchase in the timeline.
        let story = try seller.customerStory(account: anna, service: try open(anna))
        #expect(story.name == "Anna" && story.devices.map(\.deviceName) == ["Anna's phone"] && story.hints == 10, "\(story)")
        #expect(story.timeline.contains { $0.kind == .purchase && $0.transactionID == bought.id }, "\(story.timeline)")
        #expect(throws: ServiceError.self) { try seller.customerStory(account: "0123456789abcdef", service: try open(ben)) }
    }
}
