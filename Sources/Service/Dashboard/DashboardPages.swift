import CivilCalendar
import PackServiceAPI
import SalesReports
import Seller
import SystemCalls

/// Amounts and dates as the viewer reads them (from `Accept-Language`'s first language): the
/// currency's own decimals with the decimal comma where the language writes one, the code after
/// (`12,96 EUR`), never converted; a day in the language's order (`4.12.2026`, `12/4/2026`,
/// `2026/12/04`). Tables and exports keep ISO dates, for copying; the charts' labels use these.
public struct ViewerLocale: Sendable {
    /// The language tag the page is written for (`de`, `en-US`), `en` when none is asked.
    public let language: String
    public let decimalComma: Bool
    let dayOrder: DayOrder

    enum DayOrder: Sendable { case monthDayYear, dayMonthYearSlash, dayMonthYearDot, dayMonthYearDash, yearMonthDaySlash, iso }

    /// Languages that write a decimal comma (German, French, Spanish, Italian, Portuguese, ...).
    static let commaLanguages: Set<String> = ["de", "fr", "es", "it", "pt", "nl", "ru", "pl", "sv", "da", "nb", "fi", "cs", "tr", "id", "vi", "uk", "ro", "hu", "el"]

    public init(acceptLanguage: String?) {
        let first = acceptLanguage?.split(separator: ",").first?.split(separator: ";").first?.trimmingCharactersInSpace ?? ""
        let tag = first.isEmpty || first == "*" || !first.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }) ? "en" : first
        let base = LanguageTag.primary(tag)
        let region = tag.count > base.count ? String(tag.dropFirst(base.count + 1)).uppercased() : ""
        language = region.isEmpty ? base : base + "-" + region
        decimalComma = Self.commaLanguages.contains(base)
        switch base {
        case "en" where region.isEmpty || region == "US" || region == "PH": dayOrder = .monthDayYear
        case "en", "fr", "es", "it", "pt", "el", "vi", "id": dayOrder = .dayMonthYearSlash
        case "de", "ru", "pl", "fi", "cs", "nb", "da", "tr", "uk", "ro": dayOrder = .dayMonthYearDot
        case "nl": dayOrder = .dayMonthYearDash
        case "ja", "zh", "ko": dayOrder = .yearMonthDaySlash
        default: dayOrder = .iso
        }
    }

    public func format(_ minor: Int64, _ currency: String) -> String {
        let text = Money(minorUnits: minor, currency: currency).decimal
        return (decimalComma ? text.replacingDecimalPoint : text) + " " + currency
    }

    /// An ISO day (`2026-12-04`) in the viewer's order; anything else as it is.
    public func day(_ iso: String) -> String {
        let parts = iso.split(separator: "-")
        guard parts.count == 3, let month = Int(parts[1]), let day = Int(parts[2]) else { return iso }
        let year = parts[0]
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
        switch dayOrder {
        case .monthDayYear: return "\(month)/\(day)/\(year)"
        case .dayMonthYearSlash: return "\(two(day))/\(two(month))/\(year)"
        case .dayMonthYearDot: return "\(day).\(month).\(year)"
        case .dayMonthYearDash: return "\(day)-\(month)-\(year)"
        case .yearMonthDaySlash: return "\(year)/\(two(month))/\(two(day))"
        case .iso: return iso
        }
    }
}

extension Substring {
    fileprivate var trimmingCharactersInSpace: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}

extension String {
    fileprivate var replacingDecimalPoint: String { String(map { $0 == "." ? "," : $0 }) }
}

/// The dashboard's pages as HTML: a chart drawn by the server (SVG) with a table of the same
/// numbers beneath it, for screen readers and copying; no script; every catalog name escaped.
public struct DashboardPages: Sendable {
    public enum Page: String, CaseIterable, Sendable {
        case overview, subscriptions, players, products, refunds, customers, notifications

        var title: String {
            switch self {
            case .overview: "Overview"
            case .subscriptions: "Subscriptions"
            case .players: "Players"
            case .products: "Products"
            case .refunds: "Refunds"
            case .customers: "Customers"
            case .notifications: "Notifications"
            }
        }
    }

    /// A refund request of the range, with its purchase's product name.
    public struct RefundRow: Sendable {
        public var refundCase: RefundCase
        public var product: String

        public init(refundCase: RefundCase, product: String) {
            self.refundCase = refundCase
            self.product = product
        }
    }

