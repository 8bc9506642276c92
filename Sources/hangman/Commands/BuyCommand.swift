import Device
import Messages
import PackServiceAPI
import TerminalText
import WordPacks

/// `hangman buy PRODUCT_ID`
enum BuyCommand: Command {
    static let spec = CommandSpec(
        name: "hangman buy",
        overview: "Buy a product: hints are credited, a pack is unlocked. Delivery happens exactly once.",
        usage: ["hangman buy <PRODUCT_ID> [--quantity <N>] [--app-account-token <UUID>] [--introductory-offer-eligibility <JWS>] [--promotional-offer <JWS>] [--win-back-offer <ID>] [--yes]"],
        arguments: [.init(name: "<PRODUCT_ID>", help: "A product from 'hangman products': its identifier or short name (ios, hard, es, 10).", kind: .product)],
        options: [
            .init(names: ["--quantity"], value: "N", help: "How many (hints only, 1 to 10; default 1).", kind: .integer(1...10)),
            .init(
                names: ["--app-account-token"], value: "UUID",
                help: "StoreKit's purchase option: a UUID your app relates the purchase to; it is in the signed transaction Apple's shapes give, its notifications and a subscription's renewals."),
            .init(
                names: ["--introductory-offer-eligibility"], value: "JWS",
                help: "StoreKit's purchase option: the developer's server's signed word (Apple's IntroductoryOfferEligibilitySignatureCreator) on whether this purchase starts the free trial; a pack server with the developer's keys checks it."),
            .init(
                names: ["--promotional-offer"], value: "JWS",
                help: "StoreKit's purchase option: a promotional offer of the subscription (the catalog's PromotionalOffers), signed by the developer's server (Apple's PromotionalOfferV2SignatureCreator); a pack server with the developer's keys checks it."),
            .init(
                names: ["--win-back-offer"], value: "ID",
                help: "StoreKit's purchase option: a win-back offer of the subscription that 'hangman products' shows this account (the catalog's WinBackOffers)."),
            .init(names: ["--yes", "-y"], value: nil, help: "Buy without asking first (on a terminal, buy shows the price and asks)."),
        ] + HomeContext.options,
        discussion: """
            On a terminal, buy shows the product and its price in your locale (LC_ALL, LC_MONETARY or
            LANG) and asks before charging; answering anything but y buys nothing. Without a terminal
            (a script, a pipe) it does not ask. A pack you already own is never charged again.
            Exit status: 0 purchased (or already owned), 1 declined at the question, 69 the store
            refused the payment or purchases are turned off ('hangman store payments off'),
            75 waiting for approval (ask to buy) or for the buyer (interrupted), 64 unknown product
            (or an app account token that is not a UUID).
            """)

    struct Options {
        var product: ProductName
        var quantity: Int
        var appAccountToken: String?
        var introductoryOfferEligibility: String?
        var promotionalOffer: String?
        var winBackOffer: String?
        /// Buy without asking, and keep the languages of default games without asking.
        var yes: Bool
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        var token: String?
        if let given = parsed.value("--app-account-token") {
            guard let parsed = AppAccountToken.parse(given) else { throw CommandFailure.usage(L10n.text("--app-account-token '%s': %s", given.prefix(60), AppAccountToken.problem)) }
            token = parsed
        }
        return Options(
            product: try parsed.required(parsed.productName("<PRODUCT_ID>"), "<PRODUCT_ID>", of: "buy"), quantity: parsed.integer("--quantity") ?? 1,
            appAccountToken: token, introductoryOfferEligibility: parsed.value("--introductory-offer-eligibility"),
            promotionalOffer: parsed.value("--promotional-offer"), winBackOffer: parsed.value("--win-back-offer"), yes: parsed.has("--yes"),
            store: HomeOptions(parsed))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let quantity = options.quantity
        // Without a question to ask, what earlier commands left is finished after the purchase,
        // from the statement its answer carries: one request less.
        let asking = !options.yes && Question.canAsk(context)
        var session = try await PlayerContext.open(options.store, context: context, starting: asking)
        let id = try await session.resolve(options.product)
        let catalog = session.catalog
        if asking {
            let storefront = try await session.player.storefront()
            switch try await session.player.offer(id) {
            case .charge(let product):
                guard confirm(product, quantity: quantity, storefront: storefront, context: context) else {
                    context.out(TerminalText(escaping: L10n.text("Not bought: nothing was charged.")))
                    return .declined
                }
            case .change(let product, let change):
                guard confirm(change, to: product, storefront: storefront, catalog: catalog, context: context) else {
                    context.out(TerminalText(escaping: L10n.text("Nothing changed: nothing was charged.")))
                    return .declined
                }
            case .owned, .nothingToAsk:
                break
            }
        }
        let result = try await session.player.buy(
            id, quantity: quantity, options: PurchaseOptions(appAccountToken: options.appAccountToken, introductoryOfferEligibility: options.introductoryOfferEligibility,
                promotionalOffer: options.promotionalOffer, winBackOffer: options.winBackOffer),
            progress: ProgressBar.forInstall(of: id, catalog: catalog, context: context))
        if !session.started { try await session.start(context: context) }
        return try await tell(result, of: id, quantity: quantity, asking: !options.yes, session: session, context: context)
    }

