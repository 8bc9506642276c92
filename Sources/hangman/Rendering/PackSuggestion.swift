import Device
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
        let words = product.wordCount.map { "\(PackText.grouped($0)) words, " } ?? ""
        let adsOff = removeAds.map { " (ads off: buy \(names.shortName(of: $0.id)))" } ?? ""
        // No suggestion without the account's own price: never another storefront's.
        guard let storefront = try? await player.storefront(), let price = prices.format(product, storefront: storefront) else { return nil }
        return Line(
            productID: product.id,
            text: "\(ReaderLocale.current.name(of: product)): \(words)\(price): hangman buy \(names.shortName(of: product.id))\(adsOff)")
    }
}
