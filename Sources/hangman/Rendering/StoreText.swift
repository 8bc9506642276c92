import CivilCalendar
import Device
import Messages
import PackServiceAPI
import SystemCalls
import TerminalText
import WordPacks

/// How the store's records read on a terminal.
enum StoreText {
    /// `2026-11-29 23:15:02 UTC`, or as the reader's locale writes it (`29.11.2026, 23:15 UTC`).
    static func date(_ milliseconds: Int64) -> String {
        ReaderLocale.current.dateTime(milliseconds) ?? UTCDateTime(millisecondsSince1970: milliseconds).dateTimeText + " UTC"
    }

    /// `14:02 UTC` when `milliseconds` is today (UTC) as `now` sees it, else `2026-11-30 14:02 UTC`.
    static func shortTime(_ milliseconds: Int64, now: Int64) -> String {
        let time = UTCDateTime(millisecondsSince1970: milliseconds)
        let clock = time.hourMinuteText + " UTC"
        return time.isSameDay(as: UTCDateTime(millisecondsSince1970: now)) ? clock : time.dateText + " " + clock
    }

    /// `99 hints`, or offline `99 hints (as of 14:02 UTC, the pack server cannot be reached)`.
    static func hints(_ count: HintCount, now: Int64) -> String {
        let number = L10n.plural("%d hint", "%d hints", count.hints)
        guard !count.isCurrent else { return number }
        let offline = count.signedAt.map { L10n.text("as of %s, the pack server cannot be reached", shortTime($0, now: now)) }
            ?? L10n.text("the pack server cannot be reached")
        return "\(number) (\(offline))"
    }

    /// A duration in the reader's words: `month`, `year`, `30 days`, `1 week` (`counted`: `1 month`).
    static func words(_ duration: StoreDuration, counted: Bool = false) -> String {
        let n = duration.count
        if n == 1, !counted, duration.unit == .month || duration.unit == .year { return duration.unit == .month ? L10n.text("month") : L10n.text("year") }
        switch duration.unit {
        case .day: return L10n.plural("%d day", "%d days", n)
        case .week: return L10n.plural("%d week", "%d weeks", n)
        case .month: return L10n.plural("%d month", "%d months", n)
        case .year: return L10n.plural("%d year", "%d years", n)
        }
    }

    /// A product's name in the reader's language (`ReaderLocale`), else its identifier.
    static func productName(_ id: ProductID, catalog: Catalog) -> String {
        catalog.product(id).map(ReaderLocale.current.name) ?? id.rawValue
    }

    /// `3fa2c1d9e0b7a6f1  2026-11-29 23:15:02 UTC  10 Hints x1  finished  (refunded ...)`
    static func transactionLine(_ transaction: StoreTransaction, catalog: Catalog, prices: PriceText? = nil) -> TerminalText {
        var line = "\(transaction.id.number)  \(date(transaction.purchaseDate))  \(productName(transaction.productID, catalog: catalog))"
        if transaction.quantity > 1 { line += " x\(transaction.quantity)" }
        if let prices { line += "  \(charged(transaction, prices: prices))" }
        line += "  " + transactionState(transaction, prices: prices)
        return TerminalText(escaping: line)
    }

    /// What a transaction charged: its price, or `-` when nothing was (failed, waiting, before
    /// storefronts).
    static func charged(_ transaction: StoreTransaction, prices: PriceText) -> String {
        guard let price = transaction.price, ![.failed, .deferred, .interrupted, .purchasing].contains(transaction.state) else { return "-" }
        return prices.format(price)
    }

    /// `finished, 10 hints`, `failed (the store refused the payment)`, `finished, free trial, until ...`.
    static func transactionState(_ transaction: StoreTransaction, prices: PriceText?) -> String {
        var line = transaction.state.rawValue
        if let reason = transaction.failureReason { line += " (\(reason))" }
        if let offer = transaction.promotionalOffer {
            line += ", offer \(offer)"
        } else if transaction.isTrial {
            line += ", free trial"
        }
        if let expires = transaction.expiresDate { line += ", until \(date(expires))" }
        if transaction.hintsCredited > 0 { line += ", \(transaction.hintsCredited) hints" }
        if let refund = transaction.refund, let revoked = transaction.revocationDate {
            line += ", upgraded \(date(revoked)) (\(prices?.format(refund) ?? refund.description) back)"
        } else if let revoked = transaction.revocationDate {
            line += ", refunded \(date(revoked))"
        }
        return line
    }