    /// What a purchase (or an offer code's redemption: `redeemed`) came to, told; its exit status.
    static func tell(
        _ result: Player.BuyResult, of id: ProductID, quantity: Int = 1, asking: Bool, redeemed: Bool = false, session: PlayerContext, context: CommandContext
    ) async throws -> ExitCode {
        let catalog = session.catalog
        let name = StoreText.productName(id, catalog: catalog)
        switch result {
        case .purchased(let transaction, let installed):
            // What was charged, in the storefront's currency, as the transaction records it.
            let prices = PriceText(environment: context.environment)
            let price = transaction.price.map(prices.format) ?? "?"
            let subscription = try await session.player.subscriptionStarted(by: transaction)
            if redeemed {
                let number = transaction.id.number
                let sentence =
                    switch transaction.price {
                    case let price? where price.minorUnits > 0: L10n.text("Redeemed the offer code: %s for %s. Transaction %s.", name, prices.format(price), number)
                    case _?: L10n.text("Redeemed the offer code: %s, free. Transaction %s.", name, number)
                    case nil: L10n.text("Redeemed the offer code: %s. Transaction %s.", name, number)
                    }
                context.out(TerminalText(escaping: sentence))
            } else if let refund = subscription.replacedRefund {
                context.out(TerminalText(escaping: L10n.text("Upgraded to %s for %s: transaction %s. %s comes back for the unused part of the previous plan.", name, price, transaction.id.number, prices.format(refund))))
            } else if transaction.isTrial {
                context.out(TerminalText(escaping: L10n.text("Started %s's free trial: nothing is charged now. Transaction %s.", name, transaction.id.number)))
            } else {
                context.out(
                    TerminalText(
                        escaping: quantity > 1
                            ? L10n.text("Purchased %s x%d for %s in all: transaction %s.", name, quantity, price, transaction.id.number)
                            : L10n.text("Purchased %s for %s: transaction %s.", name, price, transaction.id.number)))
            }
            if catalog.product(id)?.feature == Product.removeAdsFeature {
                context.out(TerminalText(escaping: L10n.text("No more suggestions after your games, on every device of this account.")))
            } else if let product = catalog.product(id), product.isSubscription {
                if let status = subscription.status {
                    let storefront = try await session.player.storefront()
                    let prices = PriceText(environment: context.environment)
                    if let identifier = transaction.promotionalOffer, let terms = product.autoRenewable, let offer = terms.promotionalOffer(identifier) {
                        context.out(TerminalText(escaping: SubscriptionsCommand.offerSentence(
                            offer, terms: terms, status, start: transaction.purchaseDate, catalog: catalog, storefront: storefront, prices: prices)))
                    } else {
                        context.out(TerminalText(escaping: SubscriptionsCommand.sentence(status, catalog: catalog, storefront: storefront, prices: prices)))
                    }
                }
                let packs = catalog.packs(unlockedBy: product).count
                context.out(TerminalText(escaping: L10n.plural("%d word pack open while it lasts: see 'hangman packs'.", "%d word packs open while it lasts: see 'hangman packs'.", packs)))
                if transaction.hintsCredited > 0 {
                    let count = try await HintCount.read(from: session.player.service)
                    context.out(TerminalText(escaping: L10n.text("+%s hints. Balance: %s.", transaction.hintsCredited, StoreText.hints(count, now: context.clock.now()))))
                }
            } else if let each = catalog.product(id)?.streakFreezeCount {
                let count = each * transaction.quantity
                context.out(
                    TerminalText(
                        escaping: L10n.plural(
                            "+%d streak freeze: it keeps your daily streak over a day you miss ('%s' shows the freezes you hold).",
                            "+%d streak freezes: each keeps your daily streak over a day you miss ('%s' shows the freezes you hold).", count, "hangman daily")))
            } else if let installed, catalog.product(id)?.isTheme == true {
                context.out(TerminalText(escaping: L10n.text("%s is unlocked.", name) + " ") + session.describe(installed, id))
                context.out(TerminalText(escaping: L10n.text("'hangman settings theme %s' draws the gallows in it.", ProductNames(catalog).shortName(of: id))))
            } else if let installed {
                context.out(TerminalText(escaping: L10n.text("%s is unlocked.", name) + " ") + session.describe(installed, id))
                try await chooseLanguages(after: id, session: session, asking: asking, context: context)
            } else {
                let count = try await HintCount.read(from: session.player.service)
                context.out(
                    TerminalText(
                        escaping: L10n.plural("+%d hint.", "+%d hints.", transaction.hintsCredited) + " "
                            + L10n.text("Balance: %s.", StoreText.hints(count, now: context.clock.now()))))
            }
            return .ok
        case .alreadyOwned(let entitlement, let installed):
            context.out(TerminalText(escaping: L10n.text("You already own %s (since %s): nothing was charged.", name, StoreText.date(entitlement.grantedDate))))
            if let installed, !installed.isAlreadyInstalled { context.out(session.describe(installed, id)) }
            return .ok
        case .changeScheduled(let status):
            let to = status.renewsToProductID.map { StoreText.productName($0, catalog: catalog) } ?? name
            context.out(TerminalText(escaping: L10n.text("%s changes to %s at its renewal on %s: nothing is charged now.", StoreText.productName(status.productID, catalog: catalog), to, StoreText.date(status.expiresDate))))
            return .ok
        case .alreadySubscribed(let status):
            context.out(TerminalText(escaping: L10n.text("You are already subscribed to %s (%s until %s): nothing was charged.", name, status.state.rawValue, StoreText.date(status.accessEnds))))
            return .ok
        case .failed(let transaction):
            context.error(
                TerminalText(
                    escaping: "error: " + L10n.text("the purchase of %s failed: %s.", name, transaction.failureReason ?? "refused") + " "
                        + L10n.text("Transaction %s.", transaction.id.number)))
            return .storeRefused
        case .deferred(let transaction):
            let number = transaction.id.number
            context.out(TerminalText(escaping: L10n.text("Waiting for approval: transaction %s is deferred (ask to buy).", number)))
            context.out(
                TerminalText(escaping: L10n.text("Approve it with '%s' or decline with '%s'.", "hangman store approve \(number)", "hangman store decline \(number)")))
            context.out(TerminalText(escaping: L10n.text("Once approved, the next hangman command installs it.")))
            return .deferred
        case .interrupted(let transaction):
            context.out(TerminalText(escaping: L10n.text("The purchase was interrupted: transaction %s needs your action.", transaction.id.number)))
            context.out(
                TerminalText(
                    escaping: L10n.text("Complete it with '%s'; the next hangman command then installs it.", "hangman store resolve \(transaction.id.number)")))
            return .deferred
        }
    }

    /// The first pack in a second language: default games keep their language unless the player
    /// says otherwise (asked on a terminal; kept, and said, otherwise).
    static func chooseLanguages(after id: ProductID, session: PlayerContext, asking: Bool, context: CommandContext) async throws {
        guard let arrival = try await session.player.newLanguage(arrivingWith: id) else { return }
        let name = SettingsCommand.languageName(arrival.language)
        let old = SettingsCommand.describe(arrival.previous)
        let mixIn = Question.canAsk(context) && asking
            && Question.ask(TerminalText(escaping: L10n.text("%s is in %s. Should games without --pack mix %s words in with %s?", session.name(id), name, name, old)), context: context)
        let chosen = try session.player.settleLanguages(after: arrival, mixIn: mixIn)
        if mixIn {
            context.out(TerminalText(escaping: L10n.text("Games without --pack draw from %s.", SettingsCommand.describe(chosen))))
        } else {
            let play = "hangman play --pack \(ProductNames(session.catalog).shortName(of: id))"
            context.out(TerminalText(escaping: L10n.text("Games without --pack stay in %s; play %s with '%s'.", old, name, play)))
            context.out(TerminalText(escaping: L10n.text("'%s' mixes every pack in.", "hangman settings languages all")))
        }
    }
}
