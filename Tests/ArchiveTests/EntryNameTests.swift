import Archive
import Testing

@Suite struct EntryNameTests {
    @Test(arguments: [
        ("pack/words.plist", "pack/words.plist"),
        ("./pack//words.plist", "pack/words.plist"),
        ("pack/./a/b.plist", "pack/a/b.plist"),
        ("pack/\u{F1}and\u{FA}.plist", "pack/\u{F1}and\u{FA}.plist"),
    ])
    func normalises(_ raw: String, _ expected: String) throws {
        let name = try EntryName.check(Array(raw.utf8)).get()
        #expect(name?.path == expected)
    }

    @Test func archiveRootIsNoName() throws {
        #expect(try EntryName.check(Array("./".utf8)).get() == nil)
    }

    @Test(arguments: [
        ("/etc/passwd", ArchiveProblem.Kind.absolutePath),
        ("C:/Windows/evil", .absolutePath),
        ("../up", .parentReference),
        ("a/../../up", .parentReference),
        ("a\\b", .badName),
        ("tab\there", .controlCharacter),
        ("del\u{7F}", .controlCharacter),
        ("c1\u{85}", .controlCharacter),
        ("rtl\u{202E}txt.exe", .controlCharacter),
    ])
    func refuses(_ raw: String, _ kind: ArchiveProblem.Kind) {
        guard case .failure(let problem) = EntryName.check(Array(raw.utf8)) else {
            Issue.record("accepted \(raw)")
            return
        }
        #expect(problem.kind == kind)
    }

    @Test func invalidUTF8IsShownByteByByte() {
        let raw: [UInt8] = Array("bad".utf8) + [0xFF] + Array(".plist".utf8)
        guard case .failure(let problem) = EntryName.check(raw) else {
            Issue.record("accepted invalid UTF-8")
            return
        }
        #expect(problem.kind == .notUTF8)
        #expect(problem.entry == "bad\\xff.plist")
    }
}

@Suite struct ArchiveRoundTripTests {
    @Test(arguments: [ArchiveWriter.Format.pax, .ustar, .gnutar, .zip])
    func filesComeBackByteForByte(_ format: ArchiveWriter.Format) throws {
        let files: [(String, [UInt8])] = [("a/one.txt", Array("one".utf8)), ("a/\u{E9}t\u{E9}.bin", [0, 1, 2, 255]), ("b/empty", [])]
        let bytes = try ArchiveWriter(format: format, compression: format == .zip ? .none : .gzip).write(files.map { .file($0.0, $0.1) })
        var read: [(String, [UInt8])] = []
        let summary = ArchiveReader().read(bytes) { read.append(($0.name.path, $0.bytes)) }
        #expect(summary.problems.isEmpty)
        #expect(read.map(\.0) == files.map(\.0))
        #expect(read.map(\.1) == files.map(\.1))
    }

    @Test func directoriesAreSkippedNotReported() throws {
        let bytes = try ArchiveWriter().write([ArchiveWriter.Entry("d", .directory), .file("d/f", [1])])
        var names: [String] = []
        let summary = ArchiveReader().read(bytes) { names.append($0.name.path) }
        #expect(summary.problems.isEmpty)
        #expect(names == ["d/f"])
        #expect(summary.entryCount == 2)
    }

    @Test func gzipOutputHasNoTimestamp() throws {
        let bytes = try ArchiveWriter().write([.file("f", [1, 2, 3])])
        #expect(Array(bytes.prefix(2)) == [0x1F, 0x8B])
        #expect(Array(bytes[4..<8]) == [0, 0, 0, 0])  // MTIME field of the gzip header
    }

    @Test func entryLimitStopsReading() throws {
        let bytes = try ArchiveWriter().write((0..<5).map { .file("f\($0)", [1]) })
        let summary = ArchiveReader(limits: ArchiveLimits(maxEntries: 3)).read(bytes) { _ in }
        #expect(summary.problems.map(\.kind) == [.tooManyEntries])
    }
}
