import CivilCalendar
import PackServiceAPI

/// Customers by the month they first paid in (their cohort), kept with the ledger beside
/// ``SalesAggregates``: what each cohort's customers paid in each month since, so that retention,
/// revenue and lifetime value by cohort are read from a few rows, never from every transaction.
///
/// Two levels, each kept by triggers in the same database transaction as the ledger's
/// transactions:
/// - `customer_months`: per account (on PostgreSQL; a SQLite ledger is one account), currency and
///   month, what the account was charged (revenue, the charges) and what came back (refunds, in
///   the month of the refund). A customer's cohort in a currency is the first month with a
///   charge in it; a month with a charge counts the customer as paying in it.
/// - `cohort_months` (PostgreSQL only, where every account is in one database): per cohort,
///   month and currency, the customers paying, revenue and refunds, spread over shards as
///   `sales_days` is. A statement's trigger adds what changed in the months its rows touch, in
///   one upsert in key order (``postgreSQLChange(_:)``): a purchase costs its own month's rows,
///   not the history. A SQLite reader sums each ledger's share (``contributions(from:dialect:)``).
///
/// What a transaction counts for is ``SalesAggregates``' rule of a charge, read here once more
/// by month: ``facts(from:where:dialect:sign:)``.
public enum CohortAggregates {
    /// Months since January 1970 of the date in milliseconds `x`, UTC.
    static func month(_ x: String, dialect: SalesAggregates.Dialect) -> String {
        switch dialect {
        case .sqlite:
            "((CAST(strftime('%Y', (\(x)) / 1000, 'unixepoch') AS INTEGER) - 1970) * 12 + CAST(strftime('%m', (\(x)) / 1000, 'unixepoch') AS INTEGER) - 1)"
        case .postgreSQL:
            "((extract(year FROM to_timestamp((\(x)) / 1000.0) AT TIME ZONE 'UTC')::int - 1970) * 12 + extract(month FROM to_timestamp((\(x)) / 1000.0) AT TIME ZONE 'UTC')::int - 1)"
        }
    }

    /// The columns of `cohort_months` (with `shard` after `currency` on PostgreSQL).
    static let cohortKeys = ["cohort", "month", "currency"]
    static let cohortSums = ["customers", "revenue", "refunds"]

    static func customerKeys(_ dialect: SalesAggregates.Dialect) -> [String] {
        dialect == .sqlite ? ["currency", "month"] : ["account_id", "currency", "month"]
    }

    /// The facts of the transactions `source` names (as `t`, with `condition`), times `sign`:
    /// a charge in the month of its purchase (its price, one charge), and what came back of it in
    /// the month it was revoked (the refund recorded for an upgrade's unused part, else the price).
    static func facts(from source: String, where condition: String?, dialect: SalesAggregates.Dialect, sign: Int) -> String {
        let account = dialect == .sqlite ? "" : "t.account_id, "
        let currency = "coalesce(t.currency, '\(Catalog.defaultCurrency)')"
        let filter = { (more: String) in "WHERE " + ([condition, more].compactMap { $0 }).joined(separator: " AND ") }
        return """
            SELECT \(account)\(currency) AS currency, \(month("t.purchase_date", dialect: dialect)) AS month,
                \(sign) * t.price_minor AS revenue, 0 AS refunds, \(sign) AS charged
            FROM \(source) \(filter(SalesAggregates.charged))
            UNION ALL
            SELECT \(account)\(currency), \(month("t.revocation_date", dialect: dialect)), 0, \(sign) * coalesce(t.refund_cents, t.price_minor), 0
            FROM \(source) \(filter("\(SalesAggregates.charged) AND t.revocation_date IS NOT NULL"))
            """
    }

    /// `facts` summed per account, currency and month, the keys in order.
    static func summed(_ facts: String, dialect: SalesAggregates.Dialect) -> String {
        let keys = customerKeys(dialect).joined(separator: ", ")
        return """
            SELECT \(keys), sum(revenue) AS revenue, sum(refunds) AS refunds, sum(charged) AS charged
            FROM (\(facts)) AS f GROUP BY \(keys) HAVING sum(revenue) <> 0 OR sum(refunds) <> 0 OR sum(charged) <> 0
            """
    }

