import Testing
import TestSupport
import SQLite

@Suite struct MigratorTests {
    private func baseMigrator() -> Migrator {
        var migrator = Migrator()
        migrator.register("create packs", sql: "CREATE TABLE packs(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        migrator.register("create words", sql: """
            CREATE TABLE words(id INTEGER PRIMARY KEY, pack INTEGER NOT NULL REFERENCES packs(id), word TEXT NOT NULL);
            CREATE INDEX words_pack ON words(pack);
            """)
        migrator.register("seed base pack") { db in
            try db.execute("INSERT INTO packs(name) VALUES (?)", "base")
        }
        return migrator
    }

    @Test func migrationsApplyInOrderAndAreRecorded() throws {
        let db = try Database.inMemory()
        let migrator = baseMigrator()
        #expect(try migrator.pendingMigrations(in: db) == migrator.names)
        let applied = try migrator.migrate(db)
        #expect(applied == ["create packs", "create words", "seed base pack"])
        #expect(try migrator.appliedMigrations(in: db) == applied)
        #expect(try migrator.pendingMigrations(in: db).isEmpty)
        #expect(try db.string("SELECT name FROM packs") == "base")
        let stamps = try db.query("SELECT applied_at FROM schema_migrations").map { try $0.string(0) }
        #expect(stamps.allSatisfy { $0.hasSuffix("Z") && $0.count == 24 })
    }

    @Test func applyingTwiceIsANoOp() throws {
        let db = try Database.inMemory()
        let migrator = baseMigrator()
        try migrator.migrate(db)
        #expect(try migrator.migrate(db).isEmpty)
        #expect(try db.int64("SELECT count(*) FROM packs") == 1, "the seed ran once")
    }

    @Test func aLaterVersionAppliesOnlyItsNewMigrations() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("device.sqlite")
        try baseMigrator().migrate(try Database(path: path))
        var newer = baseMigrator()
        newer.register("add clues", sql: "ALTER TABLE words ADD COLUMN clue TEXT")
        let db = try Database(path: path)
        #expect(try newer.migrate(db) == ["add clues"])
        try db.execute("INSERT INTO words(pack, word, clue) VALUES (1, 'cat', NULL)")
    }

    @Test func aNewerDatabaseIsRefused() throws {
        let db = try Database.inMemory()
        var newer = baseMigrator()
        newer.register("add clues", sql: "ALTER TABLE words ADD COLUMN clue TEXT")
        try newer.migrate(db)
        let error = #expect(throws: SQLiteError.self) { try baseMigrator().migrate(db) }
        #expect(error?.message.hasPrefix("database schema is newer than this hangman: ") == true)
        #expect(error?.message.contains("'add clues'") == true)
        #expect(try db.int64("SELECT count(*) FROM packs") == 1, "nothing ran")
    }

    /// A newer program's migration that changes nothing an older one uses (registered so): the
    /// older program opens the database beside it; one that does change it is still refused.
    @Test func anOlderProgramOpensADatabaseWhoseNewMigrationsItMayRunBeside() throws {
        let db = try Database.inMemory()
        var newer = baseMigrator()
        newer.register("word view", sql: "CREATE VIEW word_list AS SELECT word FROM words", olderProgramsMayRun: true)
        #expect(try newer.migrate(db) == ["create packs", "create words", "seed base pack", "word view"])
        #expect(try baseMigrator().migrate(db).isEmpty, "the older program opens it")
        var newest = newer
        newest.register("add clues", sql: "ALTER TABLE words ADD COLUMN clue TEXT")
        try newest.migrate(db)
        let error = #expect(throws: SQLiteError.self) { try baseMigrator().migrate(db) }
        #expect(error?.message.contains("'add clues'") == true && error?.message.contains("word view") == false, "\(String(describing: error))")
    }

    /// A database recorded before the mark existed: opened as it is when nothing is due (no
    /// write: it may be read-only), and marked by the next program that writes to it.
    @Test func aDatabaseFromBeforeTheMarkOpensWithoutAWriteAndIsMarkedWhenWritten() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("old.sqlite")
        let old = try Database(path: path)
        try old.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL DEFAULT '2026-01-01T00:00:00.000Z')")
        try baseMigrator().migrate(old)
        try old.execute("ALTER TABLE schema_migrations RENAME TO m; CREATE TABLE schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL DEFAULT ''); INSERT INTO schema_migrations(name) SELECT name FROM m; DROP TABLE m")
        let readOnly = try Database(path: path)
        try readOnly.execute("PRAGMA query_only = ON")
        #expect(try baseMigrator().migrate(readOnly).isEmpty, "up to date: nothing written")
        var newer = baseMigrator()
        newer.register("word view", sql: "CREATE VIEW word_list AS SELECT word FROM words", olderProgramsMayRun: true)
        #expect(try newer.migrate(try Database(path: path)) == ["word view"])
        #expect(try baseMigrator().migrate(try Database(path: path)).isEmpty, "the older program opens it")
    }

    @Test func aFailingMigrationRollsBackOnlyItselfAndNamesItself() throws {
        let db = try Database.inMemory()
        var migrator = baseMigrator()
        migrator.register("broken") { db in
            try db.execute("CREATE TABLE half_done(x)")
            try db.execute("INSERT INTO nowhere VALUES (1)")
        }
        let error = #expect(throws: SQLiteError.self) { try migrator.migrate(db) }
        #expect(error?.message.hasPrefix("migration 'broken' failed: no such table: nowhere") == true)
        #expect(try migrator.appliedMigrations(in: db) == ["create packs", "create words", "seed base pack"])
        #expect(try db.int64("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'") == 0)
    }

    @Test func duplicateNamesAreRefused() throws {
        var migrator = baseMigrator()
        migrator.register("create packs", sql: "SELECT 1")
        let error = #expect(throws: SQLiteError.self) { try migrator.migrate(try Database.inMemory()) }
        #expect(error?.message == "migration 'create packs' is registered twice")
    }

    @Test func migratingInsideATransactionIsRefused() throws {
        let db = try Database.inMemory()
        let error = #expect(throws: SQLiteError.self) {
            try db.transaction { db in try baseMigrator().migrate(db) }
        }
        #expect(error?.code == .misuse)
    }

    @Test func aFreshDatabaseHasNoAppliedMigrationsAndNoTableYet() throws {
        let db = try Database.inMemory()
        #expect(try baseMigrator().appliedMigrations(in: db).isEmpty)
        #expect(try db.int64("SELECT count(*) FROM sqlite_schema") == 0)
    }
}
