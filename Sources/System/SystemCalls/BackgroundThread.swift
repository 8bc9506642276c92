#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A thread of its own (`pthread_create`) that runs `body` every `interval` milliseconds until
/// stopped: work that blocks (a delivery over the network) beside a server's requests, never on
/// Swift's cooperative threads.
public final class BackgroundThread: Sendable {
    private final class Flag: Sendable {
        let raised = Atomic<Bool>(false)
    }
    private let stopping = Flag()
    private let handle = Mutex<pthread_t?>(nil)

    /// Starts the thread; `nil` when the system refuses one.
    public init?(every interval: Int, _ body: @escaping @Sendable () -> Void) {
        let stopping = self.stopping
        let loop = ThreadWork {
            while !stopping.raised.load(ordering: .acquiring) {
                body()
                // Sleeps in short steps, so that a stop is seen within 50 ms.
                var left = interval
                while left > 0, !stopping.raised.load(ordering: .acquiring) {
                    let step = min(left, 50)
                    var time = timespec(tv_sec: 0, tv_nsec: step * 1_000_000)
                    _ = nanosleep(&time, nil)
                    left -= step
                }
            }
        }
        guard let thread = Parallel.start(loop) else { return nil }
        handle.withLock { $0 = thread }
    }

    /// Asks the thread to stop and waits for the pass it is in to end.
    public func stop() {
        stopping.raised.store(true, ordering: .releasing)
        let thread = handle.withLock { current -> pthread_t? in
            defer { current = nil }
            return current
        }
        if let thread { pthread_join(thread, nil) }
    }
}
