/// Money, storefronts and currencies: exact amounts in minor units, the ISO 4217 currencies a
/// catalog may price in (with their minor units), and the App Store storefronts (ISO 3166
/// alpha-3) an account may belong to.

/// An amount in one currency, exact: a count of the currency's minor units (cents; yen have none).
///
/// ```swift
/// Money(decimal: "0.99", currency: "USD")?.minorUnits  // 99
/// Money(decimal: "120", currency: "JPY")?.decimal      // "120"
/// Money(decimal: "120.5", currency: "JPY")             // nil: yen have no minor unit
/// ```
public struct Money: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The amount in the currency's minor unit (cents; yen have none).
    public var minorUnits: Int64
    /// ISO 4217 code.
    public var currency: String

    /// `minorUnits` of `currency`.
    public init(minorUnits: Int64, currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Reads a decimal string (`1.99`, `120`) in `currency`: `nil` when it is not a plain
    /// non-negative decimal, has more decimals than the currency's minor units, or the currency is
    /// not one a catalog may use.
    public init?(decimal text: String, currency: String) {
        guard let digits = Currency.minorUnits[currency] else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, (1...9).contains(whole.count),
            whole.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let wholeValue = Int64(whole)
        else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let decimals = parts[1]
            // A currency without a minor unit (JPY) takes no decimals at all.
            guard !decimals.isEmpty, decimals.count <= digits, decimals.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int64(decimals) else {
                return nil
            }
            fraction = value * Self.power(digits - decimals.count)
        }
        self.init(minorUnits: wholeValue * Self.power(digits) + fraction, currency: currency)
    }

    /// The amount as a decimal string with exactly the currency's minor units: `0.99`, `120`, `1.500`.
    public var decimal: String {
        let digits = Currency.minorUnits[currency] ?? 2
        guard digits > 0 else { return "\(minorUnits)" }
        let scale = Self.power(digits)
        let sign = minorUnits < 0 ? "-" : ""
        let magnitude = minorUnits.magnitude
        let fraction = String(magnitude % UInt64(scale))
        return "\(sign)\(magnitude / UInt64(scale)).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
    }

    /// `0.99 USD`, `120 JPY`: locale-free, for logs and `--plain`.
    public var description: String { "\(decimal) \(currency)" }

    /// `quantity` times this amount; `nil` on overflow.
    public func times(_ quantity: Int) -> Money? {
        let product = minorUnits.multipliedReportingOverflow(by: Int64(quantity))
        return product.overflow ? nil : Money(minorUnits: product.partialValue, currency: currency)
    }

    static func power(_ exponent: Int) -> Int64 {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }
}

/// The ISO 4217 currencies a catalog may price in, and their minor units.
public enum Currency {
    /// Code -> digits after the decimal point (JPY 0, USD 2, KWD 3).
    public static let minorUnits: [String: Int] = [
        "AED": 2, "ARS": 2, "AUD": 2, "BHD": 3, "BRL": 2, "CAD": 2, "CHF": 2, "CLP": 0, "CNY": 2, "COP": 2, "CZK": 2, "DKK": 2,
        "EGP": 2, "EUR": 2, "GBP": 2, "HKD": 2, "HUF": 2, "IDR": 2, "ILS": 2, "INR": 2, "ISK": 0, "JPY": 0, "KRW": 0, "KWD": 3,
        "MXN": 2, "MYR": 2, "NGN": 2, "NOK": 2, "NZD": 2, "PEN": 2, "PHP": 2, "PLN": 2, "QAR": 2, "RON": 2, "SAR": 2, "SEK": 2,
        "SGD": 2, "THB": 2, "TRY": 2, "TWD": 2, "UAH": 2, "USD": 2, "VND": 0, "ZAR": 2,
    ]
}

/// An App Store storefront: a country or region, by its ISO 3166 alpha-3 code (`USA`, `DEU`).
public enum Storefront {
    /// The storefront of an account that chose none: the United States.
    public static let defaultCode = "USA"

    /// Alpha-3 -> alpha-2, for every storefront a catalog may list (the region of a locale such as
    /// `de_DE` is alpha-2).
    public static let regions: [String: String] = [
        "ARE": "AE", "ARG": "AR", "AUS": "AU", "AUT": "AT", "BEL": "BE", "BHR": "BH", "BRA": "BR", "CAN": "CA", "CHE": "CH",
        "CHL": "CL", "CHN": "CN", "COL": "CO", "CZE": "CZ", "DEU": "DE", "DNK": "DK", "EGY": "EG", "ESP": "ES", "FIN": "FI",
        "FRA": "FR", "GBR": "GB", "GRC": "GR", "HKG": "HK", "HUN": "HU", "IDN": "ID", "IND": "IN", "IRL": "IE", "ISL": "IS",
        "ISR": "IL", "ITA": "IT", "JPN": "JP", "KOR": "KR", "KWT": "KW", "LUX": "LU", "MEX": "MX", "MYS": "MY", "NGA": "NG",
        "NLD": "NL", "NOR": "NO", "NZL": "NZ", "PER": "PE", "PHL": "PH", "POL": "PL", "PRT": "PT", "QAT": "QA", "ROU": "RO",
        "SAU": "SA", "SGP": "SG", "SWE": "SE", "THA": "TH", "TUR": "TR", "TWN": "TW", "UKR": "UA", "USA": "US", "VNM": "VN",
        "ZAF": "ZA",
    ]

    /// Whether `code` is a storefront a catalog may list.
    public static func isKnown(_ code: String) -> Bool { regions[code] != nil }

    /// The storefront of a region (`DE` -> `DEU`), if it is one.
    public static func code(forRegion region: String) -> String? {
        let upper = region.uppercased()
        return regions.first { $0.value == upper }?.key
    }

    /// The storefront of a POSIX locale name's region: `de_DE.UTF-8` -> `DEU`; `nil` for `C`,
    /// `POSIX`, a locale without a region, or a region that is no storefront.
    public static func code(forLocale name: String) -> String? {
        let base = name.split(separator: ".").first.map(String.init) ?? name
        let beforeModifier = base.split(separator: "@").first.map(String.init) ?? base
        let parts = beforeModifier.split(separator: "_")
        guard parts.count == 2, parts[1].count == 2 else { return nil }
        return code(forRegion: String(parts[1]))
    }
}
