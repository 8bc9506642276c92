import SystemCalls

/// Reads a command's input line by line. On the process's standard input it reads with
/// `read(2)` and treats SIGINT as a flag, so that Ctrl-C interrupts a wait cleanly (`readLine()`
/// spins forever when a SIGINT handler interrupts it); given bytes, it reads those.
final class LineReader {
    enum Input: Equatable {
        case line(String)
        /// Ctrl-D, or the end of a pipe.
        case endOfInput
        /// Ctrl-C.
        case interrupted
    }

    private let source: InputSource
    private var buffer: [UInt8] = []
    private var atEnd = false

    init(_ source: InputSource) {
        self.source = source
        switch source {
        case .standardInput:
            InterruptSignal.catchIntoFlag()
        case .bytes(let bytes):
            buffer = bytes
            atEnd = true
        }
    }

    var wasInterrupted: Bool { source == .standardInput && InterruptSignal.wasRaised }

    func nextLine() -> Input {
        while true {
            if wasInterrupted { return .interrupted }
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
            switch StandardStream.input.read(upTo: 4096, timeoutMilliseconds: 100) {
            case .bytes(let chunk):
                buffer.append(contentsOf: chunk)
                if buffer.count > 1 << 20 { buffer.removeAll() }  // a line longer than 1 MiB is no guess
            case .endOfInput, .failed:
                atEnd = true
            case .interrupted, .timedOut:
                continue
            }
        }
    }
}
