import Foundation
import TestSupport
import Testing
import Signing

/// Key files on disk: the pair `pack keygen` writes and the files `pack build`/`pack verify` read.
@Suite struct KeyFileStorageTests {
    private let scratch: Scratch
    private var folder: String { scratch.path }

    init() throws {
        scratch = try Scratch()
    }

    private func permissions(_ path: String) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test func aWrittenPairReadsBackWithPrivateSecret() throws {
        let key = SigningKey.generate()
        try key.write(secretKeyTo: folder + "/k.key", publicKeyTo: folder + "/k.pub")
        #expect(try permissions(folder + "/k.key") == 0o600)
        #expect(try permissions(folder + "/k.pub") == 0o644)
        #expect(try SigningKey.read(fileAt: folder + "/k.key").publicKey == key.publicKey)
        #expect(try SigningPublicKey.read(fileAt: folder + "/k.pub") == key.publicKey)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["k.key", "k.pub"])
    }

    @Test func anExistingFileStopsThePairBeforeAnythingIsWritten() throws {
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/k.pub"))
        #expect(throws: SigningError.keyFileExists(path: folder + "/k.pub")) {
            try SigningKey.generate().write(secretKeyTo: folder + "/k.key", publicKeyTo: folder + "/k.pub")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/k.key"))
        #expect(try String(contentsOfFile: folder + "/k.pub", encoding: .utf8) == "mine")
    }

    @Test func replacingWritesTheNewPair() throws {
        try SigningKey.generate().write(secretKeyTo: folder + "/k.key", publicKeyTo: folder + "/k.pub")
        let second = SigningKey.generate()
        try second.write(secretKeyTo: folder + "/k.key", publicKeyTo: folder + "/k.pub", replace: true)
        #expect(try SigningKey.read(fileAt: folder + "/k.key").publicKey == second.publicKey)
        #expect(try SigningPublicKey.read(fileAt: folder + "/k.pub") == second.publicKey)
        #expect(try permissions(folder + "/k.key") == 0o600)
    }

    @Test func aMissingFileSaysSo() {
        let path = folder + "/absent.pub"
        let error = #expect(throws: SigningError.self) { try SigningPublicKey.read(fileAt: path) }
        #expect(error == .missingKeyFile(.publicKey, path: path))
        #expect(error?.description == "no such key file '\(path)': check the path")
    }

    @Test func aFolderIsNotAKeyFile() {
        let error = #expect(throws: SigningError.self) { try SigningKey.read(fileAt: folder) }
        #expect(error?.description == "\(folder): cannot read this secret key file: it is a folder, not a key file")
    }

    @Test func aLargeFileIsRefusedUnread() throws {
        let path = folder + "/big.pub"
        try Data(repeating: 0x41, count: 5000).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SigningError.self) { try SigningPublicKey.read(fileAt: path) }
        #expect(error?.description == "\(path): cannot read this public key file: it is larger than 4096 bytes, too large for a key file")
    }

    @Test func aSecretKeyPassedAsPublicNamesTheFileAndTheFix() throws {
        let path = folder + "/k.key"
        try SigningKey.generate().write(toFileAt: path)
        let error = #expect(throws: SigningError.self) { try SigningPublicKey.read(fileAt: path) }
        #expect(error == .invalidKeyFile(path: path, problem: .wrongKind(found: .secretKey, expected: .publicKey)))
        #expect(error?.description == "\(path): this is a secret key; pass the .pub file")
    }

    @Test func aMissingFolderIsReportedWithTheKeyFile() {
        let path = folder + "/no-such-folder/k.key"
        let error = #expect(throws: SigningError.self) { try SigningKey.generate().write(toFileAt: path) }
        #expect(error == .unwritableKeyFile(path: path, reason: "No such file or directory"))
    }
}

private typealias Scratch = TemporaryDirectory
