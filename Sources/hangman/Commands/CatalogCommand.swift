/// `hangman catalog`: the publisher's commands.
enum CatalogCommand {
    static let spec = CommandSpec(
        name: "hangman catalog",
        overview: "Publish the product catalog.",
        usage: ["hangman catalog <subcommand> [options]"],
        subcommands: [
            ("update", "Record every pack archive's SHA-256 and size in Catalog.plist."),
        ],
        discussion: "See 'hangman catalog <subcommand> --help'.")

    static func run(_ arguments: [String], context: CommandContext) throws -> ExitCode {
        guard let first = arguments.first else {
            context.out(spec.helpText)
            return .ok
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "update": return try CatalogUpdateCommand.main(rest, context: context)
        case "--help", "-h", "help":
            context.out(spec.helpText)
            return .ok
        default:
            throw CommandFailure.usage("unknown subcommand 'catalog \(first)' (update)")
        }
    }
}
