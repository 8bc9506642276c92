import Messages
import PackServiceAPI
import TerminalText

/// `hangman products`
enum ProductsCommand: Command {
    static let spec = CommandSpec(
        name: "hangman products",
        overview: "List what the store sells: packs and hints, with prices.",
        usage: ["hangman products [--json] [--wide]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document."), ListingOptions.wideOption] + HomeContext.options,
        discussion: "A product whose pack archive is missing or damaged is listed as unavailable: it cannot be bought until the store publishes it again.")

    static func options(_ parsed: ParsedArguments) -> ListingOptions { ListingOptions(parsed) }

    static func run(_ options: ListingOptions, context: CommandContext) async throws -> ExitCode {
        let store = try await HomeContext.open(options.store, context: context)
        // What the account's storefront sells, at its prices, with the trials it would start:
        // the seller's answer (StoreKit calls a product not sold there an invalid identifier).
        let offers = try await store.service.offers()
        let storefront = offers.storefront
        // Themes after the rest: art, apart from words and hints.
        let sold = store.catalog.products.filter { offers.offer($0.id) != nil }
        let products = sold.filter { !$0.isTheme } + sold.filter(\.isTheme)
        if options.json {
            let reader = ReaderLocale.current
            context.out(JSONText.encode(products.map { ProductJSON($0, storefront: storefront, reader: reader, names: ProductNames(store.catalog)) }))
            return .ok
        }
        let prices = PriceText(environment: context.environment)
        let names = ProductNames(store.catalog)
        var rows = [[L10n.text("PRODUCT"), L10n.text("SHORT"), L10n.text("TYPE"), L10n.text("PRICE"), L10n.text("NAME"), L10n.text("CONTENT")]]
        for product in products {
            let content: String
            switch product.kind {
            case .consumable(let hints): content = L10n.plural("%d hint", "%d hints", hints)
            case .streakFreezes(let count): content = L10n.plural("%d streak freeze", "%d streak freezes", count)
            case .nonConsumable where !product.isAvailable: content = L10n.text("unavailable: %s", product.unavailableReason ?? "")
            case .nonConsumable where product.isTheme: content = L10n.text("theme: the gallows drawn anew ('%s')", "hangman settings theme")
            case .nonConsumable:
                let words = product.wordCount ?? 0
                content = L10n.plural("%s word", "%s words", words, shown: PackText.grouped(words))
            case .feature(let name): content = name == Product.removeAdsFeature ? L10n.text("no suggestions after games") : name
            case .autoRenewable(let terms):
                var parts = [Self.unlocks(product, catalog: store.catalog)]
                if terms.hintsPerPeriod > 0 { parts.append(L10n.plural("%d hint a %s", "%d hints a %s", terms.hintsPerPeriod, StoreText.words(terms.period))) }
                if let trial = offers.offer(product.id)?.freeTrial { parts.append(L10n.text("free trial: %s", StoreText.words(trial, counted: true))) }
                if let winBack = offers.offer(product.id)?.winBackOffer { parts.append(L10n.text("win-back offer: %s", "buy --win-back-offer \(winBack)")) }
                content = parts.joined(separator: ", ")
            case .nonRenewing:
                content = Self.unlocks(product, catalog: store.catalog)
            }
            rows.append([
                product.id.rawValue, names.shortName(of: product.id), product.typeName,
                (prices.format(product, storefront: storefront) ?? "-") + Self.per(product), ReaderLocale.current.name(of: product), content,
            ])
        }
        // Narrow: the full identifier and the type go first (SHORT names them), then the content is cut.
        let fit = context.tableWidth(wide: options.wide).map { StoreText.Fit(width: $0, drop: [0, 2], flexible: [5, 4], lastResort: [5]) }
        context.out(StoreText.table(rows, fit: fit))
        let unsold = store.catalog.products.filter(\.isForSale).count - products.count
        if unsold > 0 {
            context.error(
                TerminalText(escaping: L10n.plural(
                    "%d product is not sold in the %s storefront ('%s' changes it).", "%d products are not sold in the %s storefront ('%s' changes it).", unsold,
                    storefront, "hangman account storefront")))
        }
        return .ok
    }
}

extension ProductsCommand {
    /// `/month`, `/year`, ` for 30 days`: what a subscription's price buys.
    static func per(_ product: Product) -> String {
        if let terms = product.autoRenewable {
            return terms.period.count == 1 ? "/" + StoreText.words(terms.period) : " " + L10n.text("per %s", StoreText.words(terms.period))
        }
        if let terms = product.nonRenewing { return " " + L10n.text("for %s", StoreText.words(terms.duration)) }
        return ""
    }

    /// `all packs`, `3 packs`.
    static func unlocks(_ product: Product, catalog: Catalog) -> String {
        if case .allPacks? = product.unlocks { return L10n.text("all word packs") }
        return L10n.plural("%d word pack", "%d word packs", catalog.packs(unlockedBy: product).count)
    }
}

struct ProductJSON: Encodable {
    var productID: String
    /// The shortest name a command accepts for it (`ios`).
    var shortName: String
    var type: String
    /// In the reader's language when the product has it (`locale` says which), else the catalog's.
    var displayName: String
    var description: String
    /// The language of `displayName` and `description` (`de`); `null` for the catalog's own text.
    var locale: String?
    /// The price in the account's storefront, a decimal string in its currency's minor units.
    var price: String
    var currency: String
    var storefront: String
    var hintCount: Int?
    /// The streak freezes one purchase credits.
    var streakFreezes: Int?
    var pack: String?
    /// What the pack holds: `Words`, or `Theme` (the gallows as art).
    var packKind: String?
    /// What a non-consumable without a pack unlocks (`remove-ads`).
    var feature: String?
    /// The pack archive's SHA-256 and size, as the catalog records them.
    var sha256: String?
    var size: Int?
    var wordCount: Int?
    /// A subscription's period or duration (ISO 8601: `P1M`), group, level, trial and hints.
    var period: String?
    var subscriptionGroup: String?
    var groupLevel: Int?
    var freeTrial: String?
    var hintsPerPeriod: Int?
    /// The packs a subscription opens.
    var unlocks: [String]?
    /// `false` when the pack's archive is missing or damaged: the product cannot be bought now.
    var available: Bool
    var unavailableReason: String?

    init(_ product: Product, storefront: String, reader: ReaderLocale, names: ProductNames) {
        productID = product.id.rawValue
        shortName = names.shortName(of: product.id)
        type = product.typeName
        let text = reader.text(of: product)
        displayName = text.displayName
        description = text.description
        locale = reader.language.flatMap { product.localizations[$0] == nil ? nil : $0 }
        let money = product.price(in: storefront)
        price = money?.decimal ?? ""
        currency = money?.currency ?? ""
        self.storefront = storefront
        sha256 = product.packSHA256
        size = product.packSize
        switch product.kind {
        case .consumable(let hints): hintCount = hints
        case .streakFreezes(let count): streakFreezes = count
        case .nonConsumable(let file):
            pack = file
            packKind = (product.packKind ?? .words).rawValue
        case .feature(let name): feature = name
        case .autoRenewable(let terms):
            period = terms.period.description
            subscriptionGroup = terms.group
            groupLevel = terms.groupLevel
            freeTrial = terms.freeTrial?.description
            hintsPerPeriod = terms.hintsPerPeriod
        case .nonRenewing(let terms):
            period = terms.duration.description
        }
        if product.isSubscription { unlocks = names.catalog.packs(unlockedBy: product).map(\.rawValue) }
        wordCount = product.wordCount
        available = product.isAvailable
        unavailableReason = product.unavailableReason
    }
}
