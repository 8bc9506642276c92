internal import CSQLite

/// One SQLite connection, configured for durable writes: WAL, `synchronous=FULL`, foreign keys on.
///
/// The connection is opened with `SQLITE_OPEN_NOMUTEX` (SQLite's multi-thread mode): it has no
/// lock of its own, so it must not be used from two threads at once. The class is deliberately not
/// `Sendable`, so Swift's concurrency checking keeps each connection in one isolation domain;
/// open one connection per thread or actor. It is closed (`sqlite3_close_v2`) when released.
///
/// ```swift
/// let db = try Database(path: "device.sqlite")
/// try db.execute("CREATE TABLE IF NOT EXISTS settings(key TEXT PRIMARY KEY, value)")
/// try db.execute("INSERT INTO settings VALUES (?, ?)", "sound", true)
/// let sound = try db.int64("SELECT value FROM settings WHERE key = ?", "sound")
/// ```
public final class Database {
    /// The file path, or `:memory:`.
    public let path: String
    let handle: OpaquePointer

    /// How long a statement waits for another connection's lock before failing with ``SQLiteError/Code/busy``
    /// (`sqlite3_busy_timeout`).
    public var busyTimeout: Duration {
        didSet { sqlite3_busy_timeout(handle, Database.milliseconds(busyTimeout)) }
    }

    /// Opens (creating if needed) the database at `path` (`sqlite3_open_v2`) and configures it.
    ///
    /// Per connection: `busy_timeout`, extended result codes, `journal_mode=WAL` (checked: a file
    /// system that refuses WAL is an error), `synchronous=FULL`, `foreign_keys=ON`; closing leaves
    /// the log for the next process, or empties it when this connection left it at 64 pages or more.
    public convenience init(path: String, busyTimeout: Duration = .milliseconds(5000)) throws(SQLiteError) {
        try self.init(location: path, inMemory: false, busyTimeout: busyTimeout)
    }

    /// A new private in-memory database (`sqlite3_open_v2` on `:memory:`), configured like a file but without WAL.
    public static func inMemory(busyTimeout: Duration = .milliseconds(5000)) throws(SQLiteError) -> Database {
        try Database(location: ":memory:", inMemory: true, busyTimeout: busyTimeout)
    }

    /// `creating: false` opens only a database file that is there.
    init(location: String, inMemory: Bool, busyTimeout: Duration, creating: Bool = true) throws(SQLiteError) {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (creating ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let resultCode = sqlite3_open_v2(location, &opened, flags, nil)
        guard resultCode == SQLITE_OK, let opened else {
            let cause = SQLiteError(resultCode: resultCode, handle: opened, sql: nil)
            sqlite3_close_v2(opened)
            throw SQLiteError(code: cause.code, message: "cannot open database '\(location)': \(cause.message)")
        }
        self.path = location
        self.handle = opened
        self.busyTimeout = busyTimeout
        // From here a throw releases self, and deinit closes the handle.
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_timeout(opened, Database.milliseconds(busyTimeout))
        let journalMode = try switchToWAL(waitingUpTo: Database.milliseconds(busyTimeout))
        let expectedMode = inMemory ? "memory" : "wal"
        guard journalMode?.lowercased() == expectedMode else {
            throw SQLiteError(
                code: .error,
                message: "cannot use write-ahead logging for '\(location)': SQLite kept journal_mode "
                    + "'\(journalMode ?? "none")' (is the file system a network or read-only one?)",
                sql: "PRAGMA journal_mode=WAL")
        }
        try execute("PRAGMA synchronous=FULL")
        try execute("PRAGMA foreign_keys=ON")
        if !inMemory {
            // Closing leaves the log and its index in place for the next process, instead of
            // copying the log into the database, syncing both and deleting two files (then creating
            // them again and syncing the folder at the next open): a command's work is its commits,
            // and commits still sync the log. The first process to open the database reads the
            // whole log to rebuild its index, so a connection whose commits left the log at 64 pages
            // or more (a dozen games) empties it when it closes (`walHook` keeps the count).
            try check(hangman_sqlite_no_checkpoint_on_close(opened), sql: "SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE")
            sqlite3_wal_hook(opened, walHook, Unmanaged.passUnretained(self).toOpaque())
        }
        guard try int64("PRAGMA foreign_keys") == 1 else {
            throw SQLiteError(code: .error, message: "this SQLite does not enforce foreign keys", sql: "PRAGMA foreign_keys")
        }
    }

    deinit {
        emptyLogIfLong()
        // Cached statements first: they do not keep the connection open.
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Statements compiled once and reused for SQL this connection runs again and again.
    private var statementCache: [String: Statement] = [:]
    /// Past this many, the cache starts over: SQL built with values in its text would otherwise grow it without end.
    private static let statementCacheLimit = 64

    /// The statement for `sql`, compiled on first use (`sqlite3_prepare_v3` with
    /// `SQLITE_PREPARE_PERSISTENT`) and kept for the next. Only for calls that run it to completion
    /// and reset it before returning, so that no caller finds it half-run.
    func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statementCache[sql] { return statement }
        let statement = try prepareOne(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT), keepsDatabaseOpen: false)
        if statementCache.count >= Self.statementCacheLimit { statementCache.removeAll() }
        statementCache[sql] = statement
        return statement
    }

