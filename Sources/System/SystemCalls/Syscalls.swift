#if canImport(Glibc)
import Glibc
#endif

// The one place this module calls the C library: every other file goes through these, so a
// call's errno is read right after it, and `EINTR` is retried in one way.

/// `getenv(3)`.
func system_getenv(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

/// Every `NAME=value` of `environ(7)`, in order.
func system_environment() -> [UnsafePointer<CChar>] {
    var entries: [UnsafePointer<CChar>] = []
    var next = environ
    while let entry = next.pointee {
        entries.append(UnsafePointer(entry))
        next += 1
    }
    return entries
}

/// `value` as `snprintf(3)` writes `%.*f` with `digits` decimals.
func system_format_fixed(_ value: Double, _ digits: Int32) -> String {
    // A double's integer part has at most 309 digits: the buffer holds any.
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 352) { buffer in
        _ = withVaList([digits, value]) { vsnprintf(buffer.baseAddress!, buffer.count, "%.*f", $0) }
        return String(cString: buffer.baseAddress!)
    }
}

/// `strlen(3)`.
func system_strlen(_ text: UnsafePointer<CChar>) -> Int { strlen(text) }

/// `open(2)`.
func system_open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { open(path, flags, mode) }

/// `close(2)`.
/// `dup(2)` with close-on-exec (`fcntl(F_DUPFD_CLOEXEC)`).
func system_dup(_ descriptor: Int32) -> Int32 { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }

/// `ftruncate(2)` to zero bytes.
func system_ftruncate(_ descriptor: Int32) -> Int32 { ftruncate(descriptor, 0) }

func system_close(_ descriptor: Int32) -> Int32 { close(descriptor) }

/// `read(2)`.
func system_read(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}

/// `write(2)`.
func system_write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    write(descriptor, bytes.baseAddress, bytes.count)
}

/// `fstat(2)`.
func system_fstat(_ descriptor: Int32, _ status: inout stat) -> Int32 { fstat(descriptor, &status) }

/// `stat(2)`.
func system_stat(_ path: String, _ status: inout stat) -> Int32 { stat(path, &status) }

/// `lstat(2)`.
func system_lstat(_ path: String, _ status: inout stat) -> Int32 { lstat(path, &status) }

/// `fchmod(2)`.
func system_fchmod(_ descriptor: Int32, _ mode: mode_t) -> Int32 { fchmod(descriptor, mode) }

/// `fsync(2)`.
func system_fsync(_ descriptor: Int32) -> Int32 { fsync(descriptor) }

/// `rename(2)`.
func system_rename(_ old: String, _ new: String) -> Int32 { rename(old, new) }

/// `link(2)`.
func system_link(_ existing: String, _ new: String) -> Int32 { link(existing, new) }

/// `mkdir(2)`.
func system_mkdir(_ path: String, _ mode: mode_t) -> Int32 { mkdir(path, mode) }

/// `flock(2)`.
func system_flock(_ descriptor: Int32, _ operation: Int32) -> Int32 { flock(descriptor, operation) }

/// `sigaction(2)` setting `SIGPIPE` to be ignored.
func system_ignoreBrokenPipe() -> Int32 {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_IGN
    sigemptyset(&action.sa_mask)
    return sigaction(SIGPIPE, &action, nil)
}


func system_unlink(_ path: String) -> Int32 { unlink(path) }
func system_access(_ path: String, _ mode: Int32) -> Int32 { access(path, mode) }

/// `explicit_bzero(3)`: zeroes that the compiler may not remove.
func system_explicit_bzero(_ address: UnsafeMutableRawPointer, _ count: Int) { explicit_bzero(address, count) }

/// `mlock(2)`.
func system_mlock(_ address: UnsafeRawPointer, _ count: Int) -> Int32 { mlock(address, count) }

/// `munlock(2)`.
func system_munlock(_ address: UnsafeRawPointer, _ count: Int) -> Int32 { munlock(address, count) }

/// `isatty(3)`.
/// `poll(2)` for one descriptor: the number of ready descriptors, 0 on timeout, -1 on error.
func system_poll(_ descriptor: Int32, _ events: Int16, _ timeoutMilliseconds: Int32) -> Int32 {
    var entry = pollfd(fd: descriptor, events: events, revents: 0)
    return poll(&entry, 1, timeoutMilliseconds)
}

func system_isatty(_ descriptor: Int32) -> Int32 { isatty(descriptor) }

/// `clock_gettime(2)`.
func system_clock_gettime(_ clock: clockid_t, _ spec: inout timespec) -> Int32 { clock_gettime(clock, &spec) }

