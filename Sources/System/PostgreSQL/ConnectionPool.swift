import Dispatch
import Synchronization

/// A few connections to one database, lent to one caller at a time.
///
/// At most `capacity` connections are open; a caller beyond that waits for one to come back.
/// A connection that broke (the server went away) is closed instead of returned, so the next
/// caller gets a fresh one once the server is back.
///
/// ```swift
/// let pool = ConnectionPool(connectionString: "host=/tmp/pg dbname=postgres", capacity: 4)
/// let balance = try pool.transaction { connection in
///     try connection.execute("SELECT 1 FROM ledgers WHERE account_id = $1 FOR UPDATE", [account])
///     ...
/// }
/// ```
public final class ConnectionPool: Sendable {
    public let connectionString: String
    public let capacity: Int

    private struct State: ~Copyable {
        var idle: [Connection] = []
        var open = 0
    }

    private final class Box: @unchecked Sendable {
        // `Connection` is not Sendable: the pool hands each one to a single caller at a time.
        let state = Mutex(State())
        /// The pool's callers block on a thread of their own (a server's connection thread), never
        /// on Swift's cooperative pool.
        let available: DispatchSemaphore
        init(capacity: Int) { available = DispatchSemaphore(value: capacity) }
    }

    private let box: Box

    /// The connections open, and those of them waiting in the pool (the rest are lent out).
    public var counts: (open: Int, idle: Int) { box.state.withLock { ($0.open, $0.idle.count) } }

    public init(connectionString: String, capacity: Int = 8) {
        self.connectionString = connectionString
        self.capacity = max(1, capacity)
        self.box = Box(capacity: max(1, capacity))
    }

    /// Lends a connection to `body`. A connection that fails with a lost connection is dropped.
    /// Errors of `body` pass through unchanged; failing to connect is a ``PostgreSQLError``.
    public func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        box.available.wait()
        defer { box.available.signal() }
        let reused: Connection? = box.state.withLock { state in
            if let connection = state.idle.popLast() { return connection }
            state.open += 1
            return nil
        }
        let connection: Connection
        if let reused {
            connection = reused
        } else {
            do {
                connection = try Connection(connectionString: connectionString)
            } catch {
                box.state.withLock { $0.open -= 1 }
                throw error
            }
        }
        let result: Result<T, any Error>
        do {
            result = .success(try body(connection))
        } catch {
            result = .failure(error)
        }
        if connection.isHealthy, !Self.lostConnection(result) {
            let kept = UncheckedConnection(connection)
            box.state.withLock { $0.idle.append(kept.connection) }
        } else {
            box.state.withLock { $0.open -= 1 }
        }
        return try result.get()
    }

    /// Runs `body`, whose statements commit each on its own (no transaction of ours: a function
    /// call is one round trip). A connection the server closed while it sat in the pool (a
    /// restart) fails before anything ran: the idle connections, dead with it, are dropped and
    /// `body` runs once more on a fresh one. `body` must be safe to run again (a keyed spend is).
    public func autocommit<T>(_ body: (Connection) throws -> T) throws -> T {
        do {
            return try withConnection(body)
        } catch let error as PostgreSQLError where error.isConnectionLost {
            dropIdleConnections()
            return try withConnection(body)
        }
    }

    /// Closes every connection waiting in the pool (the next callers open fresh ones).
    public func dropIdleConnections() {
        box.state.withLock { state in
            state.open -= state.idle.count
            state.idle.removeAll()
        }
    }

    private static func lostConnection<T>(_ result: Result<T, any Error>) -> Bool {
        if case .failure(let error) = result, let error = error as? PostgreSQLError { return error.isConnectionLost }
        return false
    }

    /// Runs `body` in one transaction (`BEGIN` ... `COMMIT`, `ROLLBACK` on any error).
    ///
    /// A connection the server closed while it sat in the pool (a restart) fails at `BEGIN`,
    /// before anything was done: the pool's idle connections, dead with it, are dropped, and
    /// that one attempt is made again on a fresh connection.
    /// Serialization failures and deadlocks (40001, 40P01) run the whole body again, up to `retries` times.
    @discardableResult
    public func transaction<T>(
        isolation: String = "READ COMMITTED", retries: Int = 5, _ body: (Connection) throws -> T
    ) throws -> T {
        var attempt = 0
        var staleRetried = false
        while true {
            attempt += 1
            var begun = false
            let outcome: Result<T, any Error> = Result { () throws -> T in
                try withConnection { connection throws -> T in
                    try connection.execute("BEGIN ISOLATION LEVEL " + isolation)
                    begun = true
                    do {
                        let value = try body(connection)
                        try connection.execute("COMMIT")
                        return value
                    } catch {
                        if connection.isHealthy { _ = try? connection.execute("ROLLBACK") }
                        throw error
                    }
                }
            }
            switch outcome {
            case .success(let value):
                return value
            case .failure(let error):
                if let failure = error as? PostgreSQLError {
                    if !begun, failure.isConnectionLost, !staleRetried {
                        // One dead connection in the pool means a restart: the others died with it.
                        staleRetried = true
                        dropIdleConnections()
                        continue
                    }
                    if failure.isRetryable, attempt <= retries { continue }
                }
                throw error
            }
        }
    }
}

/// A connection moved into the pool's lock; it is used by one caller at a time.
private struct UncheckedConnection: @unchecked Sendable {
    let connection: Connection
    init(_ connection: Connection) { self.connection = connection }
}
