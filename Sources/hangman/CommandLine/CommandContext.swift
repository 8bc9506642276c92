import PackServiceAPI
import Synchronization
import SystemCalls
import TerminalText

/// The state directory a command resolved, kept for the words of a failure.
final class HomeInUse: Sendable {
    private let folder = Mutex<String?>(nil)
    func record(_ path: String) { folder.withLock { $0 = path } }
    var path: String? { folder.withLock { $0 } }
}

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
    /// The state directory, once a command has resolved it: a failure to write is explained by it.
    let homeInUse = HomeInUse()

    /// The running process: file descriptors 0, 1, 2, its environment, the system clock.
    /// SIGPIPE is ignored, so that a write to a closed pipe fails like any other and is reported.
    static func process(environment: [String: String]) -> CommandContext {
        let crashPoint = environment["HANGMAN_CRASH_AT"].flatMap(CrashPoint.init(rawValue:))
        BrokenPipeSignal.ignore()
        return CommandContext(
            output: OutputStream(.output), errorOutput: OutputStream(.error), input: .standardInput, environment: environment,
            clock: .system, randomSeed: { var system = SystemRandomNumberGenerator(); return system.next() },
            inputIsTerminal: StandardStream.input.isTerminal, outputIsTerminal: StandardStream.output.isTerminal,
            errorIsTerminal: StandardStream.error.isTerminal,
            crash: { point in if point == crashPoint { CurrentProcess.killNow() } })
    }

    /// The width a table or a wrapped sentence fits: the terminal's, else `COLUMNS`, else 80.
    var outputWidth: Int {
        if outputIsTerminal, let window = RawTerminal.windowSize(of: .output) { return max(20, window.columns) }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return max(20, columns) }
        return 80
    }

    /// How a table fits: the output's width, or none with `--wide`.
    func tableWidth(wide: Bool) -> Int? { wide ? nil : outputWidth }

    /// Writes a sentence to standard output, escaped and broken between words at the output's width.
    func outWrapped(_ text: String) {
        for line in GameLayout.wrap(TerminalText.escaped(text), width: outputWidth) { out(TerminalText(trusted: line)) }
    }

    /// Writes a line of results to standard output; on a terminal, a line longer than the window
    /// is broken between words (the terminal would break it inside one).
    func out(_ text: TerminalText, terminator: String = "\n") {
        let width = outputIsTerminal ? RawTerminal.windowSize(of: .output)?.columns : nil
        output.write(Self.brokenBetweenWords(text.text, width: width) + terminator)
    }

    /// `text`'s lines longer than `width` broken at spaces, each continuation indented as its
    /// line was; lines with an escape sequence (colour) are left to the terminal.
    static func brokenBetweenWords(_ text: String, width: Int?) -> String {
        guard let width, width >= 20, text.contains(where: { $0 == " " }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.count > width, !line.contains("\u{1B}") else { return String(line) }
            let indent = String(line.prefix { $0 == " " }.prefix(width / 3))
            return GameLayout.wrap(String(line.dropFirst(indent.count)), width: width - indent.count).map { indent + $0 }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Writes bytes asked for on standard output as they are (a receipt, an archive: `-o -`).
    func outBytes(_ bytes: [UInt8]) { output.write(bytes) }

    /// Writes a line to standard error, broken between words on a terminal as `out` does.
    func error(_ text: TerminalText) {
        let width = errorIsTerminal ? RawTerminal.windowSize(of: .error)?.columns : nil
        errorOutput.write(Self.brokenBetweenWords(text.text, width: width) + "\n")
    }

    /// Writes to standard error without a newline (a progress bar redrawing its line).
    func errorRaw(_ text: TerminalText) { errorOutput.write(text.text) }

    /// The first write to standard output or standard error that failed, if one did.
    var writeFailure: (stream: String, errno: Errno)? {
        if let errno = output.failure { return ("standard output", errno) }
        if let errno = errorOutput.failure { return ("standard error", errno) }
        return nil
    }

    /// Throws when a write failed: a command that goes on reading input (a game) stops there.
    func checkWrites() throws {
        if let failure = writeFailure { throw CommandFailure.writeFailed(failure.stream, failure.errno) }
    }
}

/// Where text goes: a standard stream (unbuffered `write(2)`, so output never reorders through a
/// pipe), or a buffer that a test reads. Every write is checked: the first failure is kept, and
/// the command ends with exit status 74 (`Hangman.main`).
final class OutputStream: Sendable {
    enum Target: Sendable {
        case stream(StandardStream)
        case buffer(CapturedText)
    }

    let target: Target
    private let firstFailure = Mutex<Errno?>(nil)

    init(_ stream: StandardStream) { target = .stream(stream) }

    init(buffer: CapturedText) { target = .buffer(buffer) }

    /// The error of the first write that failed.
    var failure: Errno? { firstFailure.withLock { $0 } }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) {
        let result: Errno?
        switch target {
        case .stream(let stream):
            do { try stream.writeAll(bytes); result = nil } catch { result = error }
        case .buffer(let captured): result = captured.append(bytes)
        }
        if let result { firstFailure.withLock { if $0 == nil { $0 = result } } }
    }
}

/// Text captured from a command run in-process; `refusing` makes every write fail with that
/// error, as a full disk or a closed pipe would.
final class CapturedText: Sendable {
    private let storage = Mutex([UInt8]())
    let refusal: Errno?

    init(refusing refusal: Errno? = nil) { self.refusal = refusal }

    /// Appends `bytes`; the error when refusing.
    func append(_ bytes: UnsafeRawBufferPointer) -> Errno? {
        if let refusal { return refusal }
        storage.withLock { $0.append(contentsOf: bytes) }
        return nil
    }

    var text: String { storage.withLock { String(decoding: $0, as: UTF8.self) } }
}

/// Where a command's input comes from: the process's standard input, or bytes given by a test.
enum InputSource: Equatable {
    case standardInput
    case bytes([UInt8])
}
