#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import SystemCalls

@Suite struct FileReadingTests {
    @Test func aWholeFileIsRead() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("words", "apple\npear\n")
        #expect(try FileSystem.readFile(atPath: path, limit: 11) == Array("apple\npear\n".utf8))
    }

    @Test func anEmptyFileIsRead() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("empty", "")
        #expect(try FileSystem.readFile(atPath: path, limit: 0) == [])
    }

    @Test func aFileOverTheLimitIsRefusedWithItsSize() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("big", String(repeating: "x", count: 100))
        #expect(throws: FileError.tooLarge(size: 100, limit: 99, path: path)) {
            try FileSystem.readFile(atPath: path, limit: 99)
        }
        #expect(try FileSystem.readFile(atPath: path, limit: 100).count == 100)
    }

    @Test func aMissingFileIsNamedWithItsErrno() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("absent")
        let error = #expect(throws: FileError.self) { try FileSystem.readFile(atPath: path, limit: 10) }
        #expect(error == .system(.noSuchFile, .open, path: path))
        #expect(error?.errno == .noSuchFile)
        #expect(error?.description == "cannot open \(path): No such file or directory")
    }

    @Test func errnoMatchesAFileErrorInACatch() throws {
        let folder = try TemporaryFolder()
        var matched = false
        do {
            _ = try FileSystem.readFile(atPath: folder.file("absent"), limit: 10) as [UInt8]
        } catch Errno.noSuchFile {
            matched = true
        } catch {}
        #expect(matched)
    }

    @Test func aFolderIsRefused() throws {
        let folder = try TemporaryFolder()
        #expect(throws: FileError.notRegularFile(.directory, path: folder.path)) {
            try FileSystem.readFile(atPath: folder.path, limit: 1 << 20)
        }
    }

    @Test func aDeviceIsRefusedBeforeAnyRead() {
        // /dev/zero never ends: reading it at all would fill memory up to the limit.
        #expect(throws: FileError.notRegularFile(.characterDevice, path: "/dev/zero")) {
            try FileSystem.readFile(atPath: "/dev/zero", limit: 1 << 30)
        }
        #expect(FileError.notRegularFile(.characterDevice, path: "/dev/zero").description
            == "/dev/zero is a character device, not a regular file")
    }

    enum Reader: String, CaseIterable, Sendable {
        case whole, prefix, chunks

        func read(_ path: String) throws(FileError) {
            switch self {
            case .whole: _ = try FileSystem.readFile(atPath: path, limit: 1 << 20)
            case .prefix: _ = try FileSystem.readPrefix(ofFileAtPath: path, count: 16)
            case .chunks: try FileSystem.forEachChunk(ofFileAtPath: path) { _ in }
            }
        }
    }

    /// Without `O_NONBLOCK`, opening a FIFO with no writer waits forever.
    @Test(arguments: Reader.allCases)
    func aFIFOIsRefusedWithoutBlocking(reader: Reader) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("pipe")
        try #require(mkfifo(path, 0o600) == 0)
        let outcome = Outcome()
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do throws(FileError) { try reader.read(path) } catch { outcome.error = error }
            finished.signal()
        }
        if finished.wait(timeout: .now() + 10) == .timedOut {
            Issue.record("reading a FIFO blocked")
            // A writer that opens and closes lets the blocked reader see the end of input.
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            finished.wait()
        }
        #expect(outcome.error == .notRegularFile(.fifo, path: path))
    }

    @Test func aPrefixIsTheFirstBytes() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("words", "abcdefghij")
        #expect(try FileSystem.readPrefix(ofFileAtPath: path, count: 4) == Array("abcd".utf8))
        #expect(try FileSystem.readPrefix(ofFileAtPath: path, count: 100) == Array("abcdefghij".utf8))
        #expect(try FileSystem.readPrefix(ofFileAtPath: path, count: 0) == [])
    }

    @Test func chunksCoverTheFileInOrder() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("words", "abcdefghij")
        var chunks: [String] = []
        let total = try FileSystem.forEachChunk(ofFileAtPath: path, chunkSize: 4) { chunks.append(String(decoding: $0, as: UTF8.self)) }
        #expect(chunks == ["abcd", "efgh", "ij"])
        #expect(total == 10)
    }
}

/// What the reading thread saw.
private final class Outcome: @unchecked Sendable {
    // Written by the reading thread before it signals, read by the test after the wait.
    var error: FileError?
}
