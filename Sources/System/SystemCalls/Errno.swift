#if canImport(Glibc)
import Glibc
#endif

/// A C library error number, with its name and the C library's words for it.
///
/// ```swift
/// do { try FileSystem.createNew(atPath: path, containing: bytes, permissions: 0o600) }
/// catch Errno.fileExists { ... }  // also matches a `FileError` carrying that errno
/// ```
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's `errno`, read right after a failed call.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let ioError = Errno(rawValue: EIO)
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)

    /// `strerror(3)`'s words: "No such file or directory".
    public var description: String { String(cString: strerror(rawValue)) }

    /// Lets `catch .noSuchFile` match an `Errno`, or a ``FileError`` that carries it.
    public static func ~= (pattern: Errno, error: any Error) -> Bool {
        ((error as? Errno) ?? (error as? FileError)?.errno) == pattern
    }
}
