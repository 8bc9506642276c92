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

/// How a regular file's bytes reach an `ArchiveEntryReceiver`.
public enum ArchiveEntryDelivery: Sendable {
    /// Collected, then handed over whole in `end`.
    case whole
    /// Handed over block by block as they inflate (`receive`), never collected.
    case inBlocks
}

/// Takes the regular files of an archive as `ArchiveReader` reads them, each either whole or
/// block by block while it inflates. The same limits apply either way.
public protocol ArchiveEntryReceiver {
    /// A regular file begins; `declaredSize` is the size its header states, if it states one.
    mutating func begin(_ name: EntryName, declaredSize: Int?) -> ArchiveEntryDelivery
    /// The next bytes of a file delivered `inBlocks`, valid only during the call.
    mutating func receive(_ block: UnsafeRawBufferPointer)
    /// The file is complete (`size` bytes; `bytes` holds them for a file delivered `whole`).
    /// Returns `false` to stop reading: the rest of the archive is not even inflated.
    ///
    /// A file whose reading fails (a limit, a corrupt stream) gets no `end`: the summary's last
    /// problem says why.
    mutating func end(_ name: EntryName, size: Int, bytes: [UInt8]?) -> Bool
}

/// Hands every file over whole to a closure.
private struct WholeFiles: ArchiveEntryReceiver {
    let visit: (ArchiveFile) -> Bool

    func begin(_ name: EntryName, declaredSize: Int?) -> ArchiveEntryDelivery { .whole }
    func receive(_ block: UnsafeRawBufferPointer) {}
    func end(_ name: EntryName, size: Int, bytes: [UInt8]?) -> Bool {
        visit(ArchiveFile(name: name, bytes: bytes ?? []))
    }
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
    /// See `readWhile` for the libarchive calls made.
    public func read(_ bytes: [UInt8], visit: (ArchiveFile) -> Void) -> ArchiveReadSummary {
        readWhile(bytes, { file in
            visit(file)
            return true
        })
    }

    /// Reads `bytes` until `visit` returns `false` (the rest of the archive is not even inflated).
    ///
    /// The container is decided from the first bytes (`ArchiveContainer`), then libarchive is set
    /// up with exactly that: `archive_read_append_filter` with the one compression (none, gzip,
    /// bzip2, xz or zstd) and `archive_read_support_format_tar`, or
    /// `archive_read_support_format_zip_seekable`; no filter is ever auto-detected, so no chain of
    /// filters can grow. The bytes go in through `BoundedSource`, and after every
    /// `archive_read_next_header2` and `archive_read_data_block` the reader checks what was
    /// pulled, what the decompressor produced (`archive_filter_bytes`) and that the call made
    /// progress.
    public func readWhile(_ bytes: [UInt8], _ visit: (ArchiveFile) -> Bool) -> ArchiveReadSummary {
        withoutActuallyEscaping(visit) { visit in
            var receiver = WholeFiles(visit: visit)
            return read(bytes, into: &receiver)
        }
    }

    /// Reads `bytes`, handing each regular file to `receiver`, whole or block by block as it
    /// chooses; see `readWhile` for the libarchive calls made and the checks after each.
    public func read<Receiver: ArchiveEntryReceiver>(_ bytes: [UInt8], into receiver: inout Receiver) -> ArchiveReadSummary {
        var summary = ArchiveReadSummary()
        if bytes.count > limits.maxArchiveSize {
            summary.problems.append(ArchiveProblem(
                .tooLarge, "archive is \(bytes.count) bytes, more than the limit of \(limits.maxArchiveSize)"))
            return summary
        }
        bytes.withUnsafeBytes { buffer in
            switch ArchiveContainer.detect(buffer) {
            case .failure(let problem):
                summary.problems.append(problem)
            case .success(let container):
                read(container, buffer, into: &summary, receiver: &receiver)
            }
        }
        return summary
    }

