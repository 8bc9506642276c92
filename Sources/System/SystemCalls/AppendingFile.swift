#if canImport(Glibc)
import Glibc
#endif

/// A regular file opened to add bytes at its end (`open(2)` with `O_APPEND`), created 0600 when
/// missing: a download that resumes where it stopped. Anything but a regular file is refused.
public final class AppendingFile {
    private let file: FileDescriptor
    /// Bytes in the file now.
    public private(set) var size: Int

    public init(path: String) throws(FileError) {
        if let (kind, _) = try FileSystem.status(atPath: path, followingLinks: false), kind != .regular {
            throw .notRegularFile(kind, path: path)
        }
        file = try FileDescriptor(opening: path, flags: O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, mode: 0o600, action: .create)
        size = try file.regularFileSize()
    }

    /// Adds `bytes` at the end (`write(2)`, continuing after short writes).
    public func append(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        try file.write(Array(bytes))
        size += bytes.count
    }

    /// Empties the file (`ftruncate(2)`): the server sent the whole file again.
    public func truncate() throws(FileError) {
        if case .failure(let errno) = valueOrErrno(system_ftruncate(file.rawValue)) {
            throw .system(errno, .write, path: file.path)
        }
        size = 0
    }

    /// Flushes it to the disk (`fsync(2)`).
    public func flush() throws(FileError) {
        if case .failure(let errno) = valueOrErrno(system_fsync(file.rawValue)) {
            throw .system(errno, .flush, path: file.path)
        }
    }
}
