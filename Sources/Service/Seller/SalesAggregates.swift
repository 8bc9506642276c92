import PackServiceAPI

/// What the seller's numbers are made of, kept with the ledger: one row per day, storefront,
/// currency, product, unit price and kind of period (a first purchase or a renewal), with sums
/// (revenue, refunds, units, trials, subscription periods starting and ending). The rows change in
/// the same database transaction as the ledger's transactions, by triggers, so no write path can
/// forget them; a page of the seller's numbers reads the rows of its days instead of every ledger.
///
/// The rule of what a transaction counts for is here once, as SQL: ``facts(from:where:dialect:)``.
/// The triggers add a row's facts after a write and take the facts it had away before one, and a
/// rebuild (``rebuild(dialect:)``) sums the facts of every transaction, so a check can compare the
/// two.
public enum SalesAggregates {
    /// The two engines' words for the same SQL.
    public enum Dialect: Sendable {
        case sqlite
        /// One table for every account, in `shards` rows per key (the account's last digit), so
        /// that two accounts' purchases rarely wait for the same row.
        case postgreSQL

        var integer: String { self == .sqlite ? "INTEGER" : "BIGINT" }
        var least: String { self == .sqlite ? "min" : "LEAST" }
        /// `x` rounded to a whole number of the integer type.
        func rounded(_ x: String) -> String { self == .sqlite ? "CAST(round(\(x)) AS INTEGER)" : "round(\(x))::bigint" }
        var greatest: String { self == .sqlite ? "max" : "GREATEST" }
        var keys: [String] { self == .sqlite ? SalesAggregates.keys : SalesAggregates.keys + ["shard"] }
    }

    /// The columns that name a row.
    public static let keys = ["day", "storefront", "currency", "product_id", "unit_price", "renewal"]
    /// The columns summed.
    public static let sums = [
        "revenue", "charged", "units", "refunds", "refunded_units", "trials", "paid_periods", "renewals", "conversions", "live_change",
        "mrr_started", "mrr_ended", "mrr_renewed_from", "mrr_renewed_to", "mrr_expansion", "mrr_contraction",
    ]
    /// How many rows a key is spread over on PostgreSQL.
    static let shards = 8

    /// The table, its index and (on SQLite) the triggers, and the rows of the transactions there
    /// already: a migration.
    public static func schema(_ dialect: Dialect) -> String {
        let keyColumns = dialect.keys.map { name in
            switch name {
            case "storefront", "currency", "product_id": "\(name) TEXT NOT NULL"
            default: "\(name) \(dialect.integer) NOT NULL"
            }
        }
        let table = """
            -- The seller's numbers, per day and product (SalesAggregates): kept by triggers in the
            -- same transaction as the ledger's transactions, rebuilt by 'hangman report --rebuild'.
            CREATE TABLE sales_days (
                \((keyColumns + sums.map { "\($0) \(dialect.integer) NOT NULL DEFAULT 0" }).joined(separator: ",\n    "))
            ,   PRIMARY KEY (\(dialect.keys.joined(separator: ", ")))
            );
            -- Subscriptions read by when they ended (the live ones have none).
            CREATE INDEX subscriptions_by_end ON subscriptions(end_date);

            """
        switch dialect {
        case .sqlite:
            return table + KeptTriggers.sqlite("sales_days", on: "transactions") { row, sign in
                upsert(facts(from: "transactions AS t", where: "t.id = \(row).id", dialect: dialect, sign: sign), dialect: dialect)
            } + """
                \(upsert(facts(from: "transactions AS t", where: nil, dialect: dialect, sign: 1), dialect: dialect));

                """
        case .postgreSQL:
            // Statement triggers with the rows a statement changed: one upsert per statement, so
            // a load of many rows is summed at once.
            return table + KeptTriggers.postgreSQL("sales_days", on: "transactions") { old, new in
                upsert([old, new].compactMap { $0 }.joined(separator: "\nUNION ALL\n"), dialect: dialect)
            } facts: { rows, sign in
                facts(from: rows + " AS t", where: nil, dialect: dialect, sign: sign)
            } + """
                \(upsert(facts(from: "transactions AS t", where: nil, dialect: dialect, sign: 1), dialect: dialect));

                """
        }
    }

