#if canImport(Glibc)
import Glibc
#endif

/// Routes `signal` to `handler` (`sigaction(2)` with `flags`) and unblocks it: a parent may have
/// started the process with it blocked (signal masks are inherited).
private func route(_ signal: Int32, flags: Int32, _ handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = flags
    _ = system_sigaction(signal, &action)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    _ = system_sigprocmask(SIG_UNBLOCK, &set)
}

/// Set by the SIGINT handler, read by whoever waits for input.
nonisolated(unsafe) private var interruptedBySignal: sig_atomic_t = 0

/// Ctrl-C as a flag: the handler only sets it, so that a blocked `read(2)` returns `EINTR` and
/// the reader decides what an interruption means.
public enum InterruptSignal {
    /// Routes SIGINT to the flag (`sigaction(2)` without `SA_RESTART`) and unblocks it: a parent
    /// may have started the process with SIGINT blocked (signal masks are inherited).
    public static func catchIntoFlag() {
        route(SIGINT, flags: 0) { _ in interruptedBySignal = 1 }
    }

    /// Whether SIGINT arrived since `catchIntoFlag()`.
    public static var wasRaised: Bool { interruptedBySignal != 0 }

    /// Gives SIGINT its default action back (it ends the process) and lowers the flag: once a
    /// question is answered, Ctrl-C during the work that follows stops it as usual.
    public static func restoreDefault() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        _ = system_sigaction(SIGINT, &action)
        interruptedBySignal = 0
    }
}

/// Set by the SIGINT/SIGTERM handler of a server: the signal's number.
nonisolated(unsafe) private var stopSignal: sig_atomic_t = 0

/// SIGINT and SIGTERM as a flag, for a server that stops cleanly: the handler only records the
/// signal, whichever thread receives it, and the server's main loop looks at it.
public enum StopSignals {
    /// Routes SIGINT and SIGTERM to the flag (`sigaction(2)`) and unblocks them.
    public static func catchIntoFlag() {
        for signal in [SIGINT, SIGTERM] {
            route(signal, flags: SA_RESTART) { number in stopSignal = number }
        }
    }

    /// The signal that arrived, if one did: `SIGINT` (2) or `SIGTERM` (15).
    public static var received: Int32? { stopSignal == 0 ? nil : stopSignal }
}

/// Raised by the SIGHUP handler of a server, lowered by whoever acts on it.
nonisolated(unsafe) private var hangUpSignal: sig_atomic_t = 0

/// SIGHUP as a flag, for a server that reloads what it serves: the handler only records it, the
/// main loop acts on it.
public enum ReloadSignal {
    /// Routes SIGHUP to the flag (`sigaction(2)`) and unblocks it.
    public static func catchIntoFlag() {
        route(SIGHUP, flags: SA_RESTART) { _ in hangUpSignal = 1 }
    }

    /// Whether SIGHUP arrived since the last call; lowers the flag.
    public static func take() -> Bool {
        guard hangUpSignal != 0 else { return false }
        hangUpSignal = 0
        return true
    }
}

/// SIGPIPE, which by default kills a process that writes to a pipe nobody reads.
public enum BrokenPipeSignal {
    /// Ignores SIGPIPE (`sigaction(2)` with `SIG_IGN`): a write to a closed pipe then fails with
    /// `EPIPE`, which the writer sees and reports, like any other failed write.
    public static func ignore() {
        _ = system_ignoreBrokenPipe()
    }
}

/// The calling thread.
public enum CurrentThread {
    /// A number that tells the calling thread from the process's others while it runs
    /// (`pthread_self(3)`): a key for per-thread shards, never an identity to keep.
    public static var number: UInt { UInt(pthread_self()) }
}

/// The process itself.
public enum CurrentProcess {
    /// Sleeps for `milliseconds` (`nanosleep(2)`); returns early when a signal arrives.
    @discardableResult
    public static func sleep(milliseconds: Int) -> Bool {
        var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        return system_nanosleep(&request) == 0
    }

    /// Dies at once with SIGKILL, as a power cut would end it: no clean-up, no flush.
    public static func killNow() -> Never {
        _ = system_kill(system_getpid(), SIGKILL)
        system_exitImmediately(137)
    }

    /// Ends the process with `status` (`exit(3)`).
    public static func exit(_ status: Int32) -> Never {
        system_exit(status)
    }

    /// The machine's host name (`gethostname(2)`), as UTF-8 with what is not repaired; `nil`
    /// when it cannot be read or is empty.
    public static var hostName: String? {
        var bytes = [CChar](repeating: 0, count: 256)
        guard gethostname(&bytes, bytes.count - 1) == 0 else { return nil }
        let name = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
