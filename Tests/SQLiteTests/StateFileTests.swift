import Foundation
import Testing
import TestSupport
import SQLite

/// `Database.openState`: a program's own database, made whole with mode 0600, and never taken
/// from a link, a special file, or a file that lost its contents.
@Suite struct StateFileTests {
    private static let migrator: Migrator = {
        var migrator = Migrator()
        migrator.register("1", sql: "CREATE TABLE ledger(id INTEGER PRIMARY KEY, amount INTEGER NOT NULL)")
        return migrator
    }()

    private func permissions(_ path: String) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    private func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    private func expectRefused(_ path: String, code: SQLiteError.Code, saying words: String) {
        let error = #expect(throws: SQLiteError.self) { _ = try Database.openState(path: path, migrator: Self.migrator) }
        #expect(error?.code == code)
        #expect(error?.message.contains(words) == true, "\(error?.message ?? "no error")")
    }

    /// A state database of 20 rows, closed, its log left beside it (as between two processes).
    private func databaseWithALog(in folder: TemporaryDirectory) throws -> String {
        let path = folder.file("account.sqlite")
        do {
            let db = try Database.openState(path: path, migrator: Self.migrator)
            for amount in 1...20 { try db.execute("INSERT INTO ledger(amount) VALUES (?)", .integer(Int64(amount))) }
        }
        try #require(FileManager.default.fileExists(atPath: path + "-wal"), "the log stays after closing")
        return path
    }

    /// A database whose first 4 KiB were overwritten is refused before SQLite opens it: opened, it
    /// would replay its log into the damaged file and delete the log, the one good copy left.
    @Test func anOverwrittenDatabaseIsRefusedAndItsLogKept() throws {
        let folder = try TemporaryDirectory()
        let path = try databaseWithALog(in: folder)
        let log = try bytes(path + "-wal")
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.write(contentsOf: Data((0..<4096).map { _ in UInt8.random(in: 0...255) }))
        try file.close()
        expectRefused(path, code: .notADatabase, saying: "does not start with SQLite's header")
        #expect(try bytes(path + "-wal") == log, "the log, the one good copy, is as it was")
    }

    /// The log stays between processes: a database moved away leaves its log behind, and a new
    /// database must not replay it (the old rows would come back in the "new" one).
    @Test func aNewDatabaseSetsAsideTheLogOfOneMovedAway() throws {
        let folder = try TemporaryDirectory()
        let path = try databaseWithALog(in: folder)
        try FileManager.default.moveItem(atPath: path, toPath: folder.file("moved-away.sqlite"))
        let fresh = try Database.openState(path: path, migrator: Self.migrator)
        #expect(try fresh.int64("SELECT count(*) FROM ledger") == 0)
        let orphaned = folder.listing().filter { $0.hasPrefix("account.sqlite-wal.orphaned-") }
        #expect(orphaned.count == 1, "\(folder.listing())")
        // Set aside, not deleted: with the moved file it is the old database whole.
        #expect(try bytes(folder.file(orphaned[0])).count > 32)
    }