    /// The facts of the transactions `source` names (as `t`, with `condition`), each fact one row
    /// of the key's columns and the sums' (times `sign`), before they are summed:
    /// - on its purchase day, what it charged (a purchase in a live state, not a free trial, at a
    ///   price above zero: revenue, units, a charged transaction, a paid period and a renewal when
    ///   it is a subscription's), a free trial started, and a subscription period starting;
    /// - on the day it was revoked, what came back of a charge (the refund recorded for an
    ///   upgrade's unused part, else the whole price);
    /// - on the day a live subscription period's access ends (its end or its revocation, never
    ///   before it began), the period ending;
    /// - on a free trial's day, the trial converted, when its subscription's second period was
    ///   charged;
    /// - recurring revenue: a paid subscription period's price as a month's worth (its length
    ///   read in months: 28 days or more is a whole number of months, shorter a share of a year's
    ///   twelve) starting on its purchase day and ending with its access; and on a renewal's day
    ///   (a period after a paid one), the month's worth it follows and its own, and the difference
    ///   as expansion or contraction. A start that is no renewal is new revenue; an end no renewal
    ///   follows on its day is churned (``SalesDay``).
    public static func facts(from source: String, where condition: String?, dialect: Dialect, sign: Int) -> String {
        let live = Self.live
        let charged = Self.charged
        /// A period's price as a month's worth (0 for anything but a paid period).
        func monthly(_ row: String) -> String {
            let days = "((\(row).expires_date - \(row).purchase_date) / 86400000.0)"
            let months = "(CASE WHEN \(days) >= 27 THEN round(\(days) / 30.436875) ELSE \(days) * 12 / 365 END)"
            let paid = "\(row).state IN ('purchased', 'delivered', 'finished') AND \(row).offer IS NULL AND coalesce(\(row).price_minor, 0) > 0 "
                + "AND \(row).expires_date IS NOT NULL AND \(row).expires_date > \(row).purchase_date"
            return "(CASE WHEN \(paid) THEN \(dialect.rounded("\(row).price_minor / \(months)")) ELSE 0 END)"
        }
        let subscription = "t.expires_date IS NOT NULL"
        let renewal = "(CASE WHEN t.original_transaction_id IS NOT NULL AND t.original_transaction_id <> t.id THEN 1 ELSE 0 END)"
        let day = { (date: String) in "(\(date)) / \(millisecondsPerDay)" }
        let key = { (row: String, renewal: String, unitPrice: String) in
            var columns = [
                "coalesce(\(row).storefront, '\(Storefront.defaultCode)')", "coalesce(\(row).currency, '\(Catalog.defaultCurrency)')", "\(row).product_id",
                unitPrice, renewal,
            ]
            if dialect == .postgreSQL { columns.append("ascii(right(\(row).account_id, 1)) % \(shards)") }
            return columns
        }
        func named(_ columns: [String], _ names: ArraySlice<String>) -> String {
            zip(columns, names).map { "\($0) AS \($1)" }.joined(separator: ", ")
        }
        let unitPrice = "coalesce(t.price_minor, 0) / t.quantity"
        let tKey = key("t", renewal, unitPrice)
        let tKeys = tKey.joined(separator: ", ")
        func when(_ condition: String, _ value: String) -> String { "CASE WHEN \(condition) THEN \(sign) * (\(value)) ELSE 0 END" }
        func zero(_ count: Int) -> String { Array(repeating: "0", count: count).joined(separator: ", ") }
        let filter = { (more: String) in "WHERE " + ([condition, more].compactMap { $0 }).joined(separator: " AND ") }
        let until = "\(dialect.greatest)(t.purchase_date, \(dialect.least)(t.expires_date, coalesce(t.revocation_date, t.expires_date)))"
        let originalJoin = dialect == .postgreSQL ? "o.account_id = t.account_id AND o.id = t.original_transaction_id" : "o.id = t.original_transaction_id"
        let previousJoin = (dialect == .postgreSQL ? "q.account_id = t.account_id AND " : "") + "q.original_transaction_id = t.original_transaction_id AND q.period = t.period - 1"
        // revenue, charged, units, refunds, refunded_units, trials, paid_periods, renewals, conversions, live_change
        return [
            """
            SELECT \(day("t.purchase_date")) AS day, \(named(tKey, dialect.keys.dropFirst())), \(when(charged, "t.price_minor")) AS revenue,
                \(when(charged, "1")) AS charged, \(when(charged, "t.quantity")) AS units, 0 AS refunds, 0 AS refunded_units,
                \(when("t.offer = 'free-trial'", "1")) AS trials, \(when("\(charged) AND \(subscription)", "1")) AS paid_periods,
                \(when("\(charged) AND \(subscription)", renewal)) AS renewals, 0 AS conversions, \(when("\(live) AND \(subscription)", "1")) AS live_change,
                \(when("true", monthly("t"))) AS mrr_started, 0 AS mrr_ended, 0 AS mrr_renewed_from, 0 AS mrr_renewed_to, 0 AS mrr_expansion, 0 AS mrr_contraction
            FROM \(source) \(condition.map { "WHERE " + $0 } ?? "")
            """,
            """
            SELECT \(day("t.revocation_date")), \(tKeys), 0, 0, 0, \(when("true", "coalesce(t.refund_cents, t.price_minor)")), \(when("true", "t.quantity")), \(zero(5)), \(zero(6))
            FROM \(source) \(filter("\(charged) AND t.revocation_date IS NOT NULL"))
            """,
            """
            SELECT \(day(until)), \(tKeys), \(zero(9)), \(when("true", "-1")), 0, \(when("true", monthly("t"))), \(zero(4))
            FROM \(source) \(filter("\(live) AND \(subscription)"))
            """,
            """
            SELECT \(day("o.purchase_date")), \(key("o", "0", "0").joined(separator: ", ")), \(zero(8)), \(when("true", "1")), 0, \(zero(6))
            FROM \(source) JOIN transactions AS o ON \(originalJoin)
            \(filter("\(charged) AND \(subscription) AND t.period = 1 AND o.offer = 'free-trial'"))
            """,
            // A renewal: the paid period before it (the same subscription's), whose price is fixed once it is charged.
            """
            SELECT \(day("t.purchase_date")), \(tKeys), \(zero(10)), 0, 0, \(when("true", monthly("q"))), \(when("true", monthly("t"))),
                \(when("true", "\(dialect.greatest)(0, \(monthly("t")) - \(monthly("q")))")), \(when("true", "\(dialect.greatest)(0, \(monthly("q")) - \(monthly("t")))"))
            FROM \(source) JOIN transactions AS q ON \(previousJoin)
            \(filter("\(charged) AND \(subscription) AND t.period >= 1 AND \(monthly("q")) > 0"))
            """,
        ].joined(separator: "\nUNION ALL\n")
    }

