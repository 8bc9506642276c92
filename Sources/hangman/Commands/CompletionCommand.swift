/// `hangman completion bash|zsh|fish`
enum CompletionCommand: Command {
    static let spec = CommandSpec(
        name: "hangman completion",
        overview: "Print a shell completion script for bash, zsh or fish, made from the command list.",
        usage: ["hangman completion bash|zsh|fish"],
        arguments: [.init(name: "<SHELL>", help: "bash, zsh or fish.")],
        discussion: """
            Installed by 'make install'. To try one in the current shell:
              bash:  source <(hangman completion bash)
              zsh:   hangman completion zsh > ~/.zfunc/_hangman   (with ~/.zfunc in fpath, then compinit)
              fish:  hangman completion fish | source
            Product names (ios, hard, es) are completed from 'hangman products' when the shell asks.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let name = arguments.value("<SHELL>") ?? ""
        guard let shell = ShellCompletion.Shell(rawValue: name) else {
            let suggestion = Suggestion.closest(to: name, among: ShellCompletion.Shell.allCases.map(\.rawValue)).map { ": did you mean '\($0)'?" } ?? ""
            throw CommandFailure.usage("no completion for the shell '\(name)'\(suggestion) (bash, zsh or fish)")
        }
        context.out(TerminalText(trusted: ShellCompletion.script(for: shell)), terminator: "")
        return .ok
    }
}

/// `hangman man`
enum ManualCommand: Command {
    static let spec = CommandSpec(
        name: "hangman man",
        overview: "Print the manual page, hangman(1), in troff: every command, option and exit code.",
        usage: ["hangman man"],
        discussion: "Installed by 'make install'. To read it without installing: hangman man | man -l -")

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        context.out(TerminalText(trusted: ManualPage.page(date: Hangman.manualDate)), terminator: "")
        return .ok
    }
}
