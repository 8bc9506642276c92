import PackServiceAPI
import Seller

/// `hangman catalog remove ID`
enum CatalogRemoveCommand: Command {
    static let spec = CommandSpec(
        name: "hangman catalog remove",
        overview: "Take a product off sale and publish; those who bought it keep it.",
        usage: ["hangman catalog remove <PRODUCT_ID> [--packs <DIR>]"],
        arguments: [.init(name: "<PRODUCT_ID>", help: "The product: its identifier or short name (easy, hints.10).", kind: .product)],
        options: [HomeContext.packsOption],
        discussion: """
            Nobody may buy it any more. It stays in Catalog.plist marked RemovedFromSale, and its
            archive stays in the folder: whoever bought it keeps it, restores it on a new device,
            and finds it in their receipts; a subscription already bought goes on renewing until
            it is cancelled. Deleting the archive as well makes the pack unavailable to its owners
            (restore says so).
            Exit status: 0 removed; 64 no such product; 65 already off sale, or the catalog does
            not publish (nothing is written); 66 no catalog; 73 cannot write.
            """)

    static func options(_ parsed: ParsedArguments) throws -> (product: ProductName, packs: String?) {
        (try parsed.required(parsed.productName("<PRODUCT_ID>"), "<PRODUCT_ID>", of: "catalog remove"), parsed.value("--packs"))
    }

    static func run(_ options: (product: ProductName, packs: String?), context: CommandContext) async throws -> ExitCode {
        let packs = try EmbeddedStore.packsFolder(options.packs, context: context)
        let catalog: Catalog
        do { catalog = try Catalog.load(folder: packs) } catch { throw CatalogUpdateCommand.failure(error, packs: packs, context: context) }
        let id = try options.product.resolve(in: catalog)
        guard catalog.product(id) != nil else {
            throw CommandFailure.usage("\(packs)/\(Catalog.fileName) sells no product \(id): see 'hangman products --packs \(packs)'")
        }
        let update: CatalogUpdate
        do {
            update = try CatalogPublisher(folder: packs).remove(id)
        } catch {
            throw CatalogUpdateCommand.failure(error, packs: packs, context: context)
        }
        context.out("\(StoreText.productName(id, catalog: catalog)) (\(id)) is off sale: those who bought it keep it. \(packs)/\(Catalog.fileName) is at CatalogVersion \(update.version).")
        return .ok
    }
}
