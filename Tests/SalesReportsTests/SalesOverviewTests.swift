import CivilCalendar
import Foundation
import PackServiceAPI
import SalesReports
@testable import Seller
import SQLite
import Synchronization
import Testing
import TestSupport

/// The seller's overview of transactions made by hand, written into SQLite ledgers (whose
/// triggers keep the numbers, ``SalesAggregates``): every rule of what a transaction counts for,
/// and of ``SalesOverview``, once.
@Suite struct SalesOverviewTests {
    static let catalog: Catalog = {
        let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path
        return try! Catalog.load(folder: packs)
    }()
    static let day: Int64 = 20_000
    static func at(_ day: Int64, hour: Int64 = 12) -> Int64 { (Self.day + day) * UTCDateTime.millisecondsPerDay + hour * 3_600_000 }
    static let serial = Atomic(0)

    /// A transaction of an account (named by a letter) as a ledger row.
    struct Sale {
        var account: String
        var row: [String: SQLValue]
    }

    static func sale(
        _ account: String, _ product: String, day: Int64, price: Int64, currency: String = "USD", storefront: String = "USA", quantity: Int = 1,
        state: TransactionState = .finished, revoked: Int64? = nil, refund: Int64? = nil, trial: Bool = false, original: String? = nil, expires: Int64? = nil,
        period: Int? = nil, id: String? = nil
    ) -> Sale {
        let number = serial.add(1, ordering: .relaxed).newValue
        func value(_ number: Int64?) -> SQLValue { number.map { .integer($0) } ?? .null }
        return Sale(account: String(repeating: "0", count: 16 - account.count) + account, row: [
            "id": .text(id ?? String(format: "%016x", number)), "product_id": .text(product), "consumable": .integer(product.contains(".hints.") ? 1 : 0),
            "quantity": .integer(Int64(quantity)), "state": .text(state.rawValue), "purchase_date": .integer(at(day)), "updated_date": .integer(at(day)),
            "revocation_date": value(revoked.map { at($0) }), "original_transaction_id": original.map { .text($0) } ?? .null,
            "expires_date": value(expires.map { at($0) }), "period": value(period.map(Int64.init)), "offer": trial ? .text("free-trial") : .null,
            "refund_cents": value(refund), "price_minor": .integer(price), "currency": .text(currency), "storefront": .text(storefront),
        ])
    }

    /// `sale` with the subscription's fields in order: state, revoked, refund, trial, original, expires, period, id.
    static func sale(
        _ account: String, _ product: String, day: Int64, price: Int64, _ state: TransactionState, _ revoked: Int64?, _ refund: Int64?, _ trial: Bool,
        _ original: String, _ expires: Int64, _ period: Int, _ id: String
    ) -> Sale {
        sale(account, product, day: day, price: price, state: state, revoked: revoked, refund: refund, trial: trial, original: original, expires: expires, period: period, id: id)
    }

    /// A folder of SQLite ledgers holding `sales`, one ledger per account, as a server's data folder.
    static func ledgers(_ sales: [Sale], in directory: TemporaryDirectory) throws -> SalesLedgers {
        for sale in sales {
            let folder = directory.path + "/accounts/" + sale.account
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let database = try Database.openState(path: folder + "/" + AccountService.databaseName, migrator: AccountSchema.migrator)
            let columns = sale.row.keys.sorted()
            try database.execute(
                sql: "INSERT INTO transactions (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
                arguments: columns.map { sale.row[$0] ?? .null })
        }
        return .sqlite(folder: directory.path)
    }

    /// The overview of `sales` over days `first...last` (from `day`), with `facts` for the subscriptions' states.
    static func overview(
        _ sales: [Sale], _ first: Int64, _ last: Int64, storefront: String? = nil, facts: [SubscriptionFact] = [], now: Int64
    ) throws -> SalesOverview {
        let directory = try TemporaryDirectory()
        let ledgers = try ledgers(sales, in: directory)
        #expect(try ledgers.salesAggregateDifferences().isEmpty, "the triggers' numbers are a rebuild's")
        return SalesOverview(
            try ledgers.salesDays(firstDay: day + first, lastDay: day + last, storefront: storefront), subscriptions: facts, catalog: catalog,
            firstDay: day + first, lastDay: day + last, storefront: storefront, now: now)
    }

    static func fact(
        _ account: String, _ original: String, _ state: SubscriptionState, product: String = "com.hangmanpacks.pass.monthly", ended: (String, Int64)? = nil,
        expires: Int64 = 0, storefront: String = "USA", now: Int64
    ) -> SubscriptionFact {
        SubscriptionFact(
            account: account, originalTransactionID: TransactionID(rawValue: original)!, productID: ProductID(rawValue: product)!, state: state, endReason: ended?.0,
            endDate: ended.map { at($0.1) }, expiresDate: at(expires), storefront: storefront, now: now)
    }

