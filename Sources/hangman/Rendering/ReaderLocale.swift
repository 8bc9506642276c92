import Foundation
import Messages
import PackServiceAPI

/// The reader's locale, from the POSIX variables, for what a person reads: product names in their
/// language (`LC_ALL`, else `LC_MESSAGES`, else `LANG`: `de_DE.UTF-8` reads German names) and
/// counts grouped as their locale groups them (`LC_ALL`, else `LC_NUMERIC`, else `LANG`: 3.000 in
/// de_DE, 3 000 in fr_FR). `C`, `POSIX` or nothing reads the catalog's own names and 3,000.
/// Prices are `PriceText`'s (`LC_MONETARY`). `--json` and `--plain` never use it.
///
/// The command line sets it once per run (``reading(_:)``, which also sets the language of the
/// program's own sentences, `L10n.language`), so that commands running side by side in one
/// process (the tests) each keep their own.
struct ReaderLocale: Sendable {
    /// `de`, `fr`; `nil` for the C locale.
    let language: String?
    /// The locale name for numbers (`de_DE`), or `nil` for the C locale.
    let numbers: String?
    /// The locale name for dates and times (`LC_ALL`, else `LC_TIME`, else `LANG`), or `nil`
    /// for the C locale (ISO 8601: `2026-12-01 20:15:02 UTC`).
    let time: String?
    /// How the numbers' locale groups thousands: its separator, and the fewest digits grouped.
    private let groupingSeparator: String
    private let minimumGroupedDigits: Int

    @TaskLocal static var current = ReaderLocale(environment: [:])

    /// Runs `body` as this reader reads: names, numbers and the program's sentences (`L10n`) in
    /// their language.
    func reading<T>(_ body: () async throws -> T) async rethrows -> T {
        try await Self.$current.withValue(self) { try await L10n.$language.withValue(language) { try await body() } }
    }

    /// ``reading(_:)`` for work that does not wait.
    func reading<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$current.withValue(self) { try L10n.$language.withValue(language) { try body() } }
    }

    init(environment: [String: String]) {
        language = Self.locale(["LC_ALL", "LC_MESSAGES", "LANG"], environment).map(LanguageTag.primary)
        numbers = Self.locale(["LC_ALL", "LC_NUMERIC", "LANG"], environment)
        time = Self.locale(["LC_ALL", "LC_TIME", "LANG"], environment)
        guard let numbers else {
            groupingSeparator = ","
            minimumGroupedDigits = 4
            return
        }
        // Asked of the locale's data once: how it writes 1234567 and 1234.
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: numbers)
        formatter.numberStyle = .decimal
        let million = formatter.string(from: 1_234_567) ?? "1,234,567"
        let separator = million.drop { $0 == "1" }.prefix { !$0.isNumber }
        groupingSeparator = separator.isEmpty ? "" : String(separator)
        minimumGroupedDigits = (formatter.string(from: 1234) ?? "1,234").contains { !$0.isNumber } ? 4 : 5
    }

    /// The locale a list of POSIX variables names: the first one set and not empty, without its
    /// codeset or modifier; `nil` for `C`, `POSIX` or a name that is not one.
    static func locale(_ variables: [String], _ environment: [String: String]) -> String? {
        let setting = variables.lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let name = String(setting.prefix { $0 != "." && $0 != "@" })
        guard !name.isEmpty, name != "C", name != "POSIX", name.count <= 32,
            name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || $0 == "-") })
        else { return nil }
        return name
    }

    /// The storefront of the player's region, from the locale for money (`LC_ALL`, else
    /// `LC_MONETARY`, else `LANG`: `de_DE.UTF-8` -> `DEU`); `nil` for `C` or a region that is no
    /// storefront.
    static func regionStorefront(_ environment: [String: String]) -> String? {
        locale(["LC_ALL", "LC_MONETARY", "LANG"], environment).flatMap(Storefront.code(forLocale:))
    }

    /// `3,000` in the C locale and en_US, `3.000` in de_DE, `3 000` in fr_FR, `3000` in es_ES (which
    /// groups from five digits).
    func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        let group = digits.count >= minimumGroupedDigits
        for (index, digit) in digits.enumerated() {
            if group && index > 0 && (digits.count - index) % 3 == 0 { out += groupingSeparator }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }

    /// A moment in UTC as the reader's locale writes a date and a time (`01.12.2026, 20:15 UTC`
    /// in de_DE, `Dec 1, 2026 at 8:15 PM UTC` in en_US); `nil` in the C locale (the caller writes
    /// ISO 8601).
    func dateTime(_ milliseconds: Int64) -> String? {
        guard let time else { return nil }
        let text = DateFormats.shared.string(
            from: Date(timeIntervalSince1970: Double(milliseconds) / 1000), locale: time)
        return text.map { $0 + " UTC" }
    }

    /// A product's name and description in the reader's language, else the catalog's own.
    func text(of product: Product) -> LocalizedText { product.text(language: language) }

    /// A product's name in the reader's language.
    func name(of product: Product) -> String { text(of: product).displayName }
}

/// Date formatters by locale, made once each (a formatter loads its locale's data), shared by the
/// commands of one process under a lock.
final class DateFormats: @unchecked Sendable {
    static let shared = DateFormats()
    private let lock = NSLock()
    private var formatters: [String: DateFormatter] = [:]

    func string(from date: Date, locale: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        let formatter = formatters[locale] ?? {
            let made = DateFormatter()
            made.locale = Locale(identifier: locale)
            made.timeZone = TimeZone(identifier: "UTC")
            made.dateStyle = .medium
            made.timeStyle = .short
            formatters[locale] = made
            return made
        }()
        return formatter.string(from: date)
    }
}
