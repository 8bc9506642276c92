import Testing
import TestSupport
import SQLite

@Suite struct TransactionTests {
    struct Refusal: Error, Equatable {}

    private func makeDatabase() throws -> Database {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(x INTEGER)")
        return db
    }

    private func count(_ db: Database) throws -> Int64? { try db.int64("SELECT count(*) FROM t") }

    @Test(arguments: [TransactionKind.deferred, .immediate, .exclusive])
    func aReturningBodyCommits(kind: TransactionKind) throws {
        let db = try makeDatabase()
        let result = try db.transaction(kind) { db in
            #expect(db.isInTransaction)
            try db.execute("INSERT INTO t VALUES (1), (2)")
            return db.changes
        }
        #expect(result == 2)
        #expect(!db.isInTransaction)
        #expect(try count(db) == 2)
    }

    @Test func aThrowingBodyRollsBackEverythingAndRethrows() throws {
        let db = try makeDatabase()
        #expect(throws: Refusal()) {
            try db.transaction { db in
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (2)")
                throw Refusal()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try count(db) == 0)
    }

    @Test func anSQLErrorInsideRollsBackTheEarlierStatements() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(x UNIQUE)")
        let error = #expect(throws: SQLiteError.self) {
            try db.transaction { db in
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (1)")
            }
        }
        #expect(error?.code == .constraintUnique)
        #expect(try db.int64("SELECT count(*) FROM t") == 0)
    }

    @Test func aCaughtInnerFailureUndoesOnlyTheInnerWork() throws {
        let db = try makeDatabase()
        try db.transaction { db in
            try db.execute("INSERT INTO t VALUES (1)")
            #expect(throws: Refusal()) {
                try db.transaction { db in
                    try db.execute("INSERT INTO t VALUES (2)")
                    throw Refusal()
                }
            }
            #expect(db.isInTransaction, "the outer transaction is still open")
            try db.execute("INSERT INTO t VALUES (3)")
        }
        #expect(try db.query("SELECT x FROM t ORDER BY x").map { try $0.int64(0) } == [1, 3])
    }

    @Test func anUncaughtInnerFailureRollsBackTheOuterTransaction() throws {
        let db = try makeDatabase()
        #expect(throws: Refusal()) {
            try db.transaction { db in
                try db.execute("INSERT INTO t VALUES (1)")
                try db.transaction { db in
                    try db.execute("INSERT INTO t VALUES (2)")
                    throw Refusal()
                }
            }
        }
        #expect(try count(db) == 0)
    }

    @Test func nestedSuccessCommitsWithTheOuterTransaction() throws {
        let db = try makeDatabase()
        try db.transaction { db in
            try db.transaction { db in
                try db.transaction { db in try db.execute("INSERT INTO t VALUES (1)") }
                try db.execute("INSERT INTO t VALUES (2)")
            }
        }
        #expect(!db.isInTransaction)
        #expect(try count(db) == 2)
    }

    @Test func aWriterWaitsForTheBusyTimeoutThenFailsWithBusy() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("shared.sqlite")
        let holder = try Database(path: path)
        try holder.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        let other = try Database(path: path, busyTimeout: .milliseconds(200))

        #expect(try other.int64("PRAGMA busy_timeout") == 200, "the connection retries for its busy timeout")
        try holder.execute("BEGIN IMMEDIATE")
        try holder.execute("INSERT INTO t VALUES (2)")
        let error = #expect(throws: SQLiteError.self) {
            try other.transaction { db in try db.execute("INSERT INTO t VALUES (3)") }
        }
        #expect(error?.code == .busy)
        #expect(!other.isInTransaction)
        #expect(try other.int64("SELECT count(*) FROM t") == 1, "readers still see the last commit under WAL")

        try holder.execute("COMMIT")
        try other.transaction { db in try db.execute("INSERT INTO t VALUES (3)") }
        #expect(try holder.int64("SELECT count(*) FROM t") == 3)
    }
}
