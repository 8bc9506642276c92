import CivilCalendar
import PackServiceAPI
import Seller

/// The seller's overview of a range of days (UTC): revenue and refunds per day in each currency
/// (never converted between currencies), units and revenue per product, and the subscriptions as
/// they stand. Made from the numbers the ledgers keep (``SalesAggregates``, where the rule of what
/// a transaction counts for lives) and the subscriptions' states, never from every transaction.
///
/// ```swift
/// let ledgers = SalesLedgers.sqlite(folder: data)
/// let overview = SalesOverview(try ledgers.salesDays(firstDay: today - 29, lastDay: today, storefront: nil),
///                              subscriptions: try ledgers.subscriptions(catalog: catalog, now: now, endedSince: today - 29),
///                              catalog: catalog, firstDay: today - 29, lastDay: today, storefront: nil, now: now)
/// ```
public struct SalesOverview: Sendable, Equatable, Codable {
    /// The range, as ISO dates (UTC), first and last included.
    public var firstDay: String
    public var lastDay: String
    /// The storefront the numbers are of (`nil`: every one).
    public var storefront: String?
    /// One line per currency sold in, by its code.
    public var currencies: [CurrencyLine]
    /// One line per product sold or refunded in the range, most revenue first (in no currency
    /// order: by the count of units where currencies differ).
    public var products: [ProductLine]
    public var subscriptions: SubscriptionLine
    /// What a subscription business reads first: its recurring revenue now, its subscribers.
    public var tiles = Tiles()
    /// Churn, refunds and trial conversion over the range.
    public var rates = Rates()

    /// Recurring revenue in one currency: at the end of each day of the range (`byDay[0]` is
    /// `firstDay`'s), and how it moved each day: new (periods that renew nothing), expansion and
    /// contraction (renewals and plan changes to a dearer or cheaper month), churned (periods
    /// whose access ended with no renewal that day). Each paid period counts as a month's worth
    /// of its price (``SalesAggregates``); a free trial brings none.
    public struct RecurringRevenueLine: Sendable, Equatable, Codable {
        public var currency: String
        public var byDay: [Int64]
        public var new: [Int64]
        public var expansion: [Int64]
        public var contraction: [Int64]
        public var churned: [Int64]
        /// Recurring revenue when the range began.
        public var atStart: Int64
    }

    /// One line per currency with recurring revenue in or before the range.
    public var recurringRevenue: [RecurringRevenueLine] = []

    /// The customers who first paid in one month in one currency (a cohort), and what they did
    /// in each month since, up to the range's last month (index 0 is the cohort's own month):
    /// how many paid, and the revenue and refunds, in minor units. A cohort is of every
    /// storefront (``CohortAggregates``).
    public struct CohortLine: Sendable, Equatable, Codable {
        public var currency: String
        /// `YYYY-MM`.
        public var month: String
        public var customers: Int
        public var paying: [Int]
        public var revenue: [Int64]
        public var refunds: [Int64]
        /// The share of the cohort paying in each month since, in percent to one decimal.
        public var retention: [Double]
        /// Net revenue (revenue less refunds) per customer up to the end of each month since,
        /// in minor units: the last is the cohort's lifetime value so far.
        public var lifetimeValue: [Int64]
    }

    /// The cohorts of the range's months, and at least of the twelve up to its last month,
    /// oldest first, per currency (``CohortAggregates/cohorts(firstDay:lastDay:)``); none for
    /// one storefront's overview.
    public var cohorts: [CohortLine] = []

    public struct Tiles: Sendable, Equatable, Codable {
        /// Monthly recurring revenue at the end of the range's last day (today, by default), per
        /// currency (never converted), in minor units.
        public var monthlyRecurringRevenue: [String: Int64] = [:]
        /// Subscriptions live now that pay, and those in their free trial.
        public var activeSubscriptions = 0
        public var inTrial = 0
    }

