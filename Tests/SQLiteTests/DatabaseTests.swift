import Foundation
import TestSupport
import Testing
import SQLite

@Suite struct DatabaseTests {
    @Test func fileDatabaseIsConfiguredForDurableWrites() throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.file("a.sqlite"))
        #expect(try db.string("PRAGMA journal_mode") == "wal")
        #expect(try db.int64("PRAGMA synchronous") == 2)
        #expect(try db.int64("PRAGMA foreign_keys") == 1)
        #expect(try db.int64("PRAGMA busy_timeout") == 5000)
        try db.execute("CREATE TABLE t(x)")
        #expect(FileManager.default.fileExists(atPath: directory.file("a.sqlite-wal")))
    }

    @Test func busyTimeoutIsConfigurable() throws {
        let db = try Database.inMemory(busyTimeout: .milliseconds(250))
        #expect(try db.int64("PRAGMA busy_timeout") == 250)
        db.busyTimeout = .seconds(2)
        #expect(try db.int64("PRAGMA busy_timeout") == 2000)
    }

    @Test func inMemoryDatabaseHasForeignKeysButNoWAL() throws {
        let db = try Database.inMemory()
        #expect(db.path == ":memory:")
        #expect(try db.string("PRAGMA journal_mode") == "memory")
        #expect(try db.int64("PRAGMA foreign_keys") == 1)
    }

    @Test func openingInAMissingDirectoryFailsWithCantOpen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("missing/a.sqlite")
        let error = #expect(throws: SQLiteError.self) { try Database(path: path) }
        #expect(error?.code == .cantOpen)
        #expect(error?.message.contains(path) == true)
    }

    @Test func openingAFileThatIsNotADatabaseFails() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("junk.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SQLiteError.self) { try Database(path: path) }
        #expect(error?.code == .notADatabase)
    }

    @Test func dataSurvivesReopening() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a.sqlite")
        do {
            let db = try Database(path: path)
            try db.execute("CREATE TABLE t(x TEXT)")
            try db.execute("INSERT INTO t VALUES (?)", "kept")
        }
        let reopened = try Database(path: path)
        #expect(try reopened.string("SELECT x FROM t") == "kept")
    }

    @Test(arguments: [
        SQLValue.null,
        .integer(0), .integer(Int64.min), .integer(Int64.max),
        .real(3.25), .real(-0.5), .real(1e300),
        .text(""), .text("hangman"), .text("héllo wörld — 日本語 🎉👨‍👩‍👧"), .text("nul\u{0}inside"),
        .blob([]), .blob([0x00]), .blob([0x00, 0x01, 0x00, 0xFF, 0x00]), .blob(Array(0...255)),
    ])
    func everyValueRoundTrips(value: SQLValue) throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(v)")
        try db.execute("INSERT INTO t(v) VALUES (?)", value)
        let row = try #require(try db.query("SELECT v, typeof(v) AS type FROM t").first)
        #expect(try row["v"] == value)
        #expect(try row.string("type") == value.typeName)
    }

    @Test func valuesRoundTripThroughAPreparedStatementToo() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(v)")
        let values: [SQLValue] = [.text("ünïcödé\u{0}x"), .blob([0, 0, 7]), .real(2.5), .null, .text(""), .blob([])]
        let insert = try db.prepare("INSERT INTO t(v) VALUES (?)")
        for value in values { try insert.execute(value) }
        #expect(try db.query("SELECT v FROM t ORDER BY rowid").map { try $0[0] } == values)
    }

    @Test func literalsAndInitializersMakeTheExpectedValues() {
        let values: [SQLValue] = [nil, 42, 1.5, "text", true, false]
        #expect(values == [.null, .integer(42), .real(1.5), .text("text"), .integer(1), .integer(0)])
        #expect(SQLValue(7) == .integer(7))
        #expect(SQLValue([1, 2] as [UInt8]) == .blob([1, 2]))
        #expect(SQLValue.text("it's").description == "'it''s'")
        #expect(SQLValue.blob([0, 255]).description == "x'00ff'")
    }

    @Test func crudReportsRowIDsAndChanges() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE words(id INTEGER PRIMARY KEY, word TEXT NOT NULL, clue TEXT)")
        try db.execute("INSERT INTO words(word, clue) VALUES (?, ?)", "swift", "a bird")
        #expect(db.lastInsertRowID == 1)
        try db.execute("INSERT INTO words(word) VALUES (?)", "kotlin")
        #expect(db.lastInsertRowID == 2)
        try db.execute("UPDATE words SET clue = ? WHERE clue IS NULL", "an island")
        #expect(db.changes == 1)
        let rows = try db.query("SELECT id, word, clue FROM words ORDER BY id")
        #expect(try rows.map { try $0.string("word") } == ["swift", "kotlin"])
        #expect(try rows[1].string("clue") == "an island")
        try db.execute("DELETE FROM words WHERE id = ?", 1)
        #expect(db.changes == 1)
        #expect(try db.int64("SELECT count(*) FROM words") == 1)
        #expect(db.totalChanges == 4)
    }

    @Test func nullIsDistinctFromMissingAndFromOtherTypes() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(word TEXT, clue TEXT)")
        try db.execute("INSERT INTO t VALUES ('cat', NULL)")
        let row = try #require(try db.query("SELECT word, clue FROM t").first)
        #expect(try row.isNull("clue"))
        #expect(try row["clue"].stringValue == nil)
        #expect(try row["word"].stringValue == "cat")
        let error = #expect(throws: SQLiteError.self) { try row.string("clue") }
        #expect(error?.code == .mismatch)
        #expect(error?.message == "column 'clue' holds null, expected text")
        #expect(try db.string("SELECT clue FROM t") == nil)
        #expect(try db.string("SELECT word FROM t WHERE 0") == nil)
        #expect(try db.value("SELECT clue FROM t") == .null)
        #expect(try db.value("SELECT clue FROM t WHERE 0") == nil)
    }

    @Test func rowAccessorsAreStrictAboutTypesAndColumns() throws {
        let db = try Database.inMemory()
        let row = try #require(try db.query("SELECT 1 AS Flag, 2.5 AS score, 'x' AS name, x'00' AS data").first)
        #expect(row.columnNames == ["Flag", "score", "name", "data"])
        #expect(try row.bool("flag"))
        #expect(try row.int(0) == 1)
        #expect(try row.double("flag") == 1.0)
        #expect(try row.double(1) == 2.5)
        #expect(try row.blob("DATA") == [0])
        #expect(throws: SQLiteError.self) { try row.int64("score") }
        #expect(throws: SQLiteError.self) { try row.blob("name") }
        let unknown = #expect(throws: SQLiteError.self) { try row.string("nope") }
        #expect(unknown?.code == .range)
        let outOfRange = #expect(throws: SQLiteError.self) { try row[4] }
        #expect(outOfRange?.code == .range)
    }

    @Test func scalarHelpersRefuseTheWrongType() throws {
        let db = try Database.inMemory()
        let error = #expect(throws: SQLiteError.self) { try db.int64("SELECT 'seven'") }
        #expect(error?.code == .mismatch)
        #expect(try db.string("SELECT ?", "echo") == "echo")
    }

    @Test func executeRunsAScriptAndSpreadsArgumentsOverItsStatements() throws {
        let db = try Database.inMemory()
        try db.execute("""
            CREATE TABLE a(x); -- a comment
            CREATE TABLE b(y);
            INSERT INTO a VALUES (?); INSERT INTO b VALUES (?), (?);
            """, 1, 2, 3)
        #expect(try db.int64("SELECT sum(x) FROM a") == 1)
        #expect(try db.int64("SELECT sum(y) FROM b") == 5)
    }

    @Test func executeRefusesTheWrongNumberOfArguments() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(x, y)")
        let tooFew = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (?, ?)", 1) }
        #expect(tooFew?.code == .range)
        let tooMany = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (?, ?)", 1, 2, 3) }
        #expect(tooMany?.code == .range)
        #expect(try db.int64("SELECT count(*) FROM t") == 1, "statements before the error ran")
        let query = #expect(throws: SQLiteError.self) { try db.query("SELECT ?") }
        #expect(query?.message == "the statement takes 1 argument, got 0")
    }

    @Test func queryRefusesASecondStatement() throws {
        let db = try Database.inMemory()
        let error = #expect(throws: SQLiteError.self) { try db.query("SELECT 1; SELECT 2") }
        #expect(error?.code == .misuse)
        #expect(try db.query("SELECT 1; -- trailing comment\n").count == 1)
    }

    @Test func syntaxErrorsCarryMessageAndSQL() throws {
        let db = try Database.inMemory()
        let error = #expect(throws: SQLiteError.self) { try db.execute("SELEC 1") }
        #expect(error?.code == .error)
        #expect(error?.message.contains("syntax error") == true)
        #expect(error?.sql == "SELEC 1")
        #expect(error?.description.contains("SELEC 1") == true)
    }

    @Test(arguments: [
        ("INSERT INTO child(id, parent, n) VALUES (2, 1, 1)", SQLiteError.Code.constraintUnique),
        ("INSERT INTO child(id, parent, n) VALUES (2, 1, -1)", .constraintCheck),
        ("INSERT INTO child(id, parent, n) VALUES (2, 99, 2)", .constraintForeignKey),
        ("INSERT INTO child(id, parent, n) VALUES (2, 1, NULL)", .constraintNotNull),
        ("INSERT INTO parent(id) VALUES (1)", .constraintPrimaryKey),
        ("DELETE FROM parent", .constraintForeignKey),
    ])
    func constraintViolationsSayWhichConstraint(sql: String, expected: SQLiteError.Code) throws {
        let db = try Database.inMemory()
        try db.execute("""
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE child(
                id INTEGER PRIMARY KEY,
                parent INTEGER NOT NULL REFERENCES parent(id),
                n INTEGER NOT NULL UNIQUE CHECK (n >= 0));
            INSERT INTO parent(id) VALUES (1);
            INSERT INTO child(id, parent, n) VALUES (1, 1, 1);
            """)
        let error = #expect(throws: SQLiteError.self) { try db.execute(sql) }
        #expect(error?.code == expected)
        #expect(error?.primaryCode == .constraint)
    }

    @Test func codesMatchInCatchClauses() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(x UNIQUE)")
        try db.execute("INSERT INTO t VALUES (1)")
        func insertDuplicate() throws { try db.execute("INSERT INTO t VALUES (1)") }
        var matched: [String] = []
        do { try insertDuplicate() } catch SQLiteError.Code.constraintCheck {
            matched.append("check")
        } catch SQLiteError.Code.constraintUnique {
            matched.append("unique")
        } catch {}
        do { try insertDuplicate() } catch SQLiteError.Code.busy {
            matched.append("busy")
        } catch SQLiteError.Code.constraint {
            matched.append("constraint")
        } catch {}
        do throws(SQLiteError) { try db.execute("INSERT INTO t VALUES (1)") } catch .constraintUnique {
            matched.append("typed")
        } catch {}
        #expect(matched == ["unique", "constraint", "typed"])
        #expect(!SQLiteError.Code.constraintUnique.matches(.constraint))
        #expect(SQLiteError.Code.constraintUnique.description == "constraintUnique, 2067")
    }

    @Test func integrityCheckOfASoundDatabaseIsEmpty() throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.file("a.sqlite"))
        try db.execute("CREATE TABLE t(x UNIQUE); INSERT INTO t VALUES (1), (2)")
        #expect(try db.integrityCheck() == [])
    }

    @Test func checkpointTruncatesTheLog() throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.file("a.sqlite"))
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (randomblob(10000))")
        let wal = directory.file("a.sqlite-wal")
        #expect(try fileSize(wal) > 0)
        try db.checkpoint()
        #expect(try fileSize(wal) == 0)
        try db.checkpoint(.passive)
    }

    /// Closing keeps a short log for the next process (no copy, no sync, no deleted files), and
    /// empties one that this connection's commits took to 64 pages or more.
    @Test func theLogOutlivesTheConnectionAndIsEmptiedAtSixtyFourPages() throws {
        let directory = try TemporaryDirectory()
        let wal = directory.file("a.sqlite-wal")
        do {
            let db = try Database(path: directory.file("a.sqlite"))
            try db.execute("CREATE TABLE t(x)")
            for value in 0..<5 { try db.execute("INSERT INTO t VALUES (?)", .integer(Int64(value))) }
        }
        #expect(try fileSize(wal) > 0, "closing left the log in place")
        do {
            let db = try Database(path: directory.file("a.sqlite"))
            #expect(try db.int64("SELECT count(*) FROM t") == 5)
            try db.transaction { db in
                for _ in 0..<70 { try db.execute("INSERT INTO t VALUES (randomblob(3000))") }
            }
            #expect(try fileSize(wal) > 64 * 4096)
        }
        #expect(try fileSize(wal) == 0, "closing copied and emptied the log")
        let db = try Database(path: directory.file("a.sqlite"))
        #expect(try db.int64("SELECT count(*) FROM t") == 75)
        #expect(try db.integrityCheck() == [])
    }

    /// A commit past 1,000 pages has the log copied, so the next commit starts it over: closing
    /// still empties it, though the last commit left only a few pages in it.
    @Test func aLongLogIsEmptiedAtCloseAfterASmallerCommit() throws {
        let directory = try TemporaryDirectory()
        let wal = directory.file("a.sqlite-wal")
        do {
            let db = try Database(path: directory.file("a.sqlite"))
            try db.execute("CREATE TABLE t(x)")
            try db.transaction { db in
                for _ in 0..<1100 { try db.execute("INSERT INTO t VALUES (randomblob(3000))") }
            }
            try db.execute("INSERT INTO t VALUES (1)")
            #expect(try fileSize(wal) > 1000 * 4096)
        }
        #expect(try fileSize(wal) == 0, "closing copied and emptied the log")
        let db = try Database(path: directory.file("a.sqlite"))
        #expect(try db.int64("SELECT count(*) FROM t") == 1101)
    }

    /// The connection's own statement cache neither keeps it open nor grows without end.
    @Test func cachedStatementsLetTheConnectionClose() throws {
        let directory = try TemporaryDirectory()
        weak var closed: Database?
        do {
            let db = try Database(path: directory.file("a.sqlite"))
            closed = db
            try db.execute("CREATE TABLE t(x)")
            for value in 0..<200 {
                try db.execute("INSERT INTO t VALUES (\(value))")
                #expect(try db.int64("SELECT count(*) FROM t WHERE x <= \(value)") == Int64(value + 1))
            }
            #expect(try db.int64("SELECT sum(x) FROM t") == 19_900)
        }
        #expect(closed == nil)
    }

    private func fileSize(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? -1
    }
}

