/// Where the store and the device get the time: milliseconds since 1970. Tests pass a fixed or stepping clock.
public struct Clock: Sendable {
    public var now: @Sendable () -> Int64

    public init(now: @escaping @Sendable () -> Int64) {
        self.now = now
    }

    /// The system's real-time clock (`RealtimeClock`, which calls `clock_gettime(CLOCK_REALTIME)`).
    public static let system = Clock { RealtimeClock.millisecondsSince1970() }
}
