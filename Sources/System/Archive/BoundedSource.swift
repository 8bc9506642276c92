internal import CArchive

/// Bytes in memory handed to libarchive through read, skip and (for zip) seek callbacks that
/// count what libarchive pulls, so that no loop inside the library can read without end.
///
/// A tar is read front to back: without a seek callback the bytes handed out can never exceed
/// the archive's size, and reads at the end are counted so that a reader asking again and again
/// for bytes that are not there stops. A zip is read through its central directory, so it can
/// seek; each seek costs a fresh chunk, and the total handed out is capped.
final class BoundedSource {
    /// Why the source refused to hand out more, once it has.
    enum Refusal: Equatable {
        case pulledTooMuch(limit: Int)
        case readPastEndTooOften(times: Int)
    }

    private let buffer: UnsafeRawBufferPointer
    private let chunk: Int
    private let maxPulled: Int
    private var position = 0
    private var readsAtEnd = 0
    /// Bytes handed to libarchive so far.
    private(set) var pulled = 0
    /// Set when a limit ended the reading.
    private(set) var refusal: Refusal?

    /// Reads at the end of the data before the source gives up: libarchive asks once or twice.
    static let maxReadsAtEnd = 64

    /// A source over `buffer`. `seekable` for zip: chunks of 8 KiB and a cap on what is handed
    /// out (twice the archive, plus a chunk for every allowed entry and a margin of 16 MiB).
    init(_ buffer: UnsafeRawBufferPointer, seekable: Bool, maxEntries: Int) {
        self.buffer = buffer
        if seekable {
            chunk = 8 << 10
            maxPulled = 2 * buffer.count + (maxEntries + 64) * chunk + (16 << 20)
        } else {
            chunk = max(buffer.count, 1)
            maxPulled = buffer.count
        }
    }

    /// Registers the callbacks with `archive` (`archive_read_set_read_callback`,
    /// `archive_read_set_skip_callback`, `archive_read_set_seek_callback` when seekable,
    /// `archive_read_set_callback_data`) and opens it (`archive_read_open1`).
    /// The source must outlive the reading.
    func open(_ archive: OpaquePointer, seekable: Bool) -> Int32 {
        archive_read_set_read_callback(archive, boundedRead)
        archive_read_set_skip_callback(archive, boundedSkip)
        if seekable { archive_read_set_seek_callback(archive, boundedSeek) }
        archive_read_set_callback_data(archive, Unmanaged.passUnretained(self).toOpaque())
        return archive_read_open1(archive)
    }

    func read(_ out: UnsafeMutablePointer<UnsafeRawPointer?>?) -> Int {
        let count = min(chunk, buffer.count - position)
        if count <= 0 {
            readsAtEnd += 1
            if readsAtEnd > Self.maxReadsAtEnd {
                refusal = .readPastEndTooOften(times: readsAtEnd)
                return -1
            }
            return 0
        }
        if pulled + count > maxPulled {
            refusal = .pulledTooMuch(limit: maxPulled)
            return -1
        }
        out?.pointee = buffer.baseAddress.map { UnsafeRawPointer($0 + position) }
        position += count
        pulled += count
        return count
    }

    func skip(_ request: Int64) -> Int64 {
        let step = Int(min(max(request, 0), Int64(buffer.count - position)))
        position += step
        return Int64(step)
    }

    func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        let base: Int64
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = Int64(position)
        case SEEK_END: base = Int64(buffer.count)
        default: return Int64(ARCHIVE_FATAL)
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0, target <= Int64(buffer.count) else { return Int64(ARCHIVE_FATAL) }
        position = Int(target)
        return target
    }

    /// Words for the refusal, naming the limit.
    var refusalMessage: String? {
        switch refusal {
        case .pulledTooMuch(let limit):
            "reading asked for more than \(limit) bytes of a \(buffer.count)-byte archive"
        case .readPastEndTooOften(let times):
            "reading asked for data past the end of the archive \(times) times"
        case nil:
            nil
        }
    }
}

private func source(_ context: UnsafeMutableRawPointer?) -> BoundedSource? {
    context.map { Unmanaged<BoundedSource>.fromOpaque($0).takeUnretainedValue() }
}

private let boundedRead: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeRawPointer?>?) -> la_ssize_t = { _, context, out in
    la_ssize_t(source(context)?.read(out) ?? -1)
}

private let boundedSkip: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, la_int64_t) -> la_int64_t = { _, context, request in
    source(context)?.skip(request) ?? 0
}

private let boundedSeek: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, la_int64_t, Int32) -> la_int64_t = { _, context, offset, whence in
    source(context)?.seek(offset, whence) ?? la_int64_t(ARCHIVE_FATAL)
}
