/// Named, ordered migrations for one PostgreSQL database, the counterpart of the SQLite module's
/// `Migrator`: each runs once, in its own transaction, recorded by name in `schema_migrations`.
///
/// Several servers may start at once on one database: an advisory lock makes them take turns, and
/// the second finds the work done. A database holding a migration this program does not know
/// (a newer program ran) is refused.
public struct Migrations: Sendable {
    public struct Migration: Sendable {
        public let name: String
        public let sql: String
    }

    /// The set these belong to (`ledger`, `accounts`): sets share one `schema_migrations` table.
    public let set: String
    public private(set) var migrations: [Migration] = []

    public init(set: String) { self.set = set }

    public var names: [String] { migrations.map(\.name) }

    public mutating func register(_ name: String, sql: String) {
        precondition(!names.contains(name), "migration \(name) is registered twice")
        migrations.append(Migration(name: name, sql: sql))
    }

    /// Applies what is missing; returns the names applied now.
    @discardableResult
    public func migrate(_ pool: ConnectionPool) throws -> [String] {
        try pool.transaction { connection in
            // One key for every set: migrations never run side by side.
            try connection.execute("SELECT pg_advisory_xact_lock(7263549)")
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    set_name TEXT NOT NULL, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
                    PRIMARY KEY (set_name, name))
                """)
            let applied = try connection.execute("SELECT name FROM schema_migrations WHERE set_name = $1", [set]).rows.compactMap { $0.first ?? nil }
            if let unknown = applied.first(where: { !names.contains($0) }) {
                throw PostgreSQLError(
                    state: PostgreSQLError.State(rawValue: "XX000"),
                    message: "the database has migration '\(set)/\(unknown)', which this program does not know: it was made by a newer version")
            }
            var done: [String] = []
            for migration in migrations where !applied.contains(migration.name) {
                try connection.executeScript(migration.sql)
                try connection.execute("INSERT INTO schema_migrations (set_name, name) VALUES ($1, $2)", [set, migration.name])
                done.append(migration.name)
            }
            return done
        }
    }
}