/// `sigaction(2)`, without asking for the previous action.
func system_sigaction(_ signal: Int32, _ action: inout sigaction) -> Int32 { sigaction(signal, &action, nil) }

/// `sigaction(2)`, keeping the previous action in `previous`.
func system_sigaction(_ signal: Int32, _ action: inout sigaction, previous: inout sigaction) -> Int32 {
    sigaction(signal, &action, &previous)
}

/// `sigprocmask(2)`, without asking for the previous mask.
func system_sigprocmask(_ how: Int32, _ set: inout sigset_t) -> Int32 { sigprocmask(how, &set, nil) }


/// `tcgetattr(3)`.
func system_tcgetattr(_ descriptor: Int32, _ settings: inout termios) -> Int32 { tcgetattr(descriptor, &settings) }

/// `tcsetattr(3)` with `TCSAFLUSH` when `flush`, else `TCSANOW`.
func system_tcsetattr(_ descriptor: Int32, _ settings: inout termios, flush: Bool) -> Int32 {
    tcsetattr(descriptor, flush ? TCSAFLUSH : TCSANOW, &settings)
}

/// `ioctl(2)` `TIOCGWINSZ`: the terminal's rows and columns, `nil` when it is no terminal or says 0.
func system_windowSize(_ descriptor: Int32) -> (rows: Int, columns: Int)? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return (Int(size.ws_row), Int(size.ws_col))
}

/// `raise(3)`.
func system_raise(_ signal: Int32) -> Int32 { raise(signal) }

/// `atexit(3)`.
func system_atexit(_ handler: @convention(c) () -> Void) -> Int32 { atexit(handler) }

/// `clock_gettime(CLOCK_MONOTONIC)` in milliseconds.
func system_monotonicMilliseconds() -> Int64 {
    var spec = timespec()
    _ = clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
}

/// `nanosleep(2)`.
func system_nanosleep(_ request: inout timespec) -> Int32 { nanosleep(&request, nil) }

/// `getpid(2)`.
func system_getpid() -> pid_t { getpid() }

/// `kill(2)`.
func system_kill(_ process: pid_t, _ signal: Int32) -> Int32 { kill(process, signal) }

/// `_exit(2)`: no `atexit` handlers, no flushing.
func system_exitImmediately(_ status: Int32) -> Never { _exit(status) }

/// `exit(3)`.
func system_exit(_ status: Int32) -> Never { exit(status) }

/// `value`, or the `errno` the call that returned -1 left.
func valueOrErrno<I: FixedWidthInteger>(_ value: I) -> Result<I, Errno> {
    value == -1 ? .failure(.current) : .success(value)
}

/// `body`'s result, calling it again while it fails with `EINTR`.
func retryingOnInterrupt<I: FixedWidthInteger>(_ body: () -> I) -> Result<I, Errno> {
    while true {
        let result = valueOrErrno(body())
        if case .failure(.interrupted) = result { continue }
        return result
    }
}

/// Fills `buffer` by calling `readOnce` until it is full or the input ends (a read of 0),
/// continuing after short reads and retrying `EINTR`. Returns the number of bytes read.
func fill(
    _ buffer: UnsafeMutableRawBufferPointer,
    readingWith readOnce: (UnsafeMutableRawBufferPointer) -> Result<Int, Errno>
) throws(Errno) -> Int {
    var filled = 0
    while filled < buffer.count {
        switch readOnce(UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) {
        case .success(0): return filled
        case .success(let count): filled += count
        case .failure(.interrupted): continue
        case .failure(let error): throw error
        }
    }
    return filled
}

/// Writes all of `bytes` by calling `writeOnce` until none is left, continuing after short
/// writes and retrying `EINTR`. A write that takes no bytes fails with `EIO` rather than spin.
func drain(
    _ bytes: UnsafeRawBufferPointer,
    writingWith writeOnce: (UnsafeRawBufferPointer) -> Result<Int, Errno>
) throws(Errno) {
    var written = 0
    while written < bytes.count {
        switch writeOnce(UnsafeRawBufferPointer(rebasing: bytes[written...])) {
        case .success(0): throw .ioError
        case .success(let count): written += count
        case .failure(.interrupted): continue
        case .failure(let error): throw error
        }
    }
}

/// `getrlimit(2)` and `setrlimit(2)` of `RLIMIT_NOFILE`: the soft limit raised to the hard one.
/// The limits after, or `nil` when they cannot be read.
func system_raiseOpenFileLimit() -> (soft: UInt64, hard: UInt64)? {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
    if limit.rlim_cur < limit.rlim_max {
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
    }
    return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
}
