/// `hangman pack`: the content author's commands.
enum PackCommand: CommandGroup {
    static let name = "pack"
    static let overview = "Build, verify and inspect word packs."
    static let discussion = """
        A pack is a folder of property lists: Info.plist (the manifest) and any number of
        *.plist word lists. See 'hangman pack <subcommand> --help'.
        """
    static let commands: [any Command.Type] = [
        PackInitCommand.self, PackBuildCommand.self, PackVerifyCommand.self, PackInspectCommand.self, PackKeygenCommand.self,
    ]
}
