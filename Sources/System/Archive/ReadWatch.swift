internal import CArchive

/// The bounds checked after every `archive_read_*` call, whatever libarchive does inside:
/// what it pulled from the source, what the decompressor handed over, and whether the call
/// made any progress at all.
struct ReadWatch {
    private let archive: OpaquePointer
    private let source: BoundedSource
    private let limits: ArchiveLimits
    private var progress: ProgressCounter

    init(archive: OpaquePointer, source: BoundedSource, limits: ArchiveLimits) {
        self.archive = archive
        self.source = source
        self.limits = limits
        self.progress = ProgressCounter(maxStalled: limits.maxStalledCalls)
    }

    /// The source's refusal, if it refused.
    func refusal() -> ArchiveProblem? {
        source.refusalMessage.map { ArchiveProblem(.readLimit, "archive refused: \($0)") }
    }

    /// The problem that ends the reading, if a bound was passed. `entries` and `data` are what
    /// the caller has received so far, counted as progress.
    mutating func check(entries: Int, data: Int) -> ArchiveProblem? {
        if let refusal = refusal() { return refusal }
        // archive_filter_bytes(a, 0): bytes out of the last filter, what the format reader consumed.
        let inflated = archive_filter_bytes(archive, 0)
        if inflated > Int64(limits.maxStreamSize) {
            return ArchiveProblem(.totalTooLarge, "archive inflates past the limit of \(limits.maxStreamSize) bytes, headers included")
        }
        let now = [Int64(source.pulled), inflated, archive_filter_bytes(archive, -1), Int64(entries), Int64(data)]
        if !progress.record(now) {
            return ArchiveProblem(.readLimit, "archive refused: \(progress.stalled) reads in a row made no progress")
        }
        return nil
    }
}

/// Counts calls in a row whose counters did not move.
struct ProgressCounter {
    let maxStalled: Int
    private var last: [Int64]?
    private(set) var stalled = 0

    init(maxStalled: Int) {
        self.maxStalled = maxStalled
    }

    /// Records the counters after a call; `false` once more than `maxStalled` calls in a row left
    /// them unchanged.
    mutating func record(_ counters: [Int64]) -> Bool {
        if counters == last {
            stalled += 1
        } else {
            stalled = 0
            last = counters
        }
        return stalled <= maxStalled
    }
}

/// The first bytes inside one compression layer, read only to say why a compressed archive is
/// not a tar: libarchive with that one filter (`archive_read_append_filter`) and the raw format
/// (`archive_read_support_format_raw`), at most 512 bytes.
enum InnerLayer {
    static func start(of buffer: UnsafeRawBufferPointer, compression: ArchiveCompression, limits: ArchiveLimits) -> [UInt8] {
        guard let archive = archive_read_new() else { return [] }
        defer { archive_read_free(archive) }
        guard archive_read_append_filter(archive, compression.filterCode) == ARCHIVE_OK,
              archive_read_support_format_raw(archive) == ARCHIVE_OK else { return [] }
        let source = BoundedSource(buffer, seekable: false, maxEntries: 1)
        return withExtendedLifetime(source) {
            var watch = ReadWatch(archive: archive, source: source, limits: limits)
            guard source.open(archive, seekable: false) == ARCHIVE_OK,
                  let entry = archive_entry_new() else { return [] }
            defer { archive_entry_free(entry) }
            guard archive_read_next_header2(archive, entry) == ARCHIVE_OK else { return [] }
            var bytes: [UInt8] = []
            var block: UnsafeRawPointer?
            var size = 0
            var offset: la_int64_t = 0
            while bytes.count < 512 {
                let status = archive_read_data_block(archive, &block, &size, &offset)
                if watch.check(entries: 1, data: bytes.count + size) != nil { break }
                if status != ARCHIVE_OK { break }
                if let block, size > 0 {
                    bytes.append(contentsOf: UnsafeRawBufferPointer(start: block, count: min(size, 512 - bytes.count)))
                }
            }
            return bytes
        }
    }
}
