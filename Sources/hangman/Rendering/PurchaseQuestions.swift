import Device
import Messages
import PackServiceAPI
import TerminalText
import WordPacks

/// What `buy` asks before it charges: the product and its price, or what a subscription change does.
extension BuyCommand {
    /// Says what an upgrade or a downgrade does, and asks.
    static func confirm(_ change: SubscriptionChange, to product: Product, storefront: String, catalog: Catalog, context: CommandContext) -> Bool {
        let prices = PriceText(environment: context.environment)
        let price = (prices.format(product, storefront: storefront) ?? "?") + ProductsCommand.per(product)
        let from = change.current.map { StoreText.productName($0.productID, catalog: catalog) } ?? "the current plan"
        let text = ReaderLocale.current.text(of: product)
        context.outWrapped("\(text.displayName): \(text.description)")
        if change.kind == .new {
            let start = change.freeTrial.map { "free for \($0.counted), then " } ?? ""
            return Question.ask("Subscribe to \(text.displayName) (\(start)\(price), renewing until you cancel)?", context: context)
        }
        if change.kind == .upgrade {
            var refund = change.refund.map { "\(prices.format($0)) comes back for the unused part of its period" } ?? "nothing comes back for its period"
            if let hints = change.hintsTakenBack, hints > 0 { refund += ", and \(hints) of its hints go back with it" }
            context.outWrapped("It replaces \(from) now; \(refund).")
            return Question.ask("Upgrade to \(text.displayName) for \(price)?", context: context)
        }
        let when = change.current.map { " at its renewal on \(StoreText.date($0.expiresDate))" } ?? " at its renewal"
        context.out(TerminalText(escaping: L10n.text("%s stays until then; nothing is charged now.", from)))
        return Question.ask("Change to \(text.displayName) (\(price))\(when)?", context: context)
    }

    /// Shows the product and its price, and asks.
    static func confirm(_ product: Product, quantity: Int, storefront: String, context: CommandContext) -> Bool {
        let prices = PriceText(environment: context.environment)
        let text = ReaderLocale.current.text(of: product)
        // The player session asks only for a product sold in the storefront.
        guard let unit = product.salePrice(in: storefront) else { return false }
        let price = prices.format(unit)
        context.outWrapped("\(text.displayName): \(text.description)")
        if quantity > 1, let total = unit.times(quantity) {
            return Question.ask("Buy \(quantity) x \(text.displayName) for \(price) each (\(prices.format(total)) in all)?", context: context)
        }
        return Question.ask("Buy \(text.displayName) for \(price)?", context: context)
    }
}
