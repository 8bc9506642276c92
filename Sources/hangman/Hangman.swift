import Messages
import TerminalText
/// The `hangman` command: finds the subcommand, runs it, and maps failures to exit codes here only.
enum Hangman {
    static let version = "0.1.0"
    /// The month of this version, for the manual page.
    static let manualDate = "November 2026"

    static let spec = CommandSpec(
        name: "hangman",
        overview: "A hangman word game with downloadable word packs.",
        usage: ["hangman <subcommand> [options]", "hangman --version"],
        options: [CommandSpec.Option(names: ["--version"], value: nil, help: "Show the version.")],
        subcommands: Hangman.topLevelSummaries,
        discussion: """
            \(ExitCode.helpSection())

            ENVIRONMENT:
              HANGMAN_HOME    state directory (the account and the device), default ~/.local/share/hangman
              HANGMAN_PACKS   packs folder with Catalog.plist, default the checkout's Packs/
              HANGMAN_SERVICE the address of the home's pack server, when it has another than the last used
              Set but empty, HANGMAN_HOME or HANGMAN_PACKS is a usage error (64).

            See 'hangman <subcommand> --help' for a subcommand's options.
            """,
        laidOutDiscussion: { width in
            var lines = [ExitCode.helpSection(width: width), "", "ENVIRONMENT:"]
            for (name, meaning) in [
                ("HANGMAN_HOME", "state directory (the account and the device), default ~/.local/share/hangman"),
                ("HANGMAN_PACKS", "packs folder with Catalog.plist, default the checkout's Packs/"),
                ("HANGMAN_SERVICE", "the address of the home's pack server, when it has another than the last used"),
            ] {
                for (index, line) in GameLayout.wrap(meaning, width: width - 18).enumerated() {
                    lines.append((index == 0 ? "  " + name.padded(to: 16) : String(repeating: " ", count: 18)) + line)
                }
            }
            lines += GameLayout.wrap("Set but empty, HANGMAN_HOME or HANGMAN_PACKS is a usage error (64).", width: width - 2).map { "  " + $0 }
            lines += [""] + GameLayout.wrap("See 'hangman <subcommand> --help' for a subcommand's options.", width: width)
            return lines.joined(separator: "\n")
        })

    /// Runs the command line `arguments` and returns the exit code.
    /// Every write is checked: a command that succeeded but could not write all it had to say
    /// ends with 74 (nothing is lost silently: `hangman receipt > /dev/full`).
    static func main(_ arguments: [String], context: CommandContext) async -> ExitCode {
        // Names, numbers and sentences in the reader's language and locale, for this run only.
        await ReaderLocale(environment: context.environment).reading { await run(arguments, context: context) }
    }

    private static func run(_ arguments: [String], context: CommandContext) async -> ExitCode {
        do {
            let code = try await dispatch(arguments, context: context)
            try context.checkWrites()
            return code
        } catch {
            let failure = CommandFailure(error).explainingHome(context.homeInUse.path)
            if failure.code == .closedPipe { return failure.code }
            context.error(TerminalText(escaping: L10n.text("error: %s", failure.message)))
            for detail in failure.details { context.error("  \(detail)") }
            if failure.code == .usage, failure.namesHelp {
                let named = commandNamed(by: arguments)
                context.error(TerminalText(escaping: L10n.text("Run '%s --help' for usage.", named ?? "hangman")))
            }
            return failure.code
        }
    }

    /// The commands at the top level, each once; a group's commands are listed by the group.
    static let topLevelCommands: [any Command.Type] = [
        PlayCommand.self, StatsCommand.self, DailyCommand.self, LeaderboardCommand.self, FriendsCommand.self, ChallengeCommand.self, ChallengesCommand.self, ProductsCommand.self, BuyCommand.self, RestoreCommand.self, PacksCommand.self,
        InstallCommand.self, UpdateCommand.self, UninstallCommand.self, ResetCommand.self, HintsCommand.self,
        TransactionsCommand.self, RefundCommand.self, RedeemCommand.self, SubscriptionsCommand.self, ReceiptCommand.self, StoreCommand.self, SettingsCommand.self, CompletionCommand.self, ManualCommand.self,
        ServeCommand.self, ReportCommand.self, CustomerCommand.self, BackupCommand.self,
    ]

    /// The command `arguments` name (`hangman buy`, `hangman pack build`, the group `hangman
    /// account`), global options before it skipped; `nil` when they name none.
    static func commandNamed(by arguments: [String]) -> String? {
        var words = arguments[...]
        while let first = words.first, first == "--home" || first == "--packs" { words = words.dropFirst(2) }
        while let first = words.first, first.hasPrefix("--home=") || first.hasPrefix("--packs=") { words = words.dropFirst() }
        guard let first = words.first else { return nil }
        if let group = groups.first(where: { $0.name == first }) {
            let word = words.dropFirst().first
            return group.commands.first(where: { $0.path.last == word }).map { $0.spec.name } ?? group.spec.name
        }
        return topLevelCommands.first(where: { $0.path == [first] })?.spec.name
    }