    public struct Rates: Sendable, Equatable, Codable {
        /// Subscriptions live when the range began (the base of the churn rate).
        public var liveAtStart = 0
        /// Percent of those live when the range began whose access ended in it: in all, turned off
        /// by the subscriber, after renewals failed; `nil` when none was live.
        public var churn: Double?
        public var voluntaryChurn: Double?
        public var billingChurn: Double?
        /// Percent of each currency's revenue in the range that was refunded in it.
        public var refunds: [String: Double] = [:]
        /// Percent of the free trials begun in the range that were paid for since; `nil` when none began.
        public var trialConversion: Double?
    }

    /// Money in one currency over the range: per day (`daily[0]` is `firstDay`), in minor units.
    public struct CurrencyLine: Sendable, Equatable, Codable {
        public var currency: String
        public var revenue: Int64
        public var refunds: Int64
        public var net: Int64 { revenue - refunds }
        public var dailyRevenue: [Int64]
        public var dailyRefunds: [Int64]
        /// Charged transactions (units may be more: hints are bought several at once).
        public var transactions: Int
    }

    public struct ProductLine: Sendable, Equatable, Codable {
        public var productID: ProductID
        public var name: String
        /// Units charged (a quantity of hints counts each).
        public var units: Int
        /// Units whose charge came back.
        public var refunded: Int
        /// Revenue by currency, in minor units.
        public var revenue: [String: Int64]
    }

    public struct SubscriptionLine: Sendable, Equatable, Codable {
        /// Subscriptions live at `now`, by plan.
        public var active: [String: Int]
        /// Free trials started in the range.
        public var trialsStarted: Int
        /// Charged periods in the range: first purchases and renewals.
        public var paidPeriods: Int
        /// Subscriptions whose trial was followed by a charged period (trials started in the range).
        public var trialsConverted: Int
        /// Charged periods that renewed a subscription (the others started one).
        public var renewals: Int = 0
        /// Subscriptions whose access ended in the range and did not go on (churned).
        public var ended: Int = 0
        /// Live subscriptions at the end of each day, by plan (`activeByDay[plan][0]` is `firstDay`).
        public var activeByDay: [String: [Int]] = [:]
        /// Subscriptions that ended in the range, turned off by the subscriber (voluntary churn) or
        /// after renewals failed to the end (billing churn); from their states (``countStates(_:)``).
        public var endedVoluntarily: Int = 0
        public var endedByBilling: Int = 0
        /// Subscriptions whose renewal is failing now: still open (grace period), or not (billing retry).
        public var inGracePeriod: Int = 0
        public var inBillingRetry: Int = 0
    }

