import Device
import PackServiceAPI

/// The free tier's one line after a game: a pack the account does not own, with its price and the
/// command that buys it. Buying `removeads` (a feature, restored like a pack) ends them for good.
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
        let catalog = player.catalog
        // One question to the store: what the account owns.
        guard let owned = try? await player.ownedProducts(),
            !catalog.products.contains(where: { $0.feature == Product.removeAdsFeature && owned.contains($0.id) })
        else { return nil }
        // Locked or revoked, and for sale now.
        let forSale = catalog.products.filter { $0.packFile != nil && $0.isAvailable && !owned.contains($0.id) }
        guard !forSale.isEmpty else { return nil }
        let product = forSale[((game % forSale.count) + forSale.count) % forSale.count]
        let names = ProductNames(catalog)
        let words = product.wordCount.map { "\(PackText.grouped($0)) words, " } ?? ""
        let removeAds = catalog.products.first { $0.feature == Product.removeAdsFeature }.map { " (ads off: buy \(names.shortName(of: $0.id)))" } ?? ""
        return Line(
            productID: product.id,
            text: "\(product.displayName): \(words)\(prices.format(product, catalog: catalog)): hangman buy \(names.shortName(of: product.id))\(removeAds)")
    }
}
