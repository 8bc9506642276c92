#if canImport(Glibc)
import Glibc
#endif

/// Set by the SIGINT handler; read by the input loop.
nonisolated(unsafe) private var interruptedBySignal: sig_atomic_t = 0

/// Reads standard input line by line with `read(2)`, so that Ctrl-C interrupts a wait cleanly.
///
/// `readLine()` spins forever when a SIGINT handler interrupts it; here the handler only sets a
/// flag, `read` returns `EINTR`, and `nextLine` reports the interruption.
final class LineReader {
    enum Input: Equatable {
        case line(String)
        /// Ctrl-D, or the end of a pipe.
        case endOfInput
        /// Ctrl-C.
        case interrupted
    }

    private var buffer: [UInt8] = []
    private var atEnd = false

    /// Routes SIGINT to the flag (no `SA_RESTART`, so a blocked `read` returns).
    static func catchInterrupts() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptedBySignal = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        // A parent may have started us with SIGINT blocked (signal masks are inherited): unblock it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    var wasInterrupted: Bool { interruptedBySignal != 0 }

    func nextLine() -> Input {
        while true {
            if interruptedBySignal != 0 { return .interrupted }
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return .line(line.hasSuffix("\r") ? String(line.dropLast()) : line)
            }
            if atEnd {
                guard !buffer.isEmpty else { return .endOfInput }
                let line = String(decoding: buffer, as: UTF8.self)
                buffer.removeAll()
                return .line(line)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                if buffer.count > 1 << 20 { buffer.removeAll() }  // a line longer than 1 MiB is no guess
            } else if count == 0 {
                atEnd = true
            } else if errno != EINTR {
                atEnd = true
            }
        }
    }
}
