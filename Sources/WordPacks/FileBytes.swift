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
}
