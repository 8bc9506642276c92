/// Named, ordered schema migrations, each applied once, in its own `BEGIN IMMEDIATE` transaction.
///
/// Applied names are recorded in `schema_migrations(name, applied_at, older_programs_may_run)`.
/// Running ``migrate(_:)`` again applies only what is new; a database holding a migration this
/// list does not know was written by a newer program and is refused rather than guessed at,
/// unless that migration was registered as one older programs may run beside (it changes nothing
/// they use), so that two versions of a program can share the files during an upgrade.
///
/// ```swift
/// var migrator = Migrator()
/// migrator.register("create words", sql: "CREATE TABLE words(id INTEGER PRIMARY KEY, word TEXT NOT NULL)")
/// migrator.register("index words") { db in try db.execute("CREATE INDEX words_word ON words(word)") }
/// try migrator.migrate(db)
/// ```
public struct Migrator: Sendable {
    /// One registered migration.
    public struct Migration: Sendable {
        /// The name recorded in `schema_migrations`; never rename one that has shipped.
        public let name: String
        /// Whether a program that does not know this migration may still open the database.
        public let olderProgramsMayRun: Bool
        let apply: @Sendable (Database) throws -> Void
    }

    /// The registered migrations, in the order they apply.
    public private(set) var migrations: [Migration] = []

    /// The table recording applied migrations.
    public static let tableName = "schema_migrations"

    /// An empty list of migrations.
    public init() {}

    /// The names of the registered migrations, in order.
    public var names: [String] { migrations.map(\.name) }

    /// Adds a migration that runs an SQL script.
    public mutating func register(_ name: String, sql: String, olderProgramsMayRun: Bool = false) {
        migrations.append(Migration(name: name, olderProgramsMayRun: olderProgramsMayRun) { db in try db.execute(sql: sql) })
    }

    /// Adds a migration that runs `body` inside its transaction.
    public mutating func register(_ name: String, _ body: @escaping @Sendable (Database) throws -> Void) {
        migrations.append(Migration(name: name, olderProgramsMayRun: false, apply: body))
    }

    /// The names recorded as applied in `db`, in the order they were applied.
    public func appliedMigrations(in db: Database) throws(SQLiteError) -> [String] {
        let exists = try db.int64(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", .text(Migrator.tableName))
        guard exists == 1 else { return [] }
        return try db.query("SELECT name FROM \(Migrator.tableName) ORDER BY rowid")
            .map { row throws(SQLiteError) in try row.string(0) }
    }

    /// The registered names not yet applied to `db`, in the order they would apply.
    public func pendingMigrations(in db: Database) throws(SQLiteError) -> [String] {
        let applied = Set(try appliedMigrations(in: db))
        return names.filter { !applied.contains($0) }
    }

    /// Applies every pending migration in order and returns the names applied (empty when up to date).
    ///
    /// A migration's failure rolls back that migration only and is rethrown; the ones before it stay applied.
    @discardableResult
    public func migrate(_ db: Database) throws -> [String] {
        guard !db.isInTransaction else {
            throw SQLiteError(
                code: .misuse, message: "migrate(_:) runs each migration in its own transaction; call it outside one")
        }
        var seen = Set<String>()
        for name in names where !seen.insert(name).inserted {
            throw SQLiteError(code: .misuse, message: "migration '\(name)' is registered twice")
        }
        try createTable(in: db)
        let applied = try appliedMigrations(in: db)
        let marked = try hasMarkColumn(db)
        let mayRun = !marked ? [] : Set(
            try db.query("SELECT name FROM \(Migrator.tableName) WHERE older_programs_may_run = 1").map { row throws(SQLiteError) in try row.string(0) })
        let unknown = applied.filter { !seen.contains($0) && !mayRun.contains($0) }
        guard unknown.isEmpty else {
            throw SQLiteError(
                code: .error,
                message: "database schema is newer than this hangman: it has migration"
                    + (unknown.count == 1 ? " " : "s ") + unknown.map { "'\($0)'" }.joined(separator: ", ")
                    + " that this version does not know; use a newer hangman with this database")
        }
        var newlyApplied: [String] = []
        // A table made before the mark gets its column when something is written anyway (a
        // database that is up to date, in a read-only home, is opened without a write).
        let unmarked = migrations.filter { $0.olderProgramsMayRun && applied.contains($0.name) && !mayRun.contains($0.name) }
        if !marked, !unmarked.isEmpty || migrations.contains(where: { !applied.contains($0.name) }) {
            try db.execute("ALTER TABLE \(Migrator.tableName) ADD COLUMN older_programs_may_run INTEGER NOT NULL DEFAULT 0")
        }
        for migration in migrations where !applied.contains(migration.name) {
            let didApply = try db.transaction(.immediate) { db in
                // Another process may have applied it since the check above.
                guard try db.int64(
                    "SELECT count(*) FROM \(Migrator.tableName) WHERE name = ?", .text(migration.name)) == 0
                else { return false }
                do {
                    try migration.apply(db)
                } catch let error as SQLiteError {
                    throw SQLiteError(
                        code: error.code, message: "migration '\(migration.name)' failed: \(error.message)", sql: error.sql)
                }
                try db.execute(
                    "INSERT INTO \(Migrator.tableName)(name, older_programs_may_run) VALUES (?, ?)",
                    .text(migration.name), .integer(migration.olderProgramsMayRun ? 1 : 0))
                return true
            }
            if didApply { newlyApplied.append(migration.name) }
        }
        // Migrations applied before the mark existed are marked as this program knows them
        // (written only when one needs it: an open of an up-to-date database writes nothing).
        for migration in unmarked {
            try db.execute("UPDATE \(Migrator.tableName) SET older_programs_may_run = 1 WHERE name = ?", .text(migration.name))
        }
        return newlyApplied
    }

    private func createTable(in db: Database) throws(SQLiteError) {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS \(Migrator.tableName) (
                name TEXT PRIMARY KEY NOT NULL,
                applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
                older_programs_may_run INTEGER NOT NULL DEFAULT 0 CHECK (older_programs_may_run IN (0, 1))
            )
            """)
    }

    private func hasMarkColumn(_ db: Database) throws(SQLiteError) -> Bool {
        try db.query("SELECT name FROM pragma_table_info('\(Migrator.tableName)')").contains { row in (try? row.string(0)) == "older_programs_may_run" }
    }
}
