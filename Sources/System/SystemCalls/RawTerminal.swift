#if canImport(Glibc)
import Glibc
#endif

// What the signal handlers share with the program. Only async-signal-safe calls touch it from a
// handler: tcsetattr(3), write(2), sigaction(2), sigprocmask(2), raise(3).
nonisolated(unsafe) private var savedSettings = termios()
nonisolated(unsafe) private var rawActive: sig_atomic_t = 0
nonisolated(unsafe) private var handlersInstalled = false
nonisolated(unsafe) private var resizedBySignal: sig_atomic_t = 0
nonisolated(unsafe) private var continuedBySignal: sig_atomic_t = 0
/// The bytes that put the screen back (leave the alternate screen, show the cursor).
nonisolated(unsafe) private let teardown = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
nonisolated(unsafe) private var teardownCount = 0
/// The action each crash signal had before (the Swift runtime's backtracer), by signal number.
nonisolated(unsafe) private let crashPrevious = UnsafeMutablePointer<sigaction>.allocate(capacity: 32)

private let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
private let endingSignals: [Int32] = [SIGTERM, SIGHUP, SIGQUIT]

/// Puts the terminal back as it was found: its settings, then the screen. Safe in a signal handler.
private func restoreNow() {
    guard rawActive != 0 else { return }
    rawActive = 0
    _ = system_tcsetattr(StandardStream.input.rawValue, &savedSettings, flush: false)
    if teardownCount > 0 { _ = system_write(StandardStream.output.rawValue, UnsafeRawBufferPointer(start: teardown, count: teardownCount)) }
}

private func install(_ signal: Int32, flags: Int32 = 0, _ handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = flags
    _ = system_sigaction(signal, &action)
}

private func unblock(_ signal: Int32) {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    _ = system_sigprocmask(SIG_UNBLOCK, &set)
}

/// Ctrl-Z: the terminal as it was, then stop for real; on `fg`, flag it so the game redraws.
private let suspendHandler: @convention(c) (Int32) -> Void = { _ in
    let wasRaw = rawActive != 0
    restoreNow()
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&action.sa_mask)
    _ = system_sigaction(SIGTSTP, &action)
    unblock(SIGTSTP)
    _ = system_raise(SIGTSTP)
    // Running again (`fg`): catch the next Ctrl-Z too, and have the loop re-enter raw mode.
    install(SIGTSTP, suspendHandlerForReinstall)
    if wasRaw { continuedBySignal = 1 }
}
private let suspendHandlerForReinstall: @convention(c) (Int32) -> Void = { signal in suspendHandler(signal) }

/// SIGTERM, SIGHUP, SIGQUIT: put the terminal back, then die of the signal as if uncaught.
private let endingHandler: @convention(c) (Int32) -> Void = { signal in
    restoreNow()
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&action.sa_mask)
    _ = system_sigaction(signal, &action)
    unblock(signal)
    _ = system_raise(signal)
}

/// A crash: put the terminal back, then hand the signal to whoever handled it before (the Swift
/// runtime's backtracer, or the default: death). A fault runs its instruction again and meets
/// that handler; a signal sent by `kill` is raised again.
private let crashHandler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { signal, info, _ in
    restoreNow()
    guard signal >= 0 && signal < 32 else { return }
    var previous = crashPrevious[Int(signal)]
    _ = system_sigaction(signal, &previous)
    let sent = (info?.pointee.si_code ?? 0) <= 0
    if sent || signal == SIGABRT { _ = system_raise(signal) }
}

