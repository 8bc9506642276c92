import PackServiceAPI
import Seller

/// `hangman catalog add PACK.wordpack --price 1.99`
enum CatalogAddCommand: Command {
    static let spec = CommandSpec(
        name: "hangman catalog add",
        overview: "Sell a pack you built: verify it, copy it beside the others, add its product to Catalog.plist and publish.",
        usage: ["hangman catalog add <PACK.wordpack> --price [<STOREFRONT>=]<PRICE> ... [--product-id <ID>] [--description <TEXT>] [--packs <DIR>]"],
        arguments: [.init(name: "<PACK.wordpack>", help: "The archive 'hangman pack build' made.")],
        options: [
            .init(
                names: ["--price"], value: "PRICE",
                help: "A price in a storefront's currency: DEU=1.99, JPN=250; a bare 1.99 is the price in the catalog's only storefront, else in USA. Repeat it for each storefront that sells the pack.",
                repeatable: true),
            .init(names: ["--product-id"], value: "ID", help: "The product's identifier: the one the pack's manifest names (the default).", kind: .productID),
            .init(names: ["--description"], value: "TEXT", help: "What a player reads before buying (default: the manifest's Summary)."),
            HomeContext.packsOption,
        ],
        discussion: """
            The product is a non-consumable named by the pack's manifest (its DisplayName). The
            catalog is published as 'hangman catalog update' publishes it (digests recorded,
            CatalogVersion raised); if anything is refused, the packs folder is left as it was. A
            storefront without a price does not sell the pack.
            Exit status: 0 added; 64 no --price; 65 not a valid pack, a price that is none, a
            product the catalog has already, or another archive of that name in the folder; 66 no
            such archive or no catalog; 73 cannot write.
            """)

    struct Options {
        var archive: String
        var prices: [(storefront: String?, amount: String)]
        var productID: ProductID?
        var description: String?
        var packs: String?
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        guard let archive = parsed.value("<PACK.wordpack>") else { throw CommandFailure.usage("'catalog add' needs <PACK.wordpack>: the archive 'hangman pack build' made") }
        let prices = parsed.texts("--price").map { text -> (storefront: String?, amount: String) in
            guard let equals = text.firstIndex(of: "=") else { return (nil, text) }
            return (String(text[..<equals]).uppercased(), String(text[text.index(after: equals)...]))
        }
        guard !prices.isEmpty else { throw CommandFailure.usage("'catalog add' needs --price <PRICE>, like --price 1.99 or --price DEU=1.99") }
        return Options(archive: archive, prices: prices, productID: parsed.productID("--product-id"), description: parsed.value("--description"), packs: parsed.value("--packs"))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let packs = try EmbeddedStore.packsFolder(options.packs, context: context)
        let added: CatalogPublisher.Addition
        do {
            added = try CatalogPublisher(folder: packs).add(
                archiveAt: options.archive, prices: options.prices, productID: options.productID, description: options.description)
        } catch {
            throw CatalogUpdateCommand.failure(error, packs: packs, context: context)
        }
        let product = added.update.catalog.product(added.productID)
        let sold = (product?.prices ?? [:]).sorted { $0.key < $1.key }.map { "\($0.value) (\($0.key))" }.joined(separator: ", ")
        context.out("Added \(product?.displayName ?? added.productID.rawValue) (\(added.productID)) at \(sold): \(added.file), \(PackText.grouped(product?.wordCount ?? 0)) words.")
        context.out("\(packs)/\(Catalog.fileName): CatalogVersion \(added.update.version)\(added.update.previousVersion.map { " (was \($0))" } ?? "").")
        context.out("Players buy it with 'hangman buy \(ProductNames(added.update.catalog).shortName(of: added.productID))'.")
        // Where it has no price, it is not sold: say so, and how to add one.
        let unpriced = added.update.catalog.storefronts.keys.filter { product?.prices[$0] == nil }.sorted()
        if let example = unpriced.first {
            context.outWrapped(
                "Not sold in \(unpriced.joined(separator: ", ")): the catalog sells there, and this pack has no price there (add \(example) to its Prices in \(Catalog.fileName), then 'hangman catalog update').")
        }
        return .ok
    }
}

