import PostgreSQL
import Testing
import TestSupport

/// Named migrations on one database: a program that finds a migration it does not know refuses
/// to run, unless every such migration was recorded as one older programs may run beside (a
/// server of the version before restarting in the middle of a rolling deploy).
@Suite struct MigrationsTests {
    private func sets(_ tag: String) -> (older: Migrations, newer: Migrations, table: String) {
        let table = "migration_test_" + tag
        var older = Migrations(set: "test-" + tag)
        older.register("1-table", sql: "CREATE TABLE \(table) (k TEXT PRIMARY KEY)")
        var newer = older
        newer.register("2-view", sql: "CREATE VIEW \(table)_keys AS SELECT k FROM \(table)", olderProgramsMayRun: true)
        return (older, newer, table)
    }

    private var tag: String { String(UInt64.random(in: 0...UInt64.max), radix: 16) }

    @Test func anOlderProgramRunsBesideAMigrationThatOnlyAdds() throws {
        let (older, newer, _) = sets(tag)
        let pool = ConnectionPool(connectionString: try TestPostgreSQL.shared(), capacity: 1)
        #expect(try older.migrate(pool) == ["1-table"])
        #expect(try newer.migrate(pool) == ["2-view"])
        #expect(try older.migrate(pool) == [], "the older program starts, and applies nothing")
        #expect(try newer.migrate(pool) == [])
    }

    @Test func anOlderProgramIsRefusedAMigrationThatChangesWhatItUses() throws {
        let (older, newer, table) = sets(tag)
        var newest = newer
        newest.register("3-column", sql: "ALTER TABLE \(table) ADD COLUMN v TEXT NOT NULL DEFAULT ''")
        let pool = ConnectionPool(connectionString: try TestPostgreSQL.shared(), capacity: 1)
        #expect(try newest.migrate(pool) == ["1-table", "2-view", "3-column"])
        let refused = #expect(throws: PostgreSQLError.self) { try older.migrate(pool) }
        #expect(refused?.message.contains("'\(older.set)/3-column', which this program does not know") == true, "\(String(describing: refused))")
        // Control: the program that made it runs.
        #expect(try newest.migrate(pool) == [])
    }

    /// A migration recorded before programs said which ones older programs may run beside is
    /// marked by the next program that knows it.
    @Test func aMigrationRecordedBeforeTheMarkIsMarkedByAProgramThatKnowsIt() throws {
        let (older, newer, _) = sets(tag)
        let pool = ConnectionPool(connectionString: try TestPostgreSQL.shared(), capacity: 1)
        _ = try newer.migrate(pool)
        try pool.withConnection { connection in
            _ = try connection.execute("UPDATE schema_migrations SET older_programs_may_run = false WHERE set_name = $1", [newer.set])
        }
        #expect(throws: PostgreSQLError.self) { try older.migrate(pool) }
        #expect(try newer.migrate(pool) == [])
        #expect(try older.migrate(pool) == [])
    }
}
