internal import CICU
import FoundationEssentials
import FoundationInternationalization
import Messages
import PackServiceAPI
import Synchronization

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
        let grouping = numbers.map(Grouping.of) ?? .c
        let digits = String(number.magnitude)
        var out = ""
        let group = digits.count >= grouping.minimumDigits
        for (index, digit) in digits.enumerated() {
            if group && index > 0 && (digits.count - index) % 3 == 0 { out += grouping.separator }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }

    /// A moment in UTC as the reader's locale writes a date and a time: as ICU writes a medium
    /// date and a short time (`01.12.2026, 20:15 UTC` in de_DE, `Dec 1, 2026, 8:15 PM UTC` in
    /// en_US); `nil` in the C locale or without ICU (the caller writes ISO 8601).
    func dateTime(_ milliseconds: Int64) -> String? {
        guard let time else { return nil }
        return DateFormats.shared.string(milliseconds: milliseconds, locale: time).map { $0 + " UTC" }
    }

    /// A product's name and description in the reader's language, else the catalog's own.
    func text(of product: Product) -> LocalizedText { product.text(language: language) }

    /// A product's name in the reader's language.
    func name(of product: Product) -> String { text(of: product).displayName }
}

/// How a locale groups thousands: its separator, and the fewest digits grouped. Read from the
/// locale's data when a number is first grouped (how it writes 1234567 and 1234), once per
/// process and locale: not at the start of every command.
private struct Grouping: Sendable {
    let separator: String
    let minimumDigits: Int

    /// The C locale's: `3,000`.
    static let c = Grouping(separator: ",", minimumDigits: 4)

    private static let read = Mutex<[String: Grouping]>([:])

    static func of(_ locale: String) -> Grouping {
        if let known = read.withLock({ $0[locale] }) { return known }
        let style = IntegerFormatStyle<Int>.number.locale(Locale(identifier: locale))
        let separator = 1_234_567.formatted(style).drop { $0.isNumber }.prefix { !$0.isNumber }
        let grouping = Grouping(separator: String(separator), minimumDigits: 1234.formatted(style).contains { !$0.isNumber } ? 4 : 5)
        read.withLock { $0[locale] = grouping }
        return grouping
    }
}

/// ICU's date formatters (a medium date, a short time, in UTC) by locale, made once each (a
/// formatter loads its locale's data), shared by the commands of one process under a lock. ICU is
/// loaded on the first date written, not at start; without it, `nil` (the caller writes ISO 8601).
final class DateFormats: Sendable {
    static let shared = DateFormats()

    private struct Formatters: ~Copyable {
        var byLocale: [String: Formatter] = [:]
    }

    /// One ICU formatter, closed when the process forgets it.
    private final class Formatter: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer?
        init(locale: String) { pointer = hp_date_formatter_open(locale) }
        deinit { hp_date_formatter_close(pointer) }
    }

    private let formatters = Mutex(Formatters())

    func string(milliseconds: Int64, locale: String) -> String? {
        formatters.withLock { formatters -> String? in
            let formatter = formatters.byLocale[locale] ?? Formatter(locale: locale)
            formatters.byLocale[locale] = formatter
            guard let pointer = formatter.pointer else { return nil }
            var capacity = 64
            for _ in 0..<3 {
                var out = [UInt16](repeating: 0, count: capacity)
                let length = hp_date_format(pointer, Double(milliseconds), &out, Int32(capacity))
                guard length >= 0 else { return nil }
                if Int(length) <= capacity { return String(decoding: out.prefix(Int(length)), as: UTF16.self) }
                capacity = Int(length)
            }
            return nil
        }
    }
}
