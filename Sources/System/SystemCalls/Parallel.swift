#if canImport(Glibc)
import Glibc
#endif

/// Work split over the machine's cores with threads of its own (`pthread_create`), for the
/// verifier's hot paths: two halves of a job at once (``both(_:_:)``), or bytes handed to a
/// consumer on a second thread as they are produced (``BlockPipeline``).
///
/// On a machine with one core, or when the system refuses a thread, the work runs on the
/// caller's thread, in order, with the same result.
public enum Parallel {
    /// The machine's CPUs online (at least 1).
    public static let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    /// Whether the machine has more than one CPU online.
    public static let hasSecondCore = cores > 1

    /// Runs `first` on the calling thread and `second` on a thread of its own at the same time,
    /// and returns both results once both are done. The two may run at once: they must not
    /// write memory the other reads (reading the same memory is fine).
    public static func both<A, B>(_ first: () -> A, _ second: () -> B) -> (A, B) {
        guard hasSecondCore else { return (first(), second()) }
        return withoutActuallyEscaping(second) { second in
            let result = Outcome<B>()
            guard let thread = start(ThreadWork { result.value = second() }) else { return (first(), second()) }
            let a = first()
            pthread_join(thread, nil)
            return (a, result.value!)
        }
    }

    /// What the second thread of ``both(_:_:)`` made, read once it is joined.
    private final class Outcome<B>: @unchecked Sendable {
        var value: B?
    }

    /// Starts a thread that calls `work.run`; `nil` when the system refuses one.
    static func start(_ work: ThreadWork) -> pthread_t? {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(work).toOpaque()
        let made = pthread_create(&thread, nil, { context in
            Unmanaged<ThreadWork>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard made == 0 else {
            Unmanaged<ThreadWork>.fromOpaque(context).release()
            return nil
        }
        return thread
    }
}

/// What a thread started by ``Parallel`` runs (`pthread_create` takes a C function, which can
/// capture nothing: the closure is reached through this object).
final class ThreadWork: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Bytes copied, in chunks, to a consumer that runs on a thread of its own: the producer
/// (inflating an archive, say) goes on while the consumer (hashing what was inflated) works
/// on the chunks before. A few chunks are kept and reused, so memory stays at
/// `chunkSize * chunks` whatever flows through; the producer waits when all are full.
///
/// ```swift
/// let pipeline = BlockPipeline(state: SHA256Hasher()) { hasher, bytes in hasher.update(bytes) }
/// pipeline.write(block)             // as often as there are blocks
/// let digest = pipeline.finish().finalize()
/// ```
///
/// Without a second core, or when no thread can be made, `write` consumes on the caller's thread.
/// A pipeline dropped unfinished (a read that failed halfway) ends its thread.
public final class BlockPipeline<State>: @unchecked Sendable {
    private let shared: Shared
    private var thread: pthread_t?

    public init(chunkSize: Int = 64 * 1024, chunks: Int = 4, state: State, consume: @escaping (inout State, UnsafeRawBufferPointer) -> Void) {
        shared = Shared(chunkSize: max(1, chunkSize), chunks: max(2, chunks), state: state, consume: consume)
        guard Parallel.hasSecondCore else { return }
        thread = Parallel.start(ThreadWork { [shared] in shared.run() })
    }

    deinit {
        if let thread {
            shared.end()
            pthread_join(thread, nil)
        }
    }

    /// Copies `bytes` for the consumer; waits while every chunk is full.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        if thread == nil {
            shared.consume(&shared.state!, bytes)
        } else {
            shared.write(bytes)
        }
    }

    /// Hands over what is left, waits for the consumer to finish, and returns its state (moved
    /// out: the pipeline keeps no copy, and takes no more bytes).
    public func finish() -> State {
        if let thread {
            shared.end()
            pthread_join(thread, nil)
            self.thread = nil
        }
        defer { shared.state = nil }
        return shared.state!
    }

    /// What the producer and the consumer's thread share, under `lock`.
    private final class Shared: @unchecked Sendable {
        let chunkSize: Int
        let chunkCount: Int
        /// The chunks, each `chunkSize` bytes; `filled[i]` is how many bytes chunk `i` holds.
        let storage: UnsafeMutableRawPointer
        let filled: UnsafeMutablePointer<Int>
        /// The chunk the producer fills, and the next the consumer takes; `ready` chunks wait for it.
        var writing = 0
        var reading = 0
        var ready = 0
        var ended = false
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        var state: State?
        let consume: (inout State, UnsafeRawBufferPointer) -> Void

        init(chunkSize: Int, chunks: Int, state: State, consume: @escaping (inout State, UnsafeRawBufferPointer) -> Void) {
            self.chunkSize = chunkSize
            chunkCount = chunks
            storage = UnsafeMutableRawPointer.allocate(byteCount: chunkSize * chunks, alignment: 64)
            filled = UnsafeMutablePointer<Int>.allocate(capacity: chunks)
            filled.initialize(repeating: 0, count: chunks)
            self.state = state
            self.consume = consume
            pthread_mutex_init(lock, nil)
            pthread_cond_init(changed, nil)
        }

        deinit {
            pthread_cond_destroy(changed)
            pthread_mutex_destroy(lock)
            lock.deallocate()
            changed.deallocate()
            storage.deallocate()
            filled.deallocate()
        }

        func write(_ bytes: UnsafeRawBufferPointer) {
            var rest = bytes
            while let base = rest.baseAddress, !rest.isEmpty {
                let used = filled[writing]
                let take = min(chunkSize - used, rest.count)
                (storage + writing * chunkSize + used).copyMemory(from: base, byteCount: take)
                filled[writing] = used + take
                rest = UnsafeRawBufferPointer(rebasing: rest[take...])
                if filled[writing] == chunkSize { handOver() }
            }
        }

        /// The chunk being written is ready; the next one is waited for until the consumer
        /// frees it (its count reset to zero there).
        func handOver() {
            pthread_mutex_lock(lock)
            ready += 1
            pthread_cond_broadcast(changed)
            writing = (writing + 1) % chunkCount
            while ready == chunkCount { pthread_cond_wait(changed, lock) }
            pthread_mutex_unlock(lock)
        }

        /// Hands over the chunk being written, if it holds anything, and tells the consumer that
        /// nothing more comes.
        func end() {
            if filled[writing] > 0 { handOver() }
            pthread_mutex_lock(lock)
            ended = true
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(lock)
        }

        /// The consumer's thread: every ready chunk in turn, until the producer ends.
        func run() {
            while true {
                pthread_mutex_lock(lock)
                while ready == 0 && !ended { pthread_cond_wait(changed, lock) }
                if ready == 0 {
                    pthread_mutex_unlock(lock)
                    return
                }
                let index = reading
                pthread_mutex_unlock(lock)
                consume(&state!, UnsafeRawBufferPointer(start: storage + index * chunkSize, count: filled[index]))
                pthread_mutex_lock(lock)
                filled[index] = 0
                reading = (reading + 1) % chunkCount
                ready -= 1
                pthread_cond_broadcast(changed)
                pthread_mutex_unlock(lock)
            }
        }
    }
}
