/// The `hangman` command: finds the subcommand, runs it, and maps failures to exit codes here only.
enum Hangman {
    static let version = "0.1.0"

    static let spec = CommandSpec(
        name: "hangman",
        overview: "A hangman word game with downloadable word packs.",
        usage: ["hangman <subcommand> [options]", "hangman --version"],
        options: [CommandSpec.Option(names: ["--version"], value: nil, help: "Show the version.")],
        subcommands: [
            ("play", "Play hangman with words from your installed packs."),
            ("stats", "Games played and won, streaks."),
            ("products", "List what the store sells."),
            ("buy", "Buy hints or a word pack."),
            ("restore", "Restore every pack the account owns."),
            ("packs", "Every pack: base or paid, price, installed version, state."),
            ("install", "Install a pack the account owns."),
            ("update", "Install newer versions of installed packs."),
            ("uninstall", "Remove a pack from this device (the purchase stays)."),
            ("reset", "Delete this device's state, as deleting the app would."),
            ("hints", "Show (or spend) the account's hints."),
            ("transactions", "Show the account's purchase history."),
            ("receipt", "Write or verify the account's signed receipt."),
            ("store", "Control the store's test environment (failures, ask to buy, refunds)."),
            ("pack", "Build, verify and inspect word packs (.wordpack archives)."),
            ("catalog", "Publish the catalog: record each pack archive's SHA-256 and size."),
        ],
        discussion: """
            EXIT CODES:
              0   success
              64  usage error: unknown command or option, missing argument
              65  invalid data: a pack, catalog, property list or key that fails verification
              66  missing input: a file or folder named on the command line does not exist
              69  the store refused the payment
              73  cannot create an output file
              74  the state directory cannot be read or written
              75  try again later: the purchase waits for approval or for the buyer
              77  not entitled: the pack is not purchased, or not enough hints
              130 a game ended by Ctrl-C (it is saved)

            ENVIRONMENT:
              HANGMAN_HOME    state directory (the account and the device), default ~/.local/share/hangman
              HANGMAN_PACKS   packs folder with Catalog.plist, default the checkout's Packs/

            See 'hangman <subcommand> --help' for a subcommand's options.
            """)

    /// Runs the command line `arguments` and returns the exit code.
    static func main(_ arguments: [String], context: CommandContext) -> ExitCode {
        do {
            return try dispatch(arguments, context: context)
        } catch {
            let failure = CommandFailure(error)
            context.error("error: \(failure.message)")
            if failure.code == .usage {
                context.error("Run 'hangman --help' or '<command> --help' for usage.")
            }
            return failure.code
        }
    }

    private static func dispatch(_ arguments: [String], context: CommandContext) throws -> ExitCode {
        guard let first = arguments.first else {
            context.out(spec.helpText)
            return .ok
        }
        var rest = Array(arguments.dropFirst())
        // Global options before the subcommand go after it, where the subcommand parses them.
        if first == "--home" || first == "--packs", let value = rest.first {
            return try dispatch(Array(rest.dropFirst()) + [first, value], context: context)
        }
        if first.hasPrefix("--home=") || first.hasPrefix("--packs="), !rest.isEmpty {
            rest.append(first)
            return try dispatch(rest, context: context)
        }
        switch first {
        case "--version":
            context.out("hangman \(version)")
            return .ok
        case "--help", "-h", "help":
            context.out(spec.helpText)
            return .ok
        case "pack": return try PackCommand.run(rest, context: context)
        case "catalog": return try CatalogCommand.run(rest, context: context)
        case "products": return try ProductsCommand.main(rest, context: context)
        case "buy": return try BuyCommand.main(rest, context: context)
        case "restore": return try RestoreCommand.main(rest, context: context)
        case "hints": return try HintsCommand.main(rest, context: context)
        case "transactions": return try TransactionsCommand.main(rest, context: context)
        case "receipt": return try ReceiptCommand.main(rest, context: context)
        case "store": return try StoreCommand.main(rest, context: context)
        case "packs": return try PacksCommand.main(rest, context: context)
        case "play": return try PlayCommand.main(rest, context: context)
        case "stats": return try StatsCommand.main(rest, context: context)
        case "install": return try InstallCommand.main(rest, context: context)
        case "update": return try UpdateCommand.main(rest, context: context)
        case "uninstall": return try UninstallCommand.main(rest, context: context)
        case "reset": return try ResetCommand.main(rest, context: context)
        default:
            if first.hasPrefix("-") { throw CommandFailure.usage("unknown option '\(first)'") }
            throw CommandFailure.usage("unknown command '\(first)'")
        }
    }
}

/// A leaf command: its interface, and what it does with parsed arguments.
protocol Command {
    static var spec: CommandSpec { get }
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode
}

extension Command {
    /// Parses `arguments`, answers `--help`, else runs.
    static func main(_ arguments: [String], context: CommandContext) throws -> ExitCode {
        let parsed = try spec.parse(arguments)
        if parsed.wantsHelp {
            context.out(spec.helpText)
            return .ok
        }
        return try run(parsed, context: context)
    }
}
