/// `hangman pack`: the content author's commands.
enum PackCommand {
    static let spec = CommandSpec(
        name: "hangman pack",
        overview: "Build, verify and inspect word packs.",
        usage: ["hangman pack <subcommand> [options]"],
        subcommands: [
            ("build", "Verify a pack's source folder and write its .wordpack archive."),
            ("verify", "Verify .wordpack archives, reporting every problem."),
            ("inspect", "Show a pack's manifest, word lists, lengths and archive digest."),
            ("keygen", "Make an Ed25519 key pair for signing packs."),
        ],
        discussion: """
            A pack is a folder of property lists: Info.plist (the manifest) and any number of
            *.plist word lists. See 'hangman pack <subcommand> --help'.
            """)

    static func run(_ arguments: [String], context: CommandContext) throws -> ExitCode {
        guard let first = arguments.first else {
            context.out(spec.helpText)
            return .ok
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "build": return try PackBuildCommand.main(rest, context: context)
        case "verify": return try PackVerifyCommand.main(rest, context: context)
        case "inspect": return try PackInspectCommand.main(rest, context: context)
        case "keygen": return try PackKeygenCommand.main(rest, context: context)
        case "--help", "-h", "help":
            context.out(spec.helpText)
            return .ok
        default:
            throw CommandFailure.usage("unknown subcommand 'pack \(first)' (build, verify, inspect, keygen)")
        }
    }
}
