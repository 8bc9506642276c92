internal import CSQLite

/// An error from SQLite or from this module: the extended result code, SQLite's message, and the SQL.
///
/// Match a kind of failure in `catch` with a ``Code``: a primary code matches every extended code
/// under it, an extended code matches only itself.
///
/// ```swift
/// do { try db.execute("INSERT INTO words(word) VALUES (?)", .text(word)) }
/// catch SQLiteError.Code.constraintUnique { /* already there */ }
/// catch SQLiteError.Code.busy { /* another process holds the write lock */ }
/// ```
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The extended result code (for example ``Code/constraintUnique`` rather than ``Code/constraint``).
    public let code: Code
    /// What went wrong, in SQLite's words (or this module's, for misuse of the API).
    public let message: String
    /// The SQL being prepared or run, when there was one.
    public let sql: String?

    /// Creates an error from its parts.
    public init(code: Code, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code: ``code`` without its extended part (``Code/constraint`` for ``Code/constraintUnique``).
    public var primaryCode: Code { code.primary }

    /// The message, the code's name and number, and the SQL.
    public var description: String {
        var text = "\(message) (\(code))"
        if let sql { text += " while running: \(sql)" }
        return text
    }
}

extension SQLiteError {
    /// A SQLite result code (`SQLITE_*`), primary or extended, with Swift names.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The numeric value of the C constant.
        public let rawValue: Int

        /// Creates a code from the numeric value of a C `SQLITE_*` constant.
        public init(rawValue: Int) { self.rawValue = rawValue }

        init(_ cCode: Int32) { self.rawValue = Int(cCode) }

        // Extended codes are C macros built with `|` and `<<`, which Swift does not import.
        init(_ primary: Int32, extended: Int) { self.rawValue = Int(primary) | extended << 8 }

        /// The primary code: the low 8 bits of an extended code.
        public var primary: Code { Code(rawValue: rawValue & 0xFF) }

        /// Whether this is a primary code (and so matches all its extended codes in `catch`).
        public var isPrimary: Bool { rawValue == rawValue & 0xFF }

        /// The Swift name and the number, e.g. `constraintUnique, 2067`.
        public var description: String {
            let name = Code.names[self] ?? Code.names[primary].map { "\($0) (extended)" } ?? "unknown"
            return "\(name), \(rawValue)"
        }

        // Primary codes.
        /// `SQLITE_OK`.
        public static let ok = Code(SQLITE_OK)
        /// `SQLITE_ERROR`: a generic error, such as an SQL syntax error or a refusal by this module.
        public static let error = Code(SQLITE_ERROR)
        /// `SQLITE_INTERNAL`.
        public static let `internal` = Code(SQLITE_INTERNAL)
        /// `SQLITE_PERM`: access permission denied.
        public static let permission = Code(SQLITE_PERM)
        /// `SQLITE_ABORT`.
        public static let abort = Code(SQLITE_ABORT)
        /// `SQLITE_BUSY`: another connection holds a lock longer than the busy timeout.
        public static let busy = Code(SQLITE_BUSY)
        /// `SQLITE_LOCKED`: a conflict within the same connection or shared cache.
        public static let locked = Code(SQLITE_LOCKED)
        /// `SQLITE_NOMEM`.
        public static let noMemory = Code(SQLITE_NOMEM)
        /// `SQLITE_READONLY`.
        public static let readOnly = Code(SQLITE_READONLY)
        /// `SQLITE_INTERRUPT`.
        public static let interrupt = Code(SQLITE_INTERRUPT)
        /// `SQLITE_IOERR`.
        public static let ioError = Code(SQLITE_IOERR)
        /// `SQLITE_CORRUPT`: the database file is malformed.
        public static let corrupt = Code(SQLITE_CORRUPT)
        /// `SQLITE_NOTFOUND`.
        public static let notFound = Code(SQLITE_NOTFOUND)
        /// `SQLITE_FULL`: the disk is full.
        public static let full = Code(SQLITE_FULL)
        /// `SQLITE_CANTOPEN`: the file could not be opened.
        public static let cantOpen = Code(SQLITE_CANTOPEN)
        /// `SQLITE_PROTOCOL`.
        public static let `protocol` = Code(SQLITE_PROTOCOL)
        /// `SQLITE_SCHEMA`: the schema changed under a statement.
        public static let schema = Code(SQLITE_SCHEMA)
        /// `SQLITE_TOOBIG`: a string or blob is too large.
        public static let tooBig = Code(SQLITE_TOOBIG)
        /// `SQLITE_CONSTRAINT`: any constraint violation; the extended code says which kind.
        public static let constraint = Code(SQLITE_CONSTRAINT)
        /// `SQLITE_MISMATCH`: a value of the wrong type (also used by ``Row`` accessors).
        public static let mismatch = Code(SQLITE_MISMATCH)
        /// `SQLITE_MISUSE`: the API was used incorrectly.
        public static let misuse = Code(SQLITE_MISUSE)
        /// `SQLITE_AUTH`.
        public static let authorization = Code(SQLITE_AUTH)
        /// `SQLITE_RANGE`: a parameter or column index out of range (also wrong argument counts).
        public static let range = Code(SQLITE_RANGE)
        /// `SQLITE_NOTADB`: the file is not a database.
        public static let notADatabase = Code(SQLITE_NOTADB)