    /// What the customer months `source` (a table or a query's name) give their cohorts: for
    /// each month, its account's first month with a charge in that currency (the cohort), one
    /// customer when it has a charge, its revenue and refunds. The rule of a cohort, once.
    public static func contributions(from source: String, dialect: SalesAggregates.Dialect) -> String {
        let account = dialect == .sqlite ? "" : "account_id, "
        let shard = dialect == .sqlite ? "" : ", ascii(right(m.account_id, 1)) % \(SalesAggregates.shards) AS shard"
        let join = dialect == .sqlite ? "first.currency = m.currency" : "first.account_id = m.account_id AND first.currency = m.currency"
        return """
            SELECT first.cohort AS cohort, m.month AS month, m.currency AS currency\(shard),
                CASE WHEN m.charged > 0 THEN 1 ELSE 0 END AS customers, m.revenue AS revenue, m.refunds AS refunds
            FROM \(source) AS m
            JOIN (SELECT \(account)currency, min(month) AS cohort FROM \(source) WHERE charged > 0 GROUP BY \(account)currency) AS first ON \(join)
            """
    }

    static var postgreSQLCohortKeys: [String] { ["cohort", "month", "currency", "shard"] }

    /// Adds `contributions` (rows of ``contributions(from:dialect:)``'s columns, signed) to
    /// `cohort_months` (PostgreSQL), in key order.
    static func upsertCohorts(_ contributions: String) -> String {
        let keys = postgreSQLCohortKeys.joined(separator: ", ")
        return """
            INSERT INTO cohort_months (\(keys), customers, revenue, refunds)
            SELECT \(keys), sum(customers), sum(revenue), sum(refunds) FROM (\(contributions)) AS c
            GROUP BY \(keys) HAVING sum(customers) <> 0 OR sum(revenue) <> 0 OR sum(refunds) <> 0
            ORDER BY \(keys)
            ON CONFLICT (\(keys)) DO UPDATE SET \(cohortSums.map { "\($0) = cohort_months.\($0) + excluded.\($0)" }.joined(separator: ", "))
            """
    }

    /// Adds the summed facts `summed` to `customer_months`, in key order.
    static func upsertCustomers(_ summed: String, dialect: SalesAggregates.Dialect) -> String {
        let keys = customerKeys(dialect).joined(separator: ", ")
        let sums = ["revenue", "refunds", "charged"]
        return """
            INSERT INTO customer_months (\(keys), \(sums.joined(separator: ", ")))
            \(summed) ORDER BY \(keys)
            ON CONFLICT (\(keys)) DO UPDATE SET \(sums.map { "\($0) = customer_months.\($0) + excluded.\($0)" }.joined(separator: ", "))
            """
    }