    /// A transaction `t` in a live state: bought and not taken back by the store.
    static let live = "t.state IN ('purchased', 'delivered', 'finished')"
    /// A transaction `t` that charged the customer: live, not a free trial or an offer, at a price above zero.
    static let charged = "(\(live) AND t.offer IS NULL AND coalesce(t.price_minor, 0) > 0)"

    /// Adds `facts` to the table, one row per key, skipping keys whose sums are all zero.
    static func upsert(_ facts: String, dialect: Dialect) -> String {
        let keys = dialect.keys.joined(separator: ", ")
        let columns = dialect.keys + sums
        return """
            INSERT INTO sales_days (\(columns.joined(separator: ", ")))
            SELECT \(keys), \(sums.map { "sum(\($0))" }.joined(separator: ", "))
            FROM (\(facts)) AS f
            GROUP BY \(keys)
            HAVING \(sums.map { "sum(\($0)) <> 0" }.joined(separator: " OR "))
            ORDER BY \(keys)
            ON CONFLICT (\(keys)) DO UPDATE SET \(sums.map { "\($0) = sales_days.\($0) + excluded.\($0)" }.joined(separator: ", "))
            """
    }

    /// Every row made again from the transactions (within the caller's transaction).
    public static func rebuild(dialect: Dialect) -> String {
        "DELETE FROM sales_days;\n" + upsert(facts(from: "transactions AS t", where: nil, dialect: dialect, sign: 1), dialect: dialect)
    }

