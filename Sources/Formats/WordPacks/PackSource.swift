import Archive
import FoundationEssentials

/// A pack's editable source: the files of a folder, read from disk.
public struct PackSource: Sendable {
    /// One file, its path relative to the folder with `/` separators.
    public struct File: Sendable, Equatable {
        /// The file's path inside the pack (`words.plist`, `lists/easy.plist`).
        public var path: String
        /// Its contents.
        public var bytes: [UInt8]
        /// A file at `path` holding `bytes`.
        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// Every file of the source: the manifest, the word lists, anything beside them.
    public var files: [File]

    /// A source made of `files` (a folder read by ``read(folder:limits:)``, or made in memory).
    public init(files: [File]) {
        self.files = files
    }

    /// Reads every file under `folder`, skipping hidden files (names starting with `.`) and a
    /// previous `Signature.plist`; refuses links and special files, and stops at the archive limits.
    public static func read(folder: String, limits: ArchiveLimits = .default) throws(PackBuildError) -> PackSource {
        let manager = FileManager.default
        var isDirectory = false
        guard manager.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw PackBuildError([PackProblem(.missingFile, entry: folder, "no such folder")])
        }
        guard isDirectory else {
            throw PackBuildError([PackProblem(.unreadableFile, entry: folder, "is a file, not a folder: pass the pack's source folder")])
        }
        var files: [File] = []
        var problems: [PackProblem] = []
        var total = 0
        var pending = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? folder : folder + "/" + relative
            let names: [String]
            do {
                names = try manager.contentsOfDirectory(atPath: directory).sorted()
            } catch {
                problems.append(PackProblem(.unreadableFile, entry: directory, "cannot list the folder: \(error)"))
                continue
            }
            for name in names where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                if path == PackSignature.fileName { continue }
                let full = folder + "/" + path
                let type = (try? manager.attributesOfItem(atPath: full))?[.type] as? FileAttributeType
                switch type {
                case .typeDirectory?:
                    pending.append(path)
                case .typeRegular?:
                    let tooLarge = PackProblem(.totalTooLarge, entry: path, "the folder is larger than a pack may be (\(limits.maxEntries) files, \(limits.maxEntrySize) bytes each, \(limits.maxTotalSize) in all)")
                    // Read as a regular file only, without blocking: the folder may hold anything by now.
                    let data: [UInt8]
                    switch FileBytes.read(full, limit: limits.maxEntrySize) {
                    case .success(let bytes): data = bytes
                    case .failure(let problem) where problem.kind == .archiveTooLarge: throw PackBuildError(problems + [tooLarge])
                    case .failure(let problem):
                        problems.append(PackProblem(.unreadableFile, entry: path, problem.message))
                        continue
                    }
                    total += data.count
                    if total > limits.maxTotalSize || files.count >= limits.maxEntries { throw PackBuildError(problems + [tooLarge]) }
                    files.append(File(path: path, bytes: data))
                case .typeSymbolicLink?:
                    problems.append(PackProblem(.symbolicLink, entry: path, "is a symbolic link: a pack holds files and folders only"))
                default:
                    problems.append(PackProblem(.device, entry: path, "is not a regular file or folder"))
                }
            }
        }
        if !problems.isEmpty { throw PackBuildError(problems) }
        return PackSource(files: files.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) })
    }
}

/// Why a pack's source could not be read, given a manifest or built: every problem found.
public struct PackBuildError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, each with its entry.
    public var problems: [PackProblem]
    /// A failure made of `problems`.
    public init(_ problems: [PackProblem]) { self.problems = problems }
    /// The problems, one a line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
