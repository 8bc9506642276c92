#if canImport(Glibc)
import Glibc
#endif

/// A counting semaphore over POSIX `sem_t`: the pool's callers block on a thread of their own
/// (a server's connection thread), never on Swift's cooperative pool.
final class Semaphore: @unchecked Sendable {
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init(value: Int) { sem_init(semaphore, 0, UInt32(value)) }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }

    func signal() { sem_post(semaphore) }
}
