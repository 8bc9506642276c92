#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor, closed (`close(2)`) when it goes away; the path is kept for errors.
struct FileDescriptor: ~Copyable {
    let rawValue: Int32
    let path: String

    /// Opens `path` (`open(2)`, retrying `EINTR`); `action` names the step in an error.
    init(opening path: String, flags: Int32, mode: mode_t = 0, action: FileError.Action = .open) throws(FileError) {
        switch retryingOnInterrupt({ system_open(path, flags | O_CLOEXEC, mode) }) {
        case .success(let descriptor): rawValue = descriptor
        case .failure(let errno): throw .system(errno, action, path: path)
        }
        self.path = path
    }

    /// Opens `path` for reading without waiting on a FIFO's writer or a device, and without making
    /// a terminal the controlling one; ``regularFileSize()`` then refuses anything but a file.
    init(openingForReading path: String) throws(FileError) {
        try self.init(opening: path, flags: O_RDONLY | O_NONBLOCK | O_NOCTTY)
    }

    deinit { _ = system_close(rawValue) }

    /// A second descriptor for the same open file (`dup(2)`), owned by the caller, who closes it.
    func duplicate() throws(FileError) -> Int32 {
        switch valueOrErrno(system_dup(rawValue)) {
        case .success(let descriptor): return descriptor
        case .failure(let errno): throw .system(errno, .open, path: path)
        }
    }

    /// The file's kind and size (`fstat(2)`).
    func status() throws(FileError) -> (kind: FileKind, size: Int) {
        var status = stat()
        if case .failure(let errno) = valueOrErrno(system_fstat(rawValue, &status)) {
            throw .system(errno, .inspect, path: path)
        }
        return (FileKind(mode: status.st_mode), Int(status.st_size))
    }

    /// The size of the open file, refusing a folder, FIFO, device or socket (`fstat(2)`).
    func regularFileSize() throws(FileError) -> Int {
        let (kind, size) = try status()
        guard kind == .regular else { throw .notRegularFile(kind, path: path) }
        return size
    }

    /// Reads into `bytes` from `offset` until its end is reached or the file ends (`read(2)`);
    /// returns the number of bytes read.
    func read(into bytes: inout [UInt8], from offset: Int = 0) throws(FileError) -> Int {
        let result: Result<Int, Errno> = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) in
                try fill(UnsafeMutableRawBufferPointer(rebasing: buffer[offset...])) { valueOrErrno(system_read(rawValue, $0)) }
            }
        }
        return try result.mapError { FileError.system($0, .read, path: path) }.get()
    }

    /// Writes all of `bytes` (`write(2)`), continuing after short writes.
    func write(_ bytes: [UInt8]) throws(FileError) {
        let result: Result<Void, Errno> = bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in try drain(buffer) { valueOrErrno(system_write(rawValue, $0)) } }
        }
        try result.mapError { FileError.system($0, .write, path: path) }.get()
    }

    /// Sets the permission bits exactly, whatever the umask took away at creation (`fchmod(2)`).
    func setPermissions(_ mode: mode_t) throws(FileError) {
        if case .failure(let errno) = valueOrErrno(system_fchmod(rawValue, mode)) {
            throw .system(errno, .setPermissions, path: path)
        }
    }

    /// Waits until the file's bytes are on disk (`fsync(2)`).
    func sync() throws(FileError) {
        if case .failure(let errno) = retryingOnInterrupt({ system_fsync(rawValue) }) {
            throw .system(errno, .flush, path: path)
        }
    }
}

extension FileKind {
    /// The kind named by the `S_IFMT` bits of `mode`.
    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .unknown
        }
    }
}
