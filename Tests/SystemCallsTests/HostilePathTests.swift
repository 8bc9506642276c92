#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import SystemCalls

/// Paths that are not what they seem: a FIFO where a file is read, a device or link where a file
/// is replaced, a file where a folder is made, and two holders of one lock.
@Suite struct HostilePathTests {
    /// A reader refuses a FIFO by its type before it opens it: inotify reports every `open(2)` of
    /// the FIFO (an event queued at the moment of the open, so nothing is waited for), and there is
    /// none; opening it for real, the control, is reported.
    @Test(arguments: ["whole", "prefix", "chunks"])
    func aFIFOIsRefusedBeforeItIsOpened(reader: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("pipe")
        try #require(mkfifo(path, 0o600) == 0)
        let watch = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        try #require(watch >= 0, "inotify_init1: \(String(cString: strerror(errno)))")
        defer { close(watch) }
        try #require(inotify_add_watch(watch, path, UInt32(IN_OPEN)) >= 0)
        func opens() -> Int {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(watch, &buffer, buffer.count)
            return count > 0 ? count / MemoryLayout<inotify_event>.size : 0
        }
        let error = #expect(throws: FileError.self) {
            switch reader {
            case "whole": _ = try FileSystem.readFile(atPath: path, limit: 1 << 20)
            case "prefix": _ = try FileSystem.readPrefix(ofFileAtPath: path, count: 16)
            default: try FileSystem.forEachChunk(ofFileAtPath: path) { _ in }
            }
        }
        #expect(error == .notRegularFile(.fifo, path: path))
        #expect(opens() == 0, "the reader opened the FIFO")
        let control = open(path, O_RDONLY | O_NONBLOCK)
        if control >= 0 { close(control) }
        #expect(opens() == 1, "an open of the FIFO is reported")
    }

    @Test func anAtomicWriteRefusesAFIFOASymbolicLinkAndAFolder() throws {
        let folder = try TemporaryFolder()
        try #require(mkfifo(folder.file("pipe"), 0o600) == 0)
        let target = try folder.write("target", "kept")
        try FileManager.default.createSymbolicLink(atPath: folder.file("link"), withDestinationPath: target)
        try FileManager.default.createDirectory(atPath: folder.file("sub"), withIntermediateDirectories: false)
        for (name, kind) in [("pipe", FileKind.fifo), ("link", .symbolicLink), ("sub", .directory)] {
            #expect(throws: FileError.notRegularFile(kind, path: folder.file(name))) {
                try FileSystem.writeAtomically(Array("new".utf8), toPath: folder.file(name))
            }
        }
        #expect(try folder.contents("target") == "kept")
        #expect(try FileSystem.status(atPath: folder.file("pipe"), followingLinks: false)?.kind == .fifo)
        #expect(try FileSystem.status(atPath: folder.file("link"), followingLinks: false)?.kind == .symbolicLink)
        #expect(try folder.names() == ["link", "pipe", "sub", "target"], "no temporary file is left behind")
    }

    /// Run as root, replacing a device node by rename turns it into a file: `/dev/full` was. As
    /// root the test makes a node of its own; otherwise `/dev/null` itself stands in (a user
    /// cannot replace it, so a regression fails the test without harming the machine).
    @Test func anAtomicWriteLeavesADeviceNodeAlone() throws {
        let folder = try TemporaryFolder()
        var path = "/dev/null"
        if getuid() == 0 {
            path = folder.file("null")
            let nullDevice = dev_t((1 << 8) | 3)  // major 1, minor 3
            try #require(mknod(path, S_IFCHR | 0o666, nullDevice) == 0)
        }
        #expect(throws: FileError.notRegularFile(.characterDevice, path: path)) {
            try FileSystem.writeAtomically(Array("receipt".utf8), toPath: path)
        }
        #expect(try FileSystem.status(atPath: path, followingLinks: false)?.kind == .characterDevice)
    }

    @Test func statusTellsALinkFromWhatItPointsTo() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("target", "12345")
        try FileManager.default.createSymbolicLink(atPath: folder.file("link"), withDestinationPath: target)
        #expect(try FileSystem.status(atPath: folder.file("link"), followingLinks: false)?.kind == .symbolicLink)
        let followed = try FileSystem.status(atPath: folder.file("link"), followingLinks: true)
        #expect(followed?.kind == .regular)
        #expect(followed?.size == 5)
        #expect(try FileSystem.status(atPath: folder.file("absent"), followingLinks: false) == nil)
    }

    @Test func aFolderIsMadeWithTheFoldersAboveIt() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("a/b/c")
        try FileSystem.createFolder(atPath: path, permissions: 0o700)
        try FileSystem.createFolder(atPath: path, permissions: 0o700)
        #expect(try FileSystem.status(atPath: path, followingLinks: false)?.kind == .directory)
        #expect(try folder.permissions("a/b/c") == 0o700)
    }

    @Test func aFileWhereAFolderIsNeededIsNamed() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("home", "not a folder")
        let error = #expect(throws: FileError.self) { try FileSystem.createFolder(atPath: file + "/account", permissions: 0o700) }
        #expect(error == .notFolder(.regular, path: file))
        #expect(error?.description == "\(file) is a regular file, not a folder")
    }

    @Test func aLinkedLastFolderIsRefusedButLinkedFoldersAboveAreFollowed() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder.file("home"), withDestinationPath: folder.file("real"))
        try FileSystem.createFolder(atPath: folder.file("home/device"), permissions: 0o700)
        #expect(try FileSystem.status(atPath: folder.file("real/device"), followingLinks: false)?.kind == .directory)
        try FileManager.default.createSymbolicLink(atPath: folder.file("real/account"), withDestinationPath: "/tmp")
        #expect(throws: FileError.notFolder(.symbolicLink, path: folder.file("home/account"))) {
            try FileSystem.createFolder(atPath: folder.file("home/account"), permissions: 0o700)
        }
    }

    @Test func aLockIsHeldByOneHolderAtATime() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("slot.lock")
        var first = try FileLock.tryLocking(atPath: path)
        #expect(first != nil)
        #expect(try FileLock.tryLocking(atPath: path) == nil, "a second holder got the lock")
        first = nil
        #expect(try FileLock.tryLocking(atPath: path) != nil, "the lock was not released")
        #expect(try folder.permissions("slot.lock") == 0o600)
        // Unlocked before its value goes: the next holder gets it while the first is still here.
        let held = try #require(try FileLock.tryLocking(atPath: path))
        #expect(try FileLock.tryLocking(atPath: path) == nil)
        held.unlock()
        #expect(try FileLock.tryLocking(atPath: path) != nil, "unlock did not release it")
        held.unlock()
    }

    @Test func aLockFileThatIsALinkIsRefused() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("elsewhere", "")
        try FileManager.default.createSymbolicLink(atPath: folder.file("slot.lock"), withDestinationPath: target)
        #expect(throws: FileError.notRegularFile(.symbolicLink, path: folder.file("slot.lock"))) {
            _ = try FileLock.tryLocking(atPath: folder.file("slot.lock"))
        }
    }
}

/// Set once by another thread, read by the test.
