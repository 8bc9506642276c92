/// Memory that holds secrets: kept out of swap, and wiped in a way the compiler cannot skip.
public enum SecretMemory {
    /// Locks the pages holding `count` bytes at `address` in memory (`mlock(2)`); `false` when the
    /// system refuses (a low `RLIMIT_MEMLOCK`, say), which callers treat as best effort.
    @discardableResult
    public static func lock(_ address: UnsafeMutableRawPointer, count: Int) -> Bool {
        system_mlock(address, count) == 0
    }

    /// Unlocks what ``lock(_:count:)`` locked (`munlock(2)`).
    public static func unlock(_ address: UnsafeMutableRawPointer, count: Int) {
        _ = system_munlock(address, count)
    }

    /// Overwrites `count` bytes at `address` with zeros (`explicit_bzero(3)`).
    public static func wipe(_ address: UnsafeMutableRawPointer, count: Int) {
        system_explicit_bzero(address, count)
    }
}
