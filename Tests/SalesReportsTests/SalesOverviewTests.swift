import CivilCalendar
import Foundation
import PackServiceAPI
import SalesReports
import Seller
import Synchronization
import Testing
import TestSupport

/// The seller's overview from transactions made by hand: every rule of ``SalesOverview`` once.
@Suite struct SalesOverviewTests {
    static let catalog: Catalog = {
        let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path
        return try! Catalog.load(folder: packs)
    }()
    static let day: Int64 = 20_000
    static func at(_ day: Int64, hour: Int64 = 12) -> Int64 { (Self.day + day) * UTCDateTime.millisecondsPerDay + hour * 3_600_000 }
    static let serial = Atomic(0)

    static func sale(
        _ account: String, _ product: String, day: Int64, price: Int64, currency: String = "USD", storefront: String = "USA", quantity: Int = 1,
        state: TransactionState = .finished, revoked: Int64? = nil, refund: String? = nil, trial: Bool = false, original: String? = nil, expires: Int64? = nil,
        id: String? = nil
    ) -> AccountTransaction {
        let number = serial.add(1, ordering: .relaxed).newValue
        let transactionID = TransactionID(rawValue: id ?? String(format: "%016x", number))!
        return AccountTransaction(account: account, transaction: StoreTransaction(
            id: transactionID, productID: ProductID(rawValue: product)!, isConsumable: product.contains(".hints."), quantity: quantity, state: state,
            failureReason: nil, purchaseDate: at(day), updatedDate: at(day), revocationDate: revoked.map { at($0) }, hintsCredited: 0,
            originalTransactionID: original.flatMap(TransactionID.init(rawValue:)), expiresDate: expires.map { at($0) }, isTrial: trial,
            refundAmount: refund, price: Money(minorUnits: price, currency: currency), storefront: storefront))
    }

    @Test func revenueAndRefundsArePerDayPerCurrencyNeverConverted() {
        let hints = "com.hangmanpacks.hints.10", ios = "com.hangmanpacks.words.ios", monthly = "com.hangmanpacks.pass.monthly"
        let sales = [
            Self.sale("a", hints, day: 0, price: 198, quantity: 2),
            Self.sale("a", ios, day: 1, price: 99, revoked: 3),  // refunded two days later: the whole
            Self.sale("b", ios, day: 1, price: 109, currency: "EUR", storefront: "DEU"),
            Self.sale("b", hints, day: 2, price: 99, state: .failed),  // charged nothing
            Self.sale("c", hints, day: 9, price: 99),  // outside the range
            // A monthly pass: a free trial, then a charged period, then upgraded (the unused part back).
            Self.sale("d", monthly, day: 0, price: 0, trial: true, original: "00000000000000d1", expires: 7, id: "00000000000000d1"),
            Self.sale("d", monthly, day: 7, price: 299, revoked: 8, refund: "1.50", original: "00000000000000d1", expires: 37, id: "00000000000000d2"),
        ]
        let overview = SalesOverview(sales, catalog: Self.catalog, firstDay: Self.day, lastDay: Self.day + 8, storefront: nil, now: Self.at(8))
        #expect(overview.firstDay == UTCDateTime(millisecondsSince1970: Self.at(0)).dateText)
        #expect(overview.currencies.map(\.currency) == ["EUR", "USD"])
        let usd = overview.currencies[1], eur = overview.currencies[0]
        #expect(usd.revenue == 198 + 99 + 299 && usd.refunds == 99 + 150 && usd.net == 596 - 249)
        #expect(usd.dailyRevenue == [198, 99, 0, 0, 0, 0, 0, 299, 0])
        #expect(usd.dailyRefunds == [0, 0, 0, 99, 0, 0, 0, 0, 150])
        #expect(eur.revenue == 109 && eur.refunds == 0 && eur.dailyRevenue[1] == 109)
        let units = Dictionary(uniqueKeysWithValues: overview.products.map { ($0.productID.rawValue, ($0.units, $0.refunded, $0.revenue)) })
        #expect(units[hints]?.0 == 2 && units[hints]?.2 == ["USD": 198])
        #expect(units[ios]?.0 == 2 && units[ios]?.1 == 1 && units[ios]?.2 == ["USD": 99, "EUR": 109])
        #expect(overview.subscriptions.trialsStarted == 1 && overview.subscriptions.trialsConverted == 1 && overview.subscriptions.paidPeriods == 1)
        #expect(overview.subscriptions.active.isEmpty, "the upgraded period was revoked")
        #expect(overview.subscriptions.activeByDay[monthly] == [1, 1, 1, 1, 1, 1, 1, 1, 0], "the trial's week, the paid day, then revoked")
        #expect(overview.subscriptions.ended == 1)
        // One storefront alone.
        let german = SalesOverview(sales, catalog: Self.catalog, firstDay: Self.day, lastDay: Self.day + 8, storefront: "DEU", now: Self.at(8))
        #expect(german.currencies.map(\.currency) == ["EUR"] && german.products.map(\.productID.rawValue) == [ios])
    }

