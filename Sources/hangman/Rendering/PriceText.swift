import Foundation
import PackServiceAPI

/// Prices as the user's locale writes them, like StoreKit's `priceFormatter`: `$0.99` in
/// en_US, `0,99 $` in de_DE, `1,99 US$` in es_ES.
///
/// The locale is the POSIX one for money: `LC_ALL`, else `LC_MONETARY`, else `LANG`
/// (`de_DE.UTF-8` -> de_DE). `C`, `POSIX` or none is written as en_US. The catalog's price is a
/// decimal string and stays exact (no binary floating point on the way).
struct PriceText {
    let localeIdentifier: String
    /// Made once: a formatter loads the locale's data (a table of prices formats them all).
    private let formatter: NumberFormatter

    init(environment: [String: String]) {
        localeIdentifier = Self.moneyLocale(environment)
        formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = Locale(identifier: localeIdentifier)
    }

    /// The locale identifier for money from the environment's POSIX variables.
    static func moneyLocale(_ environment: [String: String]) -> String {
        let setting = ["LC_ALL", "LC_MONETARY", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        // language[_territory][.codeset][@modifier]
        let name = setting.split(separator: "@", maxSplits: 1).first.map { $0.split(separator: ".", maxSplits: 1).first.map(String.init) ?? "" } ?? ""
        guard !name.isEmpty, name != "C", name != "POSIX",
            name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || $0 == "-") })
        else { return "en_US" }
        return name
    }

    /// `price` (a decimal string from the catalog) in `currency` (ISO 4217), for this locale;
    /// the price and code as they are when the price is not a decimal number.
    func format(_ price: String, currency: String) -> String {
        guard let amount = Decimal(string: price, locale: Locale(identifier: "en_US_POSIX")), !amount.isNaN else {
            return "\(price) \(currency)"
        }
        formatter.currencyCode = currency
        return formatter.string(from: NSDecimalNumber(decimal: amount)) ?? "\(price) \(currency)"
    }

    /// `quantity` times `price`, for this locale (exact decimal arithmetic).
    func format(_ price: String, times quantity: Int, currency: String) -> String {
        guard let amount = Decimal(string: price, locale: Locale(identifier: "en_US_POSIX")), !amount.isNaN else {
            return "\(quantity) x \(price) \(currency)"
        }
        var total = amount * Decimal(quantity)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &total, 6, .plain)
        return format("\(rounded)", currency: currency)
    }

    /// A product's price in the catalog's currency.
    func format(_ product: Product, catalog: Catalog) -> String {
        format(product.price, currency: catalog.currency)
    }
}
