import Device
import Messages
import PackServiceAPI
import PackServiceClient
import TerminalText

/// `hangman account close`
enum AccountCloseCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account close",
        overview: "Close this home's account on its pack server: every device's token revoked, its receipts no longer valid.",
        usage: ["hangman account close [--yes] [--home <DIR>]"],
        options: [.init(names: ["--yes", "-y"], value: nil, help: "Close without asking (needed without a terminal)."), HomeContext.options[0], HomeContext.serviceOption, HomeContext.caFileOption],
        discussion: """
            Asks on a terminal. The account's purchases and hints are gone for every device: a
            receipt of it then verifies as 21010 (the account is gone). This home keeps its files;
            use another home for a new account. Exit status: 0 closed, 1 not confirmed, 64 no
            terminal and no --yes, 77 no account here or the token is not known.
            """)

    struct Options {
        var yes: Bool
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) -> Options { Options(yes: parsed.has("--yes"), store: HomeOptions(parsed)) }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let account = try await ServiceAccount.open(options.store, context: context)
        if !options.yes {
            guard Question.canAsk(context) else {
                throw CommandFailure.usage(L10n.text("'account close' ends the account for every device: pass --yes to close it without a terminal"))
            }
            guard Question.ask("Close account \(account.credentials.accountID) for every device? Its purchases and hints are lost.", context: context) else {
                context.out(TerminalText(escaping: L10n.text("Not closed.")))
                return .declined
            }
        }
        try await account.client.closeAccount()
        context.out(TerminalText(escaping: L10n.text("Closed account %s: every device's token is revoked, and its receipts are no longer valid.", account.credentials.accountID)))
        return .ok
    }
}
