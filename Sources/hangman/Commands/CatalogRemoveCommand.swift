import PackServiceAPI
import Store

/// `hangman catalog remove ID`
enum CatalogRemoveCommand: Command {
    static let spec = CommandSpec(
        name: "hangman catalog remove",
        overview: "Take a product out of Catalog.plist and publish; its archive stays in the folder.",
        usage: ["hangman catalog remove <PRODUCT_ID> [--packs <DIR>]"],
        arguments: [.init(name: "<PRODUCT_ID>", help: "The product's full identifier.", kind: .productID)],
        options: [HomeContext.packsOption],
        discussion: """
            Players who bought it keep what is installed; it is no longer sold or updated.
            Exit status: 0 removed; 65 no such product in the catalog (nothing is written); 66 no
            catalog; 73 cannot write.
            """)

    static func options(_ parsed: ParsedArguments) throws -> (id: ProductID, packs: String?) {
        (try parsed.required(parsed.productID("<PRODUCT_ID>"), "<PRODUCT_ID>", of: "catalog remove"), parsed.value("--packs"))
    }

    static func run(_ options: (id: ProductID, packs: String?), context: CommandContext) async throws -> ExitCode {
        let packs = try EmbeddedStore.packsFolder(options.packs, context: context)
        let update: CatalogUpdate
        do {
            update = try CatalogPublisher(folder: packs).remove(options.id)
        } catch {
            throw CatalogUpdateCommand.failure(error, packs: packs, context: context)
        }
        context.out("Removed \(options.id): \(packs)/\(Catalog.fileName) is at CatalogVersion \(update.version).")
        return .ok
    }
}
