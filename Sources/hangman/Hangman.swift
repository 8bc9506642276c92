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
            """)

    /// Runs the command line `arguments` and returns the exit code.
    /// Every write is checked: a command that succeeded but could not write all it had to say
    /// ends with 74 (nothing is lost silently: `hangman receipt > /dev/full`).
    static func main(_ arguments: [String], context: CommandContext) async -> ExitCode {
        do {
            let code = try await dispatch(arguments, context: context)
            try context.checkWrites()
            return code
        } catch {
            let failure = CommandFailure(error)
            context.error("error: \(failure.message)")
            for detail in failure.details { context.error("  \(detail)") }
            if failure.code == .usage {
                context.error("Run 'hangman --help' or '<command> --help' for usage.")
            }
            return failure.code
        }
    }

    /// Every command, once: the dispatcher and the help pages read this list.
    static let commands: [any Command.Type] = [
        PlayCommand.self, StatsCommand.self, ProductsCommand.self, BuyCommand.self, RestoreCommand.self, PacksCommand.self,
        InstallCommand.self, UpdateCommand.self, UninstallCommand.self, ResetCommand.self, HintsCommand.self,
        TransactionsCommand.self, ReceiptCommand.self, StoreCommand.self, SettingsCommand.self, CompletionCommand.self, ManualCommand.self,
        PackInitCommand.self, PackBuildCommand.self, PackVerifyCommand.self, PackInspectCommand.self, PackKeygenCommand.self,
        CatalogUpdateCommand.self, ServeCommand.self, AccountCreateCommand.self, AccountShowCommand.self, AccountTokenCommand.self,
    ]

    /// Commands that gather subcommands (`hangman pack build`): their own help page.
    static let groups: [CommandGroup] = [PackCommand.group, CatalogCommand.group, AccountCommand.group]

    /// The top-level help's list: each command and group with the first clause of its overview.
    static var topLevelSummaries: [(String, String)] {
        var rows: [(String, String)] = []
        for command in commands where command.path.count == 1 {
            rows.append((command.path[0], command.spec.summary))
        }
        for group in groups { rows.append((group.name, group.spec.summary)) }
        return rows
    }

    /// A group's subcommands, for its help page.
    static func subcommands(of group: String) -> [(String, String)] {
        commands.filter { $0.path.count == 2 && $0.path[0] == group }.map { ($0.path[1], $0.spec.summary) }
    }

    private static func dispatch(_ arguments: [String], context: CommandContext) async throws -> ExitCode {
        guard let first = arguments.first else {
            context.out(TerminalText(trusted: spec.helpText))
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
            context.out(TerminalText(trusted: spec.helpText))
            return .ok
        case "help":
            // `hangman help play`, `hangman help pack build`: that command's page.
            guard !rest.isEmpty else {
                context.out(TerminalText(trusted: spec.helpText))
                return .ok
            }
            return try await dispatch(rest + ["--help"], context: context)
        default:
            break
        }
        if let group = groups.first(where: { $0.name == first }) {
            guard let word = rest.first, !["--help", "-h", "help"].contains(word) else {
                context.out(TerminalText(trusted: group.spec.helpText))
                return .ok
            }
            guard let command = commands.first(where: { $0.path == [first, word] }) else {
                let names = commands.filter { $0.path.count == 2 && $0.path[0] == first }.map { $0.path[1] }
                let suggestion = Suggestion.closest(to: word, among: names).map { "did you mean '\(first) \($0)'? " } ?? ""
                throw CommandFailure.usage("unknown subcommand '\(first) \(word)' (\(suggestion)\(names.joined(separator: ", ")))")
            }
            return try await command.main(Array(rest.dropFirst()), context: context)
        }
        if let command = commands.first(where: { $0.path == [first] }) {
            return try await command.main(rest, context: context)
        }
        if first.hasPrefix("-") { throw CommandFailure.usage("unknown option '\(first)'") }
        let names = commands.filter { $0.path.count == 1 }.map { $0.path[0] } + groups.map(\.name)
        let suggestion = Suggestion.closest(to: first, among: names).map { ": did you mean '\($0)'?" } ?? ""
        throw CommandFailure.usage("unknown command '\(first)'\(suggestion)")
    }
}

/// A leaf command: its interface, and what it does with parsed arguments.
protocol Command: Sendable {
    static var spec: CommandSpec { get }
    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode
}

/// A command that gathers subcommands; its help page lists them.
struct CommandGroup: Sendable {
    var name: String
    /// Made when the group's help or one of its subcommands is asked for: a group's spec lists its
    /// subcommands, which makes every command's spec, and running a leaf command needs none of them.
    private let makeSpec: @Sendable () -> CommandSpec
    var spec: CommandSpec { makeSpec() }

    init(name: String, spec: @escaping @Sendable () -> CommandSpec) {
        self.name = name
        self.makeSpec = spec
    }
}

extension Command {
    /// The words after `hangman` that name this command: `["pack", "build"]`.
    static var path: [String] { Array(spec.name.split(separator: " ").dropFirst().map(String.init)) }

    /// Parses `arguments`, answers `--help`, else runs.
    static func main(_ arguments: [String], context: CommandContext) async throws -> ExitCode {
        let parsed = try spec.parse(arguments)
        if parsed.wantsHelp {
            context.out(TerminalText(trusted: spec.helpText))
            return .ok
        }
        return try await run(parsed, context: context)
    }
}