    /// The keys whose sums the table and a rebuild disagree on, at most 20: none when the
    /// aggregates are right.
    public static func differences(dialect: Dialect) -> String {
        let keys = dialect.keys.joined(separator: ", ")
        let columns = (dialect.keys + sums).joined(separator: ", ")
        let made = """
            SELECT \(keys), \(sums.map { "sum(\($0))" }.joined(separator: ", "))
            FROM (\(facts(from: "transactions AS t", where: nil, dialect: dialect, sign: 1))) AS f
            GROUP BY \(keys) HAVING \(sums.map { "sum(\($0)) <> 0" }.joined(separator: " OR "))
            """
        let kept = "SELECT \(columns) FROM sales_days WHERE \(sums.map { "\($0) <> 0" }.joined(separator: " OR "))"
        // Each side read once (a scan of every transaction is the cost of a check).
        return """
            WITH made AS MATERIALIZED (\(made)), kept AS MATERIALIZED (\(kept))
            SELECT * FROM (SELECT * FROM kept EXCEPT SELECT * FROM made) AS extra
            UNION ALL
            SELECT * FROM (SELECT * FROM made EXCEPT SELECT * FROM kept) AS missing
            LIMIT 20
            """
    }

    static let millisecondsPerDay: Int64 = 86_400_000
}

/// One row of the seller's numbers as kept (``SalesAggregates``), summed over accounts: what a
/// day's transactions of one product, storefront, currency, unit price and kind counted for.
public struct SalesDay: Sendable, Equatable {
    public var day: Int64
    public var storefront: String
    public var currency: String
    public var productID: String
    /// The price of one unit, in minor units of `currency` (0 for a free trial).
    public var unitPrice: Int64
    /// A subscription's renewal (a later period), not a first purchase.
    public var renewal: Bool
    /// Charged on the day: revenue in minor units, transactions, units.
    public var revenue: Int64 = 0
    public var charged: Int64 = 0
    public var units: Int64 = 0
    /// Came back on the day: refunds in minor units, units.
    public var refunds: Int64 = 0
    public var refundedUnits: Int64 = 0
    /// Free trials started on the day.
    public var trials: Int64 = 0
    /// Subscription periods charged on the day, and of those the renewals.
    public var paidPeriods: Int64 = 0
    public var renewals: Int64 = 0
    /// Free trials started on the day that were paid for since.
    public var conversions: Int64 = 0
    /// Subscription periods begun on the day less those whose access ended on it.
    public var liveChange: Int64 = 0
    /// Recurring revenue (a month's worth of each paid period, in minor units): begun on the day,
    /// ended on it; of renewals on the day, what they follow and what they bring, and the rises
    /// and falls between the two.
    public var mrrStarted: Int64 = 0
    public var mrrEnded: Int64 = 0
    public var mrrRenewedFrom: Int64 = 0
    public var mrrRenewedTo: Int64 = 0
    public var mrrExpansion: Int64 = 0
    public var mrrContraction: Int64 = 0
    /// Recurring revenue begun on the day that renews nothing.
    public var mrrNew: Int64 { mrrStarted - mrrRenewedTo }
    /// Recurring revenue ended on the day that no renewal followed.
    public var mrrChurned: Int64 { mrrEnded - mrrRenewedFrom }

    public init(day: Int64, storefront: String, currency: String, productID: String, unitPrice: Int64, renewal: Bool) {
        self.day = day
        self.storefront = storefront
        self.currency = currency
        self.productID = productID
        self.unitPrice = unitPrice
        self.renewal = renewal
    }

    /// The row of a query of ``SalesAggregates/rangeQuery(placeholders:)``: the keys, then the sums.
    init(keys: (day: Int64, storefront: String, currency: String, product: String, unitPrice: Int64, renewal: Int64), sums: [Int64]) {
        self.init(day: keys.day, storefront: keys.storefront, currency: keys.currency, productID: keys.product, unitPrice: keys.unitPrice, renewal: keys.renewal != 0)
        add(sums)
    }

