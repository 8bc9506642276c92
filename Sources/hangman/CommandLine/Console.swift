#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes: standard output for results, standard error for diagnostics.
/// Everything goes through `fputs`, so that output never reorders through a pipe.
struct Console {
    func out(_ text: String) {
        fputs(text + "\n", stdout)
    }

    func error(_ text: String) {
        fflush(stdout)
        fputs(text + "\n", stderr)
    }

    /// Whether standard output is a terminal.
    var isTerminal: Bool { isatty(1) == 1 }
}
