/// `hangman catalog`: the publisher's commands.
enum CatalogCommand: CommandGroup {
    static let name = "catalog"
    static let overview = "Publish the product catalog."
    static let discussion = "See 'hangman catalog <subcommand> --help'."
    static let commands: [any Command.Type] = [CatalogUpdateCommand.self, CatalogAddCommand.self, CatalogRemoveCommand.self, CatalogOfferCodesCommand.self]
}
