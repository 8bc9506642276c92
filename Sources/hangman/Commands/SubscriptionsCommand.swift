import CivilCalendar
import Messages
import PackServiceAPI
import TerminalText

/// `hangman subscriptions`, `hangman subscriptions cancel|resume NAME`
enum SubscriptionsCommand: Command {
    static let spec = CommandSpec(
        name: "hangman subscriptions",
        overview: "List the account's subscriptions, or turn a subscription's auto-renew off or on.",
        usage: ["hangman subscriptions [--json] [--wide]", "hangman subscriptions cancel|resume|consent <PRODUCT>"],
        takesWords: true,
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document."), ListingOptions.wideOption] + HomeContext.options,
        subcommands: [
            ("cancel <PRODUCT>", "Turn auto-renew off: the pass stays until its period ends, then it is over."),
            ("resume <PRODUCT>", "Turn auto-renew back on, before the period ends."),
            ("consent <PRODUCT>", "Accept a higher price the seller set for the plan: it renews at that price. Without consent, the renewal after you are told is at the old price, and the one after ends the subscription."),
        ],
        discussion: """
            <PRODUCT> is any name 'buy' accepts (monthly, com.hangmanpacks.pass.monthly) or the
            subscription group's name (pass). States: trial, active, grace period (a renewal failed,
            access goes on), billing retry (no access while the store retries, up to 60 days),
            expired, revoked (refunded). Renewals that fell due are processed first.
            A price the seller raised is listed under the table with what consenting does.
            Exit status: 0; 64 for a product that is no subscription, or cancelling what the
            account does not have; 65 consenting with no price increase to consent to; 69 when
            the store cannot be reached.
            """)

    enum Action {
        case list
        case autoRenew(String, on: Bool)
        case consent(String)
    }

    static func options(_ parsed: ParsedArguments) throws -> ActionOptions<Action> {
        let words = parsed.positionals
        switch words {
        case []: return ActionOptions(.list, parsed)
        case let words where words.count == 2 && (words[0] == "cancel" || words[0] == "resume"):
            return ActionOptions(.autoRenew(words[1], on: words[0] == "resume"), parsed)
        case let words where words.count == 2 && words[0] == "consent":
            return ActionOptions(.consent(words[1]), parsed)
        default:
            throw CommandFailure.usage(L10n.text("'subscriptions' takes no arguments, or 'cancel <PRODUCT>' / 'resume <PRODUCT>' / 'consent <PRODUCT>'"))
        }
    }

    static func run(_ options: ActionOptions<Action>, context: CommandContext) async throws -> ExitCode {
        let store = try await HomeContext.open(options.store, context: context)
        let catalog = store.catalog
        switch options.action {
        case .list:
            let statuses = try await store.service.subscriptions()
            if options.json {
                context.out(JSONText.encode(statuses.map(SubscriptionJSON.init)))
                return .ok
            }
            guard !statuses.isEmpty else {
                context.out(TerminalText(escaping: L10n.text("No subscriptions. See '%s' for the passes on sale.", "hangman products")))
                return .ok
            }
            var rows = [[L10n.text("PRODUCT"), L10n.text("STATE"), L10n.text("UNTIL"), L10n.text("AUTO-RENEW"), L10n.text("RENEWS TO"), L10n.text("ORIGINAL TX")]]
            for status in statuses {
                rows.append([
                    ProductNames(catalog).shortName(of: status.productID), status.state.rawValue + (status.endReason.map { $0 == "expired" || $0 == "refunded" ? "" : " (\($0))" } ?? ""),
                    StoreText.date(status.accessEnds), status.isAutoRenewable ? (status.willAutoRenew ? "on" : "off") : "-",
                    status.renewsToProductID.map { ProductNames(catalog).shortName(of: $0) } ?? "-", status.originalTransactionID.number,
                ])
            }
            let fit = context.tableWidth(wide: options.wide).map { StoreText.Fit(width: $0, drop: [5, 4, 3], flexible: [1]) }
            context.out(StoreText.table(rows, fit: fit))
            let prices = PriceText(environment: context.environment)
            for status in statuses {
                guard let rise = status.priceIncrease else { continue }
                let name = ProductNames(catalog).shortName(of: status.renewsToProductID ?? status.productID)
                let per = catalog.product(status.renewsToProductID ?? status.productID).map(ProductsCommand.per) ?? ""
                if rise.consented {
                    context.outWrapped("\(name) renews at \(prices.format(rise.price))\(per), the price you consented to.")
                } else if rise.told {
                    context.outWrapped(
                        "\(name)'s price rises to \(prices.format(rise.price))\(per): 'hangman subscriptions consent \(name)' accepts it. Without consent, the subscription ends on \(StoreText.date(status.expiresDate)).")
                } else {
                    context.outWrapped(
                        "\(name)'s price rises to \(prices.format(rise.price))\(per): 'hangman subscriptions consent \(name)' accepts it. Without consent, its renewal on \(StoreText.date(status.expiresDate)) is at the old price, and the one after ends the subscription.")
                }
            }
        case .consent(let typed):
            let product = try subscription(named: typed, in: catalog)
            let status = try await store.service.consentToPriceIncrease(product)
            let name = StoreText.productName(status.renewsToProductID ?? status.productID, catalog: catalog)
            let price = status.priceIncrease.map { PriceText(environment: context.environment).format($0.price) } ?? "its new price"
            context.out(TerminalText(escaping: L10n.text("%s renews at %s from %s: you consented to the new price.", name, price, StoreText.date(status.expiresDate))))
        case .autoRenew(let typed, let on):
            let product = try subscription(named: typed, in: catalog)
            let status = try await store.service.setAutoRenew(product, on: on)
            let name = StoreText.productName(status.productID, catalog: catalog)
            if on {
                context.out(TerminalText(escaping: L10n.text("%s renews on %s.", name, StoreText.date(status.expiresDate))))
            } else {
                context.out(
                    TerminalText(
                        escaping: L10n.text("%s will not renew: it stays until %s, then it ends.", name, StoreText.date(status.accessEnds)) + " "
                            + L10n.text("'%s' turns it back on.", "hangman subscriptions resume \(typed)")))
            }
        }
        return .ok
    }

