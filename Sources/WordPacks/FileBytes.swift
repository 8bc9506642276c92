#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Reading and writing whole files, with the errors a pack command reports.
enum FileBytes {
    /// The file's bytes, refusing one larger than `limit` before reading it.
    static func read(_ path: String, limit: Int) -> Result<[UInt8], PackProblem> {
        let manager = FileManager.default
        var isDirectory = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(PackProblem(.missingFile, "no such file"))
        }
        if isDirectory {
            return .failure(PackProblem(.unreadableFile, "is a folder, not a pack archive (to check a source folder, run 'hangman pack build DIR -o FILE')"))
        }
        if let size = (try? manager.attributesOfItem(atPath: path))?[.size] as? Int, size > limit {
            return .failure(PackProblem(.archiveTooLarge, "file is \(size) bytes, more than the limit of \(limit)"))
        }
        do {
            let data = try Data(contentsOf: URL(filePath: path))
            if data.count > limit {
                return .failure(PackProblem(.archiveTooLarge, "file is more than the limit of \(limit) bytes"))
            }
            return .success([UInt8](data))
        } catch {
            return .failure(PackProblem(.unreadableFile, "cannot read the file: \(error)"))
        }
    }

    /// At most the first `count` bytes of the file (an existing, readable file is assumed; `nil` otherwise).
    static func readPrefix(_ path: String, count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress.map { $0 + filled }, count - filled) }
            if got > 0 {
                filled += got
            } else if got < 0 && errno == EINTR {
                continue
            } else if got < 0 {
                return nil
            } else {
                break
            }
        }
        return Array(bytes.prefix(filled))
    }
}
