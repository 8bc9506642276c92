import Foundation
import Seller
import Testing
import WordPacks

/// StoreKit Testing's switches, kept with the account.
@Suite struct TestControlsTests {
    @Test(arguments: Engine.allCases) func switchesAreOffByDefaultAndKeptWithTheAccount(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        #expect(try service.controls() == StoreControls())
        try service.setControls(StoreControls(failPurchases: true, askToBuy: false, interruptPurchases: true))
        #expect(try account.service().controls() == StoreControls(failPurchases: true, askToBuy: false, interruptPurchases: true))
        try service.reset()
        #expect(try account.service().controls() == StoreControls())
    }

    @Test(arguments: Engine.allCases) func failPurchasesDeliversNothing(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        try service.setControls(StoreControls(failPurchases: true))
        guard case .failed(let hints) = try service.buy(StoreFixture.hints10, quantity: 1),
            case .failed(let pack) = try service.buy(StoreFixture.animals, quantity: 1)
        else {
            Issue.record("a purchase did not fail with fail-purchases on")
            return
        }
        #expect(hints.failureReason == "the store refused the payment (fail-purchases is on)")
        #expect(hints.hintsCredited == 0 && pack.hintsCredited == 0)
        #expect(try service.hintBalance() == 0)
        #expect(try service.entitlements().isEmpty)
        #expect(try service.transactions().map(\.state) == [.failed, .failed])
        // Nothing is waiting: a new process recovers nothing.
        #expect(try account.service().recoverUnfinished().isEmpty)
        try service.reset()
        #expect(try service.buy(StoreFixture.animals, quantity: 1).purchasedTransaction != nil)
    }

    @Test(arguments: Engine.allCases) func askToBuyDeliversOnlyWhenApproved(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        try service.setControls(StoreControls(askToBuy: true))
        guard case .deferred(let waiting) = try service.buy(StoreFixture.hints10, quantity: 2) else {
            Issue.record("not deferred")
            return
        }
        #expect(waiting.state == .deferred)
        #expect(try service.hintBalance() == 0)
        // A new process does not deliver it either.
        #expect(try account.service().recoverUnfinished().isEmpty)
        #expect(try service.hintBalance() == 0)
        let approved = try service.approve(waiting.id)
        #expect(approved.state == .finished)
        #expect(approved.hintsCredited == 20)
        #expect(try service.hintBalance() == 20)
        // Approving twice is refused and delivers nothing more.
        let again = storeError { () throws(ServiceError) in try service.approve(waiting.id) }
        #expect(again?.kind == .wrongState)
        #expect(again?.message == "cannot approve transaction \(waiting.id.number): it is finished, not deferred")
        #expect(try service.hintBalance() == 20)
        #expect(storeError { () throws(ServiceError) in try service.decline(waiting.id) }?.kind == .wrongState)
        #expect(try service.hintBalance() == 20)
    }

    @Test(arguments: Engine.allCases) func askToBuyDeclinedDeliversNothing(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        try service.setControls(StoreControls(askToBuy: true))
        let waiting = try #require(try service.buy(StoreFixture.animals, quantity: 1).transaction)
        let declined = try service.decline(waiting.id)
        #expect(declined.state == .failed)
        #expect(declined.failureReason == "declined by the approver")
        #expect(try service.entitlements().isEmpty)
        #expect(storeError { () throws(ServiceError) in try service.approve(waiting.id) }?.kind == .wrongState)
        #expect(try service.entitlements().isEmpty)
        #expect(storeError { () throws(ServiceError) in try service.packArchive(StoreFixture.animals) }?.kind == .notEntitled)
    }

    @Test(arguments: Engine.allCases) func aDeferredPackCannotBeBoughtTwiceWhileWaiting(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        try service.setControls(StoreControls(askToBuy: true))
        let waiting = try #require(try service.buy(StoreFixture.animals, quantity: 1).transaction)
        try service.reset()
        let error = storeError { () throws(ServiceError) in try service.buy(StoreFixture.animals, quantity: 1) }
        #expect(error?.kind == .purchaseInProgress)
        _ = try service.approve(waiting.id)
        #expect(try service.entitlements().count == 1)
        #expect(try service.transactions().count == 1)
    }

    @Test(arguments: Engine.allCases) func interruptedPurchaseDeliversWhenResolved(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        try service.setControls(StoreControls(interruptPurchases: true))
        guard case .interrupted(let waiting) = try service.buy(StoreFixture.fruit, quantity: 1) else {
            Issue.record("not interrupted")
            return
        }
        #expect(try service.entitlements().isEmpty)
        #expect(storeError { () throws(ServiceError) in try service.approve(waiting.id) }?.kind == .wrongState)
        let resolved = try service.resolve(waiting.id)
        #expect(resolved.state == .finished)
        #expect(try service.restore().map(\.productID) == [StoreFixture.fruit])
        #expect(storeError { () throws(ServiceError) in try service.resolve(waiting.id) }?.kind == .wrongState)
        #expect(try service.entitlements().count == 1)
    }

    @Test(arguments: Engine.allCases) func unknownTransactionIsRefused(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let id = TransactionID(rawValue: "00000000deadbeef")!
        #expect(storeError { () throws(ServiceError) in try service.approve(id) }?.kind == .unknownTransaction)
        #expect(storeError { () throws(ServiceError) in try service.decline(id) }?.kind == .unknownTransaction)
        #expect(storeError { () throws(ServiceError) in try service.resolve(id) }?.kind == .unknownTransaction)
    }

    @Test(arguments: Engine.allCases) func clearEmptiesTheHistory(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        _ = try service.buy(StoreFixture.hints10, quantity: 1)
        _ = try service.buy(StoreFixture.animals, quantity: 1)
        _ = try service.spendHint(idempotencyKey: "x")
        try service.setControls(StoreControls(askToBuy: true))
        try service.clear()
        #expect(try service.transactions().isEmpty)
        #expect(try service.entitlements().isEmpty)
        #expect(try service.restore().isEmpty)
        #expect(try service.hintBalance() == 0)
        #expect(try account.ledgerRows().isEmpty)
        // The switches are not history.
        #expect(try service.controls() == StoreControls(askToBuy: true))
        // The pack can be bought again.
        try service.reset()
        #expect(try service.buy(StoreFixture.animals, quantity: 1).purchasedTransaction != nil)
    }
}
