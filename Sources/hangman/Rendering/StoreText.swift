#if canImport(Glibc)
import Glibc
#endif
import Store
import WordPacks

/// How the store's records read on a terminal.
enum StoreText {
    /// `2026-11-29 23:15:02 UTC`
    static func date(_ milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
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
