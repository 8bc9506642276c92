import FoundationEssentials
import SQLite
import SystemCalls

/// A copy of a pack server's data folder taken while its servers run (`hangman backup`): every
/// SQLite database through SQLite's online backup (each as one read transaction saw it, writers
/// going on), the other files (the service's keys, the admin tokens) copied, in a new folder of the
/// same layout, so that the copy is itself a data folder a server starts on.
///
/// Every purchase acknowledged before the backup began is in it: each ledger is read after that
/// moment. The ledgers are copied before the accounts' database, so that every transaction in a
/// copied ledger has its id claimed in the copied directory. The copy is made under a name of its
/// own and renamed when whole: a backup killed halfway leaves a `.partial-...` folder, never one
/// that looks complete.
///
/// ```swift
/// let summary = try DataFolderBackup.take(data: "/var/lib/hangman", into: "/backups/2026-12-06")
/// ```
public enum DataFolderBackup {
    public struct Summary: Sendable, Equatable {
        /// SQLite databases copied, other files copied, and their bytes in all.
        public var databases = 0
        public var files = 0
        public var bytes = 0
    }

    /// Copies `data` into the folder `target`, which must not exist; what was copied.
    public static func take(data: String, into target: String) throws(ServiceError) -> Summary {
        guard (try? FileSystem.status(atPath: data, followingLinks: true))?.kind == .directory else {
            throw ServiceError(.notFound, "no data folder '\(data)'")
        }
        guard !FileSystem.exists(atPath: target) else {
            throw ServiceError(.invalidRequest, "'\(target)' exists: a backup goes into a new folder")
        }
        let partial = target + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        var summary = Summary()
        let (databases, files) = try listing(data)
        do {
            try FileSystem.createFolder(atPath: partial, permissions: 0o700)
            for relative in databases + files {
                let folder = relative.split(separator: "/").dropLast().joined(separator: "/")
                if !folder.isEmpty { try FileSystem.createFolder(atPath: partial + "/" + folder, permissions: 0o700) }
            }
        } catch {
            throw ServiceError(.storage, "cannot make the backup's folder \(partial): \(error)")
        }
        for relative in databases {
            do {
                try Database.existing(path: data + "/" + relative).backup(into: partial + "/" + relative)
            } catch {
                // A ledger made and removed while the listing was read is passed over; any other failure stops the backup.
                if !FileSystem.exists(atPath: data + "/" + relative) { continue }
                throw ServiceError(.storage, "cannot back up \(data)/\(relative): \(error)")
            }
            summary.databases += 1
            summary.bytes += (try? FileSystem.status(atPath: partial + "/" + relative, followingLinks: false))?.size ?? 0
        }
        for relative in files {
            do {
                let bytes = try FileSystem.readFile(atPath: data + "/" + relative, limit: maximumFileSize)
                try FileSystem.writeAtomically(bytes, toPath: partial + "/" + relative, permissions: 0o600)
                summary.files += 1
                summary.bytes += bytes.count
            } catch {
                throw ServiceError(.storage, "cannot copy \(data)/\(relative) into the backup: \(error)")
            }
        }
        do {
            try FileSystem.rename(partial, to: target)
        } catch {
            throw ServiceError(.storage, "cannot name the backup \(target) (it is whole in \(partial)): \(error)")
        }
        return summary
    }

    /// The largest file other than a database the backup copies (keys and token lists are small).
    static let maximumFileSize = 64 << 20

    /// The data folder's SQLite databases (the ledgers under `accounts/` first, then the rest) and
    /// its other files, as paths inside it; SQLite's own logs (`-wal`, `-shm`, `-journal`) and
    /// links are passed over: a database is read through SQLite.
    static func listing(_ data: String) throws(ServiceError) -> (databases: [String], files: [String]) {
        var ledgers: [String] = [], databases: [String] = [], files: [String] = []
        func walk(_ relative: String) throws(ServiceError) {
            let path = relative.isEmpty ? data : data + "/" + relative
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            } catch {
                throw ServiceError(.storage, "cannot list \(path): \(error)")
            }
            for name in names {
                let inner = relative.isEmpty ? name : relative + "/" + name
                guard let status = try? FileSystem.status(atPath: data + "/" + inner, followingLinks: false) else { continue }
                switch status.kind {
                case .directory: try walk(inner)
                case .regular:
                    if ["-wal", "-shm", "-journal"].contains(where: name.hasSuffix) || name.contains(".partial-") { continue }
                    if name.hasSuffix(".sqlite") {
                        if inner.hasPrefix("accounts/") { ledgers.append(inner) } else { databases.append(inner) }
                    } else {
                        files.append(inner)
                    }
                default: continue
                }
            }
        }
        try walk("")
        return (ledgers + databases, files)
    }
}
