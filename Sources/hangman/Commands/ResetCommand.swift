import Device
import PackServiceAPI
import WordPacks

/// `hangman reset --yes`
enum ResetCommand: Command {
    static let spec = CommandSpec(
        name: "hangman reset",
        overview: "Delete this device's state, as deleting the app would: installed packs, statistics.",
        usage: ["hangman reset --yes"],
        options: [.init(names: ["--yes"], value: nil, help: "Confirm.")] + HomeContext.options,
        discussion: "The account stays: purchases and hints. 'hangman restore' brings every pack back.")

    static func options(_ parsed: ParsedArguments) throws -> HomeOptions {
        guard parsed.has("--yes") else { throw CommandFailure.usage("'reset' deletes this device's packs and statistics: confirm with --yes") }
        return HomeOptions(parsed)
    }

    static func run(_ options: HomeOptions, context: CommandContext) async throws -> ExitCode {
        // Deleting the app needs no store: it works offline too.
        let home = Home(folder: try HomeContext.homeFolder(options, context: context))
        try home.eraseDevice()
        context.out("Deleted this device's state (\(home.deviceFolder)). Your purchases and hints are kept: run 'hangman restore' to bring your packs back.")
        return .ok
    }
}
