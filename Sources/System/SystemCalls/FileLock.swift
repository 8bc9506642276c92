#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock on a lock file, held until the value goes away: another process, or another
/// `FileLock` in this one, cannot take it meanwhile. The kernel drops it when the process dies,
/// however it dies, so a crash never leaves a lock behind (`flock(2)`).
///
/// ```swift
/// guard let lock = try FileLock.tryLocking(atPath: folder + "/game-slot-1.lock") else { ... }  // held elsewhere
/// ```
public final class FileLock: @unchecked Sendable {
    // Only read after init; the descriptor is closed, and the lock dropped, in deinit.
    private let descriptor: FileDescriptor
    /// The lock file.
    public var path: String { descriptor.path }

    private init(descriptor: consuming FileDescriptor) {
        self.descriptor = descriptor
    }

    /// Takes the lock on the file at `path` (made with mode 0600 when missing), or returns `nil`
    /// at once when someone else holds it. A symbolic link, folder, FIFO or device at `path` is
    /// refused (`open(2)` with `O_NOFOLLOW | O_NONBLOCK`, `fstat(2)`, `flock(2)` with `LOCK_NB`).
    public static func tryLocking(atPath path: String) throws(FileError) -> FileLock? {
        let descriptor = try openLockFile(path)
        _ = try descriptor.regularFileSize()
        switch retryingOnInterrupt({ system_flock(descriptor.rawValue, LOCK_EX | LOCK_NB) }) {
        case .success: return FileLock(descriptor: descriptor)
        case .failure(.wouldBlock): return nil
        case .failure(let errno): throw .system(errno, .lock, path: path)
        }
    }

    /// Takes the lock on the folder at `path` itself, waiting for whoever holds it (`flock(2)` on
    /// the folder's descriptor): no lock file is made beside what the folder keeps.
    public static func locking(folderAt path: String) throws(FileError) -> FileLock {
        let descriptor = try FileDescriptor(opening: path, flags: O_RDONLY | O_DIRECTORY, action: .lock)
        if case .failure(let errno) = retryingOnInterrupt({ system_flock(descriptor.rawValue, LOCK_EX) }) {
            throw .system(errno, .lock, path: path)
        }
        return FileLock(descriptor: descriptor)
    }

    /// Drops the lock now (`flock(2)` with `LOCK_UN`), before the value goes away: whoever asks
    /// next gets it, whatever still holds this value. Doing it twice does nothing more.
    public func unlock() {
        _ = retryingOnInterrupt({ system_flock(descriptor.rawValue, LOCK_UN) })
    }

    /// `O_NOFOLLOW` answers `ELOOP` for a symbolic link: said as what it is.
    private static func openLockFile(_ path: String) throws(FileError) -> FileDescriptor {
        if try FileSystem.status(atPath: path, followingLinks: false)?.kind == .symbolicLink {
            throw .notRegularFile(.symbolicLink, path: path)
        }
        return try FileDescriptor(opening: path, flags: O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, mode: 0o600, action: .create)
    }
}
