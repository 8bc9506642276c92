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

    static func run(_ arguments: [String], console: Console) throws(CommandFailure) -> ExitCode {
        guard let first = arguments.first else {
            console.out(spec.helpText)
            return .ok
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "update": return try CatalogUpdateCommand.main(rest, console: console)
        case "--help", "-h", "help":
            console.out(spec.helpText)
            return .ok
        default:
            throw .usage("unknown subcommand 'catalog \(first)' (update)")
        }
    }
}