    /// A PostgreSQL statement trigger's work for the facts `facts` of the rows it changed, in one
    /// upsert of `cohort_months` (its rows taken in key order), then the facts added to
    /// `customer_months`. An account whose cohort stays (it had paid before, no month loses its
    /// charges, nothing is charged before its first month: every purchase but a new customer's)
    /// adds what changed in the months it touches: a customer where a month gains its first
    /// charge, the revenue and refunds. Any other (a new customer; a history cleared or rewritten)
    /// has its share taken away as it was and added as it is, every month of it.
    static func postgreSQLChange(_ facts: String) -> String {
        let columns = customerKeys(.postgreSQL) + ["revenue", "refunds", "charged"]
        let list = columns.joined(separator: ", ")
        let negated = (postgreSQLCohortKeys + cohortSums.map { "-\($0) AS \($0)" }).joined(separator: ", ")
        let same = { (a: String, b: String) in "\(a).account_id = \(b).account_id AND \(a).currency = \(b).currency" }
        let shard = "ascii(right(c.account_id, 1)) % \(SalesAggregates.shards)"
        return """
            WITH d AS (\(summed(facts, dialect: .postgreSQL))),
            cur AS (SELECT d.*, coalesce(m.charged, 0) AS was FROM d LEFT JOIN customer_months AS m ON \(same("m", "d")) AND m.month = d.month),
            keys AS (SELECT account_id, currency, min(month) FILTER (WHERE was + charged > 0) AS touched_first, bool_or(was > 0 AND was + charged <= 0) AS emptied
                     FROM cur GROUP BY account_id, currency),
            firsts AS (SELECT k.*, (SELECT m.month FROM customer_months AS m WHERE \(same("m", "k")) AND m.charged > 0 ORDER BY m.month LIMIT 1) AS cohort
                       FROM keys AS k),
            stable AS MATERIALIZED (SELECT account_id, currency, cohort FROM firsts
                       WHERE NOT emptied AND cohort IS NOT NULL AND (touched_first IS NULL OR touched_first >= cohort)),
            moved AS MATERIALIZED (SELECT account_id, currency FROM keys EXCEPT SELECT account_id, currency FROM stable),
            before AS (SELECT \(columns.map { "m.\($0)" }.joined(separator: ", ")) FROM customer_months AS m
                       WHERE (m.account_id, m.currency) IN (SELECT account_id, currency FROM moved)),
            after AS (SELECT account_id, currency, month, sum(revenue) AS revenue, sum(refunds) AS refunds, sum(charged) AS charged
                      FROM (SELECT \(list) FROM before
                            UNION ALL SELECT \(list) FROM d WHERE (d.account_id, d.currency) IN (SELECT account_id, currency FROM moved)) AS x
                      GROUP BY account_id, currency, month)
            \(upsertCohorts("""
                SELECT s.cohort, c.month, c.currency, \(shard) AS shard,
                    (CASE WHEN c.was + c.charged > 0 THEN 1 ELSE 0 END) - (CASE WHEN c.was > 0 THEN 1 ELSE 0 END) AS customers, c.revenue, c.refunds
                FROM cur AS c JOIN stable AS s ON \(same("s", "c"))
                UNION ALL SELECT \(negated) FROM (\(contributions(from: "before", dialect: .postgreSQL))) AS b
                UNION ALL \(contributions(from: "after", dialect: .postgreSQL))
                """));
            \(upsertCustomers(summed(facts, dialect: .postgreSQL), dialect: .postgreSQL))
            """
    }

    /// The tables, (on SQLite) the triggers, and the rows of the transactions there already: a migration.
    public static func schema(_ dialect: SalesAggregates.Dialect) -> String {
        let integer = dialect.integer
        switch dialect {
        case .sqlite:
            let summedWhere = { (row: String, sign: Int) in
                upsertCustomers(summed(facts(from: "transactions AS t", where: "t.id = \(row).id", dialect: dialect, sign: sign), dialect: dialect), dialect: dialect)
            }
            return """
                -- What the account was charged and refunded per currency and month (CohortAggregates):
                -- its cohort is the first month it paid in. Kept by triggers, rebuilt by 'hangman report --rebuild'.
                CREATE TABLE customer_months (
                    currency TEXT NOT NULL,
                    month INTEGER NOT NULL,
                    revenue INTEGER NOT NULL DEFAULT 0,
                    refunds INTEGER NOT NULL DEFAULT 0,
                    charged INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (currency, month)
                );
                \(KeptTriggers.sqlite("customer_months", on: "transactions", summedWhere))
                \(upsertCustomers(summed(facts(from: "transactions AS t", where: nil, dialect: dialect, sign: 1), dialect: dialect), dialect: dialect));

                """
        case .postgreSQL:
            return """
                -- What each account was charged and refunded per currency and month, and per cohort
                -- (the first month a customer paid in) what its customers paid each month since
                -- (CohortAggregates). Kept by triggers, rebuilt by 'hangman report --rebuild'.
                CREATE TABLE customer_months (
                    account_id TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    month INTEGER NOT NULL,
                    revenue \(integer) NOT NULL DEFAULT 0,
                    refunds \(integer) NOT NULL DEFAULT 0,
                    charged \(integer) NOT NULL DEFAULT 0,
                    PRIMARY KEY (account_id, currency, month)
                );
                CREATE TABLE cohort_months (
                    cohort INTEGER NOT NULL,
                    month INTEGER NOT NULL,
                    currency TEXT NOT NULL,
                    shard INTEGER NOT NULL,
                    customers \(integer) NOT NULL DEFAULT 0,
                    revenue \(integer) NOT NULL DEFAULT 0,
                    refunds \(integer) NOT NULL DEFAULT 0,
                    PRIMARY KEY (cohort, month, currency, shard)
                );
                \(KeptTriggers.postgreSQL("cohort_months", on: "transactions") { old, new in
                    postgreSQLChange([old, new].compactMap { $0 }.joined(separator: "\nUNION ALL\n"))
                } facts: { rows, sign in
                    facts(from: rows + " AS t", where: nil, dialect: dialect, sign: sign)
                })
                \(fill);

                """
        }
    }

