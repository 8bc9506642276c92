internal import CArchive

/// The one compression layer a tar archive may have.
public enum ArchiveCompression: String, Sendable, CaseIterable {
    case none, gzip, bzip2, xz, zstd

    /// The compression whose magic bytes `bytes` starts with; `nil` when none of the four.
    static func detect(_ bytes: UnsafeRawBufferPointer) -> ArchiveCompression? {
        if Magic.starts(bytes, [0x1F, 0x8B]) { return .gzip }
        if Magic.starts(bytes, Array("BZh".utf8)), bytes.count > 3, (0x31...0x39).contains(bytes[3]) { return .bzip2 }
        if Magic.starts(bytes, [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
        if Magic.starts(bytes, [0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
        return nil
    }

    /// libarchive's filter code, for `archive_read_append_filter`.
    var filterCode: Int32 {
        switch self {
        case .none: ARCHIVE_FILTER_NONE
        case .gzip: ARCHIVE_FILTER_GZIP
        case .bzip2: ARCHIVE_FILTER_BZIP2
        case .xz: ARCHIVE_FILTER_XZ
        case .zstd: ARCHIVE_FILTER_ZSTD
        }
    }
}

/// What an archive is, decided from its first bytes before libarchive sees them, so that
/// libarchive is configured with exactly one format and at most one filter and never
/// auto-detects (auto-detection stacks filter on filter for as long as the data asks).
enum ArchiveContainer: Equatable {
    case tar(ArchiveCompression)
    case zip

    /// The container `bytes` starts with, or the reason it is refused.
    static func detect(_ bytes: UnsafeRawBufferPointer) -> Result<ArchiveContainer, ArchiveProblem> {
        if bytes.isEmpty {
            return .failure(ArchiveProblem(.corrupt, "file is empty"))
        }
        if let compression = ArchiveCompression.detect(bytes) {
            return .success(.tar(compression))
        }
        if Magic.isZip(bytes) {
            return .success(.zip)
        }
        if let refused = Magic.refusedFormat(bytes) {
            return .failure(ArchiveProblem(.unsupportedFormat, "\(refused) \(ArchiveContainer.accepted)"))
        }
        // Anything else is offered to the tar reader alone, which checks the header's checksum.
        return .success(.tar(.none))
    }

    /// What a pack may be, for messages.
    static let accepted = "is not accepted: a pack is a tar (plain, or compressed once with gzip, bzip2, xz or zstd) or a zip archive"
}

/// Magic numbers, for deciding and for naming what is refused.
enum Magic {
    static func starts(_ bytes: UnsafeRawBufferPointer, _ magic: [UInt8], at offset: Int = 0) -> Bool {
        guard bytes.count >= offset + magic.count else { return false }
        for (index, byte) in magic.enumerated() where bytes[offset + index] != byte { return false }
        return true
    }

    static func isZip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        starts(bytes, [0x50, 0x4B, 0x03, 0x04]) || starts(bytes, [0x50, 0x4B, 0x05, 0x06]) || starts(bytes, [0x50, 0x4B, 0x07, 0x08])
    }

    /// Formats and compressions recognised only to be refused by name.
    static func refusedFormat(_ bytes: UnsafeRawBufferPointer) -> String? {
        if starts(bytes, [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return "a 7z archive" }
        if starts(bytes, Array("Rar!\u{1A}\u{07}".utf8)) { return "a RAR archive" }
        if starts(bytes, Array("xar!".utf8)) { return "a xar archive" }
        if starts(bytes, Array("!<arch>\n".utf8)) { return "an ar archive" }
        if starts(bytes, Array("070701".utf8)) || starts(bytes, Array("070702".utf8)) || starts(bytes, Array("070707".utf8))
            || starts(bytes, [0xC7, 0x71]) || starts(bytes, [0x71, 0xC7]) { return "a cpio archive" }
        if starts(bytes, Array("CD001".utf8), at: 0x8001) { return "an ISO 9660 image" }
        if starts(bytes, [0x4D, 0x53, 0x43, 0x46]) { return "a cab archive" }
        if starts(bytes, [0x60, 0xEA]) { return "an arj archive" }
        if starts(bytes, [0x1F, 0x9D]) { return "compress (.Z) data" }
        if starts(bytes, [0x04, 0x22, 0x4D, 0x18]) { return "lz4 data" }
        if starts(bytes, Array("LZIP".utf8)) { return "lzip data" }
        return nil
    }
}
