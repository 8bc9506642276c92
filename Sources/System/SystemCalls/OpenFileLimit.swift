/// The process's limit on open descriptors (`RLIMIT_NOFILE`).
public enum OpenFileLimit {
    /// Raises the soft limit to the hard one, as a server that holds a socket per client and
    /// files per account needs; the limits after, or `nil` when they cannot be read.
    @discardableResult
    public static func raiseToHardLimit() -> (soft: UInt64, hard: UInt64)? {
        system_raiseOpenFileLimit()
    }
}
