import Archive
import TestSupport
import Foundation
import PropertyList
import Signing
import Testing
import WordPacks

@Suite struct PackBuildTests {
    @Test func sameSourceGivesIdenticalBytes() throws {
        let first = try PackBuilder().build(Fixture.validSource)
        let second = try PackBuilder().build(Fixture.validSource)
        #expect(first.bytes == second.bytes)
    }

    @Test func roundTripKeepsEveryWordAndClue() throws {
        let list = Fixture.xml("""
            <array>
            <dict><key>word</key><string>view controller</string><key>clue</key><string>Manages a screen</string></dict>
            <string>ma\u{F1}ana</string>
            <string>rock 'n' roll</string>
            <string>\u{65E5}\u{672C}</string>
            </array>
            """)
        let output = try PackBuilder().build(Fixture.source([("Info.plist", Fixture.manifest()), ("lists/mixed.plist", list)]))
        let read = PackVerifier().verify(output.bytes)
        #expect(read.isValid, "\(read.problems)")
        let words = try #require(read.pack?.lists.first?.words)
        #expect(words == [
            PackWord("view controller", clue: "Manages a screen"), PackWord("ma\u{F1}ana"), PackWord("rock 'n' roll"),
            PackWord("\u{65E5}\u{672C}"),
        ])
        #expect(read.pack?.lists.first?.name == "mixed")
        #expect(read.pack?.lists.first?.path == "lists/mixed.plist")
    }

    @Test func archivedManifestGetsWordCountAndFileDigests() throws {
        let output = try PackBuilder().build(Fixture.validSource)
        #expect(output.pack.manifest.wordCount == Fixture.animals.count)
        let listBytes = Fixture.wordList(Fixture.animals)
        let record = try #require(output.pack.manifest.files?["words.plist"])
        #expect(record.size == listBytes.count)
        // Digest computed independently of the Signing module, by the system's sha256sum.
        let directory = try TemporaryDirectory()
        let path = try directory.write("words.plist", listBytes)
        #expect(record.sha256.hex == (try shell("sha256sum '\(path)'")).prefix(64).description)
    }

    @Test func entriesAreSortedInOneFolderNamedAfterTheProduct() throws {
        let source = Fixture.source([
            ("Info.plist", Fixture.manifest()), ("b.plist", Fixture.wordList(["bee"])), ("a.plist", Fixture.wordList(["ant"])),
            ("Z/c.plist", Fixture.wordList(["cow"])),
        ])
        let output = try PackBuilder().build(source)
        var names: [String] = []
        _ = ArchiveReader().read(output.bytes) { names.append($0.name.path) }
        let folder = Fixture.productID
        #expect(names == ["\(folder)/Info.plist", "\(folder)/Z/c.plist", "\(folder)/a.plist", "\(folder)/b.plist"])
    }

    @Test func invalidSourceIsRefusedWithItsProblems() throws {
        let source = Fixture.source([("Info.plist", Fixture.manifest()), ("words.plist", Fixture.wordList(["cat", "c@t"]))])
        let error = try #require(throws: PackBuildError.self) { try PackBuilder().build(source) }
        #expect(error.problems.map(\.kind) == [.invalidWord])
        #expect(error.problems.first?.entry == "words.plist")
    }

    @Test func staleWordCountInTheSourceIsReplaced() throws {
        let source = Fixture.source([
            ("Info.plist", Fixture.manifest(extra: "<key>WordCount</key><integer>99</integer>")),
            ("words.plist", Fixture.wordList(Fixture.animals)),
        ])
        #expect(try PackBuilder().build(source).pack.manifest.wordCount == Fixture.animals.count)
    }

    @Test func tamperingAfterTheBuildIsCaught() throws {
        let built = try PackBuilder().build(Fixture.validSource)
        var files: [(String, [UInt8])] = []
        _ = ArchiveReader().read(built.bytes) { files.append(($0.name.path, $0.bytes)) }
        let tampered = files.map { name, bytes in
            ArchiveWriter.Entry.file(name, name.hasSuffix("words.plist") ? Fixture.wordList(Fixture.animals + ["unicorn"]) : bytes)
        } + [.file("\(Fixture.productID)/extra.plist", Fixture.wordList(["smuggled"]))]
        let kinds = Set(PackVerifier().verify(try Fixture.archive(tampered)).problems.map(\.kind))
        #expect(kinds == [.fileSizeMismatch, .fileNotListed, .wordCountMismatch])
    }

    @Test func signedPackVerifiesWithItsKeyOnly() throws {
        let key = SigningKey.generate()
        let other = SigningKey.generate()
        let built = try PackBuilder(signingKey: key).build(Fixture.validSource)
        #expect(PackVerifier(trustedKeys: [key.publicKey], requireSignature: true).verify(built.bytes).isValid)
        let untrusted = PackVerifier(trustedKeys: [other.publicKey]).verify(built.bytes)
        #expect(untrusted.problems.map(\.kind) == [.signatureUntrusted])
    }

    @Test func unsignedPackFailsOnlyWhenASignatureIsRequired() throws {
        let built = try PackBuilder().build(Fixture.validSource)
        #expect(PackVerifier(trustedKeys: [SigningKey.generate().publicKey]).verify(built.bytes).isValid)
        #expect(PackVerifier(requireSignature: true).verify(built.bytes).problems.map(\.kind) == [.signatureMissing])
    }

    @Test func manifestChangedAfterSigningIsRefused() throws {
        let key = SigningKey.generate()
        let built = try PackBuilder(signingKey: key).build(Fixture.validSource)
        var entries: [ArchiveWriter.Entry] = []
        _ = ArchiveReader().read(built.bytes) { file in
            var bytes = file.bytes
            if file.name.lastComponent == "Info.plist" {
                bytes = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "Test Words", with: "Free Words").utf8)
            }
            entries.append(.file(file.name.path, bytes))
        }
        let result = PackVerifier(trustedKeys: [key.publicKey]).verify(try Fixture.archive(entries))
        #expect(result.problems.map(\.kind) == [.signatureInvalid])
    }

    @Test func buildReadsAFolderFromDisk() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("src/Info.plist", Fixture.manifest())
        _ = try directory.write("src/words/animals.plist", Fixture.wordList(Fixture.animals))
        _ = try directory.write("src/.DS_Store", [0, 1, 2])
        let output = try PackBuilder().build(folder: directory.path + "/src")
        #expect(output.pack.lists.map(\.path) == ["words/animals.plist"])
        #expect(output.pack.manifest.files.map { Array($0.keys) } == ["words/animals.plist"])
    }

    @Test func buildRefusesASymbolicLinkInTheFolder() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("src/Info.plist", Fixture.manifest())
        _ = try directory.write("src/words.plist", Fixture.wordList(Fixture.animals))
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/src/link.plist", withDestinationPath: "/etc/passwd")
        let error = try #require(throws: PackBuildError.self) { try PackBuilder().build(folder: directory.path + "/src") }
        #expect(error.problems.map(\.kind) == [.symbolicLink])
    }
}

