import TerminalText

/// `hangman man`
enum ManualCommand: Command {
    static let spec = CommandSpec(
        name: "hangman man",
        overview: "Print the manual page, hangman(1), in troff: every command, option and exit code.",
        usage: ["hangman man"],
        discussion: "Installed by 'make install'. To read it without installing: hangman man | man -l -")

    static func options(_ parsed: ParsedArguments) {}

    static func run(_ options: Void, context: CommandContext) async throws -> ExitCode {
        context.out(TerminalText(trusted: ManualPage.page(date: Hangman.manualDate)), terminator: "")
        return .ok
    }
}
