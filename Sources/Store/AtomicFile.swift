#if canImport(Glibc)
import Glibc
#endif

/// Replacing a file so that a reader, or a crash, sees the old bytes or the new ones, never a mix.
enum AtomicFile {
    /// Writes `bytes` to a temporary file beside `path`, `fsync`s it, `rename`s it over `path` and
    /// `fsync`s the folder. The file keeps the permissions of the one it replaces.
    static func replace(_ path: String, with bytes: [UInt8]) -> Result<Void, CatalogMessage> {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var random = SystemRandomNumberGenerator()
        let temporary = "\(folder)/.\(name).\(String(random.next(), radix: 16)).tmp"
        var mode: mode_t = 0o644
        var existing = stat()
        if stat(path, &existing) == 0 { mode = existing.st_mode & 0o7777 }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return .failure("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if count > 0 {
                written += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        let problem: String? =
            if written < bytes.count { "cannot write \(temporary): \(String(cString: strerror(errno)))" }
            else if fchmod(descriptor, mode) != 0 { "cannot set the permissions of \(temporary): \(String(cString: strerror(errno)))" }
            else if fsync(descriptor) != 0 { "cannot flush \(temporary) to disk: \(String(cString: strerror(errno)))" }
            else { nil }
        close(descriptor)
        if let problem {
            unlink(temporary)
            return .failure(CatalogMessage(stringLiteral: problem))
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return .failure("cannot replace \(path): \(reason)")
        }
        // The rename itself is durable once the folder's entry is on disk.
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
        return .success(())
    }
}
