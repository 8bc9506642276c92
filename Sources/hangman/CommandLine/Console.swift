#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes: standard output for results, standard error for diagnostics.
/// Both go straight to the file descriptors with `write(2)`, unbuffered, so that output never
/// reorders through a pipe.
struct Console {
    func out(_ text: String, terminator: String = "\n") { Self.write(text + terminator, to: 1) }

    func error(_ text: String) { Self.write(text + "\n", to: 2) }

    /// Writes to standard error without a newline (a progress bar redrawing its line).
    func errorRaw(_ text: String) { Self.write(text, to: 2) }

    /// Whether standard output is a terminal.
    var isTerminal: Bool { isatty(1) == 1 }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return }
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return  // a closed pipe: nothing more can be said
                }
            }
        }
    }
}
