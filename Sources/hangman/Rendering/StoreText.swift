import Store
import WordPacks

/// How the store's records read on a terminal.
enum StoreText {
    /// `2026-11-29 23:15:02 UTC`
    static func date(_ milliseconds: Int64) -> String {
        // Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's civil_from_days).
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) UTC"
    }

    static func productName(_ id: ProductID, catalog: Catalog) -> String {
        catalog.product(id)?.displayName ?? id.rawValue
    }

    /// `3fa2c1d9e0b7a6f1  2026-11-29 23:15:02 UTC  10 Hints x1  finished  (refunded ...)`
    static func transactionLine(_ transaction: StoreTransaction, catalog: Catalog) -> String {
        var line = "\(transaction.id)  \(date(transaction.purchaseDate))  \(productName(transaction.productID, catalog: catalog))"
        if transaction.quantity > 1 { line += " x\(transaction.quantity)" }
        line += "  \(transaction.state.rawValue)"
        if let reason = transaction.failureReason { line += " (\(reason))" }
        if transaction.hintsCredited > 0 { line += ", \(transaction.hintsCredited) hints" }
        if let revoked = transaction.revocationDate { line += ", refunded \(date(revoked))" }
        return line
    }

    static func table(_ rows: [[String]]) -> String {
        guard let header = rows.first else { return "" }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