    /// The overview of the days `firstDay...lastDay` (days since 1970, UTC) from what the
    /// ledgers keep (`days`, read for those days and `storefront`: ``SalesAggregates`` says what
    /// each transaction counts for) and from the subscriptions live or ended in the range
    /// (`subscriptions`, in their states at `now` on each account's clock): of `storefront` alone
    /// when given. Sums only; the cost is the range's rows, never the ledgers' history.
    public init(
        _ days: SalesDays, subscriptions facts: [SubscriptionFact], catalog: Catalog, firstDay: Int64, lastDay: Int64, storefront: String?, now: Int64
    ) {
        let count = max(0, Int(lastDay - firstDay + 1))
        self.firstDay = UTCDateTime(millisecondsSince1970: firstDay * UTCDateTime.millisecondsPerDay).dateText
        self.lastDay = UTCDateTime(millisecondsSince1970: lastDay * UTCDateTime.millisecondsPerDay).dateText
        self.storefront = storefront
        var lines: [String: CurrencyLine] = [:]
        var products: [String: ProductLine] = [:]
        var subscriptions = SubscriptionLine(active: [:], trialsStarted: 0, paidPeriods: 0, trialsConverted: 0)
        var liveChanges: [String: [Int64]] = [:]
        var recurring: [String: RecurringRevenueLine] = [:]
        func recurringLine(_ currency: String) -> RecurringRevenueLine {
            recurring[currency] ?? RecurringRevenueLine(
                currency: currency, byDay: Array(repeating: 0, count: count), new: Array(repeating: 0, count: count), expansion: Array(repeating: 0, count: count),
                contraction: Array(repeating: 0, count: count), churned: Array(repeating: 0, count: count), atStart: days.mrrBefore[currency] ?? 0)
        }
        for currency in days.mrrBefore.keys { recurring[currency] = recurringLine(currency) }
        for row in days.rows where row.day >= firstDay && row.day <= lastDay && (storefront == nil || row.storefront == storefront) {
            let index = Int(row.day - firstDay)
            if row.charged != 0 || row.refundedUnits != 0 {
                var line = lines[row.currency] ?? CurrencyLine(
                    currency: row.currency, revenue: 0, refunds: 0, dailyRevenue: Array(repeating: 0, count: count),
                    dailyRefunds: Array(repeating: 0, count: count), transactions: 0)
                line.revenue += row.revenue
                line.dailyRevenue[index] += row.revenue
                line.transactions += Int(row.charged)
                line.refunds += row.refunds
                line.dailyRefunds[index] += row.refunds
                lines[row.currency] = line
                var product = products[row.productID] ?? ProductLine(
                    productID: ProductID(rawValue: row.productID) ?? ProductID(rawValue: "unknown")!,
                    name: ProductID(rawValue: row.productID).flatMap { catalog.product($0)?.displayName } ?? row.productID, units: 0, refunded: 0, revenue: [:])
                product.units += Int(row.units)
                product.refunded += Int(row.refundedUnits)
                if row.charged != 0 { product.revenue[row.currency, default: 0] += row.revenue }
                products[row.productID] = product
            }
            subscriptions.trialsStarted += Int(row.trials)
            subscriptions.paidPeriods += Int(row.paidPeriods)
            subscriptions.renewals += Int(row.renewals)
            subscriptions.trialsConverted += Int(row.conversions)
            if row.liveChange != 0 { liveChanges[row.productID, default: Array(repeating: 0, count: count)][index] += row.liveChange }
            if row.mrrStarted != 0 || row.mrrEnded != 0 || row.mrrRenewedFrom != 0 {
                var line = recurringLine(row.currency)
                line.byDay[index] += row.mrrStarted - row.mrrEnded
                line.new[index] += row.mrrNew
                line.expansion[index] += row.mrrExpansion
                line.contraction[index] += row.mrrContraction
                line.churned[index] += row.mrrChurned
                recurring[row.currency] = line
            }
        }
        // Live at the end of each day: those live before the range, plus each day's change.
        for product in Set(liveChanges.keys).union(days.liveBefore.filter { $0.value != 0 }.keys) {
            var live = days.liveBefore[product] ?? 0
            subscriptions.activeByDay[product] = (liveChanges[product] ?? Array(repeating: 0, count: count)).map { change in
                live += change
                return Int(live)
            }
        }
        // What the subscriptions' states tell: live now, churn by its reason in the range (an
        // upgrade is no churn: the subscriber goes on, on another plan), failing renewals now.
        let range = firstDay...lastDay
        for fact in facts where storefront == nil || fact.storefront == storefront {
            if fact.isLiveNow { subscriptions.active[fact.productID.rawValue, default: 0] += 1 }
            switch fact.state {
            case .gracePeriod: subscriptions.inGracePeriod += 1
            case .billingRetry: subscriptions.inBillingRetry += 1
            default: break
            }
            guard let ended = fact.accessEnded, fact.endReason != "upgraded", range.contains(UTCDateTime.day(ofMilliseconds: ended)) else { continue }
            subscriptions.ended += 1
            if fact.endReason == "expired" { subscriptions.endedVoluntarily += 1 }
            if fact.endReason == "billing" { subscriptions.endedByBilling += 1 }
        }
        currencies = lines.values.sorted { $0.currency < $1.currency }
        self.products = products.values.sorted { ($0.units, $1.productID.rawValue) > ($1.units, $0.productID.rawValue) }
        self.subscriptions = subscriptions
        // Each day's change summed into what stands at its end.
        recurringRevenue = recurring.values.map { line in
            var summed = line
            var standing = line.atStart
            summed.byDay = line.byDay.map { change in
                standing += change
                return standing
            }
            return summed
        }.sorted { $0.currency < $1.currency }
        for line in recurringRevenue where (line.byDay.last ?? 0) != 0 { tiles.monthlyRecurringRevenue[line.currency] = line.byDay.last }
        for fact in facts where fact.isLiveNow && (storefront == nil || fact.storefront == storefront) {
            if fact.state == .trial { tiles.inTrial += 1 } else { tiles.activeSubscriptions += 1 }
        }
        func percent(_ part: Int, of whole: Int) -> Double? { whole == 0 ? nil : (Double(part) * 1000 / Double(whole)).rounded() / 10 }
        // A cohort is of every storefront (a customer may buy in several): none for one storefront.
        cohorts = storefront == nil ? Self.cohortLines(days.cohorts, firstDay: firstDay, lastDay: lastDay) : []
        rates.liveAtStart = Int(days.liveBefore.values.reduce(0, +))
        rates.churn = percent(subscriptions.ended, of: rates.liveAtStart)
        rates.voluntaryChurn = percent(subscriptions.endedVoluntarily, of: rates.liveAtStart)
        rates.billingChurn = percent(subscriptions.endedByBilling, of: rates.liveAtStart)
        rates.trialConversion = percent(subscriptions.trialsConverted, of: subscriptions.trialsStarted)
        for line in currencies where line.revenue > 0 {
            rates.refunds[line.currency] = (Double(line.refunds) * 1000 / Double(line.revenue)).rounded() / 10
        }
    }

}

