internal import CSQLite

extension Database {
    /// Opens the database file at `path` that is there already (never making an empty one).
    public static func existing(path: String, busyTimeout: Duration = .milliseconds(5000)) throws(SQLiteError) -> Database {
        try Database(location: path, inMemory: false, busyTimeout: busyTimeout, creating: false)
    }

    /// Copies every page of this database into a new file at `path` with SQLite's online backup
    /// (`sqlite3_backup_init`, one step for all pages): the copy is the database as one read
    /// transaction saw it, while other connections go on writing (WAL). `path` must not exist.
    public func backup(into path: String) throws(SQLiteError) {
        let destination = try Database(location: path, inMemory: false, busyTimeout: busyTimeout)
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw SQLiteError(resultCode: sqlite3_errcode(destination.handle), handle: destination.handle, sql: nil)
        }
        var step = SQLITE_OK
        // A lock another connection holds for a moment (SQLITE_BUSY, SQLITE_LOCKED) is waited out
        // by the busy timeout; the step is tried again a bounded number of times.
        for _ in 0..<100 {
            step = sqlite3_backup_step(backup, -1)
            guard step == SQLITE_BUSY || step == SQLITE_LOCKED else { break }
            sqlite3_sleep(50)
        }
        let finish = sqlite3_backup_finish(backup)
        guard step == SQLITE_DONE else { throw SQLiteError(resultCode: step, handle: destination.handle, sql: nil) }
        guard finish == SQLITE_OK else { throw SQLiteError(resultCode: finish, handle: destination.handle, sql: nil) }
    }
}
