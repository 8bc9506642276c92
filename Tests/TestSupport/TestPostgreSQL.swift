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
            let chown = try ExternalProcess.run("/bin/chown", ["-R", "postgres", folder])
            guard chown.status == 0 else { throw Failure(description: "running as root, cannot hand \(folder) to the 'postgres' user: \(chown.stderr)") }
            chmod(folder, 0o755)
        }
        let initdb = try run("initdb", ["-D", folder + "/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"])
        guard initdb.status == 0 else { throw Failure(description: "initdb failed: \(initdb.stdout)\(initdb.stderr)") }
        try start()
    }

    /// Starts the server (again, after ``kill()`` or ``stop()``).
    public func start() throws {
        let started = try run("pg_ctl", [
            "-D", folder + "/data", "-l", folder + "/log", "-w", "-o", "-k \(folder)/sock -p 5432 -c listen_addresses='' -c max_connections=200", "start",
        ])
        guard started.status == 0 else {
            let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? ""
            throw Failure(description: "the PostgreSQL server in \(folder) did not start: \(started.stderr)\n\(log)")
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

    @discardableResult
    private func run(_ program: String, _ arguments: [String]) throws -> ProcessResult {
        if getuid() == 0 {
            return try ExternalProcess.run("/usr/sbin/runuser", ["-u", "postgres", "--", binaries + "/" + program] + arguments, killAfter: 60)
        }
        return try ExternalProcess.run(binaries + "/" + program, arguments, killAfter: 60)
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