    @Test func aLiveSubscriptionCountsByPlanAtItsLatestPeriod() {
        let monthly = "com.hangmanpacks.pass.monthly", yearly = "com.hangmanpacks.pass.yearly"
        let sales = [
            Self.sale("a", monthly, day: 0, price: 299, original: "00000000000000a1", expires: 30, id: "00000000000000a1"),
            Self.sale("a", monthly, day: 30, price: 299, original: "00000000000000a1", expires: 60, id: "00000000000000a2"),
            Self.sale("b", yearly, day: 0, price: 2499, original: "00000000000000b1", expires: 365, id: "00000000000000b1"),
            Self.sale("c", monthly, day: 0, price: 299, original: "00000000000000c1", expires: 30, id: "00000000000000c1"),  // lapsed
        ]
        let overview = SalesOverview(sales, catalog: Self.catalog, firstDay: Self.day, lastDay: Self.day + 40, storefront: nil, now: Self.at(40))
        #expect(overview.subscriptions.active == [monthly: 1, yearly: 1])
        #expect(overview.subscriptions.paidPeriods == 4)
        // Live at the end of each day: the lapsed monthly for its 30 days, the renewed one throughout.
        #expect(overview.subscriptions.activeByDay[monthly] == Array(repeating: 2, count: 30) + Array(repeating: 1, count: 11))
        #expect(overview.subscriptions.activeByDay[yearly] == Array(repeating: 1, count: 41))
        #expect(overview.subscriptions.renewals == 1 && overview.subscriptions.ended == 1)
    }
}

@Suite struct SubscriptionStatesTests {
    @Test func churnIsByItsReasonAndFailingRenewalsAreCountedNow() {
        let catalog = SalesOverviewTests.catalog
        let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
        func fact(_ account: String, _ original: String, _ state: SubscriptionState, ended: (String, Int64)? = nil) -> SubscriptionFact {
            SubscriptionFact(
                account: account, originalTransactionID: TransactionID(rawValue: original)!, productID: monthly, state: state, endReason: ended?.0,
                endDate: ended.map { SalesOverviewTests.at($0.1) })
        }
        let facts = [
            fact("a", "00000000000000a1", .expired, ended: ("expired", 3)), fact("b", "00000000000000b1", .expired, ended: ("billing", 4)),
            fact("c", "00000000000000c1", .expired, ended: ("expired", 20)),  // outside the range
            fact("d", "00000000000000d1", .gracePeriod), fact("e", "00000000000000e1", .billingRetry), fact("f", "00000000000000f1", .active),
        ]
        var overview = SalesOverview([], catalog: catalog, firstDay: SalesOverviewTests.day, lastDay: SalesOverviewTests.day + 8, storefront: nil, now: SalesOverviewTests.at(8))
        overview.countStates(facts, transactions: [], firstDay: SalesOverviewTests.day, lastDay: SalesOverviewTests.day + 8)
        let line = overview.subscriptions
        #expect(line.endedVoluntarily == 1 && line.endedByBilling == 1 && line.inGracePeriod == 1 && line.inBillingRetry == 1, "\(line)")
        // One storefront: the subscriptions whose first transaction was bought there.
        let german = [SalesOverviewTests.sale("d", "com.hangmanpacks.pass.monthly", day: 0, price: 299, currency: "EUR", storefront: "DEU", id: "00000000000000d1")]
        var deu = SalesOverview(german, catalog: catalog, firstDay: SalesOverviewTests.day, lastDay: SalesOverviewTests.day + 8, storefront: "DEU", now: SalesOverviewTests.at(8))
        deu.countStates(facts, transactions: german, firstDay: SalesOverviewTests.day, lastDay: SalesOverviewTests.day + 8)
        #expect(deu.subscriptions.inGracePeriod == 1 && deu.subscriptions.inBillingRetry == 0 && deu.subscriptions.endedVoluntarily == 0)
    }
}
