internal import CArchive

/// Writes archives into memory, deterministically: the same entries give the same bytes.
///
/// Entries are written in the order given with fixed times, owners and modes; gzip output has no
/// timestamp. The pack builder uses pax tar + gzip; the other formats and entry kinds exist so that
/// tests can build the hostile archives a reader must refuse.
public struct ArchiveWriter {
    /// The container format.
    public enum Format: Sendable {
        /// POSIX pax, with extended headers only where ustar cannot express a name (non-ASCII, long).
        case pax
        case ustar
        case gnutar
        case zip
        case cpio
        case sevenZip
    }

    /// The compression filter around the container.
    public enum Compression: String, Sendable, CaseIterable {
        case none, gzip, bzip2, xz, zstd
    }

    /// One entry to write.
    public struct Entry: Sendable {
        public enum Kind: Sendable {
            case file([UInt8])
            case directory
            case symbolicLink(target: String)
            case hardLink(target: String)
            case characterDevice
            case blockDevice
            case fifo
            case socket
        }

        /// The name exactly as written, as bytes so that tests can write names that are not UTF-8.
        public var rawName: [UInt8]
        public var kind: Kind
        /// The size written in the header; by default the data's size. A lie, for tests.
        public var declaredSize: Int?

        public init(_ name: String, _ kind: Kind) {
            self.rawName = Array(name.utf8)
            self.kind = kind
        }

        public init(rawName: [UInt8], _ kind: Kind) {
            self.rawName = rawName
            self.kind = kind
        }

        /// A regular file.
        public static func file(_ name: String, _ bytes: [UInt8]) -> Entry {
            Entry(name, .file(bytes))
        }
    }

    /// The modification time written on every entry: 2001-01-01T00:00:00Z.
    public static let fixedModificationTime = 978_307_200

    public var format: Format
    public var compression: Compression

    public init(format: Format = .pax, compression: Compression = .gzip) {
        self.format = format
        self.compression = compression
    }

