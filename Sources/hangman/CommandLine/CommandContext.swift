import PackServiceAPI
import Synchronization
import SystemCalls

/// Everything a command takes from the world, handed to every command: where it writes, what it
/// reads, the environment, the clock, where randomness comes from, and which streams are
/// terminals. `process()` is the real process; tests build one that captures output, so a whole
/// command runs in-process.
struct CommandContext {
    /// Standard output: results.
    let output: OutputStream
    /// Standard error: diagnostics and progress.
    let errorOutput: OutputStream
    /// Standard input: a game's guesses.
    let input: InputSource
    let environment: [String: String]
    let clock: Clock
    /// A fresh seed for a game's random choices (`--seed` replaces it).
    let randomSeed: @Sendable () -> UInt64
    /// Whether standard input, output and error are terminals.
    let inputIsTerminal: Bool
    let outputIsTerminal: Bool
    let errorIsTerminal: Bool
    /// Called at each crash point of a purchase (`HANGMAN_CRASH_AT` kills the process there).
    let crash: @Sendable (CrashPoint) -> Void

    /// The running process: file descriptors 0, 1, 2, its environment, the system clock.
    static func process(environment: [String: String]) -> CommandContext {
        let crashPoint = environment["HANGMAN_CRASH_AT"].flatMap(CrashPoint.init(rawValue:))
        return CommandContext(
            output: .stream(.output), errorOutput: .stream(.error), input: .standardInput, environment: environment,
            clock: .system, randomSeed: { var system = SystemRandomNumberGenerator(); return system.next() },
            inputIsTerminal: StandardStream.input.isTerminal, outputIsTerminal: StandardStream.output.isTerminal,
            errorIsTerminal: StandardStream.error.isTerminal,
            crash: { point in if point == crashPoint { CurrentProcess.killNow() } })
    }

    /// Writes a line of results to standard output.
    func out(_ text: String, terminator: String = "\n") { output.write(text + terminator) }

    /// Writes a line to standard error.
    func error(_ text: String) { errorOutput.write(text + "\n") }

    /// Writes to standard error without a newline (a progress bar redrawing its line).
    func errorRaw(_ text: String) { errorOutput.write(text) }
}

/// Where text goes: a standard stream (unbuffered `write(2)`, so output never reorders through a
/// pipe), or a buffer that a test reads.
enum OutputStream {
    case stream(StandardStream)
    case buffer(CapturedText)

    func write(_ text: String) {
        switch self {
        case .stream(let stream):
            var text = text
            _ = text.withUTF8 { stream.write(UnsafeRawBufferPointer($0)) }
        case .buffer(let captured):
            captured.append(text)
        }
    }
}

/// Text captured from a command run in-process.
final class CapturedText: Sendable {
    private let storage = Mutex("")

    init() {}

    func append(_ text: String) { storage.withLock { $0 += text } }

    var text: String { storage.withLock { $0 } }
}

/// Where a command's input comes from: the process's standard input, or bytes given by a test.
enum InputSource: Equatable {
    case standardInput
    case bytes([UInt8])
}
