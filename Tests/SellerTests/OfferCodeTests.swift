import Foundation
import PostgreSQL
import AppStore
import Seller
import Testing
import TestSupport

/// Offer codes on both engines: a batch recorded by its digests, each code redeemed once (its
/// retries answer the purchase it made), a pack free, a subscription under the code's offer with
/// Apple's offerType 3, and every refusal before the claim leaving the code good.
@Suite struct OfferCodeTests {
    let hard = ProductID(rawValue: "com.hangmanpacks.words.hard")!
    let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!

    @Test(arguments: Engine.allCases) func aCodeGivesItsPackOnceAndItsRetryTheSamePurchase(engine: Engine) throws {
        let account = try StoreAccount(copied: true, engine: engine)
        let made = try OfferCodes.make(count: 3, product: hard, offer: nil, days: 30, name: nil, catalog: account.catalog, folder: account.packs, now: account.stepping.clock.now())
        #expect(made.codes.count == 3 && Set(made.codes).count == 3 && made.codes.allSatisfy { $0.count == OfferCodes.length })
        let file = try String(contentsOfFile: account.packs + "/" + OfferCodes.fileName, encoding: .utf8)
        #expect(made.codes.allSatisfy { !file.contains($0) } && file.contains(OfferCodes.digest(made.codes[0])), "the file keeps digests, never a code")
        let service = try account.service()
        // Typed in lower case with dashes, it is the same code.
        let typed = made.codes[0].lowercased().enumerated().map { $0.offset == 4 ? "-\($0.element)" : "\($0.element)" }.joined()
        guard case .purchased(let free) = try service.redeem(offerCode: typed) else {
            Issue.record("not redeemed")
            return
        }
        #expect(free.productID == hard && free.price?.minorUnits == 0 && free.offerCode == made.batch.name, "\(free)")
        #expect(try service.restore().contains { $0.productID == hard })
        // A retry (a lost answer) is the same purchase; another code for an owned pack is refused and stays good.
        if case .purchased(let again) = try service.redeem(offerCode: made.codes[0]) { #expect(again.id == free.id) } else { Issue.record("the retry was not answered") }
        let owned = storeError { () throws(ServiceError) in try service.redeem(offerCode: made.codes[1]) }
        #expect(owned?.kind == .wrongState && owned?.message.contains("stays unused") == true, "\(String(describing: owned))")
        #expect(storeError { () throws(ServiceError) in try service.redeem(offerCode: "ABCD") }?.kind == .invalidRequest)
        #expect(storeError { () throws(ServiceError) in try service.redeem(offerCode: "ABCDEFGHJKLMNPQR") }?.kind == .notFound)
        #expect(try service.transactions().count == 1, "one purchase for every attempt")
        // A batch made while the service runs is read at the next redemption.
        let hints = ProductID(rawValue: "com.hangmanpacks.hints.10")!
        let later = try OfferCodes.make(count: 1, product: hints, offer: nil, days: 1, name: nil, catalog: account.catalog, folder: account.packs, now: account.stepping.clock.now())
        #expect(try service.redeem(offerCode: later.codes[0]).purchasedTransaction?.hintsCredited == 10)
        // Apple's shape: offerType 3, the batch as offerIdentifier.
        let shaped = AppStoreTransaction(free, appTransactionID: nil, catalog: account.catalog, environment: .sandbox, signedDate: 0)
        #expect(shaped.offerType == 3 && shaped.offerIdentifier == made.batch.name && shaped.offerDiscountType == "ONE_TIME", "\(shaped)")
    }

    @Test(arguments: Engine.allCases) func aSubscriptionCodeStartsItsOfferAndExpires(engine: Engine) throws {
        let account = try StoreAccount(copied: true, engine: engine)
        let now = account.stepping.clock.now()
        #expect(throws: ServiceError.self) { try OfferCodes.make(count: 1, product: monthly, offer: nil, days: 30, name: nil, catalog: account.catalog, folder: account.packs, now: now) }
        #expect(throws: ServiceError.self) {
            try OfferCodes.make(count: 1, product: monthly, offer: "welcome-back-free-month", days: 30, name: nil, catalog: account.catalog, folder: account.packs, now: now)
        }
        let made = try OfferCodes.make(
            count: 2, product: monthly, offer: "comeback-free-month", days: 30, name: "spring", catalog: account.catalog, folder: account.packs, now: now)
        #expect(throws: ServiceError.self) { try OfferCodes.make(count: 1, product: hard, offer: nil, days: 30, name: "spring", catalog: account.catalog, folder: account.packs, now: now) }
        let service = try account.service()
        guard case .purchased(let started) = try service.redeem(offerCode: made.codes[0]) else {
            Issue.record("not redeemed")
            return
        }
        #expect(started.isTrial && started.price?.minorUnits == 0 && started.promotionalOffer == "comeback-free-month" && started.offerCode == "comeback-free-month")
        let shaped = AppStoreTransaction(started, appTransactionID: nil, catalog: account.catalog, environment: .sandbox, signedDate: 0)
        #expect(shaped.offerType == 3 && shaped.offerDiscountType == "FREE_TRIAL", "\(shaped)")
        // Live: the second code is refused and stays good; after the batch expires it is refused as expired.
        #expect(storeError { () throws(ServiceError) in try service.redeem(offerCode: made.codes[1]) }?.message.contains("ineligibleForOffer") == true)
        _ = try service.setAutoRenew(monthly, on: false)
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(40, .day)))
        let expired = storeError { () throws(ServiceError) in try service.redeem(offerCode: made.codes[1]) }
        #expect(expired?.kind == .wrongState && expired?.message.contains("expired") == true, "\(String(describing: expired))")
    }

    /// A code's purchase that failed before any charge leaves the code to the next try.
    @Test(arguments: Engine.allCases) func aFailedPaymentLeavesTheCodeGood(engine: Engine) throws {
        let account = try StoreAccount(copied: true, engine: engine)
        let made = try OfferCodes.make(count: 1, product: hard, offer: nil, days: 30, name: nil, catalog: account.catalog, folder: account.packs, now: account.stepping.clock.now())
        let service = try account.service()
        try service.setControls(StoreControls(failPurchases: true))
        guard case .failed = try service.redeem(offerCode: made.codes[0]) else {
            Issue.record("not refused")
            return
        }
        try service.setControls(StoreControls())
        guard case .purchased(let bought) = try service.redeem(offerCode: made.codes[0]) else {
            Issue.record("not redeemed after the failure")
            return
        }
        #expect(bought.productID == hard && bought.offerCode == made.batch.name)
        if case .purchased(let again) = try service.redeem(offerCode: made.codes[0]) { #expect(again.id == bought.id) } else { Issue.record("no retry") }
    }

    /// A file edited by hand into something else is refused with a sentence, never a trap.
    @Test(arguments: [
        "not a plist", "<plist><array/></plist>", "<plist><dict><key>Batches</key><array><string>x</string></array></dict></plist>",
        "<plist><dict><key>Batches</key><array><dict><key>Name</key><string>x</string><key>ProductID</key><string>com.x.y</string><key>Created</key><date>9000-01-01T00:00:00Z</date><key>Expires</key><date>9000-01-02T00:00:00Z</date><key>Codes</key><array/></dict></array></dict></plist>",
        "<plist><dict><key>Batches</key><array><dict><key>Name</key><string>x</string><key>ProductID</key><string>com.x.y</string><key>Created</key><date>2026-01-01T00:00:00Z</date><key>Expires</key><date>2027-01-01T00:00:00Z</date><key>Codes</key><array><integer>1</integer></array></dict></array></dict></plist>",
    ])
    func aDamagedCodesFileIsRefused(_ text: String) throws {
        let account = try StoreAccount(copied: true)
        try text.write(toFile: account.packs + "/" + OfferCodes.fileName, atomically: true, encoding: .utf8)
        let service = try account.service()
        let refused = storeError { () throws(ServiceError) in try service.redeem(offerCode: "ABCDEFGHJKLMNPQR") }
        #expect(refused?.kind == .storage && refused?.message.contains(OfferCodes.fileName) == true, "\(String(describing: refused))")
    }

    /// Across the service: the directory lets one account claim a code, and that account again.
    @Test(arguments: Engine.allCases) func theDirectoryLetsOneAccountHaveACode(engine: Engine) throws {
        let directory = try TemporaryDirectory()
        let accounts: any AccountDirectory =
            engine == .postgresql
            ? try PostgreSQLAccountDirectory(pool: ConnectionPool(connectionString: try TestPostgreSQL.shared(), capacity: 1))
            : try SQLiteAccountDirectory(path: directory.path + "/accounts.sqlite")
        let digest = OfferCodes.digest(OfferCodes.normalized(String(repeating: "A", count: 16))! + String(UInt64.random(in: 0...UInt64.max)))
        #expect(try accounts.claim(offerCode: digest, account: "00000000000000a1", now: 1))
        #expect(try accounts.claim(offerCode: digest, account: "00000000000000a1", now: 2), "a retry")
        #expect(try !accounts.claim(offerCode: digest, account: "00000000000000b2", now: 3))
    }
}