    /// Writes `entries` and returns the archive's bytes.
    /// Calls `archive_write_open`, `archive_write_header` and `archive_write_data`.
    public func write(_ entries: [Entry]) throws(ArchiveWriteError) -> [UInt8] {
        ensureUTF8Locale()
        guard let archive = archive_write_new() else { throw ArchiveWriteError("libarchive could not allocate a writer") }
        defer { archive_write_free(archive) }
        try configure(archive)

        let sink = Sink()
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        let opened = archive_write_open(
            archive, context.toOpaque(), nil,
            { _, client, buffer, length in
                guard let client, let buffer else { return -1 }
                let sink = Unmanaged<Sink>.fromOpaque(client).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: length))
                return la_ssize_t(length)
            }, nil)
        try check(opened, archive, "open")

        guard let entry = archive_entry_new() else { throw ArchiveWriteError("libarchive could not allocate an entry") }
        defer { archive_entry_free(entry) }
        for item in entries {
            archive_entry_clear(entry)
            try describe(item, in: entry)
            try check(archive_write_header(archive, entry), archive, "write header of '\(EntryName.printable(item.rawName))'")
            if case .file(let bytes) = item.kind, !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
                if written < 0 { try check(ARCHIVE_FATAL, archive, "write data") }
            }
        }
        try check(archive_write_close(archive), archive, "close")
        return sink.bytes
    }

    private func configure(_ archive: OpaquePointer) throws(ArchiveWriteError) {
        let status: Int32 =
            switch format {
            case .pax: archive_write_set_format_pax_restricted(archive)
            case .ustar: archive_write_set_format_ustar(archive)
            case .gnutar: archive_write_set_format_gnutar(archive)
            case .zip: archive_write_set_format_zip(archive)
            case .cpio: archive_write_set_format_cpio_newc(archive)
            case .sevenZip: archive_write_set_format_7zip(archive)
            }
        try check(status, archive, "set format")
        // No zero padding after a compressed stream: decoders such as zstd refuse trailing bytes.
        if compression != .none { try check(archive_write_set_bytes_in_last_block(archive, 1), archive, "set padding") }
        switch compression {
        case .none:
            try check(archive_write_add_filter_none(archive), archive, "set compression")
        case .gzip:
            try check(archive_write_add_filter_gzip(archive), archive, "set compression")
            // No timestamp in the gzip header: same input, same bytes.
            try check(archive_write_set_filter_option(archive, "gzip", "timestamp", nil), archive, "set gzip option")
        case .bzip2:
            try check(archive_write_add_filter_bzip2(archive), archive, "set compression")
        case .xz:
            try check(archive_write_add_filter_xz(archive), archive, "set compression")
        case .zstd:
            try check(archive_write_add_filter_zstd(archive), archive, "set compression")
        }
    }

    private func describe(_ item: Entry, in entry: OpaquePointer) throws(ArchiveWriteError) {
        var name = item.rawName.map { CChar(bitPattern: $0) }
        name.append(0)
        if String(validating: item.rawName, as: UTF8.self) != nil {
            archive_entry_set_pathname_utf8(entry, name)
        } else {
            archive_entry_copy_pathname(entry, name)
        }
        archive_entry_set_mtime(entry, time_t(Self.fixedModificationTime), 0)
        archive_entry_set_uid(entry, 0)
        archive_entry_set_gid(entry, 0)
        archive_entry_set_uname(entry, "root")
        archive_entry_set_gname(entry, "root")
        switch item.kind {
        case .file(let bytes):
            archive_entry_set_filetype(entry, hangman_AE_IFREG)
            archive_entry_set_perm(entry, 0o644)
            archive_entry_set_size(entry, la_int64_t(item.declaredSize ?? bytes.count))
        case .directory:
            archive_entry_set_filetype(entry, hangman_AE_IFDIR)
            archive_entry_set_perm(entry, 0o755)
        case .symbolicLink(let target):
            archive_entry_set_filetype(entry, hangman_AE_IFLNK)
            archive_entry_set_perm(entry, 0o777)
            archive_entry_set_symlink_utf8(entry, target)
        case .hardLink(let target):
            archive_entry_set_filetype(entry, hangman_AE_IFREG)
            archive_entry_set_perm(entry, 0o644)
            archive_entry_set_hardlink_utf8(entry, target)
            archive_entry_set_size(entry, 0)
        case .characterDevice:
            archive_entry_set_filetype(entry, hangman_AE_IFCHR)
            archive_entry_set_perm(entry, 0o600)
            archive_entry_set_rdev(entry, 0x0103)
        case .blockDevice:
            archive_entry_set_filetype(entry, hangman_AE_IFBLK)
            archive_entry_set_perm(entry, 0o600)
            archive_entry_set_rdev(entry, 0x0800)
        case .fifo:
            archive_entry_set_filetype(entry, hangman_AE_IFIFO)
            archive_entry_set_perm(entry, 0o600)
        case .socket:
            archive_entry_set_filetype(entry, hangman_AE_IFSOCK)
            archive_entry_set_perm(entry, 0o600)
        }
    }

    private func check(_ status: Int32, _ archive: OpaquePointer, _ step: String) throws(ArchiveWriteError) {
        guard status < ARCHIVE_WARN else { return }
        let reason = archive_error_string(archive).map { String(cString: $0) } ?? "unknown libarchive error"
        throw ArchiveWriteError("could not \(step): \(reason)")
    }
}

/// Collects what libarchive writes.
private final class Sink {
    var bytes: [UInt8] = []
}

/// A failure to write an archive.
public struct ArchiveWriteError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// libarchive 3.6 crashes writing a non-ASCII name unless LC_CTYPE is a UTF-8 locale
/// (libarchive issue 2233); a process still in the "C" locale is switched to C.UTF-8.
private func ensureUTF8Locale() {
    let current = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
    if current == "C" || current == "POSIX" {
        setlocale(LC_CTYPE, "C.UTF-8")
    }
}