    /// Both levels made from every transaction (PostgreSQL), the tables empty.
    private static var fill: String {
        upsertCustomers(summed(facts(from: "transactions AS t", where: nil, dialect: .postgreSQL, sign: 1), dialect: .postgreSQL), dialect: .postgreSQL) + ";\n"
            + upsertCohorts(contributions(from: "customer_months", dialect: .postgreSQL))
    }

    /// Every row made again from the transactions (within the caller's transaction).
    public static func rebuild(dialect: SalesAggregates.Dialect) -> String {
        switch dialect {
        case .sqlite:
            "DELETE FROM customer_months;\n"
                + upsertCustomers(summed(facts(from: "transactions AS t", where: nil, dialect: dialect, sign: 1), dialect: dialect), dialect: dialect)
        case .postgreSQL: "DELETE FROM cohort_months;\nDELETE FROM customer_months;\n" + fill
        }
    }

    /// The rows the tables and a sum of every transaction disagree on, at most 20, each led by
    /// its table's name: none when they are right.
    public static func differences(dialect: SalesAggregates.Dialect) -> String {
        let columns = (customerKeys(dialect) + ["revenue", "refunds", "charged"]).joined(separator: ", ")
        let made = summed(facts(from: "transactions AS t", where: nil, dialect: dialect, sign: 1), dialect: dialect)
        let keptCustomers = "SELECT \(columns) FROM customer_months WHERE revenue <> 0 OR refunds <> 0 OR charged <> 0"
        let customers = """
            SELECT 'customer_months', * FROM (SELECT * FROM keptCustomers EXCEPT SELECT * FROM made) AS extra
            UNION ALL
            SELECT 'customer_months', * FROM (SELECT * FROM made EXCEPT SELECT * FROM keptCustomers) AS missing
            """
        guard dialect == .postgreSQL else {
            return "WITH made AS MATERIALIZED (\(made)), keptCustomers AS MATERIALIZED (\(keptCustomers))\n\(customers)\nLIMIT 20"
        }
        let keys = postgreSQLCohortKeys.joined(separator: ", ")
        let cohortColumns = (postgreSQLCohortKeys + cohortSums).joined(separator: ", ")
        let madeCohorts = """
            SELECT \(keys), sum(customers) AS customers, sum(revenue) AS revenue, sum(refunds) AS refunds FROM (\(contributions(from: "made", dialect: dialect))) AS c
            GROUP BY \(keys) HAVING sum(customers) <> 0 OR sum(revenue) <> 0 OR sum(refunds) <> 0
            """
        let keptCohorts = "SELECT \(cohortColumns) FROM cohort_months WHERE customers <> 0 OR revenue <> 0 OR refunds <> 0"
        // The two tables' rows differ in shape: each is told as text.
        return """
            WITH made AS MATERIALIZED (\(made)), keptCustomers AS MATERIALIZED (\(keptCustomers)),
            madeCohorts AS MATERIALIZED (\(madeCohorts)), keptCohorts AS MATERIALIZED (\(keptCohorts))
            SELECT 'customer_months ' || concat_ws(' ', \(columns)) FROM (SELECT * FROM keptCustomers EXCEPT SELECT * FROM made) AS extra
            UNION ALL
            SELECT 'customer_months ' || concat_ws(' ', \(columns)) FROM (SELECT * FROM made EXCEPT SELECT * FROM keptCustomers) AS missing
            UNION ALL
            SELECT 'cohort_months ' || concat_ws(' ', \(cohortColumns)) FROM (SELECT * FROM keptCohorts EXCEPT SELECT * FROM madeCohorts) AS extra
            UNION ALL
            SELECT 'cohort_months ' || concat_ws(' ', \(cohortColumns)) FROM (SELECT * FROM madeCohorts EXCEPT SELECT * FROM keptCohorts) AS missing
            LIMIT 20
            """
    }

