import SystemCalls

extension Database {
    /// Opens the database file a program keeps its own state in, making it when there is none.
    ///
    /// A file that is there must be a database in a regular file: a symbolic link, folder, FIFO,
    /// device or socket at `path` (or at its `-wal` or `-shm` file) is refused, so the state never
    /// leads elsewhere; so is an empty file, which SQLite would silently take for a new database
    /// when it is one that lost its contents. A damaged file fails with SQLite's own
    /// ``SQLiteError/Code/corrupt`` or ``SQLiteError/Code/notADatabase``: it is never replaced.
    ///
    /// A new database appears complete or not at all: it is made under a temporary name beside
    /// `path` with exactly `permissions` (the log files get the same), migrated, closed, then
    /// linked into place. Of two processes making it at once, one makes it and both open it.
    /// `migrator` then brings an existing database up to date.
    ///
    /// ```swift
    /// let db = try Database.openState(path: folder + "/account.sqlite", migrator: AccountSchema.migrator)
    /// ```
    public static func openState(
        path: String, migrator: Migrator, permissions: UInt32 = 0o600, busyTimeout: Duration = .milliseconds(5000)
    ) throws(SQLiteError) -> Database {
        for _ in 0..<3 {
            if try checkStateFile(path) {
                let db = try Database(location: path, inMemory: false, busyTimeout: busyTimeout, creating: false)
                try migrate(db, with: migrator)
                return db
            }
            try createStateFile(path, migrator: migrator, permissions: permissions, busyTimeout: busyTimeout)
        }
        throw SQLiteError(code: .cantOpen, message: "cannot open database '\(path)': it keeps appearing and disappearing")
    }

    /// Whether a database is at `path`; throws when what is there is not one.
    private static func checkStateFile(_ path: String) throws(SQLiteError) -> Bool {
        let found = try status(path, what: "it")
        for suffix in ["-wal", "-shm"] { _ = try status(path + suffix, what: "its file '\(path + suffix)'") }
        guard let found else { return false }
        // A state database is made whole (checkpointed) before it is linked into place, so an empty
        // one lost its contents, whatever its log holds.
        if found.size == 0 {
            throw SQLiteError(
                code: .notADatabase,
                message: "the file is empty (0 bytes): its contents are lost, or it never held a database")
        }
        // Not SQLite's header: refused before SQLite opens it, for SQLite would replay the log
        // into the damaged file and delete the log, the one good copy left.
        let header = (try? FileSystem.readPrefix(ofFileAtPath: path, count: 16)) ?? []
        guard header.elementsEqual(Array("SQLite format 3\0".utf8)) else {
            throw SQLiteError(
                code: .notADatabase,
                message: "the file is not a database: it does not start with SQLite's header (it was overwritten, or never held one)")
        }
        try checkLength(path, size: found.size)
        return true
    }

    /// Refuses a database file shorter than its header says, unless the log holds every page
    /// missing from it (a checkpoint that stopped half-way).
    ///
    /// SQLite makes this check itself only when the log is empty: it takes the database's length
    /// from the log otherwise. The log stays between processes (see `init`), so without this a
    /// truncated file would open, and its lost pages read as zeros would surface later, or never.
    private static func checkLength(_ path: String, size: Int) throws(SQLiteError) {
        guard let header = try? FileSystem.readPrefix(ofFileAtPath: path, count: 100), header.count == 100,
            header.starts(with: Array("SQLite format 3\0".utf8))
        else { return }  // SQLite itself says what is wrong with it
        let pageSize = header[16] == 0 && header[17] == 1 ? 65536 : Int(header[16]) << 8 | Int(header[17])
        // The page count is valid only while the change counter matches "version-valid-for".
        guard pageSize >= 512, header[24..<28].elementsEqual(header[92..<96]) else { return }
        let pages = bigEndian(header, at: 28)
        let pagesInFile = size / pageSize
        guard pages > pagesInFile else { return }
        let logged = loggedPages(path + "-wal", pageSize: pageSize)
        if let lost = (pagesInFile + 1...pages).first(where: { !logged.contains($0) }) {
            throw SQLiteError(
                code: .corrupt,
                message: "database disk image is malformed: the file holds \(pagesInFile) of its \(pages) pages "
                    + "and page \(lost) is not in its log either (was it truncated?)")
        }
    }

