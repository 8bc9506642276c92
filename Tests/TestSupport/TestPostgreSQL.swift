import Foundation
import Synchronization

/// A throwaway PostgreSQL server for tests: `initdb` into a fresh folder under `/tmp` (every
/// parent traversable by the `postgres` user), `pg_ctl` on a Unix socket only, stopped and
/// removed by ``stop()``. As root it runs as `postgres` (`runuser`), since PostgreSQL refuses root.
///
/// ``shared`` is the one the ledger suites use: the server `Tests/with-postgres` started (its
/// connection string in `HANGMAN_TEST_POSTGRES`, as `make test` does), or else one started here
/// and stopped when the test process exits. A server that cannot start is an error that says
/// why; nothing is skipped.
public final class TestPostgreSQL: Sendable {
    public let folder: String
    public var connectionString: String { "host=\(folder)/sock port=5432 user=postgres dbname=postgres" }
    private let binaries: String

    /// The environment variable holding the shared server's connection string.
    public static let environmentVariable = "HANGMAN_TEST_POSTGRES"

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Makes and starts a new server.
    public init() throws {
        let candidates = [ProcessInfo.processInfo.environment["HANGMAN_PG_BIN"], "/usr/lib/postgresql/15/bin"]
            + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin" }
        guard let binaries = candidates.compactMap({ $0 }).first(where: { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }) else {
            throw Failure(description: "PostgreSQL's server programs (initdb, pg_ctl) are not installed: 'make test' installs Debian's 'postgresql'")
        }
        self.binaries = binaries
        var template = Array("/tmp/hangman-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(description: "cannot make a folder for PostgreSQL under /tmp") }
        folder = String(cString: made)
        try FileManager.default.createDirectory(atPath: folder + "/sock", withIntermediateDirectories: false)
        if getuid() == 0 {
            guard let user = getpwnam("postgres") else { throw Failure(description: "running as root, but there is no 'postgres' user to run the server as") }
            for path in [folder, folder + "/sock"] {
                guard chown(path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                    throw Failure(description: "running as root, cannot hand \(path) to the 'postgres' user (errno \(errno))")
                }
            }
            chmod(folder, 0o755)
        }
        let initdb = try run("initdb", ["-D", folder + "/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"])
        guard initdb.status == 0 else { throw Failure(description: "initdb failed: \(initdb.output)") }
        try start()
    }

    /// Starts the server (again, after ``kill()`` or ``stop()``).
    public func start() throws {
        let started = try run("pg_ctl", [
            "-D", folder + "/data", "-l", folder + "/log", "-w", "-o", "-k \(folder)/sock -p 5432 -c listen_addresses='' -c max_connections=200", "start",
        ])
        guard started.status == 0 else {
            let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? ""
            throw Failure(description: "the PostgreSQL server in \(folder) did not start: \(started.output)\n\(log)")
        }
    }

    /// Stops the server at once (`-m immediate`: sessions cut, as in a crash); the data stays.
    public func kill() {
        _ = try? run("pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// Stops the server and removes its folder.
    public func stop() {
        if (try? run("pg_ctl", ["-D", folder + "/data", "-m", "fast", "-w", "stop"]))?.status != 0 { kill() }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs one of PostgreSQL's programs (as `postgres` when root) and waits for it with
    /// `posix_spawn` and `waitpid`: no run loop or dispatch source is needed, so it also works
    /// while every thread of the concurrency pool is busy.
    @discardableResult
    private func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let command = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", binaries + "/" + program] + arguments : [binaries + "/" + program] + arguments
        let outputFile = folder + "-\(program).out"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(command[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: outputFile)
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), output)
    }

    // MARK: - The shared server

    private static let sharedState = Mutex<Result<String, Failure>?>(nil)
    private static let ownServer = Mutex<TestPostgreSQL?>(nil)

    /// The connection string of the server the ledger suites share.
    public static func shared() throws -> String {
        try sharedState.withLock { state in
            if let state { return try state.get() }
            let result: Result<String, Failure>
            if let given = ProcessInfo.processInfo.environment[environmentVariable], !given.isEmpty {
                result = .success(given)
            } else {
                do {
                    let server = try TestPostgreSQL()
                    ownServer.withLock { $0 = server }
                    atexit { TestPostgreSQL.ownServer.withLock { $0?.stop() } }
                    result = .success(server.connectionString)
                } catch let failure as Failure {
                    result = .failure(failure)
                } catch {
                    result = .failure(Failure(description: "cannot start PostgreSQL for the tests: \(error)"))
                }
            }
            state = result
            return try result.get()
        }
    }
}
