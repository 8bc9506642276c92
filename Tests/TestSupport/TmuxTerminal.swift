import Foundation

/// A real terminal for tests: a detached tmux session on its own server, typed into with
/// `send-keys` and read with `capture-pane`, as a person at a terminal would see it.
///
/// The server is started with an empty signal mask (through `perl`): a process started from a
/// test inherits the test runner's blocked signals, and a tmux server with SIGCHLD blocked hangs.
public final class TmuxTerminal {
    /// A missing tool fails the test that needs it, saying what to install: it never skips.
    public static func requireInstalled() throws {
        for (tool, package) in [("/usr/bin/tmux", "tmux"), ("/usr/bin/perl", "perl")] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw TmuxError(message: "\(tool) is missing: the real-terminal tests need it ('make test' installs it; or apt-get install \(package))")
        }
    }

    private let socket: String

    /// Starts `command` (a shell command line) in a `width` x `height` window; `environment` is
    /// set for it (`TERM` is tmux's own unless given).
    public init(width: Int, height: Int, command: String, environment: [String: String] = [:]) async throws {
        try Self.requireInstalled()
        socket = "/tmp/hangman-tmux-\(UUID().uuidString.prefix(8))"
        var arguments = ["-MPOSIX", "-e", "sigprocmask(SIG_SETMASK, POSIX::SigSet->new); exec @ARGV or die", "/usr/bin/tmux", "-S", socket, "-f", "/dev/null",
                         "new-session", "-d", "-x", "\(width)", "-y", "\(height)"]
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(name)=\(value)"] }
        arguments.append(command)
        let started = try await Self.spawn("/usr/bin/perl", arguments)
        guard started.status == 0 else { throw TmuxError(message: "tmux new-session: \(started.output)") }
        _ = try await tmux(["set-option", "-g", "history-limit", "5000"])
    }

    deinit {
        // The server's pid, then SIGKILL: it ends the programs in its windows with it.
        var pid: pid_t = 0
        let words: [String] = ["/usr/bin/tmux", "-S", socket, "kill-server"]
        var attributes: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        if posix_spawn(&pid, "/usr/bin/tmux", nil, nil, &attributes, environ) == 0 {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        for pointer in attributes { free(pointer) }
        try? FileManager.default.removeItem(atPath: socket)
    }

    @discardableResult
    public func tmux(_ arguments: [String]) async throws -> String {
        let result = try await Self.spawn("/usr/bin/tmux", ["-S", socket] + arguments)
        guard result.status == 0 else { throw TmuxError(message: "tmux \(arguments.joined(separator: " ")): \(result.output)") }
        return result.output
    }

    /// Runs a program with `posix_spawn` and polls `waitpid` for its end, output (both streams)
    /// in a file. Not `Process`: a tmux client started through it was never reaped here.
    static func spawn(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let outputPath = "/tmp/hangman-tmux-out-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no,interactive=no"
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, &envp)
        guard spawned == 0 else { throw TmuxError(message: "cannot start \(executable): errno \(spawned)") }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(20)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                throw TmuxError(message: "\(executable) \(arguments.joined(separator: " ")) did not end within 20 s")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), output)
    }

    /// Key names as tmux knows them (`Up`, `Escape`, `C-z`, `Enter`).
    public func press(_ keys: String...) async throws { try await tmux(["send-keys"] + keys) }

    /// Text typed as it is, each character one key.
    public func type(_ text: String) async throws { try await tmux(["send-keys", "-l", text]) }

    /// The visible screen, one line per row; a row the program wrapped is joined back into one
    /// line (`-J`), so a line longer than the width shows.
    public func screen() async throws -> String { try await tmux(["capture-pane", "-p", "-J"]) }

    /// Everything: the scrollback and the screen.
    public func history() async throws -> String { try await tmux(["capture-pane", "-p", "-J", "-S", "-"]) }

    public func resize(width: Int, height: Int) async throws {
        try await tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits (up to `seconds`) until the recording at `path` holds `text`, and returns it: the
    /// bytes before `text` have reached the file then. At the deadline it throws.
    @discardableResult
    public func waitForRecording(_ path: String, toContain text: String, seconds: Double = 10) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if last.contains(text) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TmuxError(message: "the recording \(path) did not come to hold '\(text)' within \(seconds) s (\(last.utf8.count) bytes)")
    }

    /// Copies everything the program writes to the terminal, byte for byte, into `path`.
    public func record(to path: String) async throws { try await tmux(["pipe-pane", "-o", "cat >> '\(path)'"]) }

    /// Waits (up to `seconds`) until the screen shows `text`, and returns that screen; at the
    /// deadline it throws, with the last screen seen: a step that never happened fails the test.
    @discardableResult
    public func waitFor(_ text: String, seconds: Double = 10) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try await screen()
            if last.contains(text) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TmuxError(message: "'\(text)' did not appear within \(seconds) s; the screen was:\n\(last)")
    }
}

public struct TmuxError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