    @Test func revenueAndRefundsArePerDayPerCurrencyNeverConverted() throws {
        let hints = "com.hangmanpacks.hints.10", ios = "com.hangmanpacks.words.ios", monthly = "com.hangmanpacks.pass.monthly"
        let sales = [
            Self.sale("a", hints, day: 0, price: 198, quantity: 2),
            Self.sale("a", ios, day: 1, price: 99, revoked: 3),  // refunded two days later: the whole
            Self.sale("b", ios, day: 1, price: 109, currency: "EUR", storefront: "DEU"),
            Self.sale("b", hints, day: 2, price: 99, state: .failed),  // charged nothing
            Self.sale("c", hints, day: 9, price: 99),  // outside the range
            // A monthly pass: a free trial, then a charged period, then upgraded (the unused part back).
            Self.sale("d", monthly, day: 0, price: 0, trial: true, original: "00000000000000d1", expires: 7, period: 0, id: "00000000000000d1"),
            Self.sale("d", monthly, day: 7, price: 299, revoked: 8, refund: 150, original: "00000000000000d1", expires: 37, period: 1, id: "00000000000000d2"),
        ]
        // The subscription ended for an upgrade: the subscriber goes on, on another plan.
        let upgraded = Self.fact("d", "00000000000000d1", .expired, ended: ("upgraded", 8), expires: 37, now: Self.at(8))
        let overview = try Self.overview(sales, 0, 8, facts: [upgraded], now: Self.at(8))
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
        #expect(overview.subscriptions.active.isEmpty, "the upgraded plan ended")
        #expect(overview.subscriptions.activeByDay[monthly] == [1, 1, 1, 1, 1, 1, 1, 1, 0], "the trial's week, the paid day, then revoked")
        #expect(overview.subscriptions.ended == 0, "an upgrade is no churn")
        #expect(overview.rates.refunds == ["USD": 41.8, "EUR": 0] && overview.rates.trialConversion == 100, "\(overview.rates)")
        // One storefront alone.
        let german = try Self.overview(sales, 0, 8, storefront: "DEU", now: Self.at(8))
        #expect(german.currencies.map(\.currency) == ["EUR"] && german.products.map(\.productID.rawValue) == [ios])
    }

    @Test func aLiveSubscriptionCountsByPlanAtItsLatestPeriod() throws {
        let monthly = "com.hangmanpacks.pass.monthly", yearly = "com.hangmanpacks.pass.yearly"
        let sales = [
            Self.sale("a", monthly, day: 0, price: 299, original: "00000000000000a1", expires: 30, period: 0, id: "00000000000000a1"),
            Self.sale("a", monthly, day: 30, price: 299, original: "00000000000000a1", expires: 60, period: 1, id: "00000000000000a2"),
            Self.sale("b", yearly, day: 0, price: 2499, original: "00000000000000b1", expires: 365, period: 0, id: "00000000000000b1"),
            Self.sale("c", monthly, day: 0, price: 299, original: "00000000000000c1", expires: 30, period: 0, id: "00000000000000c1"),  // lapsed
        ]
        let now = Self.at(40)
        let facts = [
            Self.fact("a", "00000000000000a1", .active, expires: 60, now: now), Self.fact("b", "00000000000000b1", .active, product: yearly, expires: 365, now: now),
            // Nobody opened the account since its period ran out: no end recorded, its access ended all the same.
            Self.fact("c", "00000000000000c1", .active, expires: 30, now: now),
        ]
        let overview = try Self.overview(sales, 0, 40, facts: facts, now: now)
        #expect(overview.subscriptions.active == [monthly: 1, yearly: 1])
        #expect(overview.subscriptions.paidPeriods == 4)
        // Live at the end of each day: the lapsed monthly for its 30 days, the renewed one throughout.
        #expect(overview.subscriptions.activeByDay[monthly] == Array(repeating: 2, count: 30) + Array(repeating: 1, count: 11))
        #expect(overview.subscriptions.activeByDay[yearly] == Array(repeating: 1, count: 41))
        #expect(overview.subscriptions.renewals == 1 && overview.subscriptions.ended == 1)
        // The tiles: recurring revenue at the range's end, as a person sums it (a year's price is
        // twelve months'), and the subscribers.
        #expect(overview.tiles.monthlyRecurringRevenue == ["USD": 299 + Int64((2499.0 / 12).rounded())], "a's month and b's year as a month: \(overview.tiles)")
        #expect(overview.tiles.activeSubscriptions == 2 && overview.tiles.inTrial == 0)
        // Churn over days 5 to 40: three live when they began, one ended (c's lapse).
        let later = try Self.overview(sales, 5, 40, facts: facts, now: now)
        #expect(later.rates.liveAtStart == 3 && later.rates.churn == 33.3, "\(later.rates)")
    }
}

