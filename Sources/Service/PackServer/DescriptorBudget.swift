/// How a server shares its open-file limit between client connections and the accounts it keeps
/// open, so that neither runs out: past the limit a socket cannot be accepted, or an account's
/// database cannot be opened (500 for a player who did nothing wrong).
///
/// What is asked is kept when it fits. When it does not, connections get at most half of what is
/// left after the server's own descriptors, and open accounts the rest.
public struct DescriptorBudget: Sendable, Equatable {
    public var connections: Int
    public var openAccounts: Int
    /// What was lowered and why, for the server's log; `nil` when everything asked fits.
    public var note: String?

    /// Descriptors the server keeps for itself: the listening socket, the standard streams, the
    /// log, the key and catalog files, an archive being sent per connection thread, epoll and its
    /// wake-up pipe per thread, and the database connections.
    public static func reserved(threads: Int, databaseConnections: Int) -> Int {
        64 + 3 * threads + databaseConnections
    }

    /// - Parameters:
    ///   - openFileLimit: the process's limit (after raising it to the hard one).
    ///   - perAccount: descriptors an open account holds (a SQLite database, its log and its
    ///     shared memory: 3; none on PostgreSQL, whose connections are in `reserved`).
    public init(openFileLimit: Int, connections: Int, openAccounts: Int, perAccount: Int, reserved: Int) {
        let available = openFileLimit - reserved
        if connections + openAccounts * perAccount <= available {
            self.connections = connections
            self.openAccounts = openAccounts
            note = nil
            return
        }
        var fitted = min(connections, max(16, available / 2))
        var accounts = perAccount == 0 ? openAccounts : min(openAccounts, max(8, (available - fitted) / perAccount))
        if fitted + accounts * perAccount > available {
            fitted = max(1, available - accounts * perAccount)
        }
        if perAccount > 0 { accounts = max(1, accounts) }
        self.connections = fitted
        self.openAccounts = accounts
        var lowered: [String] = []
        if fitted < connections { lowered.append("at most \(fitted) connections (not \(connections))") }
        if accounts < openAccounts { lowered.append("\(accounts) accounts open at once (not \(openAccounts))") }
        note = "the open-file limit is \(openFileLimit): serving " + lowered.joined(separator: " and ")
            + "; raise the limit ('ulimit -n', LimitNOFILE= in a systemd unit) for more"
    }
}