    /// `PRAGMA journal_mode=WAL`, retried while another connection is creating the same file.
    ///
    /// Switching to WAL needs an exclusive lock while this connection holds a shared one, so
    /// SQLite answers `SQLITE_BUSY` at once instead of calling the busy handler (which could
    /// deadlock): several processes opening a new database together would see it. Once the file
    /// is in WAL mode the pragma needs no lock; retry for as long as the busy timeout allows.
    private func switchToWAL(waitingUpTo milliseconds: Int32) throws(SQLiteError) -> String? {
        var waited: Int32 = 0
        var pause: Int32 = 1
        while true {
            do {
                return try string("PRAGMA journal_mode=WAL")
            } catch where error.code.primary == .busy && waited < milliseconds {
                sqlite3_sleep(pause)  // milliseconds
                waited += pause
                pause = min(pause * 2, 50)
            }
        }
    }

    /// Pages in the log at which closing the connection copies it into the database and empties it.
    static let logPagesEmptiedAtClose: Int32 = 64
    /// Pages in the log at which a commit copies it into the database, as SQLite's own automatic
    /// checkpoint does (which this connection's log hook replaces).
    static let logPagesCopiedAtCommit: Int32 = 1000

    /// The most pages this connection's commits have left in the log. The largest, not the last:
    /// once a checkpoint has copied the whole log, the next commit starts it over from its first
    /// frame, and a small commit after a large one (an install, then its delivery) would otherwise
    /// leave a log file of many megabytes for every later process.
    private var logPages: Int32 = 0

    /// After each commit (`sqlite3_wal_hook`): keeps the log's size, and copies the log into the
    /// database past 1,000 pages (`SQLITE_CHECKPOINT_PASSIVE`, what SQLite does by default).
    fileprivate func committed(database name: UnsafePointer<CChar>?, logPages pages: Int32) {
        logPages = max(logPages, pages)
        if pages >= Self.logPagesCopiedAtCommit {
            _ = sqlite3_wal_checkpoint_v2(handle, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }
    }

    /// At close, when this connection's commits left the log at 64 pages or more: copies it into
    /// the database and truncates it (`SQLITE_CHECKPOINT_TRUNCATE`), without waiting for readers
    /// of other processes (the busy timeout is 0 meanwhile; one makes it stop short, and a later
    /// close tries again). SQLite's copy alone never empties the log here, since every process
    /// rebuilds the log's index when it is the first to open the database: it would only grow.
    private func emptyLogIfLong() {
        guard logPages >= Self.logPagesEmptiedAtClose else { return }
        sqlite3_busy_timeout(handle, 0)
        _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
    }

    private func check(_ resultCode: Int32, sql: String) throws(SQLiteError) {
        guard resultCode == SQLITE_OK else { throw SQLiteError(resultCode: resultCode, handle: handle, sql: sql) }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return Int32.max }
        return Int32(clamping: whole + attoseconds / 1_000_000_000_000_000)
    }

    // MARK: - Statements

    /// The statement for `sql`, compiled once per connection and kept (`sqlite3_prepare_v3` with
    /// `SQLITE_PREPARE_PERSISTENT`): for a statement run with ``Statement/execute(binding:)`` or
    /// ``Statement/int64(binding:)``, which run it to completion and reset it.
    public func prepareCached(_ sql: String) throws(SQLiteError) -> Statement {
        try cachedStatement(sql)
    }

    /// Compiles one SQL statement for repeated use (`sqlite3_prepare_v3` with `SQLITE_PREPARE_PERSISTENT`).
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try prepareOne(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
    }