    public let overview: SalesOverview
    /// The players' numbers, for the players page (read only for it).
    public var players: PlayersOverview?
    /// The refund requests of the range, for the refunds page (read only for it).
    public var refunds: [RefundRow]?
    /// The customers page: what was looked for, the customers found (or why the search was
    /// refused), and the story of the one chosen.
    public var customerSearch: (query: String, matches: [CustomerMatch], refused: String?)?
    public var customerStory: CustomerStory?
    /// The actions taken on the customer shown, newest first; whether this token may act; a
    /// fresh key for the forms (a form sent twice is one grant); what the last action came to.
    public var customerActions: [AdminAction] = []
    public var mayAct = false
    public var actionKey = ""
    public var actionOutcome: String?
    /// The delivery log: the notifications not delivered, for the notifications page.
    public var undelivered: [UndeliveredNotification]?
    public let days: [String]
    public let query: String
    public let storefronts: [String]
    public let amounts: ViewerLocale
    public let rangeDays: Int
    /// The range's days as the viewer reads them, for the charts' labels.
    var chartDays: [String] { days.map(amounts.day) }
    /// Names products (a plan's display name) from the catalog sold from.
    public let catalog: Catalog

    /// `days` the range's ISO dates; `query` the range and storefront as a query string, kept by
    /// every link.
    public init(overview: SalesOverview, catalog: Catalog, firstDay: Int64, lastDay: Int64, amounts: ViewerLocale, query: String) {
        self.overview = overview
        self.catalog = catalog
        days = (firstDay...max(firstDay, lastDay)).map { UTCDateTime(millisecondsSince1970: $0 * UTCDateTime.millisecondsPerDay).dateText }
        storefronts = catalog.storefrontCodes
        self.amounts = amounts
        self.query = query
        rangeDays = days.count
    }

    public func html(_ page: Page) -> String {
        var body = ""
        switch page {
        case .overview: body = overviewBody()
        case .subscriptions: body = subscriptionsBody()
        case .players: body = playersBody()
        case .products: body = productsBody()
        case .refunds: body = refundsBody()
        case .customers: body = customersBody()
        case .notifications: body = notificationsBody()
        }
        return Self.document(title: page.title, body: header(page) + "<main>" + body + "</main>", language: amounts.language)
    }

    /// A whole page around `body`.
    public static func document(title: String, body: String, language: String = "en") -> String {
        """
        <!doctype html>
        <html lang="\(escaped(language))"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Hangman Packs · \(escaped(title))</title><link rel="stylesheet" href="/style.css"></head>
        <body>\(body)</body></html>
        """
    }

    /// The sign-in page: the admin token, asked once.
    public static func signIn(refused: Bool) -> String {
        document(title: "Sign in", body: """
            <main class="sign-in"><h1>Hangman Packs</h1><form method="post" action="/sign-in">
            <label for="token">Admin token</label><input id="token" name="token" type="password" autocomplete="off" required>
            <button type="submit">Sign in</button>\(refused ? "<p class=\"refused\" role=\"alert\">That token does not open the dashboard.</p>" : "")
            <p class="hint">Made with <code>hangman serve --data DIR --admin-token</code>.</p></form></main>
            """)
    }

