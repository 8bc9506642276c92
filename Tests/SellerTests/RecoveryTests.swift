import Foundation
import SQLite
import Seller
import Synchronization
import SystemCalls
import Testing
import WordPacks

/// A process that dies between two steps leaves the database as these tests leave it; the next
/// service to open the account must finish the purchase exactly once.
@Suite struct RecoveryTests {
    /// Writes a transaction row as a process killed right after that step would have left it.
    private func insertStuck(_ account: StoreAccount, id: String, product: ProductID, consumable: Bool, quantity: Int = 1, state: String) throws {
        // Open (and migrate) the account first, as the dead process had.
        _ = try account.service()
        if account.engine == .postgresql {
            try account.postgres().execute(
                "INSERT INTO transactions (account_id, id, product_id, consumable, quantity, state, purchase_date, updated_date) VALUES ($1, $2, $3, $4, $5, $6, 1700000000000, 1700000000000)",
                [account.accountID, id, product.rawValue, consumable ? "1" : "0", String(quantity), state])
            return
        }
        try account.database().execute(
            "INSERT INTO transactions (id, product_id, consumable, quantity, state, purchase_date, updated_date) VALUES (?, ?, ?, ?, ?, 1700000000000, 1700000000000)",
            .text(id), .text(product.rawValue), .integer(consumable ? 1 : 0), .integer(Int64(quantity)), .text(state))
    }

    @Test(arguments: Engine.allCases) func chargedHintsAreDeliveredOnce(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        try insertStuck(account, id: "00000000000000a1", product: StoreFixture.hints10, consumable: true, quantity: 2, state: "purchased")
        let service = try account.service()
        let recovered = try service.recoverUnfinished()
        #expect(recovered.map(\.id.rawValue) == ["00000000000000a1"])
        #expect(recovered.first?.state == .finished)
        #expect(recovered.first?.hintsCredited == 20)
        #expect(try service.hintBalance() == 20)
        // Again, from this process and from new ones: nothing more.
        #expect(try service.recoverUnfinished().isEmpty)
        for _ in 0..<3 {
            let next = try account.service()
            #expect(try next.recoverUnfinished().isEmpty)
            #expect(try next.hintBalance() == 20)
        }
        #expect(try account.ledgerRows().map(\.amount) == [20])
    }

    @Test(arguments: Engine.allCases) func chargedPackIsGrantedOnce(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        try insertStuck(account, id: "00000000000000b2", product: StoreFixture.fruit, consumable: false, state: "purchased")
        let service = try account.service()
        #expect(try service.recoverUnfinished().map(\.state) == [.finished])
        #expect(try service.restore().map(\.productID) == [StoreFixture.fruit])
        #expect(try service.restore().first?.transactionID.rawValue == "00000000000000b2")
        #expect(try account.service().recoverUnfinished().isEmpty)
        #expect(try service.entitlements().count == 1)
        #expect(try service.packArchive(StoreFixture.fruit).isEmpty == false)
        // Owned now: buying again charges nothing.
        guard case .alreadyOwned = try service.buy(StoreFixture.fruit, quantity: 1) else {
            Issue.record("a recovered pack could be bought again")
            return
        }
    }

    @Test(arguments: Engine.allCases) func neverChargedPurchaseFailsWithNothingDelivered(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        try insertStuck(account, id: "00000000000000c3", product: StoreFixture.hints10, consumable: true, state: "purchasing")
        try insertStuck(account, id: "00000000000000c4", product: StoreFixture.animals, consumable: false, state: "purchasing")
        let service = try account.service()
        let recovered = try service.recoverUnfinished()
        #expect(recovered.map(\.state) == [.failed, .failed])
        #expect(recovered.allSatisfy { $0.failureReason == "interrupted before payment" })
        #expect(try service.hintBalance() == 0)
        #expect(try service.entitlements().isEmpty)
        #expect(try account.ledgerRows().isEmpty)
        // The failed pack purchase does not block a new one.
        #expect(try service.buy(StoreFixture.animals, quantity: 1).purchasedTransaction?.state == .finished)
    }

    @Test func aYoungPurchasingRowIsLeftToItsProcess() throws {
        // Recorded moments ago, by a process that may still be about to charge it: not recovery's business.
        // Recorded long ago: its process died before payment.
        let account = try StoreAccount()
        let now = account.stepping.start
        _ = try account.service()
        let db = try account.database()
        for (id, date) in [("00000000000000f1", now - 1_000), ("00000000000000f2", now - AccountService.paymentWindow - 60_000)] {
            try db.execute(
                "INSERT INTO transactions (id, product_id, consumable, quantity, state, purchase_date, updated_date) VALUES (?, 'com.example.hints.10', 1, 1, 'purchasing', ?, ?)",
                .text(id), .integer(date), .integer(date))
        }
        let recovered = try account.service().recoverUnfinished()
        #expect(recovered.map(\.id.rawValue) == ["00000000000000f2"])
        #expect(recovered.map(\.state) == [.failed])
        #expect(try db.string("SELECT state FROM transactions WHERE id = '00000000000000f1'") == "purchasing")
        #expect(try account.service().hintBalance() == 0)
    }

