import Foundation
import Seller
import Testing
import WordPacks

@Suite struct RestoreTests {
    @Test(arguments: Engine.allCases) func restoreListsOwnedPacksOnlyAndIsRepeatable(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        _ = try service.buy(StoreFixture.hints10, quantity: 2)
        let fruit = try #require(try service.buy(StoreFixture.fruit, quantity: 1).purchasedTransaction)
        let animals = try #require(try service.buy(StoreFixture.animals, quantity: 1).purchasedTransaction)
        let first = try service.restore()
        #expect(first.map(\.productID) == [StoreFixture.animals, StoreFixture.fruit])
        #expect(Set(first.map(\.transactionID)) == [fruit.id, animals.id])
        let second = try service.restore()
        #expect(second == first)
        #expect(try account.service().restore() == first)
        // Restoring changes nothing: no new transactions, no hints.
        #expect(try service.transactions().count == 3)
        #expect(try service.hintBalance() == 20)
    }

    @Test(arguments: Engine.allCases) func restoreWithNothingOwned(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        _ = try service.buy(StoreFixture.hints100, quantity: 1)
        #expect(try service.restore().isEmpty)
    }

    @Test(arguments: Engine.allCases) func restoreOmitsARefundedPack(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let fruit = try #require(try service.buy(StoreFixture.fruit, quantity: 1).purchasedTransaction)
        _ = try service.buy(StoreFixture.animals, quantity: 1)
        _ = try service.refund(fruit.id)
        #expect(try service.restore().map(\.productID) == [StoreFixture.animals])
        #expect(try service.restore().map(\.productID) == [StoreFixture.animals])
    }

    @Test(arguments: Engine.allCases) func deletingTheDeviceKeepsTheAccount(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let home = account.directory.path + "/home"
        let service = try account.service()
        _ = try service.buy(StoreFixture.animals, quantity: 1)
        _ = try service.buy(StoreFixture.hints10, quantity: 1)
        _ = try service.spendHint(idempotencyKey: "one")
        // The device's state beside the account; deleted as "deleting the app" will.
        try account.directory.write("home/device.sqlite", Array("device".utf8))
        try account.directory.write("home/packs/com.example.words.animals/words.plist", Array("x".utf8))
        for name in try FileManager.default.contentsOfDirectory(atPath: home) where name != "account" {
            try FileManager.default.removeItem(atPath: home + "/" + name)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home) == ["account"])
        let reopened = try account.service()
        #expect(try reopened.restore().map(\.productID) == [StoreFixture.animals])
        #expect(try reopened.hintBalance() == 9)
    }
}

@Suite struct RefundTests {
    @Test(arguments: Engine.allCases) func refundingAPackRevokesIt(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let bought = try #require(try service.buy(StoreFixture.animals, quantity: 1).purchasedTransaction)
        #expect(try service.packArchive(StoreFixture.animals).isEmpty == false)
        let mark = account.stepping.readings.count
        let refund = try service.refund(bought.id)
        #expect(refund.hintsTakenBack == 0)
        #expect(refund.transaction.revocationDate == account.stepping.readings[mark])
        #expect(refund.transaction.isPaid == false)
        let error = storeError { () throws(ServiceError) in try service.packArchive(StoreFixture.animals) }
        #expect(error?.kind == .notEntitled)
        #expect(try service.restore().isEmpty)
        #expect(try service.entitlements().first?.revokedDate == refund.transaction.revocationDate)
        #expect(try account.service().restore().isEmpty)
    }

