import CivilCalendar
import PackServiceAPI
import Seller

/// The seller's overview of a range of days (UTC): revenue and refunds per day in each currency
/// (never converted between currencies), units and revenue per product, and the subscriptions as
/// they stand. Made from every account's transactions (``SalesLedgers``), by the rules in
/// ``SalesOverview/init(_:catalog:firstDay:lastDay:storefront:now:)``: the one place they live.
///
/// ```swift
/// let overview = SalesOverview(try SalesLedgers.transactions(in: .sqlite(folder: data)), catalog: catalog,
///                              firstDay: today - 29, lastDay: today, storefront: nil, now: now)
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

    /// Adds what the subscriptions' states tell (`facts` at the overview's `now`): churn by its
    /// reason in the range, and the failing renewals now; of the overview's storefront, as the
    /// subscription's first transaction (in `transactions`) records it.
    public mutating func countStates(_ facts: [SubscriptionFact], transactions: [AccountTransaction], firstDay: Int64, lastDay: Int64) {
        let storefronts = Dictionary(
            transactions.map { ($0.account + "/" + $0.transaction.id.rawValue, $0.transaction.storefront ?? Storefront.defaultCode) }, uniquingKeysWith: { first, _ in first })
        for fact in facts where storefront == nil || storefronts[fact.account + "/" + fact.originalTransactionID.rawValue] == storefront {
            switch fact.state {
            case .gracePeriod: subscriptions.inGracePeriod += 1
            case .billingRetry: subscriptions.inBillingRetry += 1
            default: break
            }
            guard let ended = fact.endDate else { continue }
            let day = UTCDateTime.day(ofMilliseconds: ended)
            guard day >= firstDay && day <= lastDay else { continue }
            if fact.endReason == "expired" { subscriptions.endedVoluntarily += 1 }
            if fact.endReason == "billing" { subscriptions.endedByBilling += 1 }
        }
    }

    /// What was charged (and is revenue): delivered or on its way, at a price, not a free trial.
    public static func isCharged(_ transaction: StoreTransaction) -> Bool {
        [.purchased, .delivered, .finished].contains(transaction.state) && !transaction.isTrial && (transaction.price?.minorUnits ?? 0) > 0
    }

    /// What came back of a charge that was revoked: the part refunded for an upgrade's unused
    /// time when one was recorded, else the whole.
    public static func refunded(_ transaction: StoreTransaction) -> Money? {
        guard isCharged(transaction), transaction.revocationDate != nil else { return nil }
        return transaction.refund ?? transaction.price
    }

    /// The overview of the days `firstDay...lastDay` (days since 1970, UTC) of `transactions`,
    /// of `storefront` alone when given; subscriptions live at `now` (milliseconds).
    /// `clockOffsets`: how far each account's clock runs ahead (a sandbox account's test controls
    /// move it); what is live "now" is read on each account's own clock, as its player sees it.
    public init(
        _ transactions: [AccountTransaction], catalog: Catalog, firstDay: Int64, lastDay: Int64, storefront: String?, now: Int64,
        clockOffsets: [String: Int64] = [:]
    ) {
        let days = max(0, Int(lastDay - firstDay + 1))
        self.firstDay = UTCDateTime(millisecondsSince1970: firstDay * UTCDateTime.millisecondsPerDay).dateText
        self.lastDay = UTCDateTime(millisecondsSince1970: lastDay * UTCDateTime.millisecondsPerDay).dateText
        self.storefront = storefront
        func index(_ milliseconds: Int64?) -> Int? {
            guard let milliseconds else { return nil }
            let day = UTCDateTime.day(ofMilliseconds: milliseconds)
            return day >= firstDay && day <= lastDay ? Int(day - firstDay) : nil
        }
        var lines: [String: CurrencyLine] = [:]
        var products: [ProductID: ProductLine] = [:]
        func product(_ id: ProductID) -> ProductLine {
            products[id] ?? ProductLine(productID: id, name: catalog.product(id)?.displayName ?? id.rawValue, units: 0, refunded: 0, revenue: [:])
        }
        var subscriptions = SubscriptionLine(active: [:], trialsStarted: 0, paidPeriods: 0, trialsConverted: 0)
        let inStorefront = transactions.filter { storefront == nil || $0.transaction.storefront == storefront }
        for record in inStorefront {
            let transaction = record.transaction
            let isSubscription = catalog.product(transaction.productID)?.isSubscription ?? (transaction.expiresDate != nil)
            if transaction.isTrial, index(transaction.purchaseDate) != nil { subscriptions.trialsStarted += 1 }
            guard Self.isCharged(transaction), let price = transaction.price else { continue }
            if let day = index(transaction.purchaseDate) {
                var line = lines[price.currency] ?? CurrencyLine(
                    currency: price.currency, revenue: 0, refunds: 0, dailyRevenue: Array(repeating: 0, count: days), dailyRefunds: Array(repeating: 0, count: days),
                    transactions: 0)
                line.revenue += price.minorUnits
                line.dailyRevenue[day] += price.minorUnits
                line.transactions += 1
                lines[price.currency] = line
                var sold = product(transaction.productID)
                sold.units += transaction.quantity
                sold.revenue[price.currency, default: 0] += price.minorUnits
                products[transaction.productID] = sold
                if isSubscription { subscriptions.paidPeriods += 1 }
            }
            if let day = index(transaction.revocationDate), let refund = Self.refunded(transaction) {
                var line = lines[refund.currency] ?? CurrencyLine(
                    currency: refund.currency, revenue: 0, refunds: 0, dailyRevenue: Array(repeating: 0, count: days),
                    dailyRefunds: Array(repeating: 0, count: days), transactions: 0)
                line.refunds += refund.minorUnits
                line.dailyRefunds[day] += refund.minorUnits
                lines[refund.currency] = line
                var back = product(transaction.productID)
                back.refunded += transaction.quantity
                products[transaction.productID] = back
            }
        }
        // Subscriptions: each one's latest period (by account and original transaction).
        var latest: [String: (account: String, transaction: StoreTransaction)] = [:]
        var trials: [String: Int64] = [:]
        var charged: Set<String> = []
        for record in inStorefront where record.transaction.expiresDate != nil {
            let transaction = record.transaction
            let key = record.account + "/" + (transaction.originalTransactionID ?? transaction.id).rawValue
            if latest[key].map({ $0.transaction.purchaseDate <= transaction.purchaseDate }) ?? true { latest[key] = (record.account, transaction) }
            if transaction.isTrial { trials[key] = transaction.purchaseDate }
            // A trial converted when a period was charged in these days: the same days that count
            // the charged periods.
            if Self.isCharged(transaction), index(transaction.purchaseDate) != nil { charged.insert(key) }
        }
        /// The account's "now": the real one, moved as far as its clock was.
        func accountNow(_ account: String) -> Int64 { now + (clockOffsets[account] ?? 0) }
        let live: Set<TransactionState> = [.purchased, .delivered, .finished]
        for (_, (account, transaction)) in latest
        where (transaction.expiresDate ?? 0) > accountNow(account) && transaction.revocationDate == nil && live.contains(transaction.state) {
            subscriptions.active[transaction.productID.rawValue, default: 0] += 1
        }
        // Each period is access from its purchase to its end (or its revocation): live at the end
        // of each day it covers; a subscription ended when its latest period's access did.
        let dayEnd = { (index: Int) in (firstDay + Int64(index) + 1) * UTCDateTime.millisecondsPerDay }
        for record in inStorefront where record.transaction.expiresDate != nil && live.contains(record.transaction.state) {
            let transaction = record.transaction
            let until = min(transaction.expiresDate ?? 0, transaction.revocationDate ?? Int64.max)
            var counts = subscriptions.activeByDay[transaction.productID.rawValue] ?? Array(repeating: 0, count: days)
            for index in 0..<days where transaction.purchaseDate < dayEnd(index) && until >= dayEnd(index) { counts[index] += 1 }
            subscriptions.activeByDay[transaction.productID.rawValue] = counts
            if Self.isCharged(transaction), index(transaction.purchaseDate) != nil, let original = transaction.originalTransactionID,
                original != transaction.id, !transaction.isTrial
            {
                subscriptions.renewals += 1
            }
        }
        for (_, (account, transaction)) in latest where live.contains(transaction.state) {
            let until = min(transaction.expiresDate ?? 0, transaction.revocationDate ?? Int64.max)
            if until <= accountNow(account), index(until) != nil { subscriptions.ended += 1 }
        }
        subscriptions.trialsConverted = trials.filter { index($0.value) != nil && charged.contains($0.key) }.count
        currencies = lines.values.sorted { $0.currency < $1.currency }
        self.products = products.values.sorted { ($0.units, $1.productID.rawValue) > ($1.units, $0.productID.rawValue) }
        self.subscriptions = subscriptions
    }
}
