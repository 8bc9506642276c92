import Foundation
import SQLite
import Seller
import Synchronization
import Testing
import WordPacks

@Suite struct PurchaseTests {
    @Test(arguments: Engine.allCases) func consumableCreditsHintCountTimesQuantity(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let outcome = try service.buy(StoreFixture.hints10, quantity: 3)
        let transaction = try #require(outcome.purchasedTransaction)
        #expect(transaction.hintsCredited == 30)
        #expect(transaction.quantity == 3)
        #expect(transaction.isConsumable)
        #expect(try service.hintBalance() == 30)
        _ = try service.buy(StoreFixture.hints100, quantity: 2)
        #expect(try service.hintBalance() == 230)
        // The ledger holds one credit per purchase, keyed by transaction.
        #expect(try account.ledgerRows().map(\.amount) == [30, 200])
    }

    @Test(arguments: [0, 11, -1, 1000])
    func quantityOutOfRangeIsRefused(_ quantity: Int) throws {
        let account = try StoreAccount()
        let service = try account.service()
        let error = storeError { () throws(ServiceError) in try service.buy(StoreFixture.hints10, quantity: quantity) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message == "quantity must be 1 to 10, not \(quantity)")
        #expect(try service.transactions().isEmpty)
        #expect(try service.hintBalance() == 0)
    }

    @Test(arguments: Engine.allCases) func quantityTenIsAccepted(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        _ = try service.buy(StoreFixture.hints100, quantity: 10)
        #expect(try service.hintBalance() == 1000)
    }

    @Test(arguments: Engine.allCases) func packWithQuantityIsRefused(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let error = storeError { () throws(ServiceError) in try service.buy(StoreFixture.animals, quantity: 2) }
        #expect(error?.kind == .invalidRequest)
        #expect(try service.entitlements().isEmpty)
    }

    @Test(arguments: Engine.allCases) func nonConsumableGrantsItsEntitlementOnce(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let first = try #require(try service.buy(StoreFixture.animals, quantity: 1).purchasedTransaction)
        #expect(!first.isConsumable)
        #expect(first.hintsCredited == 0)
        #expect(try service.hintBalance() == 0)
        let entitlements = try service.entitlements()
        #expect(entitlements.map(\.productID) == [StoreFixture.animals])
        #expect(entitlements.first?.transactionID == first.id)
        #expect(entitlements.first?.isActive == true)

        let second = try service.buy(StoreFixture.animals, quantity: 1)
        guard case .alreadyOwned(let owned) = second else {
            Issue.record("a second buy of a pack gave \(second)")
            return
        }
        #expect(owned.transactionID == first.id)
        #expect(try service.transactions().count == 1)
        // A new process agrees.
        #expect(try account.service().buy(StoreFixture.animals, quantity: 1) == .alreadyOwned(owned))
        #expect(try account.service().transactions().count == 1)
    }

    @Test(arguments: Engine.allCases) func ownedPackArchiveIsHandedOut(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        _ = try service.buy(StoreFixture.fruit, quantity: 1)
        let bytes = try service.packArchive(StoreFixture.fruit)
        #expect(bytes == [UInt8](try Data(contentsOf: URL(fileURLWithPath: account.packs + "/fruit.wordpack"))))
        let pack = try #require(PackVerifier().verify(bytes).pack)
        #expect(pack.manifest.productIdentifier == StoreFixture.fruit)
        let error = storeError { () throws(ServiceError) in try service.packArchive(StoreFixture.animals) }
        #expect(error?.kind == .notEntitled)
        #expect(error?.message == "com.example.words.animals is not purchased: run 'hangman buy com.example.words.animals'")
    }

    @Test(arguments: Engine.allCases) func unknownProductIsRefused(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let error = storeError { () throws(ServiceError) in try service.buy(ProductID(rawValue: "com.example.nothing")!, quantity: 1) }
        #expect(error?.kind == .unknownProduct)
        #expect(error?.message == "no product 'com.example.nothing' in the catalog: see 'hangman products'")
        #expect(try service.transactions().isEmpty)
    }