    /// Adds sums in ``SalesAggregates/sums``' order.
    mutating func add(_ sums: [Int64]) {
        guard sums.count == SalesAggregates.sums.count else { return }
        revenue += sums[0]
        charged += sums[1]
        units += sums[2]
        refunds += sums[3]
        refundedUnits += sums[4]
        trials += sums[5]
        paidPeriods += sums[6]
        renewals += sums[7]
        conversions += sums[8]
        liveChange += sums[9]
        mrrStarted += sums[10]
        mrrEnded += sums[11]
        mrrRenewedFrom += sums[12]
        mrrRenewedTo += sums[13]
        mrrExpansion += sums[14]
        mrrContraction += sums[15]
    }

    var sumValues: [Int64] {
        [revenue, charged, units, refunds, refundedUnits, trials, paidPeriods, renewals, conversions, liveChange, mrrStarted, mrrEnded, mrrRenewedFrom, mrrRenewedTo,
         mrrExpansion, mrrContraction]
    }
}

/// The seller's kept numbers of a range of days: the rows of its days, and the subscription
/// periods live when it begins (begun before it, less those ended before it), by product.
public struct SalesDays: Sendable, Equatable {
    public var rows: [SalesDay]
    public var liveBefore: [String: Int64]
    /// Recurring revenue when the range begins, per currency.
    public var mrrBefore: [String: Int64]
    /// The months of the cohorts the range shows (``CohortAggregates/cohorts(firstDay:lastDay:)``).
    public var cohorts: [CohortMonth]

    public init(rows: [SalesDay], liveBefore: [String: Int64], mrrBefore: [String: Int64] = [:], cohorts: [CohortMonth] = []) {
        self.rows = rows
        self.liveBefore = liveBefore
        self.mrrBefore = mrrBefore
        self.cohorts = cohorts
    }

    /// Several ledgers' numbers as one: rows of the same key summed.
    init(merging parts: [SalesDays]) {
        struct Key: Hashable { var day: Int64, storefront: String, currency: String, product: String, unitPrice: Int64, renewal: Bool }
        var rows: [Key: SalesDay] = [:]
        var live: [String: Int64] = [:]
        var mrr: [String: Int64] = [:]
        struct CohortKey: Hashable { var cohort: Int, month: Int, currency: String }
        var cohorts: [CohortKey: CohortMonth] = [:]
        for part in parts {
            mrr.merge(part.mrrBefore, uniquingKeysWith: +)
            for row in part.cohorts {
                let key = CohortKey(cohort: row.cohort, month: row.month, currency: row.currency)
                if var sum = cohorts[key] {
                    sum.customers += row.customers
                    sum.revenue += row.revenue
                    sum.refunds += row.refunds
                    cohorts[key] = sum
                } else {
                    cohorts[key] = row
                }
            }
            for row in part.rows {
                let key = Key(day: row.day, storefront: row.storefront, currency: row.currency, product: row.productID, unitPrice: row.unitPrice, renewal: row.renewal)
                if rows[key] == nil { rows[key] = row } else { rows[key]?.add(row.sumValues) }
            }
            live.merge(part.liveBefore, uniquingKeysWith: +)
        }
        self.init(
            rows: rows.values.filter { $0.sumValues.contains { $0 != 0 } }.sorted {
                ($0.day, $0.storefront, $0.currency, $0.productID, $0.unitPrice, $0.renewal ? 1 : 0) < ($1.day, $1.storefront, $1.currency, $1.productID, $1.unitPrice, $1.renewal ? 1 : 0)
            }, liveBefore: live.filter { $0.value != 0 }, mrrBefore: mrr.filter { $0.value != 0 },
            cohorts: cohorts.values.filter { $0.customers != 0 || $0.revenue != 0 || $0.refunds != 0 }.sorted {
                ($0.cohort, $0.month, $0.currency) < ($1.cohort, $1.month, $1.currency)
            })
    }
}

