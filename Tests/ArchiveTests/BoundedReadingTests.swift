@testable import Archive
import TestSupport
import Testing

private let files: [ArchiveWriter.Entry] = [.file("pack/Info.plist", Array("manifest".utf8)), .file("pack/words.plist", Array("words".utf8))]

private func read(_ bytes: [UInt8], limits: ArchiveLimits = .default) -> (ArchiveReadSummary, [String]) {
    var names: [String] = []
    let summary = ArchiveReader(limits: limits).read(bytes) { names.append($0.name.path) }
    return (summary, names)
}

@Suite struct BoundedReadingTests {
    @Test func storedGzipHelperIsReadAsOneLayer() throws {
        // The helper itself must make gzip that the reader takes, or the refusals below prove nothing.
        let tar = try ArchiveWriter(format: .pax, compression: .none).write(files)
        let (summary, names) = read(storedGzip(tar))
        #expect(summary.problems.isEmpty, "\(summary.problems)")
        #expect(summary.compression == "gzip")
        #expect(names == ["pack/Info.plist", "pack/words.plist"])
    }

    @Test(arguments: ArchiveWriter.Compression.allCases)
    func oneLayerOfEachCompressionIsRead(_ compression: ArchiveWriter.Compression) throws {
        let (summary, names) = read(try ArchiveWriter(format: .pax, compression: compression).write(files))
        #expect(summary.problems.isEmpty, "\(summary.problems)")
        #expect(summary.compression == compression.rawValue)
        #expect(names.count == 2)
    }

    @Test func gzipInsideGzipIsRefusedByName() throws {
        let (summary, names) = read(storedGzip(try ArchiveWriter(compression: .gzip).write(files)))
        #expect(names.isEmpty)
        #expect(summary.problems.map(\.kind) == [.nestedCompression])
        #expect(summary.problems.first?.message.hasPrefix("gzip data inside gzip: a second compression layer is refused") == true)
    }

    @Test(arguments: [ArchiveWriter.Compression.bzip2, .xz, .zstd])
    func otherCompressionInsideGzipIsRefusedByName(_ inner: ArchiveWriter.Compression) throws {
        let (summary, _) = read(storedGzip(try ArchiveWriter(compression: inner).write(files)))
        #expect(summary.problems.map(\.kind) == [.nestedCompression])
        #expect(summary.problems.first?.message.hasPrefix("\(inner.rawValue) data inside gzip") == true)
    }

    @Test func threeLayersAreRefusedAtTheSecond() throws {
        let bytes = storedGzip(storedGzip(try ArchiveWriter(compression: .xz).write(files)))
        let (summary, names) = read(bytes)
        #expect(names.isEmpty)
        #expect(summary.problems.map(\.kind) == [.nestedCompression])
        #expect(summary.problems.first?.message.hasPrefix("gzip data inside gzip") == true)
    }

    @Test func streamThatKeepsProducingGzipHeadersStopsAtTheSecondLayer() throws {
        // Every layer inflates to another gzip header, 1,000 deep: auto-detection would stack a
        // filter per layer; the reader configures one filter and refuses the header under it.
        var bytes = try ArchiveWriter(compression: .gzip).write(files)
        for _ in 0..<1_000 { bytes = storedGzip(bytes) }
        let (summary, _) = read(bytes)
        #expect(summary.problems.map(\.kind) == [.nestedCompression])
    }

    @Test func zipInsideGzipAndCpioInsideGzipAreNamed() throws {
        let zip = try ArchiveWriter(format: .zip, compression: .none).write(files)
        let (zipSummary, _) = read(storedGzip(zip))
        #expect(zipSummary.problems.map(\.kind) == [.unsupportedFormat])
        #expect(zipSummary.problems.first?.message.hasPrefix("a zip archive inside gzip is not accepted") == true)
        let cpio = try ArchiveWriter(format: .cpio, compression: .gzip).write(files)
        let (cpioSummary, _) = read(cpio)
        #expect(cpioSummary.problems.first?.message.hasPrefix("a cpio archive inside gzip is not accepted") == true)
    }

