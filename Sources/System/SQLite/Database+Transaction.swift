/// How a transaction takes its locks (`BEGIN DEFERRED | IMMEDIATE | EXCLUSIVE`).
public enum TransactionKind: Sendable {
    /// Locks on first use. A read that later writes can fail with ``SQLiteError/Code/busy`` at once,
    /// ignoring the busy timeout: use only for read-only transactions.
    case deferred
    /// Takes the write lock at `BEGIN` (waiting up to the busy timeout): the right kind for writes.
    case immediate
    /// Like `immediate`; in WAL mode readers are still allowed.
    case exclusive

    var sql: String {
        switch self {
        case .deferred: "BEGIN DEFERRED"
        case .immediate: "BEGIN IMMEDIATE"
        case .exclusive: "BEGIN EXCLUSIVE"
        }
    }
}

extension Database {
    /// Runs `body` in a transaction: `COMMIT` when it returns, `ROLLBACK` when it throws (the error is rethrown).
    ///
    /// Called inside another transaction, it runs `body` in a savepoint instead (`kind` is then
    /// ignored): a throw rolls back only the inner work, then propagates; the outer transaction
    /// decides whether to catch it and commit the rest.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: (Database) throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        try execute(kind.sql)
        let result: T
        do {
            result = try body(self)
            try execute("COMMIT")
        } catch {
            // SQLite may already have rolled back (after SQLITE_FULL, SQLITE_IOERR...): then there is nothing to undo.
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
        return result
    }

    private func savepoint<T>(_ body: (Database) throws -> T) throws -> T {
        let name = "hangman_nested"
        try execute("SAVEPOINT \(name)")
        let result: T
        do {
            result = try body(self)
        } catch {
            if isInTransaction {
                try? execute("ROLLBACK TO \(name)")
                try? execute("RELEASE \(name)")
            }
            throw error
        }
        try execute("RELEASE \(name)")
        return result
    }
}
