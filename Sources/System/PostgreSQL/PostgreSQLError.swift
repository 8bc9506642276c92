/// An error from libpq or the server: the SQLSTATE (five characters, `23505` for a unique
/// violation), the server's message, and the SQL being run.
///
/// ```swift
/// do { try connection.execute("INSERT INTO t (k) VALUES ($1)", ["a"]) }
/// catch let error as PostgreSQLError where error.state == .uniqueViolation { /* already there */ }
/// ```
public struct PostgreSQLError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The SQLSTATE; ``State/connectionFailure`` when libpq lost (or never had) the connection.
    public let state: State
    /// What went wrong, in the server's or libpq's words.
    public let message: String
    /// The SQL being run, when there was one.
    public let sql: String?

    public init(state: State, message: String, sql: String? = nil) {
        self.state = state
        self.message = message
        self.sql = sql
    }

    /// Whether the database went away (server stopped, connection broken, server starting up):
    /// the request may be tried again later, and nothing in an uncommitted transaction was kept.
    public var isConnectionLost: Bool {
        state.rawValue.hasPrefix("08") || state == .adminShutdown || state == .crashShutdown || state == .cannotConnectNow
    }

    /// Whether the transaction lost a race and may simply be run again (40001, 40P01).
    public var isRetryable: Bool { state == .serializationFailure || state == .deadlockDetected }

    public var description: String {
        var text = "\(message) (SQLSTATE \(state.rawValue))"
        if let sql { text += " while running: \(sql)" }
        return text
    }
}

extension PostgreSQLError {
    /// A SQLSTATE code, with Swift names for the ones this project acts on.
    public struct State: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let uniqueViolation = State(rawValue: "23505")
        public static let checkViolation = State(rawValue: "23514")
        public static let foreignKeyViolation = State(rawValue: "23503")
        public static let notNullViolation = State(rawValue: "23502")
        public static let raiseException = State(rawValue: "P0001")
        public static let serializationFailure = State(rawValue: "40001")
        public static let deadlockDetected = State(rawValue: "40P01")
        public static let connectionFailure = State(rawValue: "08006")
        public static let connectionDoesNotExist = State(rawValue: "08003")
        public static let adminShutdown = State(rawValue: "57P01")
        public static let crashShutdown = State(rawValue: "57P02")
        public static let cannotConnectNow = State(rawValue: "57P03")
        public static let undefinedTable = State(rawValue: "42P01")
    }
}
