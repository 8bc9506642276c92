import Device
import PackServiceAPI
import WordPacks

/// `hangman uninstall PRODUCT_ID`
enum UninstallCommand: Command {
    static let spec = CommandSpec(
        name: "hangman uninstall",
        overview: "Remove a pack from this device. The purchase stays: 'hangman install' brings it back.",
        usage: ["hangman uninstall <PRODUCT_ID>"],
        arguments: [.init(name: "<PRODUCT_ID>", help: "An installed pack.", kind: .productID)],
        options: StoreContext.options)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let id = arguments.productID("<PRODUCT_ID>") else { throw CommandFailure.usage("'uninstall' needs <PRODUCT_ID>") }
        let session = try await DeviceContext.open(arguments, context: context)
        if try session.device.uninstall(id) {
            let service = session.store.service
            let owned = try await service.entitlements().contains { $0.productID == id && $0.isActive }
            let name = session.catalog.product(id)?.displayName ?? id.rawValue
            let isBase = session.catalog.basePack(id) != nil
            context.out("Uninstalled \(name). " + (owned || isBase ? "Run 'hangman install \(id)' to bring it back." : "It was refunded: 'hangman buy \(id)' gets it again."))
        } else {
            context.out("\(id) is not installed: nothing to do.")
        }
        return .ok
    }
}