    @Test func anEmptyFileIsRefusedAndLeftAsItIs() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("account.sqlite", [])
        expectRefused(path, code: .notADatabase, saying: "empty (0 bytes)")
        #expect(try bytes(path).isEmpty)
        #expect(folder.listing() == ["account.sqlite"])
    }

    @Test func aTruncatedDatabaseIsRefusedAsDamagedAndLeftAsItIs() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("account.sqlite")
        do {
            let db = try Database.openState(path: path, migrator: Self.migrator)
            for amount in 0..<2000 { try db.execute("INSERT INTO ledger(amount) VALUES (?)", .integer(Int64(amount))) }
        }
        let size = try bytes(path).count
        try #require(size > 8192)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 8192)
        try handle.close()
        let before = try bytes(path)
        expectRefused(path, code: .corrupt, saying: "malformed")
        #expect(try bytes(path) == before)
    }

    /// The log stays between processes, and SQLite takes a database's length from a log that holds
    /// frames: a truncated file is still refused, and one whose missing pages the log holds is not.
    @Test func aTruncatedDatabaseIsRefusedWhileItsLogHoldsFrames() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("account.sqlite")
        do {
            let db = try Database.openState(path: path, migrator: Self.migrator)
            for amount in 0..<2000 { try db.execute("INSERT INTO ledger(amount) VALUES (?)", .integer(Int64(amount))) }
        }
        do {
            let db = try Database.openState(path: path, migrator: Self.migrator)
            try db.execute("INSERT INTO ledger(amount) VALUES (2000)")
        }
        try #require(try bytes(path + "-wal").count > 32, "the log holds the last commit")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 8192)
        try handle.close()
        expectRefused(path, code: .corrupt, saying: "malformed")
    }

    @Test func aFileMissingOnlyPagesItsLogHoldsOpens() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("account.sqlite")
        do {
            let db = try Database.openState(path: path, migrator: Self.migrator)
            for amount in 0..<2000 { try db.execute("INSERT INTO ledger(amount) VALUES (?)", .integer(Int64(amount))) }
        }
        do {
            // Rewrites the last page (the rightmost leaf of the table): its new copy is in the log.
            let db = try Database.openState(path: path, migrator: Self.migrator)
            try db.execute("UPDATE ledger SET amount = -1 WHERE id = (SELECT max(id) FROM ledger)")
        }
        // What a checkpoint cut short after writing the first pages leaves: the file without its last page.
        let size = try bytes(path).count
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size - 4096))
        try handle.close()
        let db = try Database.openState(path: path, migrator: Self.migrator)
        #expect(try db.int64("SELECT count(*) FROM ledger") == 2000)
        #expect(try db.int64("SELECT amount FROM ledger ORDER BY id DESC LIMIT 1") == -1)
        #expect(try db.string("PRAGMA integrity_check") == "ok")
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAsItIs() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("device.sqlite", String(repeating: "not a database\n", count: 400))
        let before = try bytes(path)
        expectRefused(path, code: .notADatabase, saying: "not a database")
        #expect(try bytes(path) == before)
    }

    @Test func aLinkOutOfTheFolderIsNotFollowed() throws {
        let folder = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: folder.file("device.sqlite"), withDestinationPath: outside.file("device.sqlite"))
        expectRefused(folder.file("device.sqlite"), code: .cantOpen, saying: "it is a symbolic link, not a regular file")
        #expect(outside.listing().isEmpty, "a database was made where the link points")
    }

    @Test func aLinkedLogFileIsRefused() throws {
        let folder = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let path = folder.file("device.sqlite")
        _ = try Database.openState(path: path, migrator: Self.migrator)
        // The log stays after the connection closes: it is replaced by the link.
        try FileManager.default.removeItem(atPath: path + "-wal")
        try FileManager.default.createSymbolicLink(atPath: path + "-wal", withDestinationPath: outside.file("wal"))
        expectRefused(path, code: .cantOpen, saying: "its file '\(path)-wal' is a symbolic link")
        #expect(outside.listing().isEmpty)
    }

    @Test func aFolderInPlaceOfTheDatabaseIsRefused() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("device.sqlite"), withIntermediateDirectories: false)
        expectRefused(folder.file("device.sqlite"), code: .cantOpen, saying: "it is a folder, not a regular file")
    }

    @Test func aNewDatabaseIsMadeWhole0600AndMigrated() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("account.sqlite")
        let db = try Database.openState(path: path, migrator: Self.migrator)
        try db.execute("INSERT INTO ledger(amount) VALUES (5)")
        #expect(try permissions(path) == 0o600)
        #expect(try permissions(path + "-wal") == 0o600, "the log holds the same data: it gets the same mode")
        #expect(try db.string("PRAGMA journal_mode") == "wal")
        #expect(try Self.migrator.pendingMigrations(in: db).isEmpty)
        #expect(folder.listing().allSatisfy { !$0.hasSuffix(".tmp") && !$0.contains(".tmp-") }, "\(folder.listing())")
    }

    @Test func eightOpeningAtOnceShareOneDatabase() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("account.sqlite")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for amount in 1...8 {
                group.addTask {
                    let db = try Database.openState(path: path, migrator: Self.migrator)
                    try db.execute("INSERT INTO ledger(amount) VALUES (?)", .integer(Int64(amount)))
                }
            }
            try await group.waitForAll()
        }
        let db = try Database.openState(path: path, migrator: Self.migrator)
        #expect(try db.int64("SELECT sum(amount) FROM ledger") == 36)
        #expect(folder.listing().allSatisfy { !$0.contains(".tmp") }, "\(folder.listing())")
    }
}
