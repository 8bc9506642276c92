import CivilCalendar
import Device
import Messages
import PackServiceAPI
import SystemCalls
import WordPacks

/// `hangman packs`
enum PacksCommand: Command {
    static let spec = CommandSpec(
        name: "hangman packs",
        overview: "Every pack in one table: base or paid, price, installed version, and its state.",
        usage: ["hangman packs [--json] [--wide]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document."), ListingOptions.wideOption] + HomeContext.options,
        discussion: """
            States: installed, update available, purchased (not installed), subscribed (open while a subscription
            lasts), locked (not purchased, or the subscription that opened it ended), revoked (refunded),
            unavailable (its archive is missing or damaged at the store: it cannot be bought or installed now).
            """)

    struct Row: Encodable {
        var productID: String
        var displayName: String
        var kind: String
        /// The price in the account's storefront, a decimal string; `null` for a base pack, or a
        /// pack not sold in the storefront.
        var price: String?
        var currency: String?
        var storefront: String
        var wordCount: Int
        var installedVersion: String?
        var availableVersion: String?
        var state: String
        var unavailableReason: String?
        /// The subscription that opens the pack (or opened it), and when its access ends (or ended).
        var subscriptionProductID: String?
        var subscriptionExpiresDate: String?
    }

    static func options(_ parsed: ParsedArguments) -> ListingOptions { ListingOptions(parsed) }

    static func run(_ options: ListingOptions, context: CommandContext) async throws -> ExitCode {
        let session = try await PlayerContext.open(options.store, context: context)
        let packs = try await session.player.packs()
        let storefront = try await session.player.storefront()
        let reader = options.json ? ReaderLocale(environment: [:]) : ReaderLocale.current
        let rows = packs.map { pack in
            Row(productID: pack.productID.rawValue, displayName: session.catalog.product(pack.productID).map(reader.name) ?? pack.displayName,
                kind: pack.isTheme ? "theme" : pack.isBase ? "base" : "paid", price: pack.price?.decimal, currency: pack.price?.currency, storefront: storefront,
                wordCount: pack.wordCount, installedVersion: pack.installedVersion?.text, availableVersion: pack.availableVersion?.text,
                state: pack.state.rawValue, unavailableReason: pack.unavailableReason, subscriptionProductID: pack.subscriptionProductID?.rawValue,
                subscriptionExpiresDate: pack.subscriptionEnds.map { ISO8601.string($0) })
        }
        if options.json {
            context.out(JSONText.encode(rows))
            return .ok
        }
        let prices = PriceText(environment: context.environment)
        let names = ProductNames(session.catalog)
        var table = [
            [L10n.text("PACK"), L10n.text("SHORT"), L10n.text("NAME"), L10n.text("KIND"), L10n.text("PRICE"), L10n.text("WORDS"), L10n.text("INSTALLED"), L10n.text("STATE")]
        ]
        for (row, pack) in zip(rows, packs) {
            let price = pack.price.map(prices.format) ?? (pack.isBase ? L10n.text("free") : "-")
            var state = row.state
            if let pass = pack.subscriptionProductID, let ends = pack.subscriptionEnds {
                let name = session.name(pass)
                let day = UTCDateTime(millisecondsSince1970: ends).dateText
                // The date first: cut narrow, the pass's name goes before it does.
                state += pack.state == .subscribed ? " until \(day) (\(name))" : " since \(day) (\(name) ended)"
            }
            table.append([
                row.productID, names.shortName(of: pack.productID), row.displayName, row.kind, price, pack.isTheme ? "-" : PackText.grouped(row.wordCount),
                row.installedVersion ?? "-", state,
            ])
        }
        // Narrow: the full identifier goes first (SHORT names it), then the kind, the words and the
        // version; then the name is cut, and the state (what the pack does for the player) last.
        let fit = context.tableWidth(wide: options.wide).map { StoreText.Fit(width: $0, drop: [0, 3, 5, 6], flexible: [2, 7], lastResort: [4]) }
        context.out(StoreText.table(table, fit: fit))
        return .ok
    }
}
