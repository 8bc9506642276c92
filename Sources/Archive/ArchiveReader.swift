internal import CArchive

/// The container formats that are read. Everything else (7z, rar, iso, cpio, xar, ...) is refused.
public enum ArchiveFormat: String, Sendable {
    case tar, zip
}

/// One regular file read from an archive, its bytes in memory.
public struct ArchiveFile: Sendable {
    /// The checked, normalised name.
    public var name: EntryName
    /// The uncompressed contents.
    public var bytes: [UInt8]
}

/// What reading an archive found: the format, how many entries, and every problem.
public struct ArchiveReadSummary: Sendable {
    /// The container format, once recognised.
    public var format: ArchiveFormat?
    /// The compression filter libarchive reported (`gzip`, `xz`, `none`, ...).
    public var compression: String?
    /// Entries seen, refused ones included.
    public var entryCount = 0
    /// Uncompressed bytes of regular files read.
    public var totalSize = 0
    /// Every problem, in archive order; a fatal one, if any, is last.
    public var problems: [ArchiveProblem] = []
}

/// Reads an untrusted archive held in memory, entry by entry, under `ArchiveLimits`.
///
/// Nothing is ever written to disk and no link is ever followed: regular files are handed to the
/// caller as bytes, folders are skipped, anything else is reported as a problem. Names are checked
/// with `EntryName.check`; a name that repeats another (also when they differ only by case or
/// Unicode normalisation) is refused.
public struct ArchiveReader {
    public var limits: ArchiveLimits

    public init(limits: ArchiveLimits = .default) {
        self.limits = limits
    }

    /// Reads `bytes`, calling `visit` for each regular file in archive order.
    /// Calls `archive_read_open_memory`, `archive_read_next_header2` and `archive_read_data_block`.
    public func read(_ bytes: [UInt8], visit: (ArchiveFile) -> Void) -> ArchiveReadSummary {
        readWhile(bytes, { file in
            visit(file)
            return true
        })
    }

    /// Reads `bytes` until `visit` returns `false` (the rest of the archive is not even inflated).
    public func readWhile(_ bytes: [UInt8], _ visit: (ArchiveFile) -> Bool) -> ArchiveReadSummary {
        var summary = ArchiveReadSummary()
        if bytes.count > limits.maxArchiveSize {
            summary.problems.append(ArchiveProblem(
                .tooLarge, "archive is \(bytes.count) bytes, more than the limit of \(limits.maxArchiveSize)"))
            return summary
        }
        if let refused = RefusedFormat.detect(bytes) {
            summary.problems.append(ArchiveProblem(
                .unsupportedFormat, "\(refused) archives are not accepted: a pack is a tar (plain, gzip, bzip2, xz or zstd) or zip archive"))
            return summary
        }
        guard let archive = archive_read_new() else {
            summary.problems.append(ArchiveProblem(.corrupt, "libarchive could not allocate a reader"))
            return summary
        }
        defer { archive_read_free(archive) }
        archive_read_support_format_tar(archive)
        archive_read_support_format_zip(archive)
        archive_read_support_filter_none(archive)
        archive_read_support_filter_gzip(archive)
        archive_read_support_filter_bzip2(archive)
        archive_read_support_filter_xz(archive)
        archive_read_support_filter_zstd(archive)

        bytes.withUnsafeBytes { buffer in
            readOpened(archive, buffer, into: &summary, visit: visit)
        }
        return summary
    }

