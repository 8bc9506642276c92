internal import CLibPQ

/// One libpq connection (`PGconn`). libpq is thread-safe, but a connection is used by one thread
/// at a time: take it from a ``ConnectionPool``.
///
/// ```swift
/// let connection = try Connection(connectionString: "host=/tmp/pg port=5432 dbname=postgres")
/// let rows = try connection.execute("SELECT balance FROM ledgers WHERE id = $1", ["a1"]).rows
/// ```
public final class Connection {
    private let handle: OpaquePointer

    /// Limits a connection starts with, before the connection string (which may set its own):
    /// a server that does not answer fails within 10 s, a dead peer is noticed by TCP keepalives
    /// within about a minute, and a statement or a lock wait longer than 30 s is cancelled, so
    /// that a database that hangs (rather than stops) cannot hold a server's threads for ever.
    static let defaults: [(String, String)] = [
        ("connect_timeout", "10"), ("keepalives", "1"), ("keepalives_idle", "30"), ("keepalives_interval", "10"),
        ("keepalives_count", "3"), ("options", "-c statement_timeout=30s -c lock_timeout=30s"),
    ]

    /// Opens a connection (`PQconnectdbParams`): a `postgresql://` URI or libpq's `key=value`
    /// string, over ``defaults``. A server that cannot be reached is
    /// ``PostgreSQLError/State/connectionFailure``.
    public init(connectionString: String) throws(PostgreSQLError) {
        // Key words are taken in order, the last one winning: the defaults first, then whatever
        // the connection string (expanded from `dbname`) says.
        let pairs = Self.defaults + [("dbname", connectionString)]
        let keys = pairs.map { Self.cString($0.0) }
        let values = pairs.map { Self.cString($0.1) }
        defer { for pointer in keys + values { pointer.deallocate() } }
        let opened: OpaquePointer? = (keys.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keyList in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { valueList in
                PQconnectdbParams(keyList.baseAddress, valueList.baseAddress, 1)
            }
        }
        guard let handle = opened else {
            throw PostgreSQLError(state: .connectionFailure, message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            // libpq's words run over lines ("...failed: ...\n\tIs the server running...?"): one line.
            let message = Self.text(PQerrorMessage(handle)).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            PQfinish(handle)
            throw PostgreSQLError(state: .connectionFailure, message: "cannot connect to PostgreSQL: \(message)")
        }
        self.handle = handle
        // Notices (a table that already exists, say) are not errors: keep them off standard error.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    private var broken = false

    /// Whether the connection is still usable: libpq says so (`PQstatus`) and no statement on it
    /// failed because the server went away.
    public var isHealthy: Bool { !broken && PQstatus(handle) == CONNECTION_OK }

    /// The statements prepared on this connection (SQL -> name), each parsed and planned once.
    private var prepared: [String: String] = [:]
    /// Statements with parameters are prepared, up to this many per connection (the ledger has
    /// a few dozen); past it they are sent as they are.
    static let preparedLimit = 256

    /// Runs one statement with bound text parameters: `$1`, `$2`, ... in `sql`, `nil` for NULL.
    /// Values are never spliced into the SQL. A statement with parameters is prepared on this
    /// connection the first time (`PQprepare`) and executed by name after (`PQexecPrepared`):
    /// the server parses and plans it once per connection, not once per call.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgreSQLError) -> QueryResult {
        var name = prepared[sql]
        if name == nil, !parameters.isEmpty, prepared.count < Self.preparedLimit {
            let made = "hangman_\(prepared.count + 1)"
            PQclear(try check(PQprepare(handle, made, sql, Int32(parameters.count), nil), sql: sql))
            prepared[sql] = made
            name = made
        }
        let result: OpaquePointer? = withTextParameters(parameters) { values in
            if let name { return PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0) }
            return PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        let checked = try check(result, sql: sql)
        defer { PQclear(checked) }
        return QueryResult(checked)
    }

    /// `result` when it succeeded; the failure as a ``PostgreSQLError`` otherwise (and the
    /// connection marked broken when the server went away). The caller clears a result returned.
    private func check(_ result: OpaquePointer?, sql: String) throws(PostgreSQLError) -> OpaquePointer {
        guard let result else {
            broken = true
            throw PostgreSQLError(state: .connectionFailure, message: Self.text(PQerrorMessage(handle)), sql: sql)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return result
        default:
            defer { PQclear(result) }
            let code = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = Self.text(PQresultErrorMessage(result))
            let state: PostgreSQLError.State
            if let code, !code.isEmpty {
                state = PostgreSQLError.State(rawValue: code)
            } else {
                // Only libpq's own failures carry no SQLSTATE: the socket closed under it (the
                // server stopped), which PQstatus may not show yet.
                state = .connectionFailure
            }
            if PostgreSQLError(state: state, message: message).isConnectionLost { broken = true }
            throw PostgreSQLError(state: state, message: message, sql: sql)
        }
    }

    /// Runs several statements without parameters (`PQexec`), for migrations.
    public func executeScript(_ sql: String) throws(PostgreSQLError) {
        guard let result = PQexec(handle, sql) else {
            throw PostgreSQLError(state: .connectionFailure, message: Self.text(PQerrorMessage(handle)), sql: sql)
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
            let code = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            throw PostgreSQLError(
                state: code.isEmpty ? .connectionFailure : PostgreSQLError.State(rawValue: code), message: Self.text(PQresultErrorMessage(result)), sql: sql)
        }
    }

    private func withTextParameters<T>(_ parameters: [String?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { value in value.map(Self.cString) }
        defer { for pointer in copies { pointer?.deallocate() } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }

    /// A NUL-terminated copy of `text` that lives until it is deallocated.
    private static func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let bytes = Array(text.utf8)
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
        return pointer
    }

    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        var text = String(cString: pointer)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

/// The rows of one statement, as text (libpq's text format), copied out of the `PGresult`.
public struct QueryResult: Sendable {
    /// Each row's values in column order; `nil` is SQL NULL.
    public let rows: [[String?]]
    /// The rows an INSERT, UPDATE or DELETE touched (`PQcmdTuples`).
    public let affectedRows: Int

    init(_ result: OpaquePointer) {
        let count = PQntuples(result), columns = PQnfields(result)
        var rows: [[String?]] = []
        rows.reserveCapacity(Int(count))
        for row in 0..<count {
            rows.append((0..<columns).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            })
        }
        self.rows = rows
        self.affectedRows = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// The first column of the first row, if any.
    public var scalar: String? { rows.first?.first ?? nil }
}
