import Messages
import PackServiceAPI
import TerminalText

/// `hangman account storefront [CODE]`
enum AccountStorefrontCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account storefront",
        overview: "Show the account's storefront, or move the account to another: future purchases are priced there, in its currency.",
        usage: ["hangman account storefront [<CODE>] [--home <DIR>]"],
        arguments: [.init(name: "<CODE>", help: "The storefront to move to: USA, GBR, DEU, FRA, ESP, MEX, JPN, BRA... ('hangman account storefront' lists the store's).", arity: .optional)],
        options: HomeContext.options,
        discussion: """
            What was bought stays as it was charged, in its currency; a subscription renews at the
            new storefront's price. On a pack server the storefront belongs to the account, on
            every device. Exit status: 0 shown or changed, 64 a storefront the store does not sell
            in, 69 the pack server cannot be reached.
            """)

    struct Options {
        var code: String?
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) -> Options {
        Options(code: parsed.value("<CODE>")?.uppercased(), store: HomeOptions(parsed))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let store = try await HomeContext.open(options.store, context: context)
        let catalog = store.catalog
        func described(_ code: String) -> String { code + (catalog.currency(of: code).map { " (\($0))" } ?? "") }
        guard let code = options.code else {
            context.out(TerminalText(escaping: L10n.text("The account's storefront is %s.", described(try await store.service.storefront()))))
            context.outWrapped("The store sells in: \(catalog.storefrontCodes.map(described).joined(separator: ", ")).")
            return .ok
        }
        guard catalog.currency(of: code) != nil else {
            throw CommandFailure.usage("'\(code)' is not a storefront of this store: one of \(catalog.storefrontCodes.joined(separator: ", "))")
        }
        let before = try await store.service.storefront()
        let now = try await store.service.setStorefront(code)
        if before == now {
            context.out(TerminalText(escaping: L10n.text("The account's storefront is %s already: nothing changed.", described(now))))
        } else {
            context.outWrapped("The account's storefront is now \(described(now)) (was \(described(before))): future purchases are priced there; what was bought stays as it was charged.")
        }
        return .ok
    }
}
