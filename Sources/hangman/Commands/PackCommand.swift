/// `hangman pack`: the content author's commands.
enum PackCommand {
    static let spec = CommandSpec(
        name: "hangman pack",
        overview: "Build, verify and inspect word packs.",
        usage: ["hangman pack <subcommand> [options]"],
        subcommands: Hangman.subcommands(of: "pack"),
        discussion: """
            A pack is a folder of property lists: Info.plist (the manifest) and any number of
            *.plist word lists. See 'hangman pack <subcommand> --help'.
            """)

    static let group = CommandGroup(name: "pack") { spec }
}
