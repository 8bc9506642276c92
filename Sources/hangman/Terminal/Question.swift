import SystemCalls
import TerminalText

/// A yes/no question on a terminal, answered with a line: `y` or `yes` (any case) is yes;
/// anything else, an empty line, Ctrl-D or Ctrl-C is no. Once answered, Ctrl-C ends the process
/// again as usual (the line reader had turned it into a flag for the question).
enum Question {
    static func ask(_ question: TerminalText, context: CommandContext) -> Bool {
        // Broken between words at the terminal's width; the answer goes after the last line.
        let lines = GameLayout.wrap(question.text + " [y/N]", width: context.outputWidth)
        for line in lines.dropLast() { context.out(TerminalText(trusted: line)) }
        context.out(TerminalText(trusted: (lines.last ?? "") + " "), terminator: "")
        defer { if context.input == .standardInput { InterruptSignal.restoreDefault() } }
        switch LineReader(context.input).nextLine() {
        case .line(let answer):
            return isYes(answer)
        case .endOfInput, .interrupted:
            context.out("")
            return false
        }
    }

    /// The one reading of an answer: `y` or `yes`, any case, spaces around; with `emptyIsYes`
    /// (a question whose default is yes, `[Y/n]`), an empty answer too.
    static func isYes(_ answer: String, emptyIsYes: Bool = false) -> Bool {
        let word = answer.trimmingSpaces.lowercased()
        return word == "y" || word == "yes" || (emptyIsYes && word.isEmpty)
    }

    /// Whether a command may ask: standard input and output are both terminals.
    static func canAsk(_ context: CommandContext) -> Bool { context.inputIsTerminal && context.outputIsTerminal }
}