    @Test(arguments: Engine.allCases) func aRefundedPackCanBeBoughtAgainAndIsCharged(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let first = try #require(try service.buy(StoreFixture.animals, quantity: 1).purchasedTransaction)
        _ = try service.refund(first.id)
        let second = try #require(try service.buy(StoreFixture.animals, quantity: 1).purchasedTransaction)
        #expect(second.id != first.id)
        #expect(try service.transactions().map(\.id) == [first.id, second.id])
        #expect(try service.transactions().map(\.isPaid) == [false, true])
        #expect(try service.restore().map(\.transactionID) == [second.id])
        #expect(try service.packArchive(StoreFixture.animals).isEmpty == false)
        // Refunding the old purchase again does not touch the new one.
        #expect(storeError { () throws(ServiceError) in try service.refund(first.id) }?.kind == .wrongState)
        #expect(try service.restore().map(\.transactionID) == [second.id])
    }

    @Test(arguments: Engine.allCases) func refundingHintsTakesBackWhatIsLeft(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let bought = try #require(try service.buy(StoreFixture.hints10, quantity: 1).purchasedTransaction)
        for index in 0..<7 { _ = try service.spendHint(idempotencyKey: "s\(index)") }
        let refund = try service.refund(bought.id)
        #expect(refund.hintsTakenBack == 3)
        #expect(try service.hintBalance() == 0)
        #expect(try account.ledgerRows().map(\.amount) == [10, -1, -1, -1, -1, -1, -1, -1, -3])
        #expect(storeError { () throws(ServiceError) in try service.spendHint(idempotencyKey: "s7") }?.kind == .notEnoughHints)
    }

    @Test(arguments: Engine.allCases) func refundingHintsTakesBackNoMoreThanCredited(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let small = try #require(try service.buy(StoreFixture.hints10, quantity: 1).purchasedTransaction)
        _ = try service.buy(StoreFixture.hints100, quantity: 1)
        #expect(try service.refund(small.id).hintsTakenBack == 10)
        #expect(try service.hintBalance() == 100)
    }

    @Test(arguments: Engine.allCases) func refundingSpentHintsTakesNothingAndNeverGoesNegative(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let bought = try #require(try service.buy(StoreFixture.hints10, quantity: 1).purchasedTransaction)
        for index in 0..<10 { _ = try service.spendHint(idempotencyKey: "s\(index)") }
        #expect(try service.refund(bought.id).hintsTakenBack == 0)
        #expect(try service.hintBalance() == 0)
        #expect(try account.ledgerRows().allSatisfy { $0.balanceAfter >= 0 })
    }

    @Test(arguments: Engine.allCases) func refundingTwiceIsRefused(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let bought = try #require(try service.buy(StoreFixture.hints10, quantity: 1).purchasedTransaction)
        _ = try service.refund(bought.id)
        let error = storeError { () throws(ServiceError) in try service.refund(bought.id) }
        #expect(error?.kind == .wrongState)
        #expect(error?.message == "transaction \(bought.id.number) is already refunded")
        #expect(try service.hintBalance() == 0)
    }

    @Test(arguments: Engine.allCases) func refundingAFailedPurchaseIsRefused(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        try service.setControls(StoreControls(failPurchases: true))
        let failed = try #require(try service.buy(StoreFixture.hints10, quantity: 1).transaction)
        #expect(failed.state == .failed)
        let error = storeError { () throws(ServiceError) in try service.refund(failed.id) }
        #expect(error?.kind == .wrongState)
        #expect(error?.message.contains("only a delivered purchase can be refunded") == true)
    }

    @Test(arguments: Engine.allCases) func refundingADeferredPurchaseIsRefused(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        try service.setControls(StoreControls(askToBuy: true))
        let deferred = try #require(try service.buy(StoreFixture.animals, quantity: 1).transaction)
        #expect(deferred.state == .deferred)
        #expect(storeError { () throws(ServiceError) in try service.refund(deferred.id) }?.kind == .wrongState)
        // Still approvable afterwards.
        #expect(try service.approve(deferred.id).state == .finished)
    }

    @Test(arguments: Engine.allCases) func refundingAnUnknownTransaction(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let error = storeError { () throws(ServiceError) in try service.refund(TransactionID(rawValue: "0123456789abcdef")!) }
        #expect(error?.kind == .unknownTransaction)
    }
}
