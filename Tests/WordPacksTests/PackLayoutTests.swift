import Archive
import Foundation
import PropertyList
import Testing
import WordPacks

/// Layouts that must read unchanged: the classic sample's words.plist, Apple's hosted content,
/// files at the archive root, zip, every compression, binary plists.
@Suite struct PackLayoutTests {
    @Test func classicNameAndWordsDictionary() throws {
        let result = PackVerifier().verify(try Fixture.archive(Fixture.validEntries()))
        #expect(result.isValid, "\(result.problems)")
        #expect(result.pack?.lists.map(\.name) == ["Animals"])
        #expect(result.pack?.lists.first?.words.map(\.text) == Fixture.animals)
        #expect(result.pack?.layout == .standard)
    }

    @Test func plainArrayTakesItsCategoryFromTheFileName() throws {
        let list = Fixture.xml("<array><string>red</string><string>green</string></array>")
        let result = PackVerifier().verify(try Fixture.archive([.file("p/Info.plist", Fixture.manifest()), .file("p/Colours.plist", list)]))
        #expect(result.pack?.lists.map(\.name) == ["Colours"])
    }

    @Test func hostedContentWithContentsFolder() throws {
        let info = Fixture.xml("<dict><key>ContentVersion</key><string>1.2</string><key>IAPProductIdentifier</key><string>com.example.words.ios</string></dict>")
        let bytes = try Fixture.archive([
            .file("com.example.words.ios/ContentInfo.plist", info),
            .file("com.example.words.ios/Contents/words.plist", Fixture.wordList(["delegate", "protocol"], name: "iOS Words")),
        ])
        let result = PackVerifier().verify(bytes)
        #expect(result.isValid, "\(result.problems)")
        #expect(result.pack?.layout == .hostedContent)
        #expect(result.pack?.manifest.productIdentifier.rawValue == "com.example.words.ios")
        #expect(result.pack?.manifest.contentVersion.text == "1.2")
        #expect(result.pack?.lists.first?.path == "Contents/words.plist")
    }

    @Test func hostedContentWithFilesBesideIt() throws {
        let info = Fixture.xml("<dict><key>ContentVersion</key><string>3</string><key>IAPProductIdentifier</key><string>com.example.words.x</string></dict>")
        let result = PackVerifier().verify(try Fixture.archive([.file("ContentInfo.plist", info), .file("words.plist", Fixture.wordList(["alpha", "beta"]))]))
        #expect(result.isValid, "\(result.problems)")
        #expect(result.pack?.wordCount == 2)
    }

    @Test func hostedContentMustAgreeWithItsInfoPlist() throws {
        let info = Fixture.xml("<dict><key>ContentVersion</key><string>2.0</string><key>IAPProductIdentifier</key><string>\(Fixture.productID)</string></dict>")
        let result = PackVerifier().verify(try Fixture.archive([
            .file("ContentInfo.plist", info), .file("Contents/Info.plist", Fixture.manifest()), .file("Contents/words.plist", Fixture.wordList(["alpha"] + Fixture.animals)),
        ]))
        #expect(result.problems.map(\.kind) == [.manifestMismatch])
    }

    @Test func filesAtTheArchiveRoot() throws {
        let result = PackVerifier().verify(try Fixture.archive([.file("Info.plist", Fixture.manifest()), .file("words.plist", Fixture.wordList(Fixture.animals))]))
        #expect(result.isValid, "\(result.problems)")
    }

    @Test(arguments: [ArchiveWriter.Compression.none, .gzip, .bzip2, .xz, .zstd])
    func everyAcceptedCompression(_ compression: ArchiveWriter.Compression) throws {
        let result = PackVerifier().verify(try Fixture.archive(Fixture.validEntries(), compression: compression))
        #expect(result.isValid, "\(result.problems)")
        #expect(result.archive?.format == .tar)
    }

    @Test func zipArchive() throws {
        let result = PackVerifier().verify(try Fixture.archive(Fixture.validEntries(), format: .zip, compression: .none))
        #expect(result.isValid, "\(result.problems)")
        #expect(result.archive?.format == .zip)
    }

    @Test func binaryPlistsWrittenByFoundation() throws {
        let words: [Any] = ["quartz", ["word": "jukebox", "clue": "Plays records for coins"]]
        let list = try PropertyListSerialization.data(fromPropertyList: ["name": "Hard", "words": words], format: .binary, options: 0)
        let manifest = try PropertyListSerialization.data(
            fromPropertyList: ["FormatVersion": 1, "ProductIdentifier": "com.example.bin", "ContentVersion": "1", "DisplayName": "Binary"],
            format: .binary, options: 0)
        let result = PackVerifier().verify(try Fixture.archive([.file("Info.plist", Array(manifest)), .file("hard.plist", Array(list))]))
        #expect(result.isValid, "\(result.problems)")
        #expect(result.pack?.lists.first?.format == .binary)
        #expect(result.pack?.lists.first?.words == [PackWord("quartz"), PackWord("jukebox", clue: "Plays records for coins")])
    }

    @Test func duplicatesAcrossListsCompareByNormalisationAndCase() throws {
        let result = PackVerifier().verify(try Fixture.archive([
            .file("p/Info.plist", Fixture.manifest()), .file("p/a.plist", Fixture.wordList(["Caf\u{E9}", "tea"])),
            .file("p/b.plist", Fixture.wordList(["CAF\u{C9}", "milk"])),
        ]))
        #expect(result.problems.map(\.kind) == [.duplicateWord])
        #expect(result.problems.first?.entry == "p/b.plist")
    }

    @Test func macOSLeftoversAreIgnored() throws {
        let result = PackVerifier().verify(try Fixture.archive(Fixture.validEntries() + [
            .file("__MACOSX/pack/._words.plist", [0, 5, 22, 7]), .file("pack/.DS_Store", [0, 0, 0, 1]),
        ]))
        #expect(result.isValid, "\(result.problems)")
    }
}
