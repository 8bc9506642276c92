/// Named, ordered migrations for one PostgreSQL database, the counterpart of the SQLite module's
/// `Migrator`: each runs once, in its own transaction, recorded by name in `schema_migrations`.
///
/// Several servers may start at once on one database: an advisory lock makes them take turns, and
/// the second finds the work done. A database holding a migration this program does not know
/// (a newer program ran) is refused, unless every such migration was recorded as one older
/// programs may run beside (`olderProgramsMayRun`: it only adds what they never use, a function
/// or a view), so that a server of the version before starts again in the middle of a rolling
/// deploy.
public struct Migrations: Sendable {
    public struct Migration: Sendable {
        public let name: String
        public let sql: String
        /// Whether a program that does not know this migration may still run on the database.
        public let olderProgramsMayRun: Bool
    }

    /// The set these belong to (`ledger`, `accounts`): sets share one `schema_migrations` table.
    public let set: String
    public private(set) var migrations: [Migration] = []

    public init(set: String) { self.set = set }

    public var names: [String] { migrations.map(\.name) }

    public mutating func register(_ name: String, sql: String, olderProgramsMayRun: Bool = false) {
        precondition(!names.contains(name), "migration \(name) is registered twice")
        migrations.append(Migration(name: name, sql: sql, olderProgramsMayRun: olderProgramsMayRun))
    }

    /// Applies what is missing; returns the names applied now.
    @discardableResult
    public func migrate(_ pool: ConnectionPool) throws -> [String] {
        try pool.transaction { connection in
            // One key for every set: migrations never run side by side.
            try connection.execute("SELECT pg_advisory_xact_lock(7263549)")
            // A migration takes as long as the rows it rewrites: not bounded by the connection's
            // per-request timeout (30 s), for this transaction only.
            try connection.execute("SET LOCAL statement_timeout = 0")
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    set_name TEXT NOT NULL, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
                    PRIMARY KEY (set_name, name))
                """)
            try connection.execute("ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS older_programs_may_run BOOLEAN NOT NULL DEFAULT false")
            let rows = try connection.execute("SELECT name, older_programs_may_run FROM schema_migrations WHERE set_name = $1", [set]).rows
            let applied = rows.compactMap { $0.first ?? nil }
            if let unknown = rows.first(where: { row in !names.contains(row.first.flatMap { $0 } ?? "") && row.last != "t" })?.first ?? nil {
                throw PostgreSQLError(
                    state: PostgreSQLError.State(rawValue: "XX000"),
                    message: "the database has migration '\(set)/\(unknown)', which this program does not know: it was made by a newer version")
            }
            var done: [String] = []
            for migration in migrations where !applied.contains(migration.name) {
                try connection.executeScript(migration.sql)
                try connection.execute(
                    "INSERT INTO schema_migrations (set_name, name, older_programs_may_run) VALUES ($1, $2, $3)",
                    [set, migration.name, migration.olderProgramsMayRun ? "true" : "false"])
                done.append(migration.name)
            }
            // Migrations applied before the column was there are marked as this program knows them.
            let mayRun = migrations.filter(\.olderProgramsMayRun).map(\.name)
            if !mayRun.isEmpty {
                try connection.execute(
                    "UPDATE schema_migrations SET older_programs_may_run = true WHERE set_name = $1 AND name = ANY ($2::text[]) AND NOT older_programs_may_run",
                    [set, "{" + mayRun.joined(separator: ",") + "}"])
            }
            return done
        }
    }
}
