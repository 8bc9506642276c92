#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads with a size limit, and writes that a reader or a crash sees complete or not at
/// all. Reads open with `O_NONBLOCK` and accept only regular files, so a FIFO or a device named
/// by mistake is refused at once instead of blocking or streaming forever.
///
/// ```swift
/// let bytes = try FileSystem.readFile(atPath: "fruit.wordpack", limit: 64 << 20)
/// try FileSystem.createNew(atPath: "signing.key", containing: secret, permissions: 0o600)
/// ```
public enum FileSystem {
    /// The file's bytes, refusing a file larger than `limit` before reading it, and one that
    /// grows past `limit` while read (`open(2)`, `fstat(2)`, `read(2)`).
    public static func readFile(atPath path: String, limit: Int) throws(FileError) -> [UInt8] {
        let limit = max(limit, 0)
        try refuseUnlessRegular(path)
        let descriptor = try FileDescriptor(openingForReading: path)
        let size = try descriptor.regularFileSize()
        guard size <= limit else { throw .tooLarge(size: size, limit: limit, path: path) }
        // One byte beyond the size stat reported shows whether the file grew meanwhile.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while true {
            filled += try descriptor.read(into: &bytes, from: filled)
            if filled < bytes.count { break }
            if filled > limit { throw .tooLarge(size: filled, limit: limit, path: path) }
            bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit - bytes.count + 1)))
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// At most the first `count` bytes of a regular file (`open(2)`, `fstat(2)`, `read(2)`).
    public static func readPrefix(ofFileAtPath path: String, count: Int) throws(FileError) -> [UInt8] {
        try refuseUnlessRegular(path)
        let descriptor = try FileDescriptor(openingForReading: path)
        let size = try descriptor.regularFileSize()
        var bytes = [UInt8](repeating: 0, count: max(0, min(count, size + 1)))
        let filled = try descriptor.read(into: &bytes)
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Calls `body` with each successive piece of a regular file, at most `chunkSize` bytes,
    /// until its end, and returns the number of bytes read (`open(2)`, `fstat(2)`, `read(2)`).
    @discardableResult
    public static func forEachChunk(
        ofFileAtPath path: String, chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(FileError) -> Int {
        try refuseUnlessRegular(path)
        let descriptor = try FileDescriptor(openingForReading: path)
        _ = try descriptor.regularFileSize()
        var buffer = [UInt8](repeating: 0, count: max(chunkSize, 1))
        var total = 0
        while true {
            let count = try descriptor.read(into: &buffer)
            if count == 0 { return total }
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            total += count
            if count < buffer.count { return total }
        }
    }

    /// Replaces (or creates) the file at `path` so that a reader, or a crash, sees the old bytes or
    /// the new ones, never a mix: the bytes go to a temporary file in the same folder, which is
    /// flushed, renamed over `path`, and the folder flushed (`open(2)` with `O_CREAT|O_EXCL`,
    /// `write(2)`, `fchmod(2)`, `fsync(2)`, `rename(2)`).
    ///
    /// The file gets exactly `permissions`; `nil` keeps those of the file replaced (`stat(2)`),
    /// or gives 0644 to a new one.
    ///
    /// Only a regular file is replaced: a folder, symbolic link, device, FIFO or socket at `path`
    /// is refused (`lstat(2)`), so that writing to `/dev/null` never turns it into a file.
    public static func writeAtomically(
        _ bytes: [UInt8], toPath path: String, permissions: UInt32? = nil
    ) throws(FileError) {
        if let kind = try status(atPath: path, followingLinks: false)?.kind, kind != .regular {
            throw .notRegularFile(kind, path: path)
        }
        let mode = permissions.map { mode_t($0) } ?? existingPermissions(path) ?? 0o644
        let temporary = try writeTemporary(bytes, beside: path, mode: mode)
        if case .failure(let errno) = valueOrErrno(system_rename(temporary, path)) {
            _ = system_unlink(temporary)
            throw .system(errno, .replace, path: path)
        }
        syncFolder(of: path)
    }

    /// Creates the file at `path` with `bytes` and exactly `permissions`, failing with
    /// `EEXIST` if anything is there. The file appears complete or not at all: the bytes go to a
    /// temporary file in the same folder, which is flushed and then linked into place (`open(2)`
    /// with `O_CREAT|O_EXCL`, `write(2)`, `fchmod(2)`, `fsync(2)`, `link(2)`, `unlink(2)`).
    /// Of two processes creating the same path at once, exactly one succeeds.
    public static func createNew(
        atPath path: String, containing bytes: [UInt8], permissions: UInt32
    ) throws(FileError) {
        let temporary = try writeTemporary(bytes, beside: path, mode: mode_t(permissions))
        let linked = valueOrErrno(system_link(temporary, path))
        _ = system_unlink(temporary)
        if case .failure(let errno) = linked { throw .system(errno, .create, path: path) }
        syncFolder(of: path)
    }

    /// Renames the file at `path` to `newPath` in the same folder, replacing nothing that a
    /// caller did not choose (`rename(2)`), and flushes the folder.
    public static func rename(_ path: String, to newPath: String) throws(FileError) {
        if case .failure(let errno) = valueOrErrno(system_rename(path, newPath)) { throw .system(errno, .replace, path: path) }
        syncFolder(of: newPath)
    }

    /// Gives the file at `existing` a second name, `path`, failing with `EEXIST` if anything is
    /// there, and flushes the folder (`link(2)`, `fsync(2)`). Of two processes linking to the
    /// same path at once, exactly one succeeds.
    public static func link(_ existing: String, asNewPath path: String) throws(FileError) {
        if case .failure(let errno) = valueOrErrno(system_link(existing, path)) { throw .system(errno, .create, path: path) }
        syncFolder(of: path)
    }

    /// What is at `path` and its size in bytes, or `nil` when nothing is (`lstat(2)`, or `stat(2)`
    /// when `followingLinks`: then a symbolic link reports what it points to).
    public static func status(atPath path: String, followingLinks: Bool) throws(FileError) -> (kind: FileKind, size: Int)? {
        var status = stat()
        let result = followingLinks ? system_stat(path, &status) : system_lstat(path, &status)
        switch valueOrErrno(result) {
        case .success: return (FileKind(mode: status.st_mode), Int(status.st_size))
        case .failure(.noSuchFile): return nil
        case .failure(let errno): throw .system(errno, .inspect, path: path)
        }
    }

    /// What tells one version of the file at `path` from another (`stat(2)`): its device and
    /// inode (an atomic replace makes a new one), size and modification time; `nil` when nothing is there.
    public static func version(atPath path: String) throws(FileError) -> FileVersion? {
        var status = stat()
        switch valueOrErrno(system_stat(path, &status)) {
        case .success:
            return FileVersion(
                device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
                modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
        case .failure(.noSuchFile): return nil
        case .failure(let errno): throw .system(errno, .inspect, path: path)
        }
    }

    /// Makes the folder at `path` with `permissions`, and the folders above it as needed (`mkdir(2)`).
    /// The folders above may be symbolic links to folders; the last one must be a folder itself, so
    /// that what is made in it stays where `path` says.
    public static func createFolder(atPath path: String, permissions: UInt32) throws(FileError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        let parts = path.split(separator: "/").map(String.init)
        for (index, part) in parts.enumerated() {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            let isLast = index == parts.count - 1
            switch valueOrErrno(system_mkdir(prefix, mode_t(permissions))) {
            case .success, .failure(.fileExists):
                guard let kind = try status(atPath: prefix, followingLinks: !isLast)?.kind else {
                    throw .system(.noSuchFile, .create, path: prefix)
                }
                if kind != .directory { throw .notFolder(kind, path: prefix) }
            case .failure(let errno):
                throw .system(errno, .create, path: prefix)
            }
        }
    }

    /// Whether anything is at `path`: a file, a folder, even a symbolic link to nothing (`lstat(2)`).
    /// Opens a regular file for reading and hands its descriptor over, with its size: for a
    /// reader that takes ownership of the descriptor and closes it (an HTTP server sending the
    /// file). Anything but a regular file is refused without blocking.
    public static func openRegularFile(atPath path: String) throws(FileError) -> (descriptor: Int32, size: Int) {
        let file = try FileDescriptor(openingForReading: path)
        let size = try file.regularFileSize()
        return (try file.duplicate(), size)
    }

    /// Closes a descriptor handed over by ``openRegularFile(atPath:)`` that was not used (`close(2)`).
    public static func close(descriptor: Int32) {
        _ = system_close(descriptor)
    }

    public static func exists(atPath path: String) -> Bool {
        var status = stat()
        return system_lstat(path, &status) == 0
    }

    /// Why this process may not write to `path` (`access(2)` with `W_OK`, which uses the real
    /// user): permission denied, a read-only file system; `nil` when it may, or it does not exist.
    public static func writeRefusal(atPath path: String) -> Errno? {
        switch valueOrErrno(system_access(path, W_OK)) {
        case .success, .failure(.noSuchFile): return nil
        case .failure(let errno): return errno
        }
    }

    /// Removes the file at `path`; succeeds if there is none (`unlink(2)`).
    public static func removeFile(atPath path: String) throws(FileError) {
        switch valueOrErrno(system_unlink(path)) {
        case .success, .failure(.noSuchFile): return
        case .failure(let errno): throw .system(errno, .remove, path: path)
        }
    }

    /// Refuses, before opening it, a path that names something other than a regular file
    /// (`stat(2)`): opening a device can have effects of its own, and a FIFO's writer would be
    /// released. What is missing is left for `open(2)` to report.
    private static func refuseUnlessRegular(_ path: String) throws(FileError) {
        if let kind = try status(atPath: path, followingLinks: true)?.kind, kind != .regular {
            throw .notRegularFile(kind, path: path)
        }
    }

    /// Writes `bytes` to a new, flushed temporary file in `path`'s folder, with exactly `mode`,
    /// and returns its path; on failure nothing is left behind.
    private static func writeTemporary(
        _ bytes: [UInt8], beside path: String, mode: mode_t
    ) throws(FileError) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var random = SystemRandomNumberGenerator()
        let temporary = "\(folder).\(name).\(String(random.next(), radix: 16)).tmp"
        let descriptor = try FileDescriptor(
            opening: temporary, flags: O_WRONLY | O_CREAT | O_EXCL, mode: mode & 0o600, action: .create)
        do throws(FileError) {
            try descriptor.write(bytes)
            try descriptor.setPermissions(mode)
            try descriptor.sync()
        } catch {
            _ = system_unlink(temporary)
            throw error
        }
        return temporary
    }

    /// The permission bits of the file at `path`, if there is one (`stat(2)`).
    private static func existingPermissions(_ path: String) -> mode_t? {
        var status = stat()
        guard system_stat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o7777
    }

    /// Flushes the folder holding `path`, so that a new name in it survives a crash (`fsync(2)`).
    /// Best effort: some file systems refuse to flush a folder, and the file itself is on disk.
    private static func syncFolder(of path: String) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        guard let descriptor = try? FileDescriptor(opening: folder, flags: O_RDONLY | O_DIRECTORY) else { return }
        _ = try? descriptor.sync()
    }
}

/// One version of a file (``FileSystem/version(atPath:)``): equal versions are the same bytes,
/// unless the file was written in place within the clock's resolution.
public struct FileVersion: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// Nanoseconds since 1970.
    public var modified: Int64
}
