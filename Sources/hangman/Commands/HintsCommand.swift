import CivilCalendar
import Device
import Messages
import PackServiceAPI
import TerminalText

/// `hangman hints`, `hangman hints spend`
enum HintsCommand: Command {
    static let spec = CommandSpec(
        name: "hangman hints",
        overview: "Show the account's hint balance, or spend one hint as the game does.",
        usage: ["hangman hints [--json]", "hangman hints spend [--key <KEY>] [--json]"],
        takesWords: true,
        options: [
            .init(names: ["--json"], value: nil, help: "Print one JSON document."),
            .init(names: ["--key"], value: "KEY", help: "Idempotency key of a spend: the same key never spends twice (default: a new one)."),
        ] + HomeContext.options,
        subcommands: [("spend", "Spend one hint. Exit status 77 when there is none left.")],
        discussion: """
            When the pack server cannot be reached, 'hints' prints the last balance the server signed,
            with its time, and exits with 69: '99 hints (as of 14:02 UTC, the pack server cannot be reached)'.
            """)

    enum Action {
        case show
        /// Spend one hint under this key (a new one when `nil`).
        case spend(key: String?)
    }

    static func options(_ parsed: ParsedArguments) throws -> ActionOptions<Action> {
        let action: Action
        switch parsed.positionals {
        case []: action = .show
        case ["spend"]: action = .spend(key: parsed.value("--key"))
        default:
            throw CommandFailure.usage("unknown 'hints' arguments: \(parsed.positionals.joined(separator: " ")) (try 'hints' or 'hints spend')")
        }
        return ActionOptions(action, parsed)
    }

    static func run(_ options: ActionOptions<Action>, context: CommandContext) async throws -> ExitCode {
        let store = try await HomeContext.open(options.store, context: context, quietOffline: true)
        let service = store.service
        switch options.action {
        case .show:
            let count = try await HintCount.read(from: service)
            if options.json {
                context.out(JSONText.encode(BalanceJSON(hintBalance: count.hints, signedAt: count.signedAt.map { ISO8601.string($0) }, offline: count.signedAt.map { _ in true })))
            } else {
                context.out(TerminalText(stringLiteral: StoreText.hints(count, now: context.clock.now())))
            }
            if let offline = store.offline ?? count.offline {
                context.error(TerminalText(escaping: L10n.text("warning: %s", offline.message)))
                return .storeRefused
            }
            return .ok
        case .spend(let given):
            let key = given ?? IdempotencyKey.new(prefix: "cli-")
            let spend = try await service.spendHint(idempotencyKey: key)
            if options.json {
                context.out(JSONText.encode(SpendJSON(hintBalance: spend.balance, alreadySpent: spend.wasAlreadySpent)))
            } else {
                context.out(
                    TerminalText(
                        escaping: spend.wasAlreadySpent
                            ? L10n.text("Already spent under key '%s': nothing taken. %d left.", key, spend.balance)
                            : L10n.text("Spent one hint. %d left.", spend.balance)))
            }
            return .ok
        }
    }
}

/// `hints --json`: the balance, and when it is the last one the service signed, when that was.
struct BalanceJSON: Encodable {
    var hintBalance: Int
    var signedAt: String?
    var offline: Bool?
}

/// `hints spend --json`.
struct SpendJSON: Encodable {
    var hintBalance: Int
    var alreadySpent: Bool
}