    /// The page numbers of the frames of the log's current generation (salts matching its header).
    private static func loggedPages(_ path: String, pageSize: Int) -> Set<Int> {
        guard let log = try? FileSystem.readFile(atPath: path, limit: 1 << 30), log.count >= 32 else { return [] }
        let frameSize = 24 + pageSize
        guard bigEndian(log, at: 8) == pageSize else { return [] }
        var pages = Set<Int>()
        var offset = 32
        while offset + frameSize <= log.count {
            guard log[offset + 8..<offset + 16].elementsEqual(log[16..<24]) else { break }
            pages.insert(bigEndian(log, at: offset))
            offset += frameSize
        }
        return pages
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }

    /// What is at `path`, refusing anything but a regular file.
    private static func status(_ path: String, what: String) throws(SQLiteError) -> (kind: FileKind, size: Int)? {
        let found: (kind: FileKind, size: Int)?
        do {
            found = try FileSystem.status(atPath: path, followingLinks: false)
        } catch {
            throw SQLiteError(code: .cantOpen, message: "\(error)")
        }
        if let kind = found?.kind, kind != .regular {
            throw SQLiteError(code: .cantOpen, message: "\(what) is \(kind), not a regular file")
        }
        return found
    }

    private static func createStateFile(
        _ path: String, migrator: Migrator, permissions: UInt32, busyTimeout: Duration
    ) throws(SQLiteError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var random = SystemRandomNumberGenerator()
        // Creators take turns on the folder, so that the log set aside below is never a live one:
        // a log is live only once its database is in place, which only a creator holding this lock does.
        let lock: FileLock
        do {
            lock = try FileLock.locking(folderAt: folder.isEmpty ? "." : folder)
        } catch {
            throw SQLiteError(code: .cantOpen, message: "cannot create database '\(path)': \(error)")
        }
        defer { withExtendedLifetime(lock) {} }
        guard !FileSystem.exists(atPath: path) else { return }  // another process made it meanwhile
        // A log without its database belongs to a file that was moved away or deleted: replayed
        // into the new one it would bring the old contents back. It is kept, renamed, and its
        // index (rebuilt from a log by whoever opens it) removed.
        if FileSystem.exists(atPath: path + "-wal") {
            do {
                try FileSystem.rename(path + "-wal", to: path + "-wal.orphaned-\(String(random.next(), radix: 16))")
            } catch {
                throw SQLiteError(code: .cantOpen, message: "cannot set aside the log '\(path)-wal' left without its database: \(error)")
            }
        }
        try? FileSystem.removeFile(atPath: path + "-shm")
        let temporary = "\(folder).\(name).\(String(random.next(), radix: 16)).tmp"
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileSystem.removeFile(atPath: temporary + suffix) }
        }
        do {
            try FileSystem.createNew(atPath: temporary, containing: [], permissions: permissions)
        } catch {
            throw SQLiteError(code: .cantOpen, message: "cannot create database '\(path)': \(error)")
        }
        do {
            let db = try Database(location: temporary, inMemory: false, busyTimeout: busyTimeout, creating: false)
            try migrate(db, with: migrator)
            // Closing keeps the log (see `init`), and the temporary's log is not linked into place:
            // the file must hold everything first.
            try db.checkpoint()
        }
        do {
            try FileSystem.link(temporary, asNewPath: path)
        } catch .system(.fileExists, _, _) {
            // Another process made it first: its database is the one.
        } catch {
            throw SQLiteError(code: .cantOpen, message: "cannot create database '\(path)': \(error)")
        }
    }

    private static func migrate(_ db: Database, with migrator: Migrator) throws(SQLiteError) {
        do {
            try migrator.migrate(db)
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw SQLiteError(code: .error, message: "cannot migrate database '\(db.path)': \(error)")
        }
    }
}
