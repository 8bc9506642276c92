import Device
import Messages
import PackServiceAPI
import TerminalText
import WordPacks

/// `hangman reset --yes`
enum ResetCommand: Command {
    static let spec = CommandSpec(
        name: "hangman reset",
        overview: "Delete this device's state, as deleting the app would: installed packs, statistics.",
        usage: ["hangman reset [--yes]"],
        options: [.init(names: ["--yes", "-y"], value: nil, help: "Delete without asking (needed without a terminal).")] + HomeContext.options,
        discussion: """
            The account stays: purchases and hints. 'hangman restore' brings every pack back.
            On a terminal it asks first, as 'buy' and 'store clear' do (anything but y deletes
            nothing, exit 1); without one it needs --yes (64).
            """)

    struct Options {
        var store: HomeOptions
        var confirmed: Bool
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        Options(store: HomeOptions(parsed), confirmed: parsed.has("--yes"))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        if !options.confirmed {
            guard Question.canAsk(context) else {
                throw CommandFailure.usage(L10n.text("'reset' deletes this device's packs and statistics: confirm with --yes"))
            }
            guard Question.ask("Delete this device's packs, saved game and statistics? Purchases and hints stay with the account.", context: context) else {
                context.out(TerminalText(escaping: L10n.text("Nothing was deleted.")))
                return .declined
            }
        }
        // Deleting the app needs no store: it works offline too.
        let home = Home(folder: try HomeContext.homeFolder(options.store, context: context))
        try home.eraseDevice()
        context.out(TerminalText(escaping: L10n.text("Deleted this device's state (%s). Your purchases and hints are kept: run 'hangman restore' to bring your packs back.", home.deviceFolder)))
        return .ok
    }
}
