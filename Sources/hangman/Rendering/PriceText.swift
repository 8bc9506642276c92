import FoundationEssentials
import FoundationInternationalization
import PackServiceAPI

/// Prices as the user's locale writes them, like StoreKit's `priceFormatter`: `$0.99` in
/// en_US, `0,99 $` in de_DE, `1,99 US$` in es_ES.
///
/// The locale is the POSIX one for money: `LC_ALL`, else `LC_MONETARY`, else `LANG`
/// (`de_DE.UTF-8` -> de_DE). `C`, `POSIX` or none is written as en_US. An amount is exact
/// (`Money`, in minor units), never binary floating point on the way.
struct PriceText {
    let localeIdentifier: String
    private let locale: Locale

    init(environment: [String: String]) {
        localeIdentifier = Self.moneyLocale(environment)
        locale = Locale(identifier: localeIdentifier)
    }

    /// The locale identifier for money from the environment's POSIX variables.
    static func moneyLocale(_ environment: [String: String]) -> String {
        ReaderLocale.locale(["LC_ALL", "LC_MONETARY", "LANG"], environment) ?? "en_US"
    }

    /// An amount in its currency, for this locale: `$0.99`, `0,99 €`, `￥120` (the currency's own
    /// minor units: yen have none).
    func format(_ money: Money) -> String {
        let digits = Currency.minorUnits[money.currency] ?? 2
        guard let amount = Decimal(string: money.decimal, locale: Locale(identifier: "en_US_POSIX")) else { return money.description }
        return amount.formatted(.currency(code: money.currency).locale(locale).precision(.fractionLength(digits)))
    }

    /// A product's price in `storefront`, for this locale; `nil` when it is not sold there.
    func format(_ product: Product, storefront: String) -> String? {
        product.price(in: storefront).map(format)
    }
}
