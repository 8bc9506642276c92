import Foundation
import PostgreSQL
import Synchronization
import Testing
import TestSupport

@Suite struct ConnectionPoolTests {
    /// A table of its own on the shared test server.
    private func freshTable(_ connectionString: String) throws -> String {
        let name = "pool_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        try Connection(connectionString: connectionString).execute("CREATE TABLE \(name) (k TEXT PRIMARY KEY)")
        return name
    }

    @Test func neverOpensMoreConnectionsThanItsCapacity() throws {
        let tag = "pool-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let pool = ConnectionPool(connectionString: try TestPostgreSQL.shared() + " application_name=\(tag)", capacity: 2)
        let most = Mutex(0)
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<6 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    for _ in 0..<3 {
                        let open = try pool.withConnection { connection in
                            try connection.execute("SELECT pg_sleep(0.02)")
                            return Int(try connection.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", [tag]).scalar ?? "") ?? -1
                        }
                        most.withLock { $0 = max($0, open) }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        group.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        #expect((1...2).contains(most.withLock { $0 }), "\(most.withLock { $0 }) connections were open at once")
    }

    @Test func aFailedTransactionLeavesNothing() throws {
        let server = try TestPostgreSQL.shared()
        let table = try freshTable(server)
        let pool = ConnectionPool(connectionString: server, capacity: 1)
        let failure = #expect(throws: PostgreSQLError.self) {
            try pool.transaction { connection in
                try connection.execute("INSERT INTO \(table) (k) VALUES ($1)", ["a"])
                try connection.execute("INSERT INTO \(table) (k) VALUES ($1)", ["a"])
            }
        }
        #expect(failure?.state == .uniqueViolation)
        #expect(try pool.withConnection { try $0.execute("SELECT count(*) FROM \(table)").scalar } == "0")
        // The connection went back clean: the next transaction commits.
        try pool.transaction { connection in try connection.execute("INSERT INTO \(table) (k) VALUES ($1)", ["b"]) }
        #expect(try pool.withConnection { try $0.execute("SELECT count(*) FROM \(table)").scalar } == "1")
    }

    @Test func aConnectionTheServerClosedIsReplacedBeforeAnythingIsDone() throws {
        let server = try TestPostgreSQL.shared()
        let pool = ConnectionPool(connectionString: server, capacity: 1)
        let pid = try pool.withConnection { try $0.execute("SELECT pg_backend_pid()").scalar ?? "" }
        // The server ends that session while it sits in the pool, as a restart would.
        try Connection(connectionString: server).execute("SELECT pg_terminate_backend($1::int)", [pid])
        let again = try pool.transaction { try $0.execute("SELECT pg_backend_pid()").scalar ?? "" }
        #expect(!again.isEmpty && again != pid)
    }

    /// After a restart every idle connection is dead: the first transaction still succeeds, on a
    /// fresh one, and so does every one after it.
    @Test func everyConnectionTheServerClosedIsReplaced() throws {
        let server = try TestPostgreSQL.shared()
        let pool = ConnectionPool(connectionString: server, capacity: 4)
        // Four connections lent at once (each held while the next is taken), then idle.
        func pid(_ connection: Connection) throws -> String { try connection.execute("SELECT pg_backend_pid()").scalar ?? "" }
        let killed = try pool.withConnection { a in
            try pool.withConnection { b in
                try pool.withConnection { c in
                    try pool.withConnection { d in [try pid(a), try pid(b), try pid(c), try pid(d)] }
                }
            }
        }
        try #require(Set(killed).count == 4 && !killed.contains(""), "\(killed)")
        let admin = try Connection(connectionString: server)
        for pid in killed { try admin.execute("SELECT pg_terminate_backend($1::int)", [pid]) }
        for _ in 0..<4 {
            let again = try pool.transaction { try $0.execute("SELECT pg_backend_pid()").scalar ?? "" }
            #expect(!again.isEmpty && !killed.contains(again))
        }
    }

    /// A connection starts with limits: no statement or lock wait runs longer than 30 s.
    @Test func aConnectionStartsWithTimeouts() throws {
        let connection = try Connection(connectionString: try TestPostgreSQL.shared())
        #expect(try connection.execute("SHOW statement_timeout").scalar == "30s")
        #expect(try connection.execute("SHOW lock_timeout").scalar == "30s")
    }

    @Test func aServerThatIsNotThereIsAConnectionFailure() throws {
        let folder = try TemporaryDirectory()
        let pool = ConnectionPool(connectionString: "host=\(folder.path) port=5432 user=postgres dbname=postgres", capacity: 1)
        let failure = #expect(throws: PostgreSQLError.self) { try pool.transaction { try $0.execute("SELECT 1") } }
        #expect(failure?.isConnectionLost == true)
    }
}
