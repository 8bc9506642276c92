import Foundation
import Seller
import Testing
import TestSupport

/// A price the seller raised for subscribers, on both engines: shown as a rise to consent to;
/// without consent the next renewal is at the old price and the one after ends the subscription
/// (`price-increase`); with consent the renewal charges the new price. A fall applies at once.
@Suite struct PriceIncreaseTests {
    let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!

    /// The copied catalog with the monthly plan's USA price set to `price`, read again.
    func setMonthlyPrice(_ price: String, _ account: StoreAccount) throws {
        let url = URL(fileURLWithPath: account.packs + "/Catalog.plist")
        var root = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any])
        var products = root["Products"] as? [[String: Any]] ?? []
        for index in products.indices where products[index]["ProductIdentifier"] as? String == monthly.rawValue {
            var prices = products[index]["Prices"] as? [String: Any] ?? [:]
            prices["USA"] = price
            products[index]["Prices"] = prices
        }
        root["Products"] = products
        try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0).write(to: url)
        try account.reloadCatalog()
    }

    /// The prices of the subscription's periods, oldest first.
    func charged(_ service: AccountService, _ original: TransactionID) throws -> [Int64?] {
        try service.transactions().filter { $0.originalTransactionID == original }.map { $0.price?.minorUnits }
    }

    @Test(arguments: Engine.allCases) func withoutConsentOneMoreRenewalAtTheOldPriceThenItEnds(engine: Engine) throws {
        let account = try StoreAccount(copied: true, engine: engine)
        guard case .purchased(let first) = try account.service().buy(monthly, quantity: 1) else {
            Issue.record("not bought")
            return
        }
        _ = try account.service().moveClock(by: StoreClockStep(StoreDuration(1, .month)))
        try setMonthlyPrice("3.49", account)
        let service = try account.service()
        let rise = try #require(try service.subscriptions().first?.priceIncrease)
        #expect(rise.price.minorUnits == 349 && !rise.consented)
        // Told at this renewal, charged the old price; ended at the next.
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(1, .month)))
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(1, .month)))
        let ended = try #require(try service.subscriptions().first)
        #expect(ended.state == .expired && ended.endReason == "price-increase", "\(ended)")
        let prices = try charged(service, first.id)
        #expect(prices.dropFirst() == [299, 299], "\(prices)")
        #expect(throws: ServiceError.self) { try service.consentToPriceIncrease(monthly) }
    }

    @Test(arguments: Engine.allCases) func consentRenewsAtTheNewPriceAndAFallAppliesAtOnce(engine: Engine) throws {
        let account = try StoreAccount(copied: true, engine: engine)
        guard case .purchased(let first) = try account.service().buy(monthly, quantity: 1) else {
            Issue.record("not bought")
            return
        }
        let opened = try account.service()
        let before = storeError { () throws(ServiceError) in try opened.consentToPriceIncrease(monthly) }
        #expect(before?.kind == .wrongState, "no rise yet: \(String(describing: before))")
        try setMonthlyPrice("3.49", account)
        let service = try account.service()
        let consented = try service.consentToPriceIncrease(monthly)
        #expect(consented.priceIncrease == PriceIncrease(price: Money(minorUnits: 349, currency: "USD"), consented: true, told: true), "\(consented)")
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(1, .month)))
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(1, .month)))
        try setMonthlyPrice("1.99", account)
        let later = try account.service()
        _ = try later.moveClock(by: StoreClockStep(StoreDuration(1, .month)))
        #expect(try later.subscriptions().first?.priceIncrease == nil)
        let prices = try charged(later, first.id)
        #expect(prices.suffix(3) == [349, 349, 199], "\(prices)")
        // Back up to 2.99 after the fall: a rise again, to consent to.
        try setMonthlyPrice("2.99", account)
        #expect(try account.service().subscriptions().first?.priceIncrease?.consented == false)
    }

    /// A subscriber from before agreements were kept agreed to what its period was charged; a
    /// price put back to the agreed one forgets what was told, so a later rise is told anew.
    @Test(arguments: Engine.allCases) func anOlderSubscriberAndAPricePutBackAreToldAnew(engine: Engine) throws {
        let account = try StoreAccount(copied: true, engine: engine)
        guard case .purchased(let first) = try account.service().buy(monthly, quantity: 1) else {
            Issue.record("not bought")
            return
        }
        _ = try account.service().moveClock(by: StoreClockStep(StoreDuration(1, .month)))
        // As a ledger from before migration 22 has it: no agreement.
        if engine == .postgresql {
            _ = try account.postgres().execute("DELETE FROM price_agreements WHERE account_id = $1", [account.accountID])
        } else {
            try account.database().execute("DELETE FROM price_agreements")
        }
        try setMonthlyPrice("3.49", account)
        _ = try account.service().moveClock(by: StoreClockStep(StoreDuration(1, .month)))
        let told = try account.service().subscriptions().first
        let soFar = try charged(account.service(), first.id)
        #expect(told?.priceIncrease == PriceIncrease(price: Money(minorUnits: 349, currency: "USD"), consented: false, told: true), "\(String(describing: told)) \(soFar)")
        // Put back, then raised again: told again, not ended.
        try setMonthlyPrice("2.99", account)
        _ = try account.service().moveClock(by: StoreClockStep(StoreDuration(1, .month)))
        try setMonthlyPrice("3.49", account)
        let service = try account.service()
        #expect(try service.subscriptions().first?.priceIncrease?.told == false)
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(1, .month)))
        let status = try #require(try service.subscriptions().first)
        #expect(status.endReason == nil && status.priceIncrease?.told == true, "\(status)")
        let prices = try charged(service, first.id)
        #expect(prices.dropFirst() == [299, 299, 299, 299], "never 3.49 without consent: \(prices)")
    }
}