    @Test(arguments: Engine.allCases) func everyTransactionHasAUniqueID(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        var ids: [TransactionID] = []
        for _ in 0..<40 {
            ids += [try #require(try service.buy(StoreFixture.hints10, quantity: 1).purchasedTransaction).id]
        }
        #expect(Set(ids).count == 40)
        #expect(try service.transactions().map(\.id) == ids)
        #expect(ids.allSatisfy { $0.rawValue.count == 16 && $0.rawValue.allSatisfy(\.isHexDigit) && $0.rawValue.lowercased() == $0.rawValue })
        #expect(try service.hintBalance() == 400)
    }

    @Test(arguments: Engine.allCases) func datesComeFromTheClock(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let before = account.stepping.readings.count
        let hints = try #require(try service.buy(StoreFixture.hints10, quantity: 1).purchasedTransaction)
        let during = Array(account.stepping.readings[before...])
        // Recorded when the purchase started; last updated when it finished.
        #expect(hints.purchaseDate == during.first)
        #expect(hints.updatedDate == during.last)
        #expect(hints.updatedDate > hints.purchaseDate)
        #expect(hints.revocationDate == nil)

        let mark = account.stepping.readings.count
        let pack = try #require(try service.buy(StoreFixture.animals, quantity: 1).purchasedTransaction)
        let packReadings = Array(account.stepping.readings[mark...])
        #expect(pack.purchaseDate == packReadings.first)
        #expect(pack.updatedDate == packReadings.last)
        let granted = try #require(try service.entitlements().first?.grantedDate)
        #expect(packReadings.contains(granted) && granted > pack.purchaseDate && granted < pack.updatedDate)

        // Stored and read back as such by another process.
        #expect(try account.service().transactions() == [hints, pack])
    }

    @Test func statesProgressToFinished() throws {
        let account = try StoreAccount()
        let path = account.databasePath
        let seen = Mutex<[String]>([])
        // At each crash point, look at the database as another process would: what is recorded by then.
        let service = try account.service { point in
            guard let db = try? Database(path: path),
                let state = try? db.string("SELECT state FROM transactions"),
                let balance = try? db.int64("SELECT coalesce(sum(amount), 0) FROM hint_ledger")
            else {
                seen.withLock { $0.append("\(point.rawValue): unreadable") }
                return
            }
            seen.withLock { $0.append("\(point.rawValue): \(state), \(balance) hints") }
        }
        let transaction = try #require(try service.buy(StoreFixture.hints10, quantity: 2).purchasedTransaction)
        #expect(seen.withLock { $0 } == ["after-charge: purchased, 0 hints", "after-deliver: delivered, 20 hints"])
        #expect(transaction.state == .finished)
        #expect(try service.transactions().map(\.state) == [.finished])
    }

    @Test func packStatesProgressToFinished() throws {
        let account = try StoreAccount()
        let path = account.databasePath
        let seen = Mutex<[String]>([])
        let service = try account.service { point in
            let db = try? Database(path: path)
            let state = (try? db?.string("SELECT state FROM transactions")) ?? "none"
            let granted = (try? db?.int64("SELECT count(*) FROM entitlements WHERE revoked_date IS NULL")) ?? -1
            seen.withLock { $0.append("\(point.rawValue): \(state), \(granted) packs") }
        }
        _ = try service.buy(StoreFixture.animals, quantity: 1)
        #expect(seen.withLock { $0 } == ["after-charge: purchased, 0 packs", "after-deliver: delivered, 1 packs"])
        #expect(try service.transactions().map(\.state) == [.finished])
    }

    @Test func theAccountLivesInItsOwnWALDatabase() throws {
        let account = try StoreAccount()
        _ = try account.service().buy(StoreFixture.hints10, quantity: 1)
        let db = try account.database()
        #expect(try db.string("PRAGMA journal_mode") == "wal")
        #expect(try db.integrityCheck().isEmpty)
        #expect(FileManager.default.fileExists(atPath: account.accountFolder + "/account.sqlite"))
    }
}
