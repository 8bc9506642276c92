/// Named, ordered schema migrations, each applied once, in its own `BEGIN IMMEDIATE` transaction.
///
/// Applied names are recorded in `schema_migrations(name, applied_at)`. Running ``migrate(_:)``
/// again applies only what is new; a database holding a migration this list does not know was
/// written by a newer program and is refused rather than guessed at.
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
    public mutating func register(_ name: String, sql: String) {
        migrations.append(Migration(name: name) { db in try db.execute(sql: sql) })
    }

    /// Adds a migration that runs `body` inside its transaction.
    public mutating func register(_ name: String, _ body: @escaping @Sendable (Database) throws -> Void) {
        migrations.append(Migration(name: name, apply: body))
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
        let unknown = applied.filter { !seen.contains($0) }
        guard unknown.isEmpty else {
            throw SQLiteError(
                code: .error,
                message: "database schema is newer than this hangman: it has migration"
                    + (unknown.count == 1 ? " " : "s ") + unknown.map { "'\($0)'" }.joined(separator: ", ")
                    + " that this version does not know; use a newer hangman with this database")
        }
        var newlyApplied: [String] = []
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
                try db.execute("INSERT INTO \(Migrator.tableName)(name) VALUES (?)", .text(migration.name))
                return true
            }
            if didApply { newlyApplied.append(migration.name) }
        }
        return newlyApplied
    }

    private func createTable(in db: Database) throws(SQLiteError) {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS \(Migrator.tableName) (
                name TEXT PRIMARY KEY NOT NULL,
                applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            )
            """)
    }
}
