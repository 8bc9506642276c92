import Foundation
import Testing
import SystemCalls

@Suite struct FileWritingTests {
    @Test(arguments: [0o600, 0o664])
    func aNewFileHasExactlyThePermissionsAsked(permissions: Int) throws {
        let folder = try TemporaryFolder()
        try FileSystem.createNew(atPath: folder.file("secret"), containing: Array("seed".utf8), permissions: UInt32(permissions))
        #expect(try folder.permissions("secret") == permissions)
        #expect(try folder.contents("secret") == "seed")
    }

    @Test func anExistingFileIsNotOverwritten() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("secret", "old")
        #expect(throws: FileError.system(.fileExists, .create, path: path)) {
            try FileSystem.createNew(atPath: path, containing: Array("new".utf8), permissions: 0o600)
        }
        #expect(try folder.contents("secret") == "old")
        #expect(try folder.names() == ["secret"], "no temporary file is left behind")
    }

    @Test func createNewRefusesADanglingSymbolicLink() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.file("link"), withDestinationPath: folder.file("elsewhere"))
        #expect(FileSystem.exists(atPath: folder.file("link")))
        #expect(throws: FileError.system(.fileExists, .create, path: folder.file("link"))) {
            try FileSystem.createNew(atPath: folder.file("link"), containing: [1], permissions: 0o600)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("elsewhere")))
    }

    @Test func anAtomicWriteReplacesTheBytesAndKeepsThePermissions() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("Catalog.plist")
        try FileSystem.createNew(atPath: path, containing: Array("old".utf8), permissions: 0o640)
        try FileSystem.writeAtomically(Array("new bytes".utf8), toPath: path)
        #expect(try folder.contents("Catalog.plist") == "new bytes")
        #expect(try folder.permissions("Catalog.plist") == 0o640)
        #expect(try folder.names() == ["Catalog.plist"], "no temporary file is left behind")
    }

    @Test func anAtomicWriteGivesANewFile0644OrThePermissionsAsked() throws {
        let folder = try TemporaryFolder()
        try FileSystem.writeAtomically(Array("a".utf8), toPath: folder.file("plain"))
        try FileSystem.writeAtomically(Array("b".utf8), toPath: folder.file("secret"), permissions: 0o600)
        #expect(try folder.permissions("plain") == 0o644)
        #expect(try folder.permissions("secret") == 0o600)
    }

    @Test func aWriteIntoAMissingFolderNamesTheFolder() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("no-such-folder/file")
        let error = #expect(throws: FileError.self) { try FileSystem.writeAtomically([1], toPath: path) }
        #expect(error?.errno == .noSuchFile)
        #expect(error?.path.hasPrefix(folder.file("no-such-folder/")) == true)
    }

    @Test func removingAMissingFileSucceeds() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("gone", "x")
        try FileSystem.removeFile(atPath: path)
        try FileSystem.removeFile(atPath: path)
        #expect(!FileSystem.exists(atPath: path))
    }
}