    private func readOpened(
        _ archive: OpaquePointer, _ buffer: UnsafeRawBufferPointer,
        into summary: inout ArchiveReadSummary, visit: (ArchiveFile) -> Bool
    ) {
        guard archive_read_open_memory(archive, buffer.baseAddress, buffer.count) == ARCHIVE_OK else {
            summary.problems.append(openFailure(archive, buffer))
            return
        }
        var seen: [String: String] = [:]  // folded name -> name as first seen
        guard let entry = archive_entry_new() else { return }
        defer { archive_entry_free(entry) }

        while true {
            let status = archive_read_next_header2(archive, entry)
            if status == ARCHIVE_EOF { break }
            if summary.format == nil {
                summary.format = archive_format(archive) & ARCHIVE_FORMAT_BASE_MASK == ARCHIVE_FORMAT_ZIP ? .zip : .tar
                summary.compression = archive_filter_name(archive, 0).map { String(cString: $0) }
            }
            if status < ARCHIVE_WARN {
                summary.problems.append(ArchiveProblem(.corrupt, "archive is truncated or corrupt: \(errorString(archive))"))
                return
            }
            summary.entryCount += 1
            if summary.entryCount > limits.maxEntries {
                summary.problems.append(ArchiveProblem(
                    .tooManyEntries, "archive has more than \(limits.maxEntries) entries"))
                return
            }
            let raw = rawName(entry)
            let shown = EntryName.printable(raw)
            let name: EntryName?
            switch EntryName.check(raw) {
            case .failure(let problem):
                summary.problems.append(problem)
                continue
            case .success(let checked):
                name = checked
            }
            if let problem = typeProblem(entry, shown: shown) {
                summary.problems.append(problem)
                continue
            }
            let isDirectory = archive_entry_filetype(entry) == hangman_AE_IFDIR
            guard let name else {
                if isDirectory { continue }  // "./": the archive's root folder itself
                summary.problems.append(ArchiveProblem(.badName, entry: shown, "a file without a name"))
                continue
            }
            let folded = name.path.lowercased()
            if let first = seen[folded] {
                let detail = first == name.path ? "appears twice" : "repeats '\(first)' (names differing only by case or Unicode normalisation collide)"
                summary.problems.append(ArchiveProblem(.duplicate, entry: shown, "duplicate entry: \(detail)"))
                continue
            }
            seen[folded] = name.path
            if isDirectory { continue }

            switch readData(archive, entry, shown: shown, total: summary.totalSize) {
            case .failure(let problem):
                summary.problems.append(problem)
                return
            case .success(let data):
                summary.totalSize += data.count
                if !visit(ArchiveFile(name: name, bytes: data)) { return }
            }
        }
    }

    /// The refusal for an entry that is not a regular file or a folder.
    private func typeProblem(_ entry: OpaquePointer, shown: String) -> ArchiveProblem? {
        if let target = archive_entry_hardlink_utf8(entry) ?? archive_entry_hardlink(entry) {
            // A hard link reports a regular file type: check it explicitly.
            return ArchiveProblem(.hardLink, entry: shown, "hard link to '\(EntryName.printable(Array(String(cString: target).utf8)))': links are not accepted")
        }
        switch archive_entry_filetype(entry) {
        case hangman_AE_IFREG, hangman_AE_IFDIR:
            return nil
        case hangman_AE_IFLNK:
            let target = (archive_entry_symlink_utf8(entry) ?? archive_entry_symlink(entry)).map { String(cString: $0) } ?? "?"
            return ArchiveProblem(.symbolicLink, entry: shown, "symbolic link to '\(EntryName.printable(Array(target.utf8)))': links are not accepted")
        case hangman_AE_IFCHR:
            return ArchiveProblem(.device, entry: shown, "character device: only files and folders are accepted")
        case hangman_AE_IFBLK:
            return ArchiveProblem(.device, entry: shown, "block device: only files and folders are accepted")
        case hangman_AE_IFIFO:
            return ArchiveProblem(.fifo, entry: shown, "FIFO (named pipe): only files and folders are accepted")
        case hangman_AE_IFSOCK:
            return ArchiveProblem(.socket, entry: shown, "socket: only files and folders are accepted")
        default:
            return ArchiveProblem(.badName, entry: shown, "entry of unknown type: only files and folders are accepted")
        }
    }

