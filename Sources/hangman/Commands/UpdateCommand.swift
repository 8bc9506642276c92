import Device
import Messages
import PackServiceAPI
import TerminalText
import WordPacks

/// `hangman update [PRODUCT_ID]`
enum UpdateCommand: Command {
    static let spec = CommandSpec(
        name: "hangman update",
        overview: "Install newer versions of installed packs; the old words stay playable until the new ones are in.",
        usage: ["hangman update [<PRODUCT_ID>]"],
        arguments: [.init(name: "<PRODUCT_ID>", help: "One pack to update (default: every installed pack).", kind: .product, arity: .optional)],
        options: HomeContext.options,
        discussion: "An older version than the one installed is refused (exit 65).")

    struct Options {
        var product: ProductName?
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        Options(product: parsed.productName("<PRODUCT_ID>"), store: HomeOptions(parsed))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let session = try await PlayerContext.open(options.store, context: context)
        let target = try options.product.map { try $0.resolve(in: session.catalog) }
        let catalog = session.catalog
        // Without an argument: every installed pack still unlocked (a refunded one is skipped).
        let updated = try await session.player.update(target) { id in ProgressBar.forInstall(of: id, catalog: catalog, context: context) }
        for (id, outcome) in updated {
            if case .alreadyInstalled(let version) = outcome {
                context.out(TerminalText(escaping: L10n.text("%s %s is up to date.", session.name(id), "\(version)")))
            } else {
                context.out(session.describe(outcome, id))
            }
        }
        return .ok
    }
}
