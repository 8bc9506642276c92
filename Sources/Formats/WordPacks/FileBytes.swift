import SystemCalls

/// Reading whole pack archives, with the errors a pack command reports.
enum FileBytes {
    /// The file's bytes, refusing one larger than `limit` before reading it, and anything but a
    /// regular file (`FileSystem.readFile`).
    static func read(_ path: String, limit: Int) -> Result<[UInt8], PackProblem> {
        do {
            return .success(try FileSystem.readFile(atPath: path, limit: limit))
        } catch {
            switch error {
            case .system(.noSuchFile, _, _):
                return .failure(PackProblem(.missingFile, "no such file"))
            case .system(let errno, _, _):
                return .failure(PackProblem(.unreadableFile, "cannot read the file: \(errno)"))
            case .notRegularFile(.directory, _):
                return .failure(PackProblem(.unreadableFile, "is a folder, not a pack archive (to check a source folder, run 'hangman pack build DIR -o FILE')"))
            case .notRegularFile(let kind, _), .notFolder(let kind, _):
                return .failure(PackProblem(.unreadableFile, "is \(kind), not a pack archive: pass a .wordpack file"))
            case .tooLarge(let size, let limit, _):
                return .failure(PackProblem(.archiveTooLarge, "file is \(size) bytes, more than the limit of \(limit)"))
            }
        }
    }

    /// At most the first `count` bytes of the file; `nil` when it cannot be read (`read` says why).
    static func readPrefix(_ path: String, count: Int) -> [UInt8]? {
        try? FileSystem.readPrefix(ofFileAtPath: path, count: count)
    }
}