/// The terminal on standard input in raw mode for single-key play (termios), always put back:
/// on `leave()`, at exit, on Ctrl-Z (and raw again after `fg`), on SIGTERM/SIGHUP/SIGQUIT and on
/// a crash. The screen's own set-up and tear-down sequences (the alternate screen) are written
/// with it, so a suspended or crashed game leaves the shell's screen as it was.
public enum RawTerminal {
    /// Saves the terminal's settings, turns off line editing and echo (`tcsetattr(3)`; signals
    /// from Ctrl-C and Ctrl-Z stay on) and writes `setup` to standard output. `false` when
    /// standard input is not a terminal.
    public static func enter(setup: String, teardown tearDownText: String) -> Bool {
        var settings = termios()
        guard system_tcgetattr(StandardStream.input.rawValue, &settings) == 0 else { return false }
        if rawActive == 0 { savedSettings = settings }
        let bytes = Array(tearDownText.utf8.prefix(64))
        for (index, byte) in bytes.enumerated() { teardown[index] = byte }
        teardownCount = bytes.count
        installHandlers()
        guard makeRaw() else { return false }
        write(setup)
        return true
    }

    /// Runs `body` (a line read from standard input, a secret) with the terminal's echo off and
    /// line editing on, as `ssh` and `sudo` read a password; the settings are put back after it,
    /// and on Ctrl-Z, SIGTERM, SIGHUP, SIGQUIT or a crash meanwhile. Without a terminal, `body` runs as it is.
    public static func withoutEcho<T>(_ body: () -> T) -> T {
        var settings = termios()
        guard rawActive == 0, system_tcgetattr(StandardStream.input.rawValue, &settings) == 0 else { return body() }
        savedSettings = settings
        teardownCount = 0
        installHandlers()
        var quiet = settings
        quiet.c_lflag &= ~tcflag_t(ECHO)
        guard system_tcsetattr(StandardStream.input.rawValue, &quiet, flush: false) == 0 else { return body() }
        rawActive = 1
        defer { restoreNow() }
        return body()
    }

    /// Raw mode and the screen's set-up again, after the process was stopped and continued.
    public static func reenter(setup: String) {
        guard makeRaw() else { return }
        write(setup)
    }

    /// Puts the terminal's settings and screen back. Does nothing when not in raw mode.
    public static func leave() { restoreNow() }

    /// Whether the window changed size (SIGWINCH) since the last time this was asked.
    public static func takeResized() -> Bool {
        guard resizedBySignal != 0 else { return false }
        resizedBySignal = 0
        return true
    }

    /// Whether the process was stopped (Ctrl-Z) and continued since the last time this was asked.
    public static func takeContinued() -> Bool {
        guard continuedBySignal != 0 else { return false }
        continuedBySignal = 0
        return true
    }

    /// The size of the terminal behind `stream` (`ioctl(TIOCGWINSZ)`), `nil` when it is none.
    public static func windowSize(of stream: StandardStream) -> (rows: Int, columns: Int)? {
        system_windowSize(stream.rawValue)
    }

    private static func makeRaw() -> Bool {
        var raw = savedSettings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard system_tcsetattr(StandardStream.input.rawValue, &raw, flush: false) == 0 else { return false }
        rawActive = 1
        return true
    }

    private static func write(_ text: String) {
        var text = text
        _ = text.withUTF8 { StandardStream.output.write(UnsafeRawBufferPointer($0)) }
    }

    private static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        _ = system_atexit { restoreNow() }
        install(SIGWINCH) { _ in resizedBySignal = 1 }
        install(SIGTSTP, suspendHandler)
        // A global is set up on first use behind a lock, which a signal handler must not take:
        // the handler that Ctrl-Z reinstalls is set up here, not first inside the handler.
        _ = suspendHandlerForReinstall
        for signal in endingSignals { install(signal, endingHandler) }
        for signal in crashSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = crashHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_NODEFER | SA_SIGINFO
            _ = system_sigaction(signal, &action, previous: &crashPrevious[Int(signal)])
        }
        for signal in [SIGWINCH, SIGTSTP, SIGCONT] { unblock(signal) }
    }
}

/// A clock that only goes forward, for measuring how long something takes.
public enum MonotonicClock {
    /// Milliseconds since an arbitrary moment (`clock_gettime(CLOCK_MONOTONIC)`).
    public static func milliseconds() -> Int64 { system_monotonicMilliseconds() }
}
