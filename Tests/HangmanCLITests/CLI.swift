import Foundation
@testable import hangman

/// Runs the built `hangman` binary as a person would, capturing its output and exit status.
enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: URL {
        let candidates = [".build/debug/hangman", ".build/release/hangman"].map { packageRoot.appendingPathComponent($0) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The process was killed by a signal (then `status` is the signal's number).
        var wasSignaled = false
    }

    /// Runs `hangman arguments` in this process, as the binary would run them (the same entry
    /// point, with a context whose streams are captured); `environment` is added to (and overrides)
    /// this process's environment. A crash point (`HANGMAN_CRASH_AT`) or a working folder needs a
    /// process of its own: then the built binary runs.
    static func run(_ arguments: [String], in directory: String? = nil, environment extra: [String: String] = [:], input: String = "") async throws -> Result {
        if directory != nil || extra["HANGMAN_CRASH_AT"] != nil {
            return try runBinary(arguments, in: directory, environment: extra)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["HANGMAN_CRASH_AT"] = nil
        environment.merge(extra) { _, new in new }
        let out = CapturedText()
        let err = CapturedText()
        let context = CommandContext(
            output: .buffer(out), errorOutput: .buffer(err), input: .bytes(Array(input.utf8)), environment: environment,
            clock: .system, randomSeed: { UInt64.random(in: .min ... .max) },
            inputIsTerminal: false, outputIsTerminal: false, errorIsTerminal: false, crash: { _ in })
        let status = await Hangman.main(arguments, context: context)
        return Result(status: status.rawValue, stdout: out.text, stderr: err.text)
    }

    /// Runs the built binary: `environment` is added to (and overrides) this process's environment.
    static func runBinary(_ arguments: [String], in directory: String? = nil, environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so that a large output cannot fill a pipe and block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
            wasSignaled: process.terminationReason == .uncaughtSignal)
    }
}

/// A temporary folder removed at the end of the test.
final class Scratch {
    let path: String

    init() async throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("hangman-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    @discardableResult
    func write(_ name: String, _ text: String) async throws -> String {
        try await write(name, Array(text.utf8))
    }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) async throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    func listing() -> [String] { (FileManager.default.subpaths(atPath: path) ?? []).sorted() }
}

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