    private func read<Receiver: ArchiveEntryReceiver>(
        _ container: ArchiveContainer, _ buffer: UnsafeRawBufferPointer,
        into summary: inout ArchiveReadSummary, receiver: inout Receiver
    ) {
        guard let archive = archive_read_new() else {
            summary.problems.append(ArchiveProblem(.corrupt, "libarchive could not allocate a reader"))
            return
        }
        defer { archive_read_free(archive) }
        guard configure(archive, for: container) else {
            summary.problems.append(ArchiveProblem(.corrupt, "libarchive could not be set up to read \(container): \(errorString(archive))"))
            return
        }
        let source = BoundedSource(buffer, seekable: container == .zip, maxEntries: limits.maxEntries)
        withExtendedLifetime(source) {
            var watch = ReadWatch(archive: archive, source: source, limits: limits)
            guard source.open(archive, seekable: container == .zip) == ARCHIVE_OK else {
                summary.problems.append(watch.refusal() ?? openFailure(archive, container, buffer))
                return
            }
            readEntries(archive, container, buffer, &watch, into: &summary, receiver: &receiver)
        }
    }

    /// One format and at most one filter, nothing detected.
    private func configure(_ archive: OpaquePointer, for container: ArchiveContainer) -> Bool {
        switch container {
        case .tar(let compression):
            if compression != .none, archive_read_append_filter(archive, compression.filterCode) != ARCHIVE_OK {
                return false
            }
            return archive_read_support_format_tar(archive) == ARCHIVE_OK
        case .zip:
            return archive_read_support_format_zip_seekable(archive) == ARCHIVE_OK
        }
    }

