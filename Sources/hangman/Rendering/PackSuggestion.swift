import Device
import Messages
import PackServiceAPI
import TerminalText

/// The free tier's one line after a game, as the player session chose it: a pack the account does
/// not own, with its price and the command that buys it, and the feature that ends them.
struct PackSuggestion {
    let player: Player
    let prices: PriceText

    /// A suggestion: the product, and the line that offers it.
    struct Line {
        var productID: ProductID
        var text: TerminalText
    }

    /// The line after game number `game` (the suggestions take turns), or `nil`: remove-ads is
    /// owned, every pack is owned, or the store cannot be asked now (a game never fails for an ad).
    func line(afterGame game: Int) async -> Line? {
        guard let (product, removeAds) = await player.suggestion(afterGame: game) else { return nil }
        let catalog = player.catalog
        let names = ProductNames(catalog)
        // No suggestion without the account's own price: never another storefront's.
        guard let storefront = try? await player.storefront(), let price = prices.format(product, storefront: storefront) else { return nil }
        let name = ReaderLocale.current.name(of: product)
        let buy = names.shortName(of: product.id)
        var text =
            if let count = product.wordCount {
                L10n.text("%s: %s, %s: hangman buy %s", name, L10n.plural("%s word", "%s words", count, shown: PackText.grouped(count)), price, buy)
            } else {
                L10n.text("%s: %s: hangman buy %s", name, price, buy)
            }
        if let removeAds { text += " (" + L10n.text("ads off: buy %s", names.shortName(of: removeAds.id)) + ")" }
        return Line(productID: product.id, text: TerminalText(escaping: text))
    }
}