    /// Reads one entry's data block by block, stopping as soon as a limit is passed.
    private func readData(
        _ archive: OpaquePointer, _ entry: OpaquePointer, shown: String, total: Int
    ) -> Result<[UInt8], ArchiveProblem> {
        var data: [UInt8] = []
        if archive_entry_size_is_set(entry) != 0 {
            let declared = Int(archive_entry_size(entry))
            if declared > limits.maxEntrySize {
                return .failure(ArchiveProblem(
                    .entryTooLarge, entry: shown, "entry is \(declared) bytes, more than the limit of \(limits.maxEntrySize) per entry"))
            }
            if declared > 0 { data.reserveCapacity(min(declared, limits.maxTotalSize - total)) }
        }
        var block: UnsafeRawPointer?
        var size = 0
        var offset: la_int64_t = 0
        while true {
            let status = archive_read_data_block(archive, &block, &size, &offset)
            if status == ARCHIVE_EOF { return .success(data) }
            if status < ARCHIVE_WARN {
                return .failure(ArchiveProblem(.corrupt, entry: shown, "archive is truncated or corrupt: \(errorString(archive))"))
            }
            if Int(offset) != data.count {
                return .failure(ArchiveProblem(.sparse, entry: shown, "sparse entries are not accepted"))
            }
            if data.count + size > limits.maxEntrySize {
                return .failure(ArchiveProblem(
                    .entryTooLarge, entry: shown, "entry inflates past the limit of \(limits.maxEntrySize) bytes per entry"))
            }
            if total + data.count + size > limits.maxTotalSize {
                return .failure(ArchiveProblem(
                    .totalTooLarge, entry: shown, "archive inflates past the limit of \(limits.maxTotalSize) bytes in all"))
            }
            if let block, size > 0 {
                data.append(contentsOf: UnsafeRawBufferPointer(start: block, count: size))
            }
        }
    }

    private func rawName(_ entry: OpaquePointer) -> [UInt8] {
        if let utf8 = archive_entry_pathname_utf8(entry) {
            return Array(String(cString: utf8).utf8)
        }
        // Not convertible to UTF-8: keep the raw bytes so the message can show them.
        guard let raw = archive_entry_pathname(entry) else { return [] }
        var bytes: [UInt8] = []
        var index = 0
        while raw[index] != 0 {
            bytes.append(UInt8(bitPattern: raw[index]))
            index += 1
        }
        return bytes
    }

    private func openFailure(_ archive: OpaquePointer, _ buffer: UnsafeRawBufferPointer) -> ArchiveProblem {
        let reason = errorString(archive)
        if buffer.isEmpty {
            return ArchiveProblem(.corrupt, "file is empty")
        }
        if reason.contains("Unrecognized archive format") || reason.contains("Unrecognized") {
            return ArchiveProblem(.unsupportedFormat, "not a tar or zip archive (a pack is a tar, plain or compressed with gzip, bzip2, xz or zstd, or a zip)")
        }
        return ArchiveProblem(.corrupt, "archive is truncated or corrupt: \(reason)")
    }

    private func errorString(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "unknown libarchive error"
    }
}

/// Archive formats recognised by their magic bytes only to refuse them with a clear name.
enum RefusedFormat {
    static func detect(_ bytes: [UInt8]) -> String? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
        }
        if starts([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return "7z" }
        if starts(Array("Rar!\u{1A}\u{07}".utf8)) { return "RAR" }
        if starts(Array("xar!".utf8)) { return "xar" }
        if starts(Array("!<arch>\n".utf8)) { return "ar" }
        if starts(Array("070701".utf8)) || starts(Array("070702".utf8)) || starts(Array("070707".utf8))
            || starts([0xC7, 0x71]) || starts([0x71, 0xC7]) { return "cpio" }
        if starts(Array("CD001".utf8), at: 0x8001) { return "ISO 9660" }
        if starts([0x4D, 0x53, 0x43, 0x46]) { return "cab" }
        if starts([0x60, 0xEA]) { return "arj" }
        return nil
    }
}