extension SalesAggregates {
    /// The rows of days `$1...$2` (of storefront `$3`, or every one when it is empty), summed
    /// over shards: the six keys, then the sums.
    static func rangeQuery(placeholders p: [String]) -> String {
        let keys = Self.keys.joined(separator: ", ")
        return """
            SELECT \(keys), \(sums.map { "sum(\($0))" }.joined(separator: ", ")) FROM sales_days
            WHERE day >= \(p[0]) AND day <= \(p[1]) AND (\(p[2]) = '' OR storefront = \(p[2]))
            GROUP BY \(keys) HAVING \(sums.map { "sum(\($0)) <> 0" }.joined(separator: " OR "))
            ORDER BY \(keys)
            """
    }

    /// The recurring revenue at the start of day `$1` (of storefront `$2`, or every one), by currency.
    static func mrrQuery(placeholders p: [String]) -> String {
        """
        SELECT currency, sum(mrr_started - mrr_ended) FROM sales_days
        WHERE day < \(p[0]) AND (mrr_started <> 0 OR mrr_ended <> 0) AND (\(p[1]) = '' OR storefront = \(p[1]))
        GROUP BY currency HAVING sum(mrr_started - mrr_ended) <> 0
        """
    }

    /// The periods live at the start of day `$1` (of storefront `$2`, or every one), by product.
    static func liveQuery(placeholders p: [String]) -> String {
        """
        SELECT product_id, sum(live_change) FROM sales_days
        WHERE day < \(p[0]) AND live_change <> 0 AND (\(p[1]) = '' OR storefront = \(p[1]))
        GROUP BY product_id HAVING sum(live_change) <> 0
        """
    }
}

/// The kept numbers' triggers, once for every table that keeps some (``SalesAggregates``,
/// ``CohortAggregates``, ``PlayerAggregates``): what each does is its caller's SQL.
enum KeptTriggers {
    /// SQLite row triggers on `table`, named after `name`: `change(row, sign)` takes a row's facts
    /// away (`OLD`, -1) before it is changed or deleted, and adds them (`NEW`, 1) after it is
    /// written or changed.
    static func sqlite(_ name: String, on table: String, _ change: (String, Int) -> String) -> String {
        [("insert", "AFTER INSERT", "NEW", 1), ("before_update", "BEFORE UPDATE", "OLD", -1), ("after_update", "AFTER UPDATE", "NEW", 1),
         ("delete", "BEFORE DELETE", "OLD", -1)].map { suffix, event, row, sign in
            "CREATE TRIGGER \(name)_\(suffix) \(event) ON \(table) BEGIN\n    \(change(row, sign));\nEND;\n"
        }.joined()
    }

    /// PostgreSQL statement triggers on `table` after an insert, an update and a delete, named
    /// after `name`, with the rows each statement changed: `change(old, new)` is the work for the
    /// facts of the rows as they were (`facts("old_rows", -1)`) and as they are
    /// (`facts("new_rows", 1)`), `nil` where the statement has none.
    static func postgreSQL(
        _ name: String, on table: String, _ change: (String?, String?) -> String, facts: (String, Int) -> String
    ) -> String {
        let old = facts("old_rows", -1), new = facts("new_rows", 1)
        return [("insert", "INSERT", "NEW TABLE AS new_rows", change(nil, new)), ("update", "UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows", change(old, new)),
                ("delete", "DELETE", "OLD TABLE AS old_rows", change(old, nil))].map { suffix, event, transition, body in
            statement("\(name)_\(suffix)", after: event, on: table, referencing: transition, body: body)
        }.joined()
    }

    /// One PostgreSQL statement trigger `name` (and its function) after `event` on `table`,
    /// with the transition tables `transition`, running `body`.
    static func statement(_ name: String, after event: String, on table: String, referencing transition: String, body: String) -> String {
        """
        CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            \(body);
            RETURN NULL;
        END $$;
        CREATE TRIGGER \(name) AFTER \(event) ON \(table) REFERENCING \(transition)
            FOR EACH STATEMENT EXECUTE FUNCTION \(name)();

        """
    }
}