        // Extended codes.
        /// `SQLITE_CONSTRAINT_CHECK`.
        public static let constraintCheck = Code(SQLITE_CONSTRAINT, extended: 1)
        /// `SQLITE_CONSTRAINT_FOREIGNKEY`.
        public static let constraintForeignKey = Code(SQLITE_CONSTRAINT, extended: 3)
        /// `SQLITE_CONSTRAINT_NOTNULL`.
        public static let constraintNotNull = Code(SQLITE_CONSTRAINT, extended: 5)
        /// `SQLITE_CONSTRAINT_PRIMARYKEY`.
        public static let constraintPrimaryKey = Code(SQLITE_CONSTRAINT, extended: 6)
        /// `SQLITE_CONSTRAINT_UNIQUE`.
        public static let constraintUnique = Code(SQLITE_CONSTRAINT, extended: 8)
        /// `SQLITE_CONSTRAINT_TRIGGER`: a `RAISE(ABORT, ...)` in a trigger.
        public static let constraintTrigger = Code(SQLITE_CONSTRAINT, extended: 7)
        /// `SQLITE_CONSTRAINT_ROWID`.
        public static let constraintRowID = Code(SQLITE_CONSTRAINT, extended: 10)
        /// `SQLITE_BUSY_RECOVERY`.
        public static let busyRecovery = Code(SQLITE_BUSY, extended: 1)
        /// `SQLITE_BUSY_SNAPSHOT`: a read transaction could not be upgraded to a write (use `BEGIN IMMEDIATE`).
        public static let busySnapshot = Code(SQLITE_BUSY, extended: 2)
        /// `SQLITE_CORRUPT_INDEX`.
        public static let corruptIndex = Code(SQLITE_CORRUPT, extended: 3)
        /// `SQLITE_READONLY_DBMOVED`: the database file was moved or deleted while open.
        public static let readOnlyDatabaseMoved = Code(SQLITE_READONLY, extended: 4)

        private static let names: [Code: String] = [
            .ok: "ok", .error: "error", .internal: "internal", .permission: "permission", .abort: "abort",
            .busy: "busy", .locked: "locked", .noMemory: "noMemory", .readOnly: "readOnly",
            .interrupt: "interrupt", .ioError: "ioError", .corrupt: "corrupt", .notFound: "notFound",
            .full: "full", .cantOpen: "cantOpen", .protocol: "protocol", .schema: "schema",
            .tooBig: "tooBig", .constraint: "constraint", .mismatch: "mismatch", .misuse: "misuse",
            .authorization: "authorization", .range: "range", .notADatabase: "notADatabase",
            .constraintCheck: "constraintCheck", .constraintForeignKey: "constraintForeignKey",
            .constraintNotNull: "constraintNotNull", .constraintPrimaryKey: "constraintPrimaryKey",
            .constraintUnique: "constraintUnique", .constraintTrigger: "constraintTrigger",
            .constraintRowID: "constraintRowID", .busyRecovery: "busyRecovery",
            .busySnapshot: "busySnapshot", .corruptIndex: "corruptIndex",
            .readOnlyDatabaseMoved: "readOnlyDatabaseMoved",
        ]

        /// Whether `code` is this code, or (for a primary pattern) one of its extended codes.
        public func matches(_ code: Code) -> Bool {
            isPrimary ? code.primary == self : code == self
        }

        /// Matches a thrown ``SQLiteError`` in `catch`: `catch SQLiteError.Code.busy { ... }`.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            guard let error = error as? SQLiteError else { return false }
            return pattern.matches(error.code)
        }

        /// Matches a typed-thrown ``SQLiteError`` in `catch`: `catch SQLiteError.Code.busy { ... }`.
        public static func ~= (pattern: Code, error: SQLiteError) -> Bool {
            pattern.matches(error.code)
        }
    }
}

extension SQLiteError {
    /// The error SQLite reports for `resultCode` on `handle` (message from `sqlite3_errmsg` when it is current).
    init(resultCode: Int32, handle: OpaquePointer?, sql: String?) {
        let message: String
        if let handle, sqlite3_extended_errcode(handle) == resultCode, let text = sqlite3_errmsg(handle) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(resultCode) {
            message = String(cString: text)
        } else {
            message = "SQLite error \(resultCode)"
        }
        self.init(code: Code(resultCode), message: message, sql: sql)
    }
}

extension SQLiteError {
    /// One sentence for a failure of the database `what` (`the account database`) at `path`: a
    /// damaged file is named, said to be left as it is, followed by `whenDamaged` (what it holds
    /// and what to do); any other failure says whether opening it failed.
    public static func sentence(for error: any Error, _ what: String, at path: String, opening: Bool, whenDamaged: String) -> String {
        guard let error = error as? SQLiteError else { return "\(what) \(path) failed: \(error)" }
        if error.code.primary == .corrupt || error.code.primary == .notADatabase {
            return "\(what) \(path) is damaged (\(error.message)); it was left as it is. \(whenDamaged)"
        }
        return opening ? "cannot open \(what) \(path): \(error.message)" : "\(what) \(path) failed: \(error.message)"
    }
}
