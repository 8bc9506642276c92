#if canImport(Glibc)
import Glibc
#endif

/// A fixed number of threads of its own (`pthread_create`) that take jobs in the order they were
/// given: work that may block (a database call, an `fsync`) handed off by threads that must not
/// (a server's socket loop).
///
/// ```swift
/// let pool = ThreadPool(threads: 16)!
/// pool.submit(ThreadPool.Job(run: { answer(slowly()) }, cancel: { answer(.stopping) }))
/// pool.stop()  // the jobs running finish; those not started are cancelled
/// ```
public final class ThreadPool: @unchecked Sendable {
    /// A job, and what to do instead when the pool stops before it starts: every job given is
    /// either run or cancelled, exactly once.
    public struct Job: Sendable {
        public var run: @Sendable () -> Void
        public var cancel: @Sendable () -> Void

        public init(run: @escaping @Sendable () -> Void, cancel: @escaping @Sendable () -> Void) {
            self.run = run
            self.cancel = cancel
        }
    }

    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Jobs waiting, oldest at `head` (a queue over an array: taken jobs leave holes until the
    /// array is compacted).
    private var waiting: [Job?] = []
    private var head = 0
    private var stopping = false
    /// Threads waiting for a job: a job given while none waits wakes nobody.
    private var idle = 0
    private var threads: [pthread_t] = []

    /// Starts `threads` threads (at least one); `nil` when the system refuses the first.
    public init?(threads count: Int) {
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
        for _ in 0..<max(1, count) {
            guard let thread = Parallel.start(ThreadWork { [self] in work() }) else { break }
            threads.append(thread)
        }
        if threads.isEmpty { return nil }
    }

    deinit {
        stop()
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        lock.deallocate()
        changed.deallocate()
    }

    /// Queues `job` for the next free thread; a pool that is stopping cancels it on the caller's
    /// thread.
    public func submit(_ job: Job) {
        pthread_mutex_lock(lock)
        if stopping {
            pthread_mutex_unlock(lock)
            job.cancel()
            return
        }
        waiting.append(job)
        let wake = idle > 0
        pthread_mutex_unlock(lock)
        // After the unlock: the thread woken does not wait for this one's lock.
        if wake { pthread_cond_signal(changed) }
    }

    /// Jobs given and not yet taken by a thread.
    public var queued: Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return waiting.count - head
    }

    /// Takes no more jobs: those not started are cancelled (on this thread), the ones running
    /// finish, and their threads end before it returns. Calling it again does nothing.
    public func stop() {
        pthread_mutex_lock(lock)
        let running = threads
        threads = []
        stopping = true
        let left = waiting[head...].compactMap { $0 }
        waiting = []
        head = 0
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
        for job in left { job.cancel() }
        for thread in running { pthread_join(thread, nil) }
    }

    /// A thread's loop: the oldest job, until the pool stops.
    private func work() {
        while true {
            pthread_mutex_lock(lock)
            while head == waiting.count && !stopping {
                idle += 1
                pthread_cond_wait(changed, lock)
                idle -= 1
            }
            if head == waiting.count {
                pthread_mutex_unlock(lock)
                return
            }
            let job = waiting[head]
            waiting[head] = nil
            head += 1
            if head == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024, head * 2 >= waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            pthread_mutex_unlock(lock)
            job?.run()
        }
    }
}
