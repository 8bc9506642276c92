import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a finished process left: its status, its output, and how it ended.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Killed by a signal (then `status` is the signal's number).
    public var wasSignaled: Bool
    /// Wall-clock time from launch to exit.
    public var seconds: Double

    public init(status: Int32, stdout: String, stderr: String, wasSignaled: Bool, seconds: Double) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.wasSignaled = wasSignaled
        self.seconds = seconds
    }
}

/// Runs programs for tests: the built `hangman` binary, or a tool that knows nothing of this code
/// (`sqlite3`, `sha256sum`, `bsdtar`).
///
/// Output goes to files, not pipes: a killed child leaves nothing to drain, and a large output
/// cannot block it.
public struct ExternalProcess {
    private let process = Process()
    private let outFile: String
    private let errFile: String
    private let started: UInt64
    /// With `holdingInput`: its standard input, open until the process ends (a player who has
    /// not typed yet).
    private let heldInput: Pipe?

    /// Starts `executable` with `arguments`; `environment` is added to (and overrides) this
    /// process's own; `input` is written to its standard input (otherwise it reads nothing, or,
    /// `holdingInput`, waits on an input that stays open).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil, input: [UInt8]? = nil,
        holdingInput: Bool = false
    ) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var merged = ProcessInfo.processInfo.environment
        merged["SWIFT_BACKTRACE"] = "enable=no"
        merged.merge(environment) { _, new in new }
        process.environment = merged
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("hangman-process-\(UUID().uuidString)").path
        outFile = base + ".stdout"
        errFile = base + ".stderr"
        _ = FileManager.default.createFile(atPath: outFile, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outFile))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        let stdin = input.map { _ in Pipe() }
        heldInput = holdingInput && input == nil ? Pipe() : nil
        process.standardInput = stdin ?? heldInput ?? FileHandle.nullDevice
        started = DispatchTime.now().uptimeNanoseconds
        try process.run()
        if let stdin, let input {
            stdin.fileHandleForWriting.write(Data(input))
            try stdin.fileHandleForWriting.close()
        }
    }

    /// The process's id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Whether it still runs.
    public var isRunning: Bool { process.isRunning }

    /// What it has written to its standard output so far.
    public var outputSoFar: String { (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? "" }

    /// What it has written to its standard error so far (a server's log).
    public var errorSoFar: String { (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? "" }

    /// Sends SIGKILL to this process (and no other), and waits for its end.
    public func kill() -> ProcessResult {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        return wait()
    }

    /// Waits for the end without holding a thread of the concurrency pool (polls every 20 ms).
    public func finished() async -> ProcessResult {
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        return wait()
    }

    /// The longest any child may run when the test gives no deadline of its own: a deadlock
    /// fails the test (the child is killed, `wasSignaled`) instead of hanging the run.
    public static let defaultDeadline: Double = 300

    /// Waits for the end; sends SIGKILL if it still runs `killAfter` seconds after it started
    /// (`defaultDeadline` when not given).
    public func wait(killAfter: Double? = nil) -> ProcessResult {
        let deadline = started + UInt64((killAfter ?? Self.defaultDeadline) * 1e9)
        while process.isRunning && DispatchTime.now().uptimeNanoseconds < deadline { usleep(1000) }
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        defer {
            try? FileManager.default.removeItem(atPath: outFile)
            try? FileManager.default.removeItem(atPath: errFile)
        }
        return ProcessResult(
            status: process.terminationStatus,
            stdout: (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? "",
            wasSignaled: process.terminationReason == .uncaughtSignal, seconds: seconds)
    }

    /// Runs to the end and returns what it left.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
        input: [UInt8]? = nil, killAfter: Double? = nil
    ) throws -> ProcessResult {
        try ExternalProcess(executable, arguments, environment: environment, directory: directory, input: input).wait(killAfter: killAfter)
    }
}

/// The `hangman` binary built beside the tests (`swift build` puts it in `.build/<config>/`).
public enum HangmanBinary {
    /// The package's root folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var path: String {
        let candidates = [".build/debug/hangman", ".build/release/hangman"].map { packageRoot.appendingPathComponent($0).path }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    /// Runs `hangman arguments` as a separate process.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], directory: String? = nil, input: [UInt8]? = nil, killAfter: Double? = nil
    ) throws -> ProcessResult {
        try ExternalProcess.run(path, arguments, environment: environment, directory: directory, input: input, killAfter: killAfter)
    }
}

/// Runs a shell command line and returns its standard output.
public func shell(_ command: String) throws -> String {
    try ExternalProcess.run("/bin/sh", ["-c", command]).stdout
}