    /// Commands that gather subcommands (`hangman pack build`): their own help page. (No key path
    /// such as `\.name` over these metatypes: Swift 6.3.1 crashes lowering one.)
    static let groups: [any CommandGroup.Type] = [PackCommand.self, CatalogCommand.self, AccountCommand.self]

    /// Every command: the top level's, then each group's. The help pages, the manual page and
    /// the completions read this list.
    static var commands: [any Command.Type] { topLevelCommands + groups.flatMap { $0.commands } }

    /// The top-level help's list: each command and group with the first clause of its overview.
    static var topLevelSummaries: [(String, String)] {
        topLevelCommands.map { ($0.path[0], $0.spec.summary) } + groups.map { ($0.name, $0.spec.summary) }
    }

    private static func dispatch(_ arguments: [String], context: CommandContext) async throws -> ExitCode {
        guard let first = arguments.first else {
            // A bare `hangman` on a terminal plays, as bsdgames' does; a script gets the help.
            if context.inputIsTerminal && context.outputIsTerminal { return try await dispatch(["play"], context: context) }
            context.out(TerminalText(trusted: spec.helpText(width: context.outputWidth)))
            return .ok
        }
        var rest = Array(arguments.dropFirst())
        // Global options before the subcommand go after it, where the subcommand parses them.
        if first == "--home" || first == "--packs", let value = rest.first {
            return try await dispatch(Array(rest.dropFirst()) + [first, value], context: context)
        }
        if first.hasPrefix("--home=") || first.hasPrefix("--packs="), !rest.isEmpty {
            rest.append(first)
            return try await dispatch(rest, context: context)
        }
        switch first {
        case "--version":
            context.out("hangman \(version)")
            return .ok
        case "--help", "-h":
            context.out(TerminalText(trusted: spec.helpText(width: context.outputWidth)))
            return .ok
        case "help":
            // `hangman help play`, `hangman help pack build`: that command's page.
            guard !rest.isEmpty else {
                context.out(TerminalText(trusted: spec.helpText(width: context.outputWidth)))
                return .ok
            }
            return try await dispatch(rest + ["--help"], context: context)
        default:
            break
        }
        if let group = groups.first(where: { $0.name == first }) {
            guard let word = rest.first, !["--help", "-h", "help"].contains(word) else {
                context.out(TerminalText(trusted: group.spec.helpText(width: context.outputWidth)))
                return .ok
            }
            guard let command = group.commands.first(where: { $0.path.last == word }) else {
                let names = group.commands.compactMap { $0.path.last }
                let suggestion = Suggestion.closest(to: word, among: names).map { "did you mean '\(first) \($0)'? " } ?? ""
                throw CommandFailure.usage("unknown subcommand '\(first) \(word)' (\(suggestion)\(names.joined(separator: ", ")))")
            }
            return try await command.main(Array(rest.dropFirst()), context: context)
        }
        if let command = topLevelCommands.first(where: { $0.path == [first] }) {
            return try await command.main(rest, context: context)
        }
        if first.hasPrefix("-") {
            let suggestion = Suggestion.closest(to: first, among: ["--version", "--help", "--home", "--packs"]).map { ": did you mean '\($0)'?" } ?? ""
            throw CommandFailure.usage("unknown option '\(first)'\(suggestion)")
        }
        let names = topLevelCommands.map { $0.path[0] } + groups.map { $0.name }
        let suggestion = Suggestion.closest(to: first, among: names).map { ": did you mean '\($0)'?" } ?? ""
        throw CommandFailure.usage("unknown command '\(first)'\(suggestion)")
    }
}

/// A command: its interface, the typed options it reads once from the parsed command line, and
/// what it does with them. The parser has checked and converted every value already; `options`
/// only gathers them, and `run` never looks at a string of the command line again.
protocol Command: Sendable {
    associatedtype Options
    static var spec: CommandSpec { get }
    /// The command's options, gathered from what the parser found.
    static func options(_ parsed: ParsedArguments) throws -> Options
    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode
}

/// A command that gathers subcommands (`hangman pack build`): its name, its help page (which
/// lists them), and the commands themselves.
protocol CommandGroup: Sendable {
    static var name: String { get }
    static var overview: String { get }
    static var discussion: String { get }
    static var commands: [any Command.Type] { get }
}

extension CommandGroup {
    /// The group's help page: its subcommands, each with the first clause of its overview.
    static var spec: CommandSpec {
        CommandSpec(
            name: "hangman \(name)", overview: overview, usage: ["hangman \(name) <subcommand> [options]"],
            subcommands: commands.compactMap { command in command.path.last.map { ($0, command.spec.summary) } }, discussion: discussion)
    }
}

extension Command {
    /// The words after `hangman` that name this command: `["pack", "build"]`.
    static var path: [String] { Array(spec.name.split(separator: " ").dropFirst().map(String.init)) }

    /// Parses `arguments`, answers `--help`, else gathers the options and runs.
    static func main(_ arguments: [String], context: CommandContext) async throws -> ExitCode {
        let parsed = try spec.parse(arguments)
        if parsed.wantsHelp {
            context.out(TerminalText(trusted: spec.helpText(width: context.outputWidth)))
            return .ok
        }
        return try await run(try options(parsed), context: context)
    }
}