    /// The transactions as a table: ID, DATE, PRODUCT, PRICE, STATE. Narrow, the ids are cut
    /// first (their leading digits kept: enough to tell them apart), then the date goes (below
    /// 100 columns; above, only if cutting is not enough), then the state and the product are
    /// cut; the price is never cut (`--wide`: every column whole).
    /// The ids whole (a command takes them back), and the date kept: the order id (as Apple's
    /// emailed receipts show it) goes first, then the product's name and the state are cut; only a
    /// very narrow terminal loses the date.
    static func transactionTable(_ transactions: [StoreTransaction], catalog: Catalog, prices: PriceText, width: Int?) -> TerminalText {
        let rows = [["ID", "ORDER", "DATE", "PRODUCT", "PRICE", "STATE"]] + transactions.map { transaction in
            var product = productName(transaction.productID, catalog: catalog)
            if transaction.quantity > 1 { product += " x\(transaction.quantity)" }
            return [
                transaction.id.number, transaction.id.orderID, date(transaction.purchaseDate), product, charged(transaction, prices: prices),
                transactionState(transaction, prices: prices),
            ]
        }
        guard let width else { return table(rows) }
        return table(rows, fit: Fit(width: width, drop: [1], flexible: [3, 5], lastResort: [2]))
    }

    /// A line cut to `width` with `…` when longer (`nil`: as it is).
    static func cut(_ line: TerminalText, to width: Int?) -> TerminalText {
        guard let width, line.text.count > width else { return line }
        return TerminalText(trusted: String(line.text.prefix(width - 1)) + "…")
    }

    /// How a table fits a width: the columns it may leave out (in order), the ones whose cells
    /// may be cut with `…` (in order), and the ones left out only when cutting was not enough.
    struct Fit {
        var width: Int
        var drop: [Int] = []
        var flexible: [Int] = []
        var lastResort: [Int] = []
        /// The narrowest a cut cell gets.
        static let minimumCell = 8
    }

    /// Columns padded to the widest cell, fitted to `fit`'s width: columns left out, long cells
    /// cut with `…`, and, should a line still be too long, the line cut. Every cell is escaped
    /// first, so the widths are the ones shown.
    static func table(_ rows: [[String]], fit: Fit?) -> TerminalText {
        guard let fit else { return table(rows) }
        var rows = rows.map { $0.map(TerminalText.escaped) }
        guard let header = rows.first else { return "" }
        var kept = Array(header.indices)
        func widths() -> [Int] { kept.map { column in rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 } }
        func total() -> Int { widths().reduce(0, +) + 2 * max(0, kept.count - 1) }
        func shrink() {
            for column in fit.flexible where kept.contains(column) && total() > fit.width {
                let excess = total() - fit.width
                let current = rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
                let target = max(Fit.minimumCell, current - excess)
                guard target < current else { continue }
                for index in rows.indices.dropFirst() where rows[index].indices.contains(column) && rows[index][column].count > target {
                    rows[index][column] = String(rows[index][column].prefix(target - 1)) + "…"
                }
            }
        }
        for column in fit.drop where total() > fit.width { kept.removeAll { $0 == column } }
        shrink()
        for column in fit.lastResort where total() > fit.width {
            kept.removeAll { $0 == column }
            shrink()
        }
        let chosen = rows.map { row in kept.map { row.indices.contains($0) ? row[$0] : "" } }
        let text = table(chosen, escaped: true).text
        return TerminalText(trusted: text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            cut(TerminalText(trusted: String(line)), to: fit.width).text
        }.joined(separator: "\n"))
    }

    /// Columns padded to the widest cell; every cell is escaped first, so the widths are the ones shown.
    static func table(_ rows: [[String]], escaped: Bool = false) -> TerminalText {
        let rows = escaped ? rows : rows.map { $0.map(TerminalText.escaped) }
        guard let header = rows.first else { return "" }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        return TerminalText(trusted: rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n"))
    }
}