    /// The cohorts a range of days `firstDay...lastDay` shows: those of its months, and at least
    /// the twelve up to its last month; and the last month their months are read to.
    public static func cohorts(firstDay: Int64, lastDay: Int64) -> (first: Int, last: Int) {
        let last = CohortMonth.month(ofMilliseconds: lastDay * UTCDateTime.millisecondsPerDay)
        return (min(CohortMonth.month(ofMilliseconds: firstDay * UTCDateTime.millisecondsPerDay), last - 11), last)
    }

    /// The cohorts' months from cohort `$1` on, up to month `$2`, summed over shards
    /// (PostgreSQL): cohort, month, currency, customers, revenue, refunds.
    static func postgreSQLRangeQuery() -> String {
        """
        SELECT cohort, month, currency, sum(customers), sum(revenue), sum(refunds) FROM cohort_months
        WHERE cohort >= $1 AND month <= $2
        GROUP BY cohort, month, currency HAVING sum(customers) <> 0 OR sum(revenue) <> 0 OR sum(refunds) <> 0
        ORDER BY cohort, month, currency
        """
    }

    /// A SQLite ledger's share of the cohorts from cohort `?1` on, up to month `?2`, in the same columns.
    static func sqliteRangeQuery() -> String {
        """
        SELECT cohort, month, currency, customers, revenue, refunds FROM (\(contributions(from: "customer_months", dialect: .sqlite)))
        WHERE cohort >= ?1 AND month <= ?2 AND (customers <> 0 OR revenue <> 0 OR refunds <> 0)
        """
    }
}

/// One cohort's month as kept (``CohortAggregates``), summed over accounts: of the customers who
/// first paid in `cohort` (months since January 1970) in `currency`, those paying in `month`,
/// and what they paid and got back in it (minor units).
public struct CohortMonth: Sendable, Equatable, Hashable {
    public var cohort: Int
    public var month: Int
    public var currency: String
    public var customers: Int64
    public var revenue: Int64
    public var refunds: Int64

    public init(cohort: Int, month: Int, currency: String, customers: Int64, revenue: Int64, refunds: Int64) {
        self.cohort = cohort
        self.month = month
        self.currency = currency
        self.customers = customers
        self.revenue = revenue
        self.refunds = refunds
    }

    /// Months since January 1970 of the date in milliseconds, UTC.
    public static func month(ofMilliseconds date: Int64) -> Int {
        let civil = CivilDate.civil(fromDays: UTCDateTime.day(ofMilliseconds: date))
        return Int((civil.year - 1970) * 12 + civil.month - 1)
    }

    /// The first day of `month` (months since January 1970), days since 1970.
    public static func firstDay(of month: Int) -> Int64 {
        let year = month >= 0 ? month / 12 : (month - 11) / 12
        return CivilDate.days(fromCivil: Int64(1970 + year), Int64(month - year * 12 + 1), 1)
    }

    /// The month's name, `YYYY-MM`.
    public static func name(_ month: Int) -> String {
        String(UTCDateTime(millisecondsSince1970: firstDay(of: month) * UTCDateTime.millisecondsPerDay).dateText.prefix(7))
    }
}
