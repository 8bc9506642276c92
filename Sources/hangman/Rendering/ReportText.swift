import CivilCalendar
import PackServer
import PackServiceAPI
import PackServiceWire
import SalesReports
import Seller
import SystemCalls
import TerminalText

/// `hangman report` as text: the overview's lines and its sparklines.
enum ReportText {
    /// The overview as lines that fit 80 columns.
    static func lines(_ report: WithKey<SalesOverview, PlayersOverview>, days: Int, prices: PriceText, dumb: Bool) -> [String] {
        let overview = report.base
        var lines = ["Sales \(overview.firstDay) to \(overview.lastDay) (\(days) day\(days == 1 ? "" : "s"), UTC), \(overview.storefront.map { "storefront \($0)" } ?? "every storefront")"]
        let players = report.extra
        // The players' numbers are the service's, whatever storefront the sales are read for.
        let playersScope = overview.storefront == nil ? "Players" : "Players (every storefront)"
        let playerLines = ["", "\(playersScope): \(players.accountsMade) account\(players.accountsMade == 1 ? "" : "s") made, \(players.gamesServed) game\(players.gamesServed == 1 ? "" : "s") served, "
            + "\(players.dailyPlayers) daily-word play\(players.dailyPlayers == 1 ? "" : "s").", "Hints: \(players.hintsSold) sold, \(players.hintsSpent) spent."]
        guard !overview.currencies.isEmpty || !overview.subscriptions.active.isEmpty else {
            return lines + ["Nothing sold or refunded in these days."] + playerLines
        }
        let money = { (minor: Int64, currency: String) in prices.format(Money(minorUnits: minor, currency: currency)) }
        let rows = overview.currencies.map { line in
            [line.currency, money(line.revenue, line.currency), money(line.refunds, line.currency), money(line.net, line.currency)]
        }
        let widths = (0..<4).map { column in ([["", "revenue", "refunds", "net"]] + rows).map { $0[column].count }.max() ?? 0 }
        func pad(_ row: [String]) -> String {
            row.enumerated().map { column, text in
                column == 0 ? text.padded(to: widths[0])
                    : String(repeating: " ", count: max(0, widths[column] - text.count)) + text
            }.joined(separator: "  ")
        }
        lines.append("")
        lines.append(pad(["", "revenue", "refunds", "net"]) + "  by day")
        for (row, line) in zip(rows, overview.currencies) {
            lines.append(pad(row) + "  " + Sparkline.text(line.dailyRevenue, columns: 30, dumb: dumb))
        }
        if !overview.products.isEmpty {
            lines.append("")
            let nameWidth = min(36, overview.products.map(\.name.count).max() ?? 0)
            lines.append("product".padded(to: nameWidth) + "   units  refunded  revenue")
            for product in overview.products {
                let name = product.name.count > nameWidth ? String(product.name.prefix(nameWidth - 1)) + "…" : product.name.padded(to: nameWidth)
                let revenue = product.revenue.sorted { $0.key < $1.key }.map { money($0.value, $0.key) }.joined(separator: " + ")
                lines.append(name + "  " + DecimalText.rightAligned(product.units, width: 6) + "  " + DecimalText.rightAligned(product.refunded, width: 8) + "  " + revenue)
            }
        }
        let subscriptions = overview.subscriptions
        let active = subscriptions.active.values.reduce(0, +)
        let plans = subscriptions.active.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key.split(separator: ".").last ?? "")" }
        lines.append("")
        lines.append("Subscriptions: \(active) active now\(plans.isEmpty ? "" : " (" + plans.joined(separator: ", ") + ")"), \(subscriptions.paidPeriods) period\(subscriptions.paidPeriods == 1 ? "" : "s") charged.")
        lines.append("Free trials: \(subscriptions.trialsStarted) started, \(subscriptions.trialsConverted) of them paid since.")
        lines.append("Renewals: \(subscriptions.renewals); ended: \(subscriptions.ended) (\(subscriptions.endedVoluntarily) by the subscriber, \(subscriptions.endedByBilling) by billing).")
        for line in overview.recurringRevenue {
            let sum = { (values: [Int64]) in money(values.reduce(0, +), line.currency) }
            lines.append(
                "Monthly recurring revenue, \(line.currency): \(money(line.atStart, line.currency)) to \(money(line.byDay.last ?? line.atStart, line.currency)) "
                    + "(new \(sum(line.new)), expansion \(sum(line.expansion)), contraction \(sum(line.contraction)), churned \(sum(line.churned))).")
        }
        if overview.tiles.inTrial > 0 { lines.append("In a free trial now: \(overview.tiles.inTrial).") }
        if let churn = overview.rates.churn {
            lines.append("Churn: \(CNumberFormat.fixed(churn, fractionDigits: 1))% of the \(overview.rates.liveAtStart) live when these days began.")
        }
        if subscriptions.inGracePeriod + subscriptions.inBillingRetry > 0 {
            lines.append("Failing renewals now: \(subscriptions.inGracePeriod) in grace period, \(subscriptions.inBillingRetry) in billing retry.")
        }
        return lines + cohortLines(overview.cohorts, money: money) + playerLines
    }

    /// Each currency's cohorts as a table: the month they first paid in, their number, the share
    /// paying one, two, three, six and twelve months later (blank before it came), and the net
    /// revenue per customer so far.
    static func cohortLines(_ cohorts: [SalesOverview.CohortLine], money: (Int64, String) -> String) -> [String] {
        let ages = [1, 2, 3, 6, 12]
        var lines: [String] = []
        for currency in Set(cohorts.map(\.currency)).sorted() {
            let mine = cohorts.filter { $0.currency == currency }
            let rows = mine.map { line in
                [line.month, String(line.customers)] + ages.map { age in age < line.retention.count ? CNumberFormat.fixed(line.retention[age], fractionDigits: 0) + "%" : "" }
                    + [money(line.lifetimeValue.last ?? 0, currency)]
            }
            let header = ["cohort", "customers"] + ages.map { "+\($0)m" } + ["value"]
            let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
            func pad(_ row: [String]) -> String {
                row.enumerated().map { column, text in
                    column == 0 ? text.padded(to: widths[0])
                        : String(repeating: " ", count: max(0, widths[column] - text.count)) + text
                }.joined(separator: "  ")
            }
            lines += ["", "Cohorts, \(currency): customers by the month they first paid in, the share paying", "in the months after, and the net revenue per customer so far."]
            lines.append(pad(header))
            lines += rows.map(pad)
        }
        return lines
    }
}

/// A row of numbers as a sparkline, `▁▂▃▄▅▆▇█`, one column per value, or per a few summed when
/// there are more values than `columns`; under `TERM=dumb`, digits 0-7 instead.
enum Sparkline {
    static let bars: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    static func text(_ values: [Int64], columns: Int, dumb: Bool) -> String {
        guard !values.isEmpty else { return "" }
        let per = (values.count + columns - 1) / columns
        let sums = stride(from: 0, to: values.count, by: per).map { values[$0..<min(values.count, $0 + per)].reduce(0, +) }
        let top = max(1, sums.max() ?? 1)
        return String(sums.map { sum -> Character in
            let level = sum <= 0 ? 0 : Int((sum * 7 + top - 1) / top)
            return dumb ? Character(String(level)) : bars[level]
        })
    }
}