    @Test func plainTextInsideGzipIsNotATar() {
        let (summary, _) = read(storedGzip(Array(String(repeating: "not a tar\n", count: 100).utf8)))
        #expect(summary.problems.map(\.kind) == [.unsupportedFormat])
        #expect(summary.problems.first?.message.hasPrefix("the gzip data is not a tar archive") == true)
    }

    @Test func inflatedBytesAreBoundedHeadersIncluded() throws {
        // 40 entries of 100 bytes: 4,000 bytes of data, but over 40 KiB of tar headers and padding.
        let bytes = try ArchiveWriter(format: .ustar, compression: .gzip).write((0..<40).map { .file("f\($0)", Array(repeating: 1, count: 100)) })
        let generous = read(bytes, limits: ArchiveLimits(maxTotalSize: 10_000, maxStreamSize: 1 << 20)).0
        #expect(generous.problems.isEmpty)
        let tight = read(bytes, limits: ArchiveLimits(maxTotalSize: 10_000, maxStreamSize: 10_000)).0
        #expect(tight.problems.map(\.kind) == [.totalTooLarge])
        #expect(tight.problems.first?.message.contains("headers included") == true)
    }

    @Test func callsThatMakeNoProgressAreCounted() {
        var counter = ProgressCounter(maxStalled: 2)
        let results = [[0, 0], [0, 1], [0, 1], [0, 1], [0, 1], [5, 1]].map { counter.record($0) }
        // The third unchanged call in a row is refused; progress resets the count.
        #expect(results == [true, true, true, true, false, true])
        #expect(counter.stalled == 0)
    }

    @Test func readingPastTheEndIsCountedAndRefused() {
        let bytes: [UInt8] = Array(repeating: 7, count: 100)
        bytes.withUnsafeBytes { buffer in
            let source = BoundedSource(buffer, seekable: false, maxEntries: 10)
            var out: UnsafeRawPointer?
            #expect(source.read(&out) == 100)
            for _ in 0..<BoundedSource.maxReadsAtEnd { #expect(source.read(&out) == 0) }
            #expect(source.read(&out) == -1)
            #expect(source.refusal == .readPastEndTooOften(times: BoundedSource.maxReadsAtEnd + 1))
        }
    }

    @Test func seekableSourceCapsWhatItHandsOut() {
        let bytes: [UInt8] = Array(repeating: 7, count: 100_000)
        bytes.withUnsafeBytes { buffer in
            let source = BoundedSource(buffer, seekable: true, maxEntries: 0)
            var out: UnsafeRawPointer?
            var handedOut = 0
            while true {
                let count = source.read(&out)
                if count < 0 { break }
                handedOut += count
                _ = source.seek(0, 0)  // SEEK_SET: a reader that rereads the start for ever
            }
            #expect(source.refusal == .pulledTooMuch(limit: 2 * 100_000 + 64 * 8192 + (16 << 20)))
            #expect(handedOut <= 2 * 100_000 + 64 * 8192 + (16 << 20))
            #expect(handedOut > 16 << 20)
        }
    }

    @Test func damagedSecondHeaderEndsTheReadingInsteadOfBeingSkipped() throws {
        var tar = try ArchiveWriter(format: .ustar, compression: .none).write([.file("a", [1]), .file("b", [2]), .file("c", [3])])
        // Entry "b" starts at 1,024 (header + one padded block of "a"); break its checksum.
        #expect(tar[1024] == UInt8(ascii: "b"))
        tar[1024 + 148] = UInt8(ascii: "9")
        let (summary, names) = read(tar)
        #expect(names == ["a"])
        #expect(summary.problems.map(\.kind) == [.corrupt])
    }

    @Test(arguments: [
        ("compress (.Z) data", [UInt8]([0x1F, 0x9D, 0x90, 0x61])),
        ("lz4 data", [0x04, 0x22, 0x4D, 0x18, 0x64]),
        ("a RAR archive", Array("Rar!\u{1A}\u{07}\u{00}".utf8)),
    ])
    func foreignFormatsAreNamed(_ name: String, _ bytes: [UInt8]) {
        let (summary, _) = read(bytes + Array(repeating: 0, count: 600))
        #expect(summary.problems.map(\.kind) == [.unsupportedFormat])
        #expect(summary.problems.first?.message.hasPrefix(name) == true)
    }
}
