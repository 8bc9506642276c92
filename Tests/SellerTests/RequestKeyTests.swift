import Foundation
import Signing
import Seller
import SystemCalls
import Synchronization
import Testing
import TestSupport

/// What a server needs of the store: a purchase done once per request key, and receipts that
/// carry their environment.
@Suite struct RequestKeyTests {
    @Test(arguments: Engine.allCases) func aRetriedPurchaseWithTheSameKeyIsChargedOnce(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let first = try service.buy(StoreFixture.hints10, quantity: 2, requestKey: "request-1")
        let again = try account.service().buy(StoreFixture.hints10, quantity: 2, requestKey: "request-1")
        #expect(first.transaction?.id == again.transaction?.id)
        #expect(try service.transactions().count == 1)
        #expect(try service.hintBalance() == 20)
        let other = try service.buy(StoreFixture.hints10, quantity: 1, requestKey: "request-2")
        #expect(other.transaction?.id != first.transaction?.id)
        #expect(try service.hintBalance() == 30)
    }

    @Test(arguments: Engine.allCases) func aRetryThatFindsItsPurchaseNotYetPaidPaysItOnce(engine: Engine) throws {
        // The first request recorded the purchase and is between "recorded" and "paid" (or its
        // server died there) when its retry arrives at another server: the retry pays for it,
        // the first finds it paid, and both answer with the one purchase.
        let account = try StoreAccount(engine: engine)
        let openRetry = account.opener()
        let calls = Mutex(0)
        let retried = Mutex<PurchaseOutcome?>(nil)
        let clock = Clock {
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if call == 2, let other = try? openRetry() {
                retried.withLock { $0 = try? other.buy(StoreFixture.hints10, quantity: 1, requestKey: "request-1") }
            }
            return Clock.system.now()
        }
        let first = try account.opener(clock: clock)().buy(StoreFixture.hints10, quantity: 1, requestKey: "request-1")
        let retry = try #require(retried.withLock { $0 })
        #expect(first.purchasedTransaction != nil, "\(first)")
        #expect(retry.purchasedTransaction?.id == first.purchasedTransaction?.id, "\(retry)")
        let service = try account.service()
        #expect(try service.transactions().count == 1)
        #expect(try service.hintBalance() == 10)
        #expect(try account.ledgerRows().map(\.amount) == [10])
    }

    @Test(arguments: Engine.allCases) func aKeyUsedForAnotherProductIsRefused(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        _ = try service.buy(StoreFixture.hints10, quantity: 1, requestKey: "k")
        let error = storeError { () throws(ServiceError) in try service.buy(StoreFixture.animals, quantity: 1, requestKey: "k") }
        #expect(error?.kind == .invalidRequest)
        #expect(try service.transactions().count == 1)
    }

    /// The same key with another quantity is another request: refused, never answered with the
    /// first one's outcome (one bundle charged, five believed bought).
    @Test(arguments: Engine.allCases) func aKeyUsedForAnotherQuantityIsRefused(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        _ = try service.buy(StoreFixture.hints10, quantity: 1, requestKey: "k")
        let error = storeError { () throws(ServiceError) in try service.buy(StoreFixture.hints10, quantity: 5, requestKey: "k") }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("a new purchase needs a new key") == true, "\(error?.message ?? "")")
        #expect(try service.hintBalance() == 10)
        // Control: the same request again is the first purchase.
        #expect(try service.buy(StoreFixture.hints10, quantity: 1, requestKey: "k").purchasedTransaction != nil)
    }

    @Test(arguments: Engine.allCases) func aKeyForAPurchaseWaitingForApprovalAnswersDeferredUntilApproved(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        try service.setControls(StoreControls(askToBuy: true))
        guard case .deferred(let waiting) = try service.buy(StoreFixture.animals, quantity: 1, requestKey: "ask") else {
            Issue.record("not deferred")
            return
        }
        guard case .deferred = try service.buy(StoreFixture.animals, quantity: 1, requestKey: "ask") else {
            Issue.record("the retry did not answer deferred")
            return
        }
        _ = try service.approve(waiting.id)
        let answered = try service.buy(StoreFixture.animals, quantity: 1, requestKey: "ask")
        #expect(answered.purchasedTransaction?.id == waiting.id)
        #expect(try service.transactions().count == 1)
    }

    @Test(arguments: Engine.allCases) func receiptsCarryTheirEnvironmentReadBeforeTheSignature(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let key = SigningKey.generate()
        let production = try AccountService(
            catalog: account.catalog, packsFolder: account.packs, accountFolder: account.accountFolder, signingKey: key, environment: .production)
        let sandbox = try AccountService(catalog: account.catalog, packsFolder: account.packs, accountFolder: account.accountFolder)
        _ = try production.buy(StoreFixture.hints10, quantity: 1)
        let productionReceipt = try production.receipt()
        #expect(productionReceipt.payload.environment == .production)
        #expect(production.verifyReceipt(productionReceipt.bytes, password: nil).status == .valid)
        let sandboxReceipt = try sandbox.receipt()
        #expect(sandboxReceipt.payload.environment == .sandbox)
        // Signed by another key, and still told where to go: the environment comes first.
        #expect(production.verifyReceipt(sandboxReceipt.bytes, password: nil).status == .sandboxReceiptSentToProduction)
        #expect(production.verifyReceipt(sandboxReceipt.bytes, password: nil).status.rawValue == 21007)
        #expect(sandbox.verifyReceipt(productionReceipt.bytes, password: nil).status.rawValue == 21008)
    }
}
