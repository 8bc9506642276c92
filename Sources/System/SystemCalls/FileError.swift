/// Why a file call failed, naming the file: what the C library said, or which check refused it.
///
/// ```swift
/// do { bytes = try FileSystem.readFile(atPath: path, limit: 4096) }
/// catch .system(.noSuchFile, _, _) { ... }
/// catch .notRegularFile(let kind, _) { ... }  // "is a FIFO (named pipe)"
/// ```
public enum FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The step that failed with `errno`: the words of "cannot open ...", "cannot write ...".
    public enum Action: Sendable, Equatable {
        case open, create, inspect, read, write, setPermissions, flush, replace, remove, lock

        /// "cannot open PATH", "cannot flush PATH to disk".
        func sentence(_ path: String) -> String {
            switch self {
            case .open: "cannot open \(path)"
            case .create: "cannot create \(path)"
            case .inspect: "cannot inspect \(path)"
            case .read: "cannot read \(path)"
            case .write: "cannot write \(path)"
            case .setPermissions: "cannot set the permissions of \(path)"
            case .flush: "cannot flush \(path) to disk"
            case .replace: "cannot replace \(path)"
            case .remove: "cannot remove \(path)"
            case .lock: "cannot lock \(path)"
            }
        }
    }

    /// The C library refused `action` on `path` with `errno`.
    case system(Errno, Action, path: String)
    /// `path` is a folder, FIFO, device or socket: reading it could block, never end, or mean nothing.
    case notRegularFile(FileKind, path: String)
    /// `path` is a file, symbolic link, FIFO, device or socket where a folder is needed.
    case notFolder(FileKind, path: String)
    /// The file at `path` holds more than `limit` bytes; `size` is what `fstat(2)` reported, or
    /// the count read so far when the file grew while it was being read.
    case tooLarge(size: Int, limit: Int, path: String)

    /// The file the failed call was about.
    public var path: String {
        switch self {
        case .system(_, _, let path), .notRegularFile(_, let path), .notFolder(_, let path), .tooLarge(_, _, let path): path
        }
    }

    /// The C library's error number, when the C library refused.
    public var errno: Errno? {
        if case .system(let errno, _, _) = self { return errno }
        return nil
    }

    /// "cannot open x.key: Permission denied", "x.key is a folder, not a regular file".
    public var description: String {
        switch self {
        case .system(let errno, let action, let path):
            "\(action.sentence(path)): \(errno)"
        case .notRegularFile(let kind, let path):
            "\(path) is \(kind), not a regular file"
        case .notFolder(let kind, let path):
            "\(path) is \(kind), not a folder"
        case .tooLarge(let size, let limit, let path):
            "\(path) is \(size) bytes, more than the limit of \(limit)"
        }
    }
}

/// What a path names, from the type bits of `st_mode`.
public enum FileKind: Sendable, Equatable, CustomStringConvertible {
    case regular, directory, fifo, characterDevice, blockDevice, socket, symbolicLink, unknown

    /// "a folder", "a FIFO (named pipe)".
    public var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a folder"
        case .fifo: "a FIFO (named pipe)"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .symbolicLink: "a symbolic link"
        case .unknown: "an unknown kind of file"
        }
    }
}
