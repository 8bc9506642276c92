import Foundation
@testable import Seller
import Testing
import TestSupport

/// The seller's customer search (``SellerService/findCustomers(_:limit:)``), on both engines: a
/// customer found by each of their keys, names by their first letters, and their story.
@Suite struct CustomerSearchTests {
    @Test(arguments: Engine.allCases) func aCustomerIsFoundByEachKey(engine: Engine) throws {
        let world = try SellerWorld(engine)
        let (seller, clock, open) = (world.seller, world.clock, world.open)
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
