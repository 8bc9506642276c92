#if canImport(Glibc)
import Glibc
#endif

/// The process's standard input, output and error, as file descriptors 0, 1 and 2.
public enum StandardStream: Int32, Sendable {
    case input = 0, output = 1, error = 2

    /// Whether the stream is a terminal (`isatty(3)`).
    public var isTerminal: Bool { system_isatty(rawValue) == 1 }

    /// Writes all of `bytes` with `write(2)`, unbuffered, retrying after `EINTR`.
    /// Returns `false` when the stream refused the bytes (a closed pipe, a full disk).
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do {
            try writeAll(bytes)
            return true
        } catch {
            return false
        }
    }

    /// Writes all of `bytes` with `write(2)`, unbuffered, retrying after `EINTR`; throws what the
    /// stream answered when it refused them (`EPIPE` for a closed pipe, `ENOSPC` for a full disk).
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        try drain(bytes) { valueOrErrno(system_write(rawValue, $0)) }
    }

    /// What one `read(2)` of up to `count` bytes gave.
    public enum ReadResult: Equatable, Sendable {
        case bytes([UInt8])
        case endOfInput
        /// A signal interrupted the wait (`EINTR`).
        case interrupted
        /// Nothing arrived within the timeout.
        case timedOut
        case failed(Errno)
    }

    /// Waits at most `timeoutMilliseconds` for input (`poll(2)`), then reads what is there.
    ///
    /// A signal is delivered to any one of a process's threads; a thread blocked in `read` may
    /// never see it. Waking up regularly lets the reader look at a signal's flag itself.
    public func read(upTo count: Int, timeoutMilliseconds: Int32) -> ReadResult {
        let ready = system_poll(rawValue, Int16(POLLIN), timeoutMilliseconds)
        if ready == 0 { return .timedOut }
        if ready < 0 {
            let error = Errno.current
            return error == .interrupted ? .interrupted : .failed(error)
        }
        return read(upTo: count)
    }

    /// One `read(2)` of at most `count` bytes.
    public func read(upTo count: Int) -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: count)
        let got = chunk.withUnsafeMutableBytes { system_read(rawValue, $0) }
        if got > 0 { return .bytes(Array(chunk[..<got])) }
        if got == 0 { return .endOfInput }
        let error = Errno.current
        return error == .interrupted ? .interrupted : .failed(error)
    }
}