    /// The auto-renewable product a name stands for: a product name, or a group's name (its
    /// highest level).
    static func subscription(named typed: String, in catalog: Catalog) throws -> ProductID {
        if let plan = catalog.subscriptionPlan(named: typed) { return plan }
        // A short name (monthly) or an identifier: the catalog's names, with their suggestions.
        let id = try ProductNames(catalog).resolve(typed)
        guard catalog.product(id)?.autoRenewable != nil else {
            throw CommandFailure.usage(L10n.text("'%s' is not an auto-renewable subscription: see 'hangman products'", typed))
        }
        return id
    }

    /// A subscription started under a promotional offer: what it charges, for how long, then.
    /// `Subscribed to Hangman Pass (monthly) with the offer comeback-3-months: $0.99 a period for 3 periods, then $2.99/month from 2027-03-15 00:00:00 UTC.`
    static func offerSentence(
        _ offer: PromotionalOffer, terms: AutoRenewableTerms, _ status: SubscriptionStatus, start: Int64, catalog: Catalog, storefront: String, prices: PriceText
    ) -> String {
        let name = StoreText.productName(status.productID, catalog: catalog)
        let plan = catalog.product(status.productID).map { (prices.format($0, storefront: storefront) ?? "-") + ProductsCommand.per($0) } ?? ""
        let offered = offer.prices[storefront].map(prices.format) ?? "-"
        let how =
            switch offer.kind {
            case .freeTrial: "free until \(StoreText.date(status.expiresDate))"
            case .payUpFront: "\(offer.duration(of: terms.period).words) for \(offered), paid now"
            case .payAsYouGo: "\(offered) a \(terms.period.words) for \(offer.duration(of: terms.period).words)"
            }
        let after = StoreText.date(offer.duration(of: terms.period).added(to: start))
        return "Subscribed to \(name) with the offer \(offer.identifier): \(how), then \(plan) from \(after)."
    }

    /// `Hangman Pass (monthly): free trial until 2026-12-08 00:00:00 UTC, then $2.99/month.`
    static func sentence(_ status: SubscriptionStatus, catalog: Catalog, storefront: String, prices: PriceText) -> String {
        let name = StoreText.productName(status.productID, catalog: catalog)
        let price = catalog.product(status.productID).map { (prices.format($0, storefront: storefront) ?? "-") + ProductsCommand.per($0) } ?? ""
        switch status.state {
        case .trial: return L10n.text("Subscribed to %s: free trial until %s, then %s.", name, StoreText.date(status.expiresDate), price)
        case .active where status.isAutoRenewable: return L10n.text("Subscribed to %s: renews on %s at %s.", name, StoreText.date(status.expiresDate), price)
        case .active: return L10n.text("%s is yours until %s.", name, StoreText.date(status.expiresDate))
        default: return "\(name): \(status.state.rawValue) (\(StoreText.date(status.accessEnds)))."
        }
    }
}

/// A subscription as `--json` prints it.
struct SubscriptionJSON: Encodable {
    var productID: String
    var type: String
    var state: String
    var expiresDate: String
    var willAutoRenew: Bool
    var renewsToProductID: String?
    var originalTransactionID: String
    var gracePeriodExpiresDate: String?
    var endReason: String?
    /// The plan's higher price, and whether it was consented to.
    var priceIncrease: PriceIncreaseJSON?

    struct PriceIncreaseJSON: Encodable {
        var price: String
        var currency: String
        var consented: Bool
        /// The subscriber was told: without consent, the next renewal ends it.
        var told: Bool
    }

    init(_ status: SubscriptionStatus) {
        productID = status.productID.rawValue
        type = status.isAutoRenewable ? "AutoRenewable" : "NonRenewing"
        state = status.state.rawValue
        expiresDate = ISO8601.string(status.expiresDate)
        willAutoRenew = status.willAutoRenew
        renewsToProductID = status.renewsToProductID?.rawValue
        originalTransactionID = status.originalTransactionID.number
        gracePeriodExpiresDate = status.gracePeriodExpiresDate.map { ISO8601.string($0) }
        endReason = status.endReason
        priceIncrease = status.priceIncrease.map { PriceIncreaseJSON(price: $0.price.decimal, currency: $0.price.currency, consented: $0.consented, told: $0.told) }
    }
}