/// Recurring revenue and its movement on a history made by hand, against the sums a person makes.
@Suite struct RecurringRevenueTests {
    @Test func theMovementIsTheSumsAPersonMakes() throws {
        let monthly = "com.hangmanpacks.pass.monthly", yearly = "com.hangmanpacks.pass.yearly"
        typealias Sales = SalesOverviewTests
        let sales = [
            // a: a month, renewed at the same price on day 30.
            Sales.sale("a", monthly, day: 0, price: 299, .finished, nil, nil, false, "00000000000000a1", 30, 0, "00000000000000a1"),
            Sales.sale("a", monthly, day: 30, price: 299, .finished, nil, nil, false, "00000000000000a1", 60, 1, "00000000000000a2"),
            // b: a month, changed on day 10 to a year (a cheaper month: 2499 / 12 = 208), the month's unused part refunded.
            Sales.sale("b", monthly, day: 0, price: 299, .finished, 10, 200, false, "00000000000000b1", 30, 0, "00000000000000b1"),
            Sales.sale("b", yearly, day: 10, price: 2499, .finished, nil, nil, false, "00000000000000b1", 375, 1, "00000000000000b2"),
            // c: a month, not renewed: churned on day 30.
            Sales.sale("c", monthly, day: 0, price: 299, .finished, nil, nil, false, "00000000000000c1", 30, 0, "00000000000000c1"),
            // d: a week's free trial (no revenue), then a paid month from day 7 (new), not renewed (churned on day 37).
            Sales.sale("d", monthly, day: 0, price: 0, .finished, nil, nil, true, "00000000000000d1", 7, 0, "00000000000000d1"),
            Sales.sale("d", monthly, day: 7, price: 299, .finished, nil, nil, false, "00000000000000d1", 37, 1, "00000000000000d2"),
        ]
        let overview = try SalesOverviewTests.overview(sales, 0, 40, now: SalesOverviewTests.at(40))
        let usd = try #require(overview.recurringRevenue.first { $0.currency == "USD" })
        // By hand: 897 new on day 0, 299 new on day 7, 91 less on day 10, 299 churned on day 30 (c; a renewed), 299 on day 37 (d).
        #expect(usd.new.reduce(0, +) == 897 + 299 && usd.new[0] == 897 && usd.new[7] == 299, "\(usd.new)")
        #expect(usd.expansion.reduce(0, +) == 0 && usd.contraction[10] == 299 - 208 && usd.contraction.reduce(0, +) == 91, "\(usd.contraction)")
        #expect(usd.churned[30] == 299 && usd.churned[37] == 299 && usd.churned.reduce(0, +) == 598, "\(usd.churned)")
        #expect(usd.byDay[0] == 897 && usd.byDay[7] == 1196 && usd.byDay[10] == 1105 && usd.byDay[30] == 806 && usd.byDay[40] == 299 + 208, "\(usd.byDay)")
        #expect(usd.byDay[40] == usd.atStart + usd.new.reduce(0, +) + usd.expansion.reduce(0, +) - usd.contraction.reduce(0, +) - usd.churned.reduce(0, +))
        #expect(overview.tiles.monthlyRecurringRevenue == ["USD": 507])
        // A range that begins later starts from what stood then.
        let later = try SalesOverviewTests.overview(sales, 20, 40, now: SalesOverviewTests.at(40))
        #expect(later.recurringRevenue.first?.atStart == 1105 && later.recurringRevenue.first?.byDay.last == 507, "\(later.recurringRevenue)")
    }
}