    /// Runs one or more `;`-separated statements, discarding rows (`sqlite3_prepare_v3`, `sqlite3_step`).
    ///
    /// The arguments fill the `?` parameters in order, across statements.
    public func execute(_ sql: String, _ arguments: SQLValue...) throws(SQLiteError) {
        try execute(sql: sql, arguments: arguments)
    }

    /// Runs one or more `;`-separated statements, discarding rows (`sqlite3_prepare_v3`, `sqlite3_step`).
    ///
    /// The arguments fill the `?` parameters in order, across statements.
    public func execute(sql: String, arguments: [SQLValue] = []) throws(SQLiteError) {
        if let statement = statementCache[sql] {
            try statement.execute(arguments: arguments)
            return
        }
        var script = sql
        var failure: SQLiteError?
        var used = 0
        var compiled: [Statement] = []
        var consumedAll = false
        script.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { start in
                var offset = 0
                while offset < bytes.count {
                    var prepared: OpaquePointer?
                    var tail: UnsafePointer<CChar>?
                    let resultCode = sqlite3_prepare_v3(
                        handle, start + offset, Int32(clamping: bytes.count - offset), 0, &prepared, &tail)
                    guard resultCode == SQLITE_OK else {
                        failure = SQLiteError(resultCode: resultCode, handle: handle, sql: sql)
                        return
                    }
                    let nextOffset = tail.map { $0 - start } ?? bytes.count
                    guard nextOffset > offset else { break }
                    offset = nextOffset
                    consumedAll = offset >= bytes.count
                    // Whitespace or a comment compiles to no statement.
                    guard let prepared else { continue }
                    let text = sqlite3_sql(prepared).map { String(cString: $0) } ?? sql
                    let statement = Statement(database: self, handle: prepared, sql: text, keepsDatabaseOpen: false)
                    compiled.append(statement)
                    let needed = statement.parameterCount
                    guard used + needed <= arguments.count else {
                        failure = SQLiteError(
                            code: .range,
                            message: "not enough arguments: the SQL takes more than the \(arguments.count) given",
                            sql: sql)
                        return
                    }
                    do throws(SQLiteError) {
                        try statement.execute(arguments: Array(arguments[used..<used + needed]))
                    } catch {
                        failure = error
                        return
                    }
                    used += needed
                }
            }
        }
        if let failure { throw failure }
        guard used == arguments.count else {
            throw SQLiteError(
                code: .range, message: "too many arguments: the SQL takes \(used), got \(arguments.count)", sql: sql)
        }
        // One statement is kept for the next time the same SQL runs (BEGIN, COMMIT, an insert).
        if compiled.count == 1, consumedAll, let statement = compiled.first {
            if statementCache.count >= Self.statementCacheLimit { statementCache.removeAll() }
            statementCache[sql] = statement
        }
    }

    /// Runs one statement and returns all its rows (`sqlite3_prepare_v3`, `sqlite3_step`).
    public func query(_ sql: String, _ arguments: SQLValue...) throws(SQLiteError) -> [Row] {
        try query(sql: sql, arguments: arguments)
    }

    /// Runs one statement and returns all its rows (`sqlite3_prepare_v3`, `sqlite3_step`).
    public func query(sql: String, arguments: [SQLValue] = []) throws(SQLiteError) -> [Row] {
        try cachedStatement(sql).query(arguments: arguments)
    }

    /// Runs one statement and calls `body` with each row as it is read, without collecting them.
    public func forEach(_ sql: String, _ arguments: SQLValue..., body: (Row) throws -> Void) throws {
        try prepareOne(sql, flags: 0).forEach(arguments: arguments, body)
    }

    /// The first column of the first row, or `nil` when there is no row.
    public func value(_ sql: String, _ arguments: SQLValue...) throws(SQLiteError) -> SQLValue? {
        try cachedStatement(sql).firstValue(arguments: arguments)
    }

    /// The integer in the first column of the first row; `nil` for no row or `NULL`, an error for another type.
    public func int64(_ sql: String, _ arguments: SQLValue...) throws(SQLiteError) -> Int64? {
        switch try cachedStatement(sql).firstValue(arguments: arguments) {
        case nil, .null?: return nil
        case .integer(let value)?: return value
        case let other?: throw scalarMismatch(other, expected: "integer", sql: sql)
        }
    }

    /// The text in the first column of the first row; `nil` for no row or `NULL`, an error for another type.
    public func string(_ sql: String, _ arguments: SQLValue...) throws(SQLiteError) -> String? {
        switch try cachedStatement(sql).firstValue(arguments: arguments) {
        case nil, .null?: return nil
        case .text(let value)?: return value
        case let other?: throw scalarMismatch(other, expected: "text", sql: sql)
        }
    }

    private func scalarMismatch(_ value: SQLValue, expected: String, sql: String) -> SQLiteError {
        SQLiteError(code: .mismatch, message: "the first column holds \(value.typeName), expected \(expected)", sql: sql)
    }

    /// Compiles exactly one statement; a second one in `sql` is refused rather than silently ignored.
    private func prepareOne(_ sql: String, flags: UInt32, keepsDatabaseOpen: Bool = true) throws(SQLiteError) -> Statement {
        var script = sql
        var prepared: OpaquePointer?
        var failure: SQLiteError?
        script.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { start in
                var tail: UnsafePointer<CChar>?
                let resultCode = sqlite3_prepare_v3(handle, start, Int32(clamping: bytes.count), flags, &prepared, &tail)
                guard resultCode == SQLITE_OK else {
                    failure = SQLiteError(resultCode: resultCode, handle: handle, sql: sql)
                    return
                }
                guard let tail, tail - start < bytes.count else { return }
                var extra: OpaquePointer?
                let restCode = sqlite3_prepare_v3(handle, tail, Int32(clamping: bytes.count - (tail - start)), 0, &extra, nil)
                if restCode != SQLITE_OK || extra != nil {
                    sqlite3_finalize(extra)
                    failure = SQLiteError(
                        code: .misuse, message: "expected one SQL statement; use execute(_:) for a script", sql: sql)
                }
            }
        }
        if let failure {
            sqlite3_finalize(prepared)
            throw failure
        }
        guard let prepared else {
            throw SQLiteError(code: .misuse, message: "no SQL statement to prepare", sql: sql)
        }
        return Statement(database: self, handle: prepared, sql: sql, keepsDatabaseOpen: keepsDatabaseOpen)
    }

    // MARK: - Connection state

    /// The rowid of the last successful `INSERT` on this connection (`sqlite3_last_insert_rowid`).
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last `INSERT`, `UPDATE` or `DELETE` (`sqlite3_changes64`).
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Rows changed since the connection opened (`sqlite3_total_changes64`).
    public var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    /// Whether a transaction is open on this connection (`sqlite3_get_autocommit`).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: - Maintenance

    /// Runs `PRAGMA integrity_check` and returns the problems it reports: empty when the database is sound.
    public func integrityCheck() throws(SQLiteError) -> [String] {
        let lines = try query("PRAGMA integrity_check").map { row throws(SQLiteError) in try row.string(0) }
        return lines == ["ok"] ? [] : lines
    }

    /// How far ``checkpoint(_:)`` goes (`SQLITE_CHECKPOINT_*`).
    public enum CheckpointMode: Sendable {
        /// Copy what can be copied without waiting for other connections.
        case passive
        /// Wait for writers, then copy the whole log.
        case full
        /// Like `full`, then wait for readers so the next writer restarts the log.
        case restart
        /// Like `restart`, then truncate the log file to zero bytes.
        case truncate
    }

    /// Copies the write-ahead log into the database file (`sqlite3_wal_checkpoint_v2`).
    ///
    /// The default, `truncate`, waits up to the busy timeout for other connections and throws
    /// ``SQLiteError/Code/busy`` if they keep the log in use.
    public func checkpoint(_ mode: CheckpointMode = .truncate) throws(SQLiteError) {
        let cMode = switch mode {
        case .passive: SQLITE_CHECKPOINT_PASSIVE
        case .full: SQLITE_CHECKPOINT_FULL
        case .restart: SQLITE_CHECKPOINT_RESTART
        case .truncate: SQLITE_CHECKPOINT_TRUNCATE
        }
        let resultCode = sqlite3_wal_checkpoint_v2(handle, nil, cMode, nil, nil)
        guard resultCode == SQLITE_OK else {
            throw SQLiteError(resultCode: resultCode, handle: handle, sql: nil)
        }
    }
}

/// `sqlite3_wal_hook`'s callback: the connection is the context, unretained (the hook lives no
/// longer than the connection).
private let walHook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = { context, _, name, pages in
    if let context {
        Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().committed(database: name, logPages: pages)
    }
    return SQLITE_OK
}