    private func readEntries<Receiver: ArchiveEntryReceiver>(
        _ archive: OpaquePointer, _ container: ArchiveContainer, _ buffer: UnsafeRawBufferPointer,
        _ watch: inout ReadWatch, into summary: inout ArchiveReadSummary, receiver: inout Receiver
    ) {
        var seen: [String: String] = [:]  // folded name -> name as first seen
        guard let entry = archive_entry_new() else { return }
        defer { archive_entry_free(entry) }

        while true {
            let status = archive_read_next_header2(archive, entry)
            if let refusal = watch.check(entries: summary.entryCount + 1, data: summary.totalSize) {
                summary.problems.append(refusal)
                return
            }
            if status == ARCHIVE_EOF { break }
            if summary.format == nil {
                summary.format = container == .zip ? .zip : .tar
                summary.compression = archive_filter_name(archive, 0).map { String(cString: $0) }
            }
            // ARCHIVE_RETRY is a damaged header that libarchive would skip: a pack must be whole.
            if status < ARCHIVE_OK && status != ARCHIVE_WARN {
                summary.problems.append(summary.entryCount == 0
                    ? openFailure(archive, container, buffer)
                    : ArchiveProblem(.corrupt, "archive is truncated or corrupt: \(errorString(archive))"))
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

            switch readData(archive, entry, name: name, shown: shown, total: summary.totalSize, entries: summary.entryCount, &watch, receiver: &receiver) {
            case .failure(let problem):
                summary.problems.append(problem)
                return
            case .success(let file):
                summary.totalSize += file.size
                if !receiver.end(name, size: file.size, bytes: file.bytes) { return }
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

    /// Reads one entry's data block by block, stopping as soon as a limit is passed; the bytes
    /// are collected, or handed to `receiver` as they come, as it asked in `begin`.
    private func readData<Receiver: ArchiveEntryReceiver>(
        _ archive: OpaquePointer, _ entry: OpaquePointer, name: EntryName, shown: String, total: Int, entries: Int,
        _ watch: inout ReadWatch, receiver: inout Receiver
    ) -> Result<(size: Int, bytes: [UInt8]?), ArchiveProblem> {
        var declared: Int?
        if archive_entry_size_is_set(entry) != 0 {
            let size = Int(archive_entry_size(entry))
            if size > limits.maxEntrySize {
                return .failure(ArchiveProblem(
                    .entryTooLarge, entry: shown, "entry is \(size) bytes, more than the limit of \(limits.maxEntrySize) per entry"))
            }
            declared = max(0, size)
        }
        let delivery = receiver.begin(name, declaredSize: declared)
        var data: [UInt8] = []
        if delivery == .whole, let declared, declared > 0 { data.reserveCapacity(min(declared, limits.maxTotalSize - total)) }
        var size = 0
        var block: UnsafeRawPointer?
        var blockSize = 0
        var offset: la_int64_t = 0
        while true {
            let status = archive_read_data_block(archive, &block, &blockSize, &offset)
            if let refusal = watch.check(entries: entries, data: total + size + blockSize) {
                return .failure(refusal)
            }
            if status == ARCHIVE_EOF { return .success((size, delivery == .whole ? data : nil)) }
            if status < ARCHIVE_OK && status != ARCHIVE_WARN {
                return .failure(ArchiveProblem(.corrupt, entry: shown, "archive is truncated or corrupt: \(errorString(archive))"))
            }
            if Int(offset) != size {
                return .failure(ArchiveProblem(.sparse, entry: shown, "sparse entries are not accepted"))
            }
            if size + blockSize > limits.maxEntrySize {
                return .failure(ArchiveProblem(
                    .entryTooLarge, entry: shown, "entry inflates past the limit of \(limits.maxEntrySize) bytes per entry"))
            }
            if total + size + blockSize > limits.maxTotalSize {
                return .failure(ArchiveProblem(
                    .totalTooLarge, entry: shown, "archive inflates past the limit of \(limits.maxTotalSize) bytes in all"))
            }
            if let block, blockSize > 0 {
                let bytes = UnsafeRawBufferPointer(start: block, count: blockSize)
                switch delivery {
                case .whole: data.append(contentsOf: bytes)
                case .inBlocks: receiver.receive(bytes)
                }
                size += blockSize
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

    /// Why an archive could not be opened, or its first header not read. For a compressed tar,
    /// the inner bytes are looked at to name a second compression layer or a foreign format.
    private func openFailure(_ archive: OpaquePointer, _ container: ArchiveContainer, _ buffer: UnsafeRawBufferPointer) -> ArchiveProblem {
        let reason = errorString(archive)
        guard case .tar(let compression) = container else {
            return ArchiveProblem(.corrupt, "zip archive is truncated or corrupt: \(reason)")
        }
        if compression == .none {
            return ArchiveProblem(.unsupportedFormat, "not a tar or zip archive (a pack is a tar, plain or compressed once with gzip, bzip2, xz or zstd, or a zip)")
        }
        let inner = InnerLayer.start(of: buffer, compression: compression, limits: limits)
        return inner.withUnsafeBytes { start in
            if let nested = ArchiveCompression.detect(start) {
                return ArchiveProblem(.nestedCompression, "\(nested.rawValue) data inside \(compression.rawValue): a second compression layer is refused (a pack is a tar compressed at most once)")
            }
            if Magic.isZip(start) {
                return ArchiveProblem(.unsupportedFormat, "a zip archive inside \(compression.rawValue) \(ArchiveContainer.accepted)")
            }
            if let refused = Magic.refusedFormat(start) {
                return ArchiveProblem(.unsupportedFormat, "\(refused) inside \(compression.rawValue) \(ArchiveContainer.accepted)")
            }
            if inner.isEmpty || Magic.starts(start, Array("ustar".utf8), at: 257) {
                return ArchiveProblem(.corrupt, "\(compression.rawValue) stream is truncated or corrupt: \(reason)")
            }
            return ArchiveProblem(.unsupportedFormat, "the \(compression.rawValue) data is not a tar archive (\(reason))")
        }
    }

    private func errorString(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "unknown libarchive error"
    }
}
