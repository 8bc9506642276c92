import Seller
import Testing
import TestSupport

/// A promotional offer a pack server checked, on both engines: a free one starts its periods
/// free, marks the transaction, and its nonce serves one purchase request (its retries too).
@Suite struct PromotionalOfferTests {
    @Test(arguments: Engine.allCases) func aFreePromotionalMonthIsATrialOnceItsNonceIsUsed(engine: Engine) throws {
        let account = try StoreAccount(shipped: true, engine: engine)
        let service = try account.service()
        let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
        _ = try service.buy(monthly, quantity: 1)
        _ = try service.setAutoRenew(monthly, on: false)
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(10, .day)))
        let offer = PromotionalOfferDecision(identifier: "comeback-free-month", nonce: "5d0f3b8e-8f1e-4c1a-9d55-0a6b1c2d3e4f")
        let options = PurchaseOptions(promotionalOffer: "checked by the server")
        guard case .purchased(let free) = try service.buy(monthly, quantity: 1, requestKey: "promo-1", options: options, promotionalOffer: offer) else {
            Issue.record("not bought with the offer")
            return
        }
        #expect(free.isTrial && free.price?.minorUnits == 0 && free.promotionalOffer == "comeback-free-month")
        #expect(free.expiresDate.map { $0 - free.purchaseDate } ?? 0 >= 28 * 86_400_000, "a month free")
        // The same request again answers the same purchase; another request with the nonce is refused.
        if case .purchased(let again) = try service.buy(monthly, quantity: 1, requestKey: "promo-1", options: options, promotionalOffer: offer) {
            #expect(again.id == free.id)
        } else {
            Issue.record("the retry did not answer the purchase")
        }
        _ = try service.setAutoRenew(monthly, on: false)
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(40, .day)))
        #expect(throws: ServiceError.self) { try service.buy(monthly, quantity: 1, requestKey: "promo-2", options: options, promotionalOffer: offer) }
        // Without a server's check (the embedded store), a signature is refused.
        #expect(throws: ServiceError.self) { try service.buy(monthly, quantity: 1, requestKey: "promo-3", options: options) }
    }
}

/// A win-back offer, on both engines: shown to and taken by a customer whose subscription lapsed
/// long enough ago after lasting long enough; refused before, and to one who never had it.
@Suite struct WinBackOfferTests {
    @Test(arguments: Engine.allCases) func aLapsedSubscriberIsWonBackOnce(engine: Engine) throws {
        let account = try StoreAccount(shipped: true, engine: engine)
        let service = try account.service()
        let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
        let winBack = PurchaseOptions(winBackOffer: "welcome-back-free-month")
        // Never subscribed: not offered, and refused.
        #expect(try service.offers().offer(monthly)?.winBackOffer == nil)
        #expect(throws: ServiceError.self) { try service.buy(monthly, quantity: 1, options: winBack) }
        _ = try service.buy(monthly, quantity: 1)
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(10, .day)))
        _ = try service.setAutoRenew(monthly, on: false)
        // Lapsed a few days ago: too soon.
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(30, .day)))
        #expect(try service.subscriptions().first?.state == .expired)
        #expect(try service.offers().offer(monthly)?.winBackOffer == nil)
        let early = #expect(throws: ServiceError.self) { try service.buy(monthly, quantity: 1, options: winBack) }
        #expect(early?.message.contains("ineligibleForOffer") == true, "\(String(describing: early))")
        // A month after it lapsed, after a paid month: offered, and taken once.
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(30, .day)))
        #expect(try service.offers().offer(monthly)?.winBackOffer == "welcome-back-free-month")
        let unknown = #expect(throws: ServiceError.self) { try service.buy(monthly, quantity: 1, options: PurchaseOptions(winBackOffer: "comeback-3-months")) }
        #expect(unknown?.message.contains("invalidOfferIdentifier") == true, "a promotional offer is not a win-back offer: \(String(describing: unknown))")
        guard case .purchased(let back) = try service.buy(monthly, quantity: 1, options: winBack) else {
            Issue.record("not won back")
            return
        }
        #expect(back.promotionalOffer == "welcome-back-free-month" && back.isTrial && back.price?.minorUnits == 0, "\(back)")
        #expect(try service.offers().offer(monthly)?.winBackOffer == nil, "live again: no win-back offer")
    }
}
