import Foundation
@testable import hangman
import SystemCalls
import TestSupport

/// Runs `hangman` as a person would, capturing its output and exit status: in this process
/// through the binary's own entry point (`run`), or the built binary (`runBinary`) where a test needs
/// a process of its own (a crash point, a working folder, a signal).
enum CLI {
    typealias Result = ProcessResult

    /// Runs `hangman arguments` in this process, as the binary would run them (the same entry
    /// point, with a context whose streams are captured); `environment` is added to (and overrides)
    /// this process's environment. With `outputRefused`, every write to standard output fails with
    /// that error, as a full disk would; with `terminal`, the command believes its input and output
    /// are a terminal (as when a person plays). A crash point (`HANGMAN_CRASH_AT`) or a working folder needs a
    /// process of its own: then the built binary runs.
    static func run(
        _ arguments: [String], in directory: String? = nil, environment extra: [String: String] = [:], input: String = "",
        outputRefused: Errno? = nil, terminal: Bool = false
    ) async throws -> Result {
        if directory != nil || extra["HANGMAN_CRASH_AT"] != nil {
            return try runBinary(arguments, in: directory, environment: extra)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["HANGMAN_CRASH_AT"] = nil
        environment.merge(extra) { _, new in new }
        let out = CapturedText(refusing: outputRefused)
        let err = CapturedText()
        let context = CommandContext(
            output: OutputStream(buffer: out), errorOutput: OutputStream(buffer: err), input: .bytes(Array(input.utf8)), environment: environment,
            clock: .system, randomSeed: { UInt64.random(in: .min ... .max) },
            inputIsTerminal: terminal, outputIsTerminal: terminal, errorIsTerminal: false, crash: { _ in })
        let started = DispatchTime.now().uptimeNanoseconds
        let status = await Hangman.main(arguments, context: context)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return Result(status: status.rawValue, stdout: out.text, stderr: err.text, wasSignaled: false, seconds: seconds)
    }

    /// Runs the built binary: `environment` is added to (and overrides) this process's environment.
    static func runBinary(_ arguments: [String], in directory: String? = nil, environment extra: [String: String] = [:]) throws -> Result {
        try HangmanBinary.run(arguments, environment: extra, directory: directory)
    }
}

/// A temporary folder removed at the end of the test.
typealias Scratch = TemporaryDirectory

let manifestXML = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    <key>FormatVersion</key><integer>1</integer>
    <key>ProductIdentifier</key><string>com.example.words.cli</string>
    <key>ContentVersion</key><string>1.0</string>
    <key>DisplayName</key><string>CLI Words</string>
    </dict>
    </plist>
    """

func wordsXML(_ words: [String]) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>name</key><string>Things</string><key>words</key><array>"
        + words.map { "<string>\($0)</string>" }.joined() + "</array></dict></plist>\n"
}
