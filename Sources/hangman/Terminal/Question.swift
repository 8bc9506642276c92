import SystemCalls

/// A yes/no question on a terminal, answered with a line: `y` or `yes` (any case) is yes;
/// anything else, an empty line, Ctrl-D or Ctrl-C is no. Once answered, Ctrl-C ends the process
/// again as usual (the line reader had turned it into a flag for the question).
enum Question {
    static func ask(_ question: TerminalText, context: CommandContext) -> Bool {
        context.out(question + " [y/N] ", terminator: "")
        defer { if context.input == .standardInput { InterruptSignal.restoreDefault() } }
        switch LineReader(context.input).nextLine() {
        case .line(let answer):
            let word = answer.trimmingSpaces.lowercased()
            return word == "y" || word == "yes"
        case .endOfInput, .interrupted:
            context.out("")
            return false
        }
    }

    /// Whether a command may ask: standard input and output are both terminals.
    static func canAsk(_ context: CommandContext) -> Bool { context.inputIsTerminal && context.outputIsTerminal }
}
