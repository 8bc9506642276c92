import CivilCalendar
import PackServiceAPI
import SalesReports
import Seller

/// The summary sales report in App Store Connect's columns (Sales and Trends, Summary Sales
/// Report, version 1_0): one row per day, product, storefront, currency and price, units negative
/// for refunds (a refund is a row of its own, as App Store Connect reports it, even beside its
/// purchase's on the same day), so the tools that read Apple's reports read this one. Developer
/// Proceeds are the customer price: this service takes no commission.
public enum SalesReportTSV {
    public static let columns = [
        "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units", "Developer Proceeds", "Begin Date",
        "End Date", "Customer Currency", "Country Code", "Currency of Proceeds", "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier",
        "Subscription", "Period", "Category", "CMB", "Device", "Supported Platforms", "Proceeds Reason", "Preserved Pricing", "Client", "Order Type",
    ]

    /// The report of the days `firstDay...lastDay` (days since 1970, UTC), from the numbers the
    /// ledgers keep for those days (``SalesAggregates``).
    public static func render(_ days: SalesDays, catalog: Catalog, firstDay: Int64, lastDay: Int64) -> String {
        struct Key: Hashable {
            var day: Int64, product: ProductID, storefront: String, currency: String, price: Int64, renewal: Bool
            var refund = false
        }
        var units: [Key: Int] = [:]
        for row in days.rows where row.day >= firstDay && row.day <= lastDay {
            guard let product = ProductID(rawValue: row.productID) else { continue }
            let key = Key(day: row.day, product: product, storefront: row.storefront, currency: row.currency, price: row.unitPrice, renewal: row.renewal)
            if row.units != 0 { units[key, default: 0] += Int(row.units) }
            if row.refundedUnits != 0 {
                var refund = key
                refund.refund = true
                units[refund, default: 0] -= Int(row.refundedUnits)
            }
        }
        var out = columns.joined(separator: "\t") + "\n"
        let keys = units.keys.sorted {
            ($0.day, $0.product.rawValue, $0.storefront, $0.price, $0.refund ? 1 : 0) < ($1.day, $1.product.rawValue, $1.storefront, $1.price, $1.refund ? 1 : 0)
        }
        for key in keys {
            guard let count = units[key], count != 0 else { continue }
            let product = catalog.product(key.product)
            let date = UTCDateTime(millisecondsSince1970: key.day * UTCDateTime.millisecondsPerDay)
            func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
            let mdy = "\(two(date.month))/\(two(date.day))/\(date.year)"
            let price = Money(minorUnits: key.price, currency: key.currency).decimal
            let type: String
            var period = "", subscription = ""
            switch product?.kind {
            case .autoRenewable(let terms)?:
                type = "IAY"
                let unit = ["D": "Day", "W": "Week", "M": "Month", "Y": "Year"][terms.period.unit.rawValue] ?? ""
                period = "\(terms.period.count) \(unit)\(terms.period.count == 1 ? "" : "s")"
                subscription = key.renewal ? "Renewal" : "New"
            case .nonRenewing?: type = "IA9"
            default: type = "IA1"
            }
            let row = [
                "APPLE", "US", key.product.rawValue, "Hangman Packs", product?.displayName ?? key.product.rawValue, "", type, String(count), price, mdy, mdy,
                key.currency, Storefront.regions[key.storefront] ?? key.storefront, key.currency, key.product.rawValue, price, "", catalog.bundleIdentifier,
                subscription, period, "Games", "", "", "iOS", "", "", "", "",
            ]
            out += row.map(SpreadsheetCell.text).joined(separator: "\t") + "\n"
        }
        return out
    }
}
