import Device
import Messages
import PackServiceAPI
import TerminalText
import WordPacks

/// `hangman uninstall PRODUCT_ID`
enum UninstallCommand: Command {
    static let spec = CommandSpec(
        name: "hangman uninstall",
        overview: "Remove a pack from this device. The purchase stays: 'hangman install' brings it back.",
        usage: ["hangman uninstall <PRODUCT_ID>"],
        arguments: [.init(name: "<PRODUCT_ID>", help: "An installed pack.", kind: .product)],
        options: HomeContext.options,
        discussion: "Exit status: 0 uninstalled, or a pack of the catalog that is not installed; 64 no such pack.")

    static func options(_ parsed: ParsedArguments) throws -> ProductOptions {
        try ProductOptions(parsed, command: "uninstall")
    }

    static func run(_ options: ProductOptions, context: CommandContext) async throws -> ExitCode {
        let session = try await PlayerContext.open(options.store, context: context)
        let id = try options.product.resolve(in: session.catalog)
        switch try await session.player.uninstall(id) {
        case .uninstalled(let canReinstall):
            let next = canReinstall ? L10n.text("Run '%s' to bring it back.", "hangman install \(id)") : L10n.text("It was refunded: '%s' gets it again.", "hangman buy \(id)")
            context.out(TerminalText(escaping: L10n.text("Uninstalled %s.", session.name(id)) + " " + next))
        case .notInstalled:
            context.out(TerminalText(escaping: L10n.text("%s is not installed: nothing to do.", id.rawValue)))
        }
        return .ok
    }
}
