import Foundation
import Seller
import Testing
import TestSupport

/// What Apple's side of a customer's purchases keeps in the ledger: the app account token
/// (StoreKit's purchase option, Set App Account Token), the app transaction, and a purchase the
/// developer's server finishes.
@Suite struct AppStoreCustomerTests {
    /// On both engines: the token is on the purchase before it is charged, a subscription's
    /// renewals carry their original's, setting it replaces it on the whole subscription, and a
    /// retry of the same purchase keeps the first token.
    @Test(arguments: Engine.allCases) func aTokenGoesWithThePurchaseAndItsRenewals(engine: Engine) throws {
        let account = try StoreAccount(shipped: true, engine: engine)
        let service = try account.service()
        let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
        let hints = ProductID(rawValue: "com.hangmanpacks.hints.10")!
        let given = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
        #expect(throws: ServiceError.self) { try service.buy(hints, quantity: 1, options: PurchaseOptions(appAccountToken: "not-a-uuid")) }
        guard case .purchased(let first) = try service.buy(monthly, quantity: 1, requestKey: "buy-monthly", options: PurchaseOptions(appAccountToken: given)),
            case .purchased(let plain) = try service.buy(hints, quantity: 1)
        else {
            Issue.record("not bought")
            return
        }
        #expect(first.appAccountToken == given.lowercased(), "kept lowercase")
        #expect(plain.appAccountToken == nil)
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(40, .day)))
        let periods = try service.transactions().filter { $0.originalTransactionID == first.id }
        #expect(periods.count >= 2 && periods.allSatisfy { $0.appAccountToken == given.lowercased() }, "\(periods)")
        // A retry of the same purchase with another token keeps the first.
        _ = try service.buy(monthly, quantity: 1, requestKey: "buy-monthly", options: PurchaseOptions(appAccountToken: "00000000-0000-0000-0000-000000000001"))
        #expect(try service.transactions().first { $0.id == first.id }?.appAccountToken == given.lowercased())
        // Set App Account Token replaces it for the whole subscription.
        let replaced = "00000000-0000-0000-0000-0000000000aa"
        try service.setAppAccountToken(first.id, token: replaced)
        #expect(try service.transactions().filter { $0.originalTransactionID == first.id }.allSatisfy { $0.appAccountToken == replaced })
        #expect(try service.transactions().first { $0.id == plain.id }?.appAccountToken == nil, "another purchase untouched")
        #expect(throws: ServiceError.self) { try service.setAppAccountToken(plain.id, token: "{not a uuid}") }
    }

    /// One app transaction per account, on both engines: made when first asked for, dated at the
    /// first purchase, the same for every later service on the account.
    @Test(arguments: Engine.allCases) func anAccountHasOneAppTransaction(engine: Engine) throws {
        let account = try StoreAccount(shipped: true, engine: engine)
        let service = try account.service()
        guard case .purchased(let bought) = try service.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1) else {
            Issue.record("not bought")
            return
        }
        let app = try service.appTransaction()
        #expect(app.originalPurchaseDate == bought.purchaseDate && app.id != bought.id)
        #expect(try account.service().appTransaction() == app, "the same from another process")
    }

    /// Apple's Finish Transaction on a purchase a crash left charged and not delivered: the
    /// backend's finish delivers it once and finishes it, and the client has nothing to recover.
    @Test func theBackendFinishesAPurchaseLeftCharged() throws {
        let account = try StoreAccount(shipped: true)
        let hints = ProductID(rawValue: "com.hangmanpacks.hints.10")!
        let opener = account.opener(crash: { point in if point == .afterCharge { Thread.exit() } })
        let dying = Thread { _ = try? opener().buy(hints, quantity: 1) }
        dying.start()
        #expect(eventually { dying.isFinished }, "the buyer's thread did not end at the charge")
        let service = try account.service()
        let left = try #require(try service.transactions().first)
        let balance = try service.hintBalance()
        #expect(left.state == .purchased && balance == 0)
        #expect(try service.finishAsTheBackend(left.id))
        #expect(try service.finishAsTheBackend(left.id), "again: the same answer")
        let after = try service.hintBalance()
        #expect(try service.transactions().first?.state == .finished && after == 10, "delivered once")
        #expect(try service.recoverUnfinished().isEmpty)
    }
}
