import Testing
import TestSupport
import SQLite

@Suite struct StatementTests {
    @Test func aPreparedStatementRunsAgainWithNewArguments() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(k TEXT PRIMARY KEY, v INTEGER)")
        let insert = try db.prepare("INSERT INTO t(k, v) VALUES (?, ?)")
        #expect(insert.parameterCount == 2)
        #expect(!insert.isReadOnly)
        for (index, key) in ["a", "b", "c"].enumerated() { try insert.execute(.text(key), .integer(Int64(index))) }
        let select = try db.prepare("SELECT v FROM t WHERE k = ?")
        #expect(select.isReadOnly)
        #expect(select.columnNames == ["v"])
        #expect(try select.query("b").map { try $0.int64(0) } == [1])
        #expect(try select.query("c").map { try $0.int64(0) } == [2])
        #expect(try select.query("z").isEmpty)
    }

    @Test func valuesBoundInPlaceRunAgainAndAgain() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(k TEXT NOT NULL, v INTEGER, note TEXT)")
        let insert = try db.prepare("INSERT INTO t(k, v, note) VALUES (?, ?, ?)")
        for (index, key) in ["a", "", "caf\u{E9}"].enumerated() {
            var text = key
            try text.withUTF8 { bytes in
                try insert.execute { values in
                    values.bind(text: bytes, at: 1)
                    values.bind(index, at: 2)
                    values.bind(index == 1 ? nil : "note \(index)", at: 3)
                }
            }
        }
        #expect(try db.query("SELECT k, v, note FROM t ORDER BY v").map { [try $0.string(0), String(try $0.int64(1)), try $0[2].stringValue ?? "-"] }
            == [["a", "0", "note 0"], ["", "1", "-"], ["caf\u{E9}", "2", "note 2"]])
        let count = try db.prepare("SELECT count(*) FROM t WHERE v >= ?")
        #expect(try count.int64 { $0.bind(1, at: 1) } == 2)
        #expect(try count.int64 { $0.bind(5, at: 1) } == 0)
        #expect(try db.prepare("SELECT note FROM t WHERE v = 1").int64() == nil, "NULL reads as nil")
        #expect(throws: SQLiteError.self) { try insert.execute { $0.bind(1, at: 9) } }
        #expect(throws: SQLiteError.self) { try db.prepare("SELECT k FROM t").int64() }
    }

    @Test func stepByStepWithBindNextAndReset() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        let statement = try db.prepare("SELECT x FROM t WHERE x >= ? ORDER BY x")
        try statement.bind(2)
        #expect(try statement.next()?.int64(0) == 2)
        statement.reset()
        #expect(try statement.next()?.int64(0) == 2, "reset rewinds and keeps the bindings")
        #expect(try statement.next()?.int64(0) == 3)
        #expect(try statement.next() == nil)
        try statement.bind(3)
        #expect(try statement.next()?.int64(0) == 3)
        #expect(throws: SQLiteError.self) { try statement.bind(1, 2) }
    }

    @Test func forEachStreamsRowsAndPropagatesTheBodysError() throws {
        struct Stop: Error {}
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3), (4)")
        var seen: [Int64] = []
        try db.forEach("SELECT x FROM t WHERE x > ? ORDER BY x", 1) { row in seen.append(try row.int64("x")) }
        #expect(seen == [2, 3, 4])
        let statement = try db.prepare("SELECT x FROM t ORDER BY x")
        seen = []
        #expect(throws: Stop.self) {
            try statement.forEach { row in
                seen.append(try row.int64(0))
                if seen.count == 2 { throw Stop() }
            }
        }
        #expect(seen == [1, 2])
        #expect(try statement.query().count == 4, "the statement is usable after a thrown body")
    }

    @Test func aFailedStepLeavesTheStatementReusable() throws {
        let db = try Database.inMemory()
        try db.execute("CREATE TABLE t(x UNIQUE)")
        let insert = try db.prepare("INSERT INTO t VALUES (?)")
        try insert.execute(1)
        let duplicate = #expect(throws: SQLiteError.self) { try insert.execute(1) }
        #expect(duplicate?.code == .constraintUnique)
        try insert.execute(2)
        #expect(try db.int64("SELECT count(*) FROM t") == 2)
    }

    @Test func aStatementKeepsItsDatabaseOpen() throws {
        var db: Database? = try Database.inMemory()
        let statement = try #require(try db?.prepare("SELECT 42"))
        db = nil
        #expect(try statement.query().first?.int64(0) == 42)
    }

    @Test func twoHundredThousandWordsInsertInOneTransaction() throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.file("words.sqlite"))
        try db.execute("CREATE TABLE words(id INTEGER PRIMARY KEY, pack INTEGER NOT NULL, word TEXT NOT NULL)")
        let count = 200_000
        let insert = try db.prepare("INSERT INTO words(pack, word) VALUES (?, ?)")
        try db.transaction { _ in
            for index in 0..<count {
                try insert.execute(.integer(7), .text("word\(index)"))
            }
        }
        #expect(try db.int64("SELECT count(*) FROM words") == Int64(count))
        #expect(try db.string("SELECT word FROM words WHERE id = ?", 123_457) == "word123456")
    }
}
