import Synchronization

/// Bytes kept in memory and written together: by ``flush()`` (a timer's, and at stop), or at
/// once when `limit` bytes wait. A server's log line then costs no system call of its own; the
/// lines keep their order, and a flush at stop writes what is left.
public final class BatchedWriter: Sendable {
    private let pending = Mutex<[UInt8]>([])
    /// Held while writing, so that two flushes never interleave or reorder their bytes.
    private let writing = Mutex<Void>(())
    private let limit: Int
    private let sink: @Sendable ([UInt8]) -> Void

    /// Writes through `sink` once `limit` bytes wait, or when flushed.
    public init(limit: Int = 64 << 10, sink: @escaping @Sendable ([UInt8]) -> Void) {
        self.limit = limit
        self.sink = sink
    }

    /// Keeps `bytes` to write with the next flush (which is now when `limit` bytes wait).
    public func append(_ bytes: [UInt8]) {
        let full = pending.withLock { kept -> Bool in
            kept.append(contentsOf: bytes)
            return kept.count >= limit
        }
        if full { flush() }
    }

    /// Writes what waits.
    public func flush() {
        writing.withLock { _ in
            let taken = pending.withLock { kept -> [UInt8] in
                defer { kept = [] }
                return kept
            }
            if !taken.isEmpty { sink(taken) }
        }
    }
}