    private func header(_ current: Page) -> String {
        let nav = Page.allCases.map { page in
            "<a href=\"\(DashboardRoute.page(page).path)?\(escaped(query))\"\(page == current ? " aria-current=\"page\"" : "")>\(page.title)</a>"
        }.joined()
        // A range of dates is "custom": choosing a number of days instead asks for those days.
        let custom = query.hasPrefix("from=")
        let ranges = [7, 30, 90].map { "<option value=\"\($0)\"\(!custom && $0 == rangeDays ? " selected" : "")>\($0) days</option>" }.joined()
            + "<option value=\"\"\(custom ? " selected" : "")>Custom (from, to)</option>"
        let fronts = (["<option value=\"\">Every storefront</option>"] + storefronts.map {
            "<option value=\"\(escaped($0))\"\($0 == overview.storefront ? " selected" : "")>\(escaped($0))</option>"
        }).joined()
        let signOut = "<header><h1>Hangman Packs</h1><nav>\(nav)</nav><form class=\"sign-out\" method=\"post\" action=\"\(DashboardRoute.signOut.path)\"><button>Sign out</button></form>"
        // A customer, or the delivery log, is not of a range of days.
        if current == .customers || current == .notifications { return signOut + "</header>" }
        return signOut + """
            <form class="range" method="get" action="/\(current.rawValue)">
            <label>Range <select name="days">\(ranges)</select></label>
            <label>or from <input type="text" name="from" value="\(escaped(overview.firstDay))" pattern="[0-9]{4}-[0-9]{2}-[0-9]{2}" placeholder="YYYY-MM-DD" size="10" inputmode="numeric"></label>
            <label>to <input type="text" name="to" value="\(escaped(overview.lastDay))" pattern="[0-9]{4}-[0-9]{2}-[0-9]{2}" placeholder="YYYY-MM-DD" size="10" inputmode="numeric"></label>
            <label>Storefront <select name="storefront">\(fronts)</select></label>
            <button type="submit">Show</button></form>
            <p class="range-said">\(escaped(overview.firstDay)) to \(escaped(overview.lastDay)) (UTC), \(escaped(overview.storefront.map { "storefront " + $0 } ?? "every storefront"))</p>
            </header>
            """
    }

    /// The numbers a subscription business reads first, as tiles: recurring revenue now, the
    /// subscribers, and the range's revenue and net, each currency apart.
    private func tilesBody() -> String {
        let tiles = overview.tiles
        /// An amount per currency, a line each.
        func money(_ amounts: [(currency: String, minor: Int64)]) -> [String] {
            amounts.isEmpty ? ["-"] : amounts.map { self.amounts.format($0.minor, $0.currency) }
        }
        // A title, what it is of (kept on one line: a date is not broken at its hyphens), its lines.
        let cells: [(String, String?, [String])] = [
            ("Monthly recurring revenue", "on \(overview.lastDay)", money(tiles.monthlyRecurringRevenue.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })),
            ("Active subscriptions", nil, [String(tiles.activeSubscriptions)]), ("In a free trial", nil, [String(tiles.inTrial)]),
            ("Revenue in these days", nil, money(overview.currencies.map { ($0.currency, $0.revenue) })),
            ("Net in these days", nil, money(overview.currencies.map { ($0.currency, $0.net) })),
        ]
        return "<section class=\"tiles\" aria-label=\"The numbers now\">" + cells.map { title, note, lines in
            let heading = escaped(title) + (note.map { " <span class=\"nowrap\">\(escaped($0))</span>" } ?? "")
            return "<div class=\"tile\"><span class=\"tile-title\">\(heading)</span><span class=\"tile-value\">" + lines.map(escaped).joined(separator: "<br>") + "</span></div>"
        }.joined() + "</section>"
    }

    private func overviewBody() -> String {
        let tiles = tilesBody()
        guard !overview.currencies.isEmpty else { return tiles + "<p class=\"empty\">Nothing sold or refunded in these days.</p>" + cohortsBody() }
        var html = tiles + "<section><h2>Revenue, refunds and net</h2>" + table(
            id: "totals", caption: "Per currency, never converted",
            head: ["Currency", "Revenue", "Refunds", "Net"],
            rows: overview.currencies.map { [$0.currency, amounts.format($0.revenue, $0.currency), amounts.format($0.refunds, $0.currency), amounts.format($0.net, $0.currency)] })
            + "</section>"
        for line in overview.currencies {
            let id = "revenue-\(line.currency)"
            html += "<section><h2>Revenue per day, \(escaped(line.currency))</h2>"
            html += Charts.line(id: id, title: "Revenue per day in \(line.currency)", days: chartDays, values: line.dailyRevenue) { amounts.format($0, line.currency) }
            html += "<details><summary>The numbers (<a href=\"\(DashboardRoute.chart(id).path)?\(escaped(query))\">CSV</a>)</summary>"
            html += table(id: id + "-table", caption: "Revenue and refunds per day in \(line.currency)", head: ["Day", "Revenue", "Refunds"],
                rows: days.indices.map { [days[$0], amounts.format(line.dailyRevenue[$0], line.currency), amounts.format(line.dailyRefunds[$0], line.currency)] })
            html += "</details></section>"
        }
        html += "<section><h2>Units per product</h2>" + Charts.bars(id: "units", title: "Units sold per product", rows: overview.products.map { ($0.name, $0.units) })
        html += table(id: "units-table", caption: "Units sold and refunded per product (CSV: /export/units.csv)", head: ["Product", "Units", "Refunded"],
            rows: overview.products.map { [$0.name, String($0.units), String($0.refunded)] }) + "</section>"
        return html + cohortsBody()
    }

    /// Each currency's cohorts: the share paying in each month since as a table shaded by it (a
    /// cohort chart), with its CSV, then the lifetime value of each so far as bars.
    private func cohortsBody() -> String {
        var html = ""
        for currency in Set(overview.cohorts.map(\.currency)).sorted() {
            let cohorts = overview.cohorts.filter { $0.currency == currency }
            let id = "cohorts-\(currency)"
            let ages = min(12, (cohorts.map(\.paying.count).max() ?? 1) - 1)
            html += "<section><h2>Cohorts, \(escaped(currency))</h2><p class=\"hint\">Customers by the month they first paid in: the share of them "
                + "paying in each month after, and the net revenue per customer so far (lifetime value).</p>"
            let head = ["Cohort", "Customers"] + (1...max(1, ages)).map { "+\($0) mo" } + ["Value"]
            html += "<table id=\"\(escaped(id))-table\" class=\"cohorts\"><caption>Share of each cohort paying in the months after its first "
                + "(<a href=\"\(DashboardRoute.chart(id).path)?\(escaped(query))\">CSV</a>)</caption><thead><tr>"
                + head.map { "<th scope=\"col\">\(escaped($0))</th>" }.joined() + "</tr></thead><tbody>"
            for line in cohorts {
                html += "<tr><td data-label=\"Cohort\">\(escaped(line.month))</td><td data-label=\"Customers\">\(line.customers)</td>"
                for age in 1...max(1, ages) {
                    guard age < line.retention.count else {
                        html += "<td data-label=\"+\(age) mo\" class=\"later\"></td>"
                        continue
                    }
                    let share = line.retention[age]
                    // Shaded by tenths (a class each: the page's policy allows no inline style).
                    html += "<td data-label=\"+\(age) mo\" class=\"heat-\(Int((share / 10).rounded()))\">\(CNumberFormat.fixed(share, fractionDigits: 0))%</td>"
                }
                html += "<td data-label=\"Value\">\(escaped(amounts.format(line.lifetimeValue.last ?? 0, currency)))</td></tr>"
            }
            html += "</tbody></table>"
            html += Charts.bars(
                id: id + "-value", title: "Lifetime value so far per cohort in \(currency)",
                rows: cohorts.map { ("\($0.month): \($0.customers) customer\($0.customers == 1 ? "" : "s")", Int($0.lifetimeValue.last ?? 0)) }
            ) { amounts.format(Int64($0), currency) }
            html += "</section>"
        }
        return html
    }

    private func productsBody() -> String {
        guard !overview.products.isEmpty else { return "<p class=\"empty\">No product sold or refunded in these days.</p>" }
        let rows = overview.products.enumerated().map { rank, product in
            [String(rank + 1), product.name, product.productID.rawValue, String(product.units), String(product.refunded),
             product.revenue.sorted { $0.key < $1.key }.map { amounts.format($0.value, $0.key) }.joined(separator: " + ")]
        }
        return "<section><h2>Every product</h2>" + table(id: "products", caption: "Units, refunds and revenue by currency, most units first",
            head: ["Rank", "Product", "Identifier", "Units", "Refunded", "Revenue"], rows: rows) + "</section>"
    }

    private func subscriptionsBody() -> String {
        let subscriptions = overview.subscriptions
        let plans = subscriptions.active.sorted { $0.key < $1.key }.map { plan in
            (key: ProductID(rawValue: plan.key).flatMap { catalog.product($0)?.displayName } ?? plan.key, value: plan.value)
        }
        let conversion = subscriptions.trialsStarted == 0 ? "-" : "\(subscriptions.trialsConverted * 100 / subscriptions.trialsStarted)%"
        var html = "<section><h2>Active subscriptions now, by plan</h2>"
        html += Charts.bars(id: "active", title: "Active subscriptions by plan", rows: plans.map { ($0.key, $0.value) })
        html += table(id: "active-table", caption: "Active subscriptions by plan", head: ["Plan", "Active"], rows: plans.map { [$0.key, String($0.value)] })
        html += "</section><section><h2>In these days</h2>"
        html += table(id: "trials", caption: "Free trials, charged periods, renewals and subscriptions ended", head: ["", "Count"], rows: [
            ["Free trials started", String(subscriptions.trialsStarted)], ["Trials paid since", String(subscriptions.trialsConverted)],
            ["Trial-to-paid conversion", conversion], ["Periods charged (new and renewals)", String(subscriptions.paidPeriods)],
            ["Renewals", String(subscriptions.renewals)], ["Subscriptions ended (churn)", String(subscriptions.ended)],
            ["Ended by the subscriber (voluntary)", String(subscriptions.endedVoluntarily)], ["Ended as renewals failed (billing)", String(subscriptions.endedByBilling)],
        ])
        for line in overview.recurringRevenue {
            let id = "mrr-\(line.currency)"
            let format = { (value: Int64) in amounts.format(value, line.currency) }
            html += "</section><section><h2>Monthly recurring revenue, \(escaped(line.currency))</h2>"
            html += Charts.line(id: id, title: "Monthly recurring revenue at the end of each day in \(line.currency)", days: chartDays, values: line.byDay, label: format)
            let sum = { (values: [Int64]) in format(values.reduce(0, +)) }
            html += table(id: id + "-movement", caption: "How it moved in these days, from \(format(line.atStart)) to \(format(line.byDay.last ?? line.atStart))",
                head: ["New", "Expansion", "Contraction", "Churned"], rows: [[sum(line.new), sum(line.expansion), sum(line.contraction), sum(line.churned)]])
            html += "<details><summary>The numbers (<a href=\"\(DashboardRoute.chart(id).path)?\(escaped(query))\">CSV</a>)</summary>"
            html += table(id: id + "-table", caption: "Per day in \(line.currency)", head: ["Day", "At the end", "New", "Expansion", "Contraction", "Churned"],
                rows: days.indices.map { [days[$0], format(line.byDay[$0]), format(line.new[$0]), format(line.expansion[$0]), format(line.contraction[$0]), format(line.churned[$0])] })
            html += "</details>"
        }
        let rates = overview.rates
        func percent(_ value: Double?) -> String { value.map { CNumberFormat.fixed($0, fractionDigits: 1) + "%" } ?? "-" }
        html += "</section><section><h2>Rates in these days</h2>"
        html += table(id: "rates", caption: "Churn of the \(rates.liveAtStart) subscriptions live when these days began; refunds of each currency's revenue", head: ["", "Rate"],
            rows: [
                ["Churn", percent(rates.churn)], ["Voluntary churn", percent(rates.voluntaryChurn)], ["Billing churn", percent(rates.billingChurn)],
                ["Trial conversion", percent(rates.trialConversion)],
            ] + rates.refunds.sorted { $0.key < $1.key }.map { ["Refunds, \($0.key)", percent($0.value)] })
        html += "</section><section><h2>Renewals failing now</h2>"
        html += table(id: "failing", caption: "Subscriptions whose renewal is failing", head: ["", "Count"], rows: [
            ["In grace period (still open)", String(subscriptions.inGracePeriod)], ["In billing retry (closed until paid)", String(subscriptions.inBillingRetry)],
        ])
        html += "</section>"
        for (plan, counts) in subscriptions.activeByDay.sorted(by: { $0.key < $1.key }) {
            let name = ProductID(rawValue: plan).flatMap { catalog.product($0)?.displayName } ?? plan
            let id = "active-" + plan.split(separator: ".").last.map(String.init)!
            html += "<section><h2>Active per day, \(escaped(name))</h2>"
            html += Charts.line(id: id, title: "Active subscriptions per day, \(name)", days: chartDays, values: counts.map(Int64.init)) { String($0) }
            html += "<details><summary>The numbers</summary>" + table(
                id: id + "-table", caption: "Active at the end of each day", head: ["Day", "Active"], rows: days.indices.map { [days[$0], String(counts[$0])] })
            html += "</details></section>"
        }
        return html
    }

    /// Each refund request of the range: the purchase, why, where it stands, and the consumption
    /// answer the developer's server sent (Send Consumption Information), as it was sent.
    private func refundsBody() -> String {
        guard let refunds, !refunds.isEmpty else { return "<p class=\"empty\">No refund asked for or made in these days.</p>" }
        func date(_ milliseconds: Int64?) -> String { milliseconds.map { UTCDateTime(millisecondsSince1970: $0).dateTimeText } ?? "-" }
        // A refund the App Store made without a request (a test control's) has no request date.
        let rows = refunds.map { row -> [String] in
            let refund = row.refundCase
            // The answer as the backend sent it, its members apart so that it wraps.
            let answer = refund.consumption.map { String($0.prefix(600)).split(separator: ",", omittingEmptySubsequences: false).joined(separator: ", ") } ?? "none"
            return [refund.requestedDate.map(date) ?? "not asked", refund.transactionID.number, row.product, refund.reason?.rawValue ?? "-", refund.state.rawValue, date(refund.decidedDate), answer]
        }
        return "<section><h2>Refunds and refund requests</h2>" + table(
            id: "refunds", caption: "Refunds asked for or made in these days, with the consumption answer the developer's server sent",
            head: ["Requested", "Transaction", "Product", "Reason", "State", "Decided", "Consumption answer"], rows: rows) + "</section>"
    }

    private func playersBody() -> String {
        guard let players else { return "<p class=\"empty\">No players' numbers.</p>" }
        var html = "<section><h2>In these days</h2>" + table(id: "players-totals", caption: "Accounts, games and hints in all", head: ["", "Count"], rows: [
            ["Accounts made", String(players.accountsMade)], ["Games served", String(players.gamesServed)],
            ["Daily-word players (per day, summed)", String(players.dailyPlayers)], ["Hints sold", String(players.hintsSold)],
            ["Hints spent", String(players.hintsSpent)],
        ]) + "</section>"
        html += "<section><h2>Games served per day</h2>"
        html += Charts.line(id: "games", title: "Games served per day", days: chartDays, values: players.days.map { Int64($0.gamesServed) }) { String($0) }
        html += "<details><summary>The numbers (<a href=\"\(DashboardRoute.chart("players").path)?\(escaped(query))\">CSV</a>)</summary>"
        html += table(id: "players-table", caption: "Per day", head: ["Day", "Accounts made", "Games served", "Daily-word players", "Hints sold", "Hints spent"],
            rows: players.days.map { [$0.day, String($0.accountsMade), String($0.gamesServed), String($0.dailyPlayers), String($0.hintsSold), String($0.hintsSpent)] })
        return html + "</details></section>"
    }

    /// A search box; the customers it found, each a link to their story; the story chosen.
    private func customersBody() -> String {
        let query = customerSearch?.query ?? ""
        var html = """
            <section><h2>Find a customer</h2><form class="range" method="get" action="\(DashboardRoute.page(.customers).path)">
            <label>Account id, transaction id or number, order id, app account token, or a name's first letters
            <input type="search" name="q" value="\(escaped(query))" maxlength="64" required></label><button type="submit">Find</button></form>
            """
        if let search = customerSearch {
            if let refused = search.refused {
                html += "<p class=\"refused\" role=\"alert\">\(escaped(refused))</p>"
            } else if search.matches.isEmpty {
                html += "<p class=\"empty\">No customer matches \(escaped(query)).</p>"
            } else {
                html += "<ul class=\"matches\">" + search.matches.map { match in
                    "<li><a href=\"\(DashboardRoute.page(.customers).path)?account=\(escaped(match.account))\">\(escaped(match.name))</a> "
                        + "<code>\(escaped(match.account))</code> <span class=\"hint\">by \(escaped(match.matchedBy.rawValue))</span></li>"
                }.joined() + "</ul>"
            }
        }
        html += "</section>"
        guard let story = customerStory else { return html }
        func date(_ milliseconds: Int64?) -> String { milliseconds.map { UTCDateTime(millisecondsSince1970: $0).dateTimeText } ?? "-" }
        func name(_ product: ProductID?) -> String { product.map { catalog.product($0)?.displayName ?? $0.rawValue } ?? "-" }
        let facts = [
            ("Account", story.account), ("Joined", date(story.createdDate)), ("Closed", story.closedDate.map(date) ?? "no"), ("Storefront", story.storefront),
            ("Hints", String(story.hints)), ("Games", "\(story.gamesPlayed) played, \(story.gamesWon) won"),
        ]
        html += "<section><h2>\(escaped(story.name))</h2><dl class=\"facts\">" + facts.map { "<dt>\(escaped($0.0))</dt><dd>\(escaped($0.1))</dd>" }.joined() + "</dl></section>"
        html += "<section><h2>Devices</h2>" + table(id: "devices", caption: "Tokens, one per device", head: ["Device", "Token", "Made", "Last used", "Revoked"],
            rows: story.devices.map { [$0.deviceName ?? "-", $0.tokenID, date($0.createdDate), date($0.lastUsedDate), date($0.revokedDate)] }) + "</section>"
        html += "<section><h2>Holds</h2>" + table(id: "holds", caption: "What the customer may use, and the purchase that gave it", head: ["Product", "Since", "Taken back", "Transaction"],
            rows: story.entitlements.map { [name($0.productID), $0.grantedDate > 0 ? date($0.grantedDate) : "while the subscription lasts", date($0.revokedDate), $0.transactionID.number] })
            + "</section>"
        if !story.subscriptions.isEmpty {
            html += "<section><h2>Subscriptions</h2>" + table(id: "customer-subscriptions", caption: "Each subscription's state now", head: ["Plan", "State", "Until", "Renews"],
                rows: story.subscriptions.map { [name($0.productID), $0.state.rawValue, date($0.expiresDate), $0.willAutoRenew ? "yes" : "no"] }) + "</section>"
        }
        if let outcome = actionOutcome {
            html += "<p class=\"\(outcome.hasPrefix("refused") ? "refused" : "done")\" role=\"status\">\(escaped(outcome))</p>"
        }
        html += actionsBody(story)
        html += "<section><h2>Timeline</h2>" + table(id: "timeline", caption: "Purchases, renewals, refunds and notifications, newest first", head: ["When", "What", "Product", "Transaction", "Details"],
            rows: story.timeline.map { [date($0.date), $0.kind.rawValue, name($0.productID), $0.transactionID?.number ?? "-", $0.summary] }) + "</section>"
        return html
    }

    /// The notifications to the developer's server not delivered yet, newest first: waiting for
    /// their next attempt, or given up; each with its last attempt and (an admin's) a retry.
    private func notificationsBody() -> String {
        guard let undelivered, !undelivered.isEmpty else { return "<p class=\"empty\">Every notification was delivered.</p>" }
        func date(_ milliseconds: Int64?) -> String { milliseconds.map { UTCDateTime(millisecondsSince1970: $0).dateTimeText } ?? "-" }
        var html = "<section><h2>Not delivered</h2>"
        if let outcome = actionOutcome {
            html += "<p class=\"\(outcome.hasPrefix("refused") ? "refused" : "done")\" role=\"status\">\(escaped(outcome))</p>"
        }
        html += table(id: "undelivered", caption: "Notifications to the developer's server not delivered yet, newest first", head: ["Made", "Type", "Customer", "Attempts", "Last attempt", "Its answer", "Next attempt"],
            rows: undelivered.map { line in
                let answer = line.lastAttempt.map { $0.result + ($0.httpStatus.map { " (HTTP \($0))" } ?? "") } ?? "none yet"
                return [date(line.notification.created), [line.notification.type, line.notification.subtype].compactMap { $0 }.joined(separator: " "), line.account,
                        String(line.notification.attempts), date(line.lastAttempt?.date), answer, line.notification.nextAttempt.map(date) ?? "given up"]
            })
        if mayAct {
            html += "<h2>Send again now</h2>" + undelivered.prefix(20).map { line in
                """
                <form class="act" method="post" action="\(DashboardRoute.act.path)"><input type="hidden" name="action" value="retry-notification">
                <input type="hidden" name="account" value="\(escaped(line.account))"><input type="hidden" name="uuid" value="\(escaped(line.notification.uuid))">
                <input type="hidden" name="reason" value="retried from the delivery log"><input type="hidden" name="back" value="notifications">
                <span>\(escaped(line.notification.type)) for <code>\(escaped(line.account))</code>, made \(escaped(date(line.notification.created)))</span><button type="submit">Retry</button></form>
                """
            }.joined()
        }
        return html + "</section>"
    }

    /// Support's forms (an admin's; a viewer reads that it may not act) and the audit log of the
    /// customer's actions.
    private func actionsBody(_ story: CustomerStory) -> String {
        var html = "<section><h2>Support</h2>"
        if mayAct {
            let hidden = "<input type=\"hidden\" name=\"account\" value=\"\(escaped(story.account))\"><input type=\"hidden\" name=\"key\" value=\"\(escaped(actionKey))\">"
            let reason = "<label>Reason <input type=\"text\" name=\"reason\" maxlength=\"500\" required></label>"
            let products = catalog.products.filter { $0.autoRenewable == nil }.map { "<option value=\"\(escaped($0.id.rawValue))\">\(escaped($0.displayName))</option>" }.joined()
            let refundable = story.transactions.filter { $0.revocationDate == nil && ($0.price?.minorUnits ?? 0) > 0 }
                .map { "<option value=\"\(escaped($0.id.number))\">\(escaped($0.id.number)) \(escaped(catalog.product($0.productID)?.displayName ?? $0.productID.rawValue))</option>" }.joined()
            html += """
                <form class="act" method="post" action="\(DashboardRoute.act.path)">\(hidden)<input type="hidden" name="action" value="grant">
                <label>Give <select name="product">\(products)</select></label><label>How many <input type="number" name="quantity" value="1" min="1" max="10"></label>
                \(reason)<button type="submit">Grant</button></form>
                <form class="act" method="post" action="\(DashboardRoute.act.path)">\(hidden)<input type="hidden" name="action" value="extend">
                <label>Days of the live subscription <input type="number" name="days" value="7" min="1" max="90"></label>\(reason)<button type="submit">Extend</button></form>
                """
            if !refundable.isEmpty {
                html += """
                    <form class="act" method="post" action="\(DashboardRoute.act.path)">\(hidden)<input type="hidden" name="action" value="refund">
                    <label>Refund <select name="transaction">\(refundable)</select></label>\(reason)<button type="submit">Refund</button></form>
                    """
            }
        } else {
            html += "<p class=\"hint\">This admin token is a viewer's: it reads, and takes no action.</p>"
        }
        func date(_ milliseconds: Int64) -> String { UTCDateTime(millisecondsSince1970: milliseconds).dateTimeText }
        html += table(id: "audit", caption: "Actions taken on this customer, newest first", head: ["When", "Who", "Action", "What", "Why", "Outcome"],
            rows: customerActions.map { [date($0.date), $0.admin, $0.action, $0.subject, $0.reason, $0.outcome] })
        return html + "</section>"
    }

    private func table(id: String, caption: String, head: [String], rows: [[String]]) -> String {
        "<table id=\"\(escaped(id))\"><caption>\(escaped(caption))</caption><thead><tr>"
            + head.map { "<th scope=\"col\">\(escaped($0))</th>" }.joined() + "</tr></thead><tbody>"
            + rows.map { row in
                // Each cell names its column: a narrow screen shows a row as a card of labelled cells.
                "<tr>" + row.enumerated().map { "<td data-label=\"\(escaped(head.indices.contains($0) ? head[$0] : ""))\">\(escaped($1))</td>" }.joined() + "</tr>"
            }.joined() + "</tbody></table>"
    }

    /// A chart's table as CSV (`revenue-USD`, `units`), `nil` for a chart there is not.
    public func csv(_ chart: String) -> String? {
        func line(_ fields: [String]) -> String {
            fields.map { "\"" + SpreadsheetCell.text($0).replacing("\"", with: "\"\"") + "\"" }.joined(separator: ",") + "\r\n"
        }
        if chart == "players", let players {
            return line(["day", "accounts made", "games served", "daily-word players", "hints sold", "hints spent"]) + players.days.map {
                line([$0.day, String($0.accountsMade), String($0.gamesServed), String($0.dailyPlayers), String($0.hintsSold), String($0.hintsSpent)])
            }.joined()
        }
        if chart == "units" {
            return line(["product", "units", "refunded"]) + overview.products.map { line([$0.name, String($0.units), String($0.refunded)]) }.joined()
        }
        if chart.hasPrefix("cohorts-") {
            let currency = String(chart.dropFirst("cohorts-".count))
            let cohorts = overview.cohorts.filter { $0.currency == currency }
            guard !cohorts.isEmpty else { return nil }
            func decimal(_ value: Int64) -> String { Money(minorUnits: value, currency: currency).decimal }
            return line(["cohort", "months after", "customers", "paying", "retention %", "revenue", "refunds", "lifetime value", "currency"]) + cohorts.map { cohort in
                cohort.paying.indices.map { age in
                    line([cohort.month, String(age), String(cohort.customers), String(cohort.paying[age]), String(cohort.retention[age]), decimal(cohort.revenue[age]),
                          decimal(cohort.refunds[age]), decimal(cohort.lifetimeValue[age]), currency])
                }.joined()
            }.joined()
        }
        if chart.hasPrefix("mrr-"), let recurring = overview.recurringRevenue.first(where: { "mrr-" + $0.currency == chart }) {
            func decimal(_ value: Int64) -> String { Money(minorUnits: value, currency: recurring.currency).decimal }
            return line(["day", "at the end", "new", "expansion", "contraction", "churned", "currency"]) + days.indices.map {
                line([days[$0], decimal(recurring.byDay[$0]), decimal(recurring.new[$0]), decimal(recurring.expansion[$0]), decimal(recurring.contraction[$0]),
                      decimal(recurring.churned[$0]), recurring.currency])
            }.joined()
        }
        guard chart.hasPrefix("revenue-"), let currency = overview.currencies.first(where: { "revenue-" + $0.currency == chart }) else { return nil }
        return line(["day", "revenue", "refunds", "currency"]) + days.indices.map {
            line([days[$0], Money(minorUnits: currency.dailyRevenue[$0], currency: currency.currency).decimal,
                  Money(minorUnits: currency.dailyRefunds[$0], currency: currency.currency).decimal, currency.currency])
        }.joined()
    }

    /// The stylesheet: light and dark, readable from 375 pixels wide.
    public static let stylesheet = """
        :root { color-scheme: light dark; --fg: #1d1d1f; --bg: #ffffff; --muted: #6e6e73; --line: #d2d2d7; --s0: #0a66c2; --bad: #b3261e; }
        @media (prefers-color-scheme: dark) { :root { --fg: #f5f5f7; --bg: #161617; --muted: #a1a1a6; --line: #3a3a3c; --s0: #64b5f6; --bad: #f28b82; } }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
        header, main { max-width: 980px; margin: 0 auto; padding: 12px 16px; }
        h1 { font-size: 1.3rem; margin: 0 0 8px; } h2 { font-size: 1.05rem; margin: 24px 0 8px; }
        nav { display: flex; flex-wrap: wrap; gap: 4px 14px; } nav a { color: var(--s0); text-decoration: none; } nav a[aria-current] { font-weight: 700; text-decoration: underline; }
        form.range { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: end; margin: 10px 0; }
        label { color: var(--muted); font-size: 0.9rem; } select, input, button { font: inherit; }
        .range-said, .hint, caption { color: var(--muted); font-size: 0.9rem; }
        svg.chart { width: 100%; height: auto; display: block; }
        .grid { stroke: var(--line); stroke-width: 1; } .axis { stroke: var(--muted); stroke-width: 1; }
        .tick, .legend { fill: var(--muted); font-size: 13px; }
        .series { fill: none; stroke: var(--s0); stroke-width: 2; } .dot, .bar, .swatch { fill: var(--s0); }
        table { border-collapse: collapse; width: 100%; margin: 8px 0; } caption { text-align: left; padding: 4px 0; }
        th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; overflow-wrap: break-word; } td:not(:first-child) { font-variant-numeric: tabular-nums; }
        #refunds td:nth-child(1), #refunds td:nth-child(2), #refunds td:nth-child(6) { white-space: nowrap; }
        \((1...10).map { "table.cohorts td.heat-\($0) { background: color-mix(in srgb, var(--s0) \($0 * 5)%, transparent); }" }.joined(separator: " "))
        table.cohorts td, table.cohorts th { padding: 4px 6px; } table.cohorts td:first-child, table.cohorts td:last-child { white-space: nowrap; }
        main a { color: var(--s0); } .matches li { margin: 4px 0; }
        .tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 10px; margin: 12px 0; }
        .tile { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; display: flex; flex-direction: column; gap: 4px; }
        .tile-title { color: var(--muted); font-size: 0.85rem; } .nowrap { white-space: nowrap; } .tile-value { font-size: 1.25rem; font-weight: 600; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 8px 0; } .facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
        form.act { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: end; margin: 8px 0; padding: 8px 0; border-bottom: 1px solid var(--line); }
        form.act label { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 6px; max-width: 100%; } form.act select, form.act input { max-width: 100%; min-width: 0; }
        .done { color: var(--s0); }
        .refused { color: var(--bad); } .sign-in { max-width: 420px; } .sign-in input { display: block; width: 100%; margin: 6px 0 12px; padding: 6px; }
        @media (max-width: 600px) {
          table, caption, tbody, tr, td { display: block; width: 100%; } thead { display: none; }
          tr { border-bottom: 1px solid var(--line); padding: 6px 0; }
          td { border: none; padding: 1px 4px; display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0 12px; text-align: right; }
          td::before { content: attr(data-label); color: var(--muted); text-align: left; }
          .tick, .legend { font-size: 24px; }
        }
        """
}
