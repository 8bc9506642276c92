/// Bounds that an untrusted archive must stay within; they are enforced while streaming,
/// so a decompression bomb stops at the limit instead of being inflated in full.
public struct ArchiveLimits: Sendable, Equatable {
    /// Most entries (files, folders, and refused entries alike).
    public var maxEntries: Int
    /// Most uncompressed bytes in one entry.
    public var maxEntrySize: Int
    /// Most uncompressed bytes in all entries together.
    public var maxTotalSize: Int
    /// Most bytes of the archive file itself (compressed).
    public var maxArchiveSize: Int
    /// Most bytes the decompressor may hand over in all, headers and padding included.
    public var maxStreamSize: Int
    /// Most `archive_read_*` calls in a row that neither read input, nor produce output, nor
    /// return an entry.
    public var maxStalledCalls: Int

    public init(
        maxEntries: Int = 10_000,
        maxEntrySize: Int = 64 << 20,
        maxTotalSize: Int = 256 << 20,
        maxArchiveSize: Int = 256 << 20,
        maxStreamSize: Int? = nil,
        maxStalledCalls: Int = 64
    ) {
        self.maxEntries = maxEntries
        self.maxEntrySize = maxEntrySize
        self.maxTotalSize = maxTotalSize
        self.maxArchiveSize = maxArchiveSize
        self.maxStreamSize = maxStreamSize ?? maxTotalSize + (32 << 20)
        self.maxStalledCalls = maxStalledCalls
    }

    /// 10,000 entries, 64 MiB per entry, 256 MiB in all, 256 MiB of archive, 288 MiB inflated
    /// with headers, 64 stalled calls.
    public static let `default` = ArchiveLimits()
}
