import TerminalText
/// `hangman completion bash|zsh|fish`
enum CompletionCommand: Command {
    static let spec = CommandSpec(
        name: "hangman completion",
        overview: "Print a shell completion script for bash, zsh or fish, made from the command list.",
        usage: ["hangman completion bash|zsh|fish"],
        arguments: [.init(name: "<SHELL>", help: "bash, zsh or fish.", kind: .choice(ShellCompletion.Shell.allCases.map(\.rawValue)))],
        discussion: """
            Installed by 'make install'. To try one in the current shell:
              bash:  source <(hangman completion bash)
              zsh:   hangman completion zsh > ~/.zfunc/_hangman   (with ~/.zfunc in fpath, then compinit)
              fish:  hangman completion fish | source
            Product names (ios, hard, es) are completed from 'hangman products' when the shell asks.
            """)

    static func options(_ parsed: ParsedArguments) throws -> ShellCompletion.Shell {
        let name = try parsed.required(parsed.value("<SHELL>"), "<SHELL>", of: "completion")
        return try parsed.required(ShellCompletion.Shell(rawValue: name), "<SHELL>", of: "completion")
    }

    static func run(_ shell: ShellCompletion.Shell, context: CommandContext) async throws -> ExitCode {
        context.out(TerminalText(trusted: ShellCompletion.script(for: shell)), terminator: "")
        return .ok
    }
}