@Suite struct SubscriptionStatesTests {
    @Test func churnIsByItsReasonAndFailingRenewalsAreCountedNow() throws {
        let now = SalesOverviewTests.at(8)
        func fact(_ account: String, _ original: String, _ state: SubscriptionState, ended: (String, Int64)? = nil, storefront: String = "USA") -> SubscriptionFact {
            SalesOverviewTests.fact(account, original, state, ended: ended, expires: 30, storefront: storefront, now: now)
        }
        let facts = [
            fact("a", "00000000000000a1", .expired, ended: ("expired", 3)), fact("b", "00000000000000b1", .expired, ended: ("billing", 4)),
            fact("c", "00000000000000c1", .expired, ended: ("expired", 20)),  // outside the range
            fact("d", "00000000000000d1", .gracePeriod, storefront: "DEU"), fact("e", "00000000000000e1", .billingRetry), fact("f", "00000000000000f1", .active),
        ]
        let overview = try SalesOverviewTests.overview([], 0, 8, facts: facts, now: now)
        let line = overview.subscriptions
        #expect(line.endedVoluntarily == 1 && line.endedByBilling == 1 && line.ended == 2 && line.inGracePeriod == 1 && line.inBillingRetry == 1, "\(line)")
        #expect(line.active == ["com.hangmanpacks.pass.monthly": 1], "only the one neither ended nor failing")
        // One storefront: the subscriptions whose first transaction was bought there.
        let deu = try SalesOverviewTests.overview([], 0, 8, storefront: "DEU", facts: facts, now: now)
        #expect(deu.subscriptions.inGracePeriod == 1 && deu.subscriptions.inBillingRetry == 0 && deu.subscriptions.endedVoluntarily == 0)
    }
}

/// Cohorts by the month a customer first paid in (``CohortAggregates``), kept by the triggers,
/// against the sums a person makes of a hand-made history.
@Suite struct CohortTests {
    @Test func eachCohortIsWhatAPersonSums() throws {
        typealias Sales = SalesOverviewTests
        let hints = "com.hangmanpacks.hints.10", monthly = "com.hangmanpacks.pass.monthly"
        // Day 0 is 2024-10-04; day 30 is 2024-11-03, day 61 2024-12-04.
        let sales = [
            // a: first paid in October, again in November (refunded there) and December.
            Sales.sale("a", hints, day: 0, price: 499),
            Sales.sale("a", hints, day: 30, price: 299, revoked: 35),
            Sales.sale("a", hints, day: 61, price: 199),
            // f: October only.
            Sales.sale("f", hints, day: 1, price: 100),
            // b: November only.
            Sales.sale("b", hints, day: 30, price: 999),
            // c: a free trial in October is no payment: its cohort is December's, its first charge.
            Sales.sale("c", monthly, day: 0, price: 0, .finished, nil, nil, true, "00000000000000c1", 7, 0, "00000000000000c1"),
            Sales.sale("c", monthly, day: 61, price: 299, .finished, nil, nil, false, "00000000000000c1", 91, 1, "00000000000000c2"),
            // d: euros, a cohort of their own.
            Sales.sale("d", hints, day: 0, price: 500, currency: "EUR", storefront: "DEU"),
            // e: a grant (no charge) makes no customer.
            Sales.sale("e", hints, day: 0, price: 0),
        ]
        let overview = try SalesOverviewTests.overview(sales, 0, 61, now: SalesOverviewTests.at(61))
        let usd = overview.cohorts.filter { $0.currency == "USD" }
        #expect(usd.map(\.month) == ["2024-10", "2024-11", "2024-12"], "\(overview.cohorts)")
        let october = try #require(usd.first)
        #expect(october.customers == 2 && october.paying == [2, 1, 1] && october.retention == [100, 50, 50], "\(october)")
        #expect(october.revenue == [599, 299, 199] && october.refunds == [0, 299, 0], "\(october)")
        // Net per customer so far: 599 / 2, then 599 / 2 (299 in, 299 back), then 798 / 2.
        #expect(october.lifetimeValue == [299, 299, 399], "\(october)")
        #expect(usd[1].customers == 1 && usd[1].paying == [1, 0] && usd[1].retention == [100, 0] && usd[1].lifetimeValue == [999, 999], "\(usd[1])")
        #expect(usd[2].customers == 1 && usd[2].revenue == [299], "\(usd[2])")
        let euro = try #require(overview.cohorts.first { $0.currency == "EUR" })
        #expect(euro.month == "2024-10" && euro.customers == 1 && euro.paying == [1, 0, 0] && euro.lifetimeValue == [500, 500, 500], "\(euro)")
        // A range of days in December still shows the twelve cohorts up to it; one that ends in
        // October shows nothing after it.
        let december = try SalesOverviewTests.overview(sales, 61, 61, now: SalesOverviewTests.at(61))
        #expect(december.cohorts == overview.cohorts)
        let early = try SalesOverviewTests.overview(sales, 0, 10, now: SalesOverviewTests.at(10))
        #expect(early.cohorts.map(\.month) == ["2024-10", "2024-10"] && early.cohorts.allSatisfy { $0.paying.count == 1 }, "\(early.cohorts)")
        // A cohort is of every storefront: one storefront's overview has none.
        #expect(try SalesOverviewTests.overview(sales, 0, 61, storefront: "DEU", now: SalesOverviewTests.at(61)).cohorts.isEmpty)
    }
}
