/// `hangman catalog`: the publisher's commands.
enum CatalogCommand {
    static let spec = CommandSpec(
        name: "hangman catalog",
        overview: "Publish the product catalog.",
        usage: ["hangman catalog <subcommand> [options]"],
        subcommands: Hangman.subcommands(of: "catalog"),
        discussion: "See 'hangman catalog <subcommand> --help'.")

    static let group = CommandGroup(name: "catalog") { spec }
}