    @Test func deliveredPurchaseIsFinishedWithoutDeliveringAgain() throws {
        let account = try StoreAccount()
        let service = try account.service()
        let hints = try #require(try service.buy(StoreFixture.hints10, quantity: 1).purchasedTransaction)
        let pack = try #require(try service.buy(StoreFixture.animals, quantity: 1).purchasedTransaction)
        // As if the process died after delivering and before finishing.
        try account.database().execute("UPDATE transactions SET state = 'delivered'")
        let recovered = try account.service().recoverUnfinished()
        #expect(Set(recovered.map(\.id)) == [hints.id, pack.id])
        #expect(recovered.allSatisfy { $0.state == .finished })
        #expect(try service.hintBalance() == 10)
        #expect(try service.entitlements().count == 1)
        #expect(try account.ledgerRows().count == 1)
    }

    @Test func redeliveringAFinishedPurchaseCreditsNothing() throws {
        // Delivery is keyed by transaction id: even a transaction put back to 'purchased' by hand
        // after its hints were credited does not credit them twice.
        let account = try StoreAccount()
        let service = try account.service()
        let hints = try #require(try service.buy(StoreFixture.hints10, quantity: 1).purchasedTransaction)
        try account.database().execute("UPDATE transactions SET state = 'purchased' WHERE id = ?", .text(hints.id.rawValue))
        #expect(try account.service().recoverUnfinished().map(\.state) == [.finished])
        #expect(try service.hintBalance() == 10)
        #expect(try account.ledgerRows().map(\.amount) == [10])
    }

    @Test func recoveryLeavesASoundDatabase() throws {
        let account = try StoreAccount()
        try insertStuck(account, id: "00000000000000d5", product: StoreFixture.hints100, consumable: true, state: "purchased")
        try insertStuck(account, id: "00000000000000d6", product: StoreFixture.hints10, consumable: true, state: "purchasing")
        _ = try account.service().recoverUnfinished()
        let db = try account.database()
        #expect(try db.integrityCheck().isEmpty)
        #expect(try db.query("PRAGMA foreign_key_check").isEmpty)
        #expect(try db.int64("SELECT count(*) FROM transactions WHERE state IN ('purchasing', 'purchased', 'delivered')") == 0)
    }

    @Test(arguments: Engine.allCases) func aCommandStartingDuringAPurchaseDoesNotFailIt(engine: Engine) throws {
        // Every command opens the service and recovers unfinished purchases. A second process that
        // starts while the first is between "recorded" and "charged" must not turn that live
        // purchase into a failed one behind its back, and `buy` must not report a failed
        // transaction as purchased.
        let account = try StoreAccount(engine: engine)
        _ = try account.service()
        let openOther = account.opener(clock: .system)
        let calls = Mutex(0)
        let otherRecovery = Mutex<Result<[StoreTransaction], any Error>?>(nil)
        // The clock is read once to record the purchase, then again to charge it: in between,
        // another process starts. Both read the real time, as two processes would.
        let clock = Clock {
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if call == 2 {
                let result = Result { () throws -> [StoreTransaction] in try openOther().recoverUnfinished() }
                otherRecovery.withLock { $0 = result }
            }
            return Clock.system.now()
        }
        let service = try account.opener(clock: clock)()
        let outcome = try service.buy(StoreFixture.hints10, quantity: 1)
        // The other process started, recovered without an error, and left the live purchase alone:
        // it is inside its payment window.
        let recovered = try #require(otherRecovery.withLock { $0 }, "the other process never started").get()
        #expect(recovered.isEmpty, "the other process completed or failed a live purchase: \(recovered.map(\.id))")
        // So the purchase went through: charged, delivered, finished.
        guard case .purchased(let transaction) = outcome else {
            Issue.record("the purchase did not go through: \(outcome)")
            return
        }
        #expect(transaction.state == .finished, "buy reported \(transaction.id) purchased, but it is \(transaction.state): \(transaction.failureReason ?? "")")
        #expect(try service.hintBalance() == 10)
    }

    @Test(arguments: Engine.allCases) func aChargedPurchaseOfARetiredProductDoesNotLockTheAccount(engine: Engine) throws {
        // A process died after charging hints; before the next start the catalog no longer sells
        // that bundle. Recovery runs at the start of every command: it must not fail forever.
        let account = try StoreAccount(engine: engine)
        try insertStuck(account, id: "00000000000000e7", product: ProductID(rawValue: "com.example.hints.retired")!, consumable: true, state: "purchased")
        let service = try account.service()
        let recovered = try service.recoverUnfinished()
        #expect(recovered.map(\.id.rawValue) == ["00000000000000e7"])
        #expect(recovered.first?.state == .finished)
        // The row records no hints and the catalog no longer says how many: none are made up.
        #expect(recovered.first?.hintsCredited == 0)
        #expect(try service.hintBalance() == 0)
        #expect(try service.recoverUnfinished().isEmpty, "finished once: the next start has nothing to do")
        // The account can still buy.
        #expect(try service.buy(StoreFixture.hints10, quantity: 1).purchasedTransaction != nil)
        #expect(try service.hintBalance() == 10)
    }
}