extension SalesOverview {
    /// The kept months of the cohorts (``CohortMonth``) as one line per cohort and currency: a
    /// cohort's size is its customers in its own month (each paid in it, by its definition).
    static func cohortLines(_ months: [CohortMonth], firstDay: Int64, lastDay: Int64) -> [CohortLine] {
        let shown = CohortAggregates.cohorts(firstDay: firstDay, lastDay: lastDay)
        struct Key: Hashable { var currency: String, cohort: Int }
        var byCohort: [Key: [CohortMonth]] = [:]
        for row in months where row.cohort >= shown.first && row.cohort <= shown.last && row.month >= row.cohort && row.month <= shown.last {
            byCohort[Key(currency: row.currency, cohort: row.cohort), default: []].append(row)
        }
        return byCohort.compactMap { key, rows -> CohortLine? in
            let ages = shown.last - key.cohort + 1
            var line = CohortLine(
                currency: key.currency, month: CohortMonth.name(key.cohort), customers: 0, paying: Array(repeating: 0, count: ages),
                revenue: Array(repeating: 0, count: ages), refunds: Array(repeating: 0, count: ages), retention: [], lifetimeValue: [])
            for row in rows {
                let age = row.month - key.cohort
                line.paying[age] += Int(row.customers)
                line.revenue[age] += row.revenue
                line.refunds[age] += row.refunds
            }
            line.customers = line.paying[0]
            guard line.customers > 0 else { return nil }
            line.retention = line.paying.map { (Double($0) * 1000 / Double(line.customers)).rounded() / 10 }
            var net: Int64 = 0
            line.lifetimeValue = zip(line.revenue, line.refunds).map { revenue, refunds in
                net += revenue - refunds
                return net / Int64(line.customers)
            }
            return line
        }.sorted { ($0.currency, $0.month) < ($1.currency, $1.month) }
    }
}
