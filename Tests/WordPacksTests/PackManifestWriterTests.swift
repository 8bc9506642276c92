import Foundation
import TestSupport
import Testing
import WordPacks

/// `pack init`'s library side: the manifest written for a folder of word lists that has none.
@Suite struct PackManifestWriterTests {
    private let directory: TemporaryDirectory
    private let id = ProductID(rawValue: "com.example.words.easy")

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func writer(_ configure: (inout PackManifestWriter) -> Void = { _ in }) throws -> PackManifestWriter {
        var writer = PackManifestWriter(productIdentifier: try #require(id))
        configure(&writer)
        return writer
    }

    /// The written Info.plist, read by Foundation rather than by this project's reader.
    private func writtenManifest(_ folder: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/Info.plist"))
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    @Test func aClassicFolderGetsItsDisplayNameFromTheListsName() throws {
        _ = try directory.write("EasyWords/words.plist", Fixture.wordList(["cat", "dog", "sun"], name: "Easy Words"))
        let folder = directory.path + "/EasyWords"
        let output = try writer().write(folder: folder)
        #expect(output.path == folder + "/Info.plist")
        #expect(output.draft.displayNameSource == "words.plist")
        #expect(!output.replaced)

        let manifest = try writtenManifest(folder)
        #expect(manifest["DisplayName"] as? String == "Easy Words")
        #expect(manifest["ProductIdentifier"] as? String == "com.example.words.easy")
        #expect(manifest["ContentVersion"] as? String == "1.0")
        #expect(manifest["Language"] as? String == "en")
        #expect((manifest["FormatVersion"] as? NSNumber)?.intValue == 1)
        #expect(Set(manifest.keys) == ["DisplayName", "ProductIdentifier", "ContentVersion", "Language", "FormatVersion"])

        let built = try PackBuilder().build(folder: folder)
        #expect(built.pack.manifest.displayName == "Easy Words")
        #expect(built.pack.wordCount == 3)
    }

    @Test func givenValuesGoIntoTheManifest() throws {
        _ = try directory.write("p/words.plist", Fixture.xml("<array><string>gato</string><string>perro</string></array>"))
        let folder = directory.path + "/p"
        let version = try #require(ContentVersion("2.1"))
        let output = try writer {
            $0.displayName = "Animales"
            $0.language = "es"
            $0.contentVersion = version
        }.write(folder: folder)
        #expect(output.draft.displayNameSource == nil)
        let manifest = try writtenManifest(folder)
        #expect(manifest["DisplayName"] as? String == "Animales")
        #expect(manifest["Language"] as? String == "es")
        #expect(manifest["ContentVersion"] as? String == "2.1")
    }

    @Test func listsSharingOneNameGiveIt() throws {
        let source = Fixture.source([
            ("a.plist", Fixture.wordList(["cat"], name: "Pets")), ("b/c.plist", Fixture.wordList(["dog"], name: "Pets")),
            ("d.plist", Fixture.xml("<array><string>fish</string></array>")),
        ])
        let draft = try writer().draft(for: source)
        #expect(draft.manifest.displayName == "Pets")
        #expect(draft.wordLists == ["a.plist", "b/c.plist", "d.plist"])
    }

    @Test func listsWithDifferentNamesNeedADisplayName() throws {
        _ = try directory.write("m/a.plist", Fixture.wordList(["cat"], name: "Easy"))
        _ = try directory.write("m/b.plist", Fixture.wordList(["rhythm"], name: "Hard"))
        let error = try #require(throws: PackBuildError.self) { try writer().write(folder: directory.path + "/m") }
        #expect(error.problems.map(\.kind) == [.manifestMissingKey])
        #expect(error.problems.first?.message == "no display name: the word lists have different names ('Easy', 'Hard'); pass --display-name NAME")
        #expect(directory.listing() == ["m", "m/a.plist", "m/b.plist"])
    }

    @Test func listsWithoutANameNeedADisplayName() throws {
        let source = Fixture.source([("words.plist", Fixture.xml("<array><string>cat</string></array>"))])
        let error = try #require(throws: PackBuildError.self) { try writer().draft(for: source) }
        #expect(error.problems.map(\.kind) == [.manifestMissingKey])
        #expect(error.problems.first?.message.contains("no word list has a 'name'") == true)
    }

    @Test func anExistingManifestIsKept() throws {
        let original = Fixture.manifest(id: "com.example.words.original")
        _ = try directory.write("p/Info.plist", original)
        _ = try directory.write("p/words.plist", Fixture.wordList(["cat"]))
        let error = try #require(throws: PackBuildError.self) { try writer().write(folder: directory.path + "/p") }
        #expect(error.problems.map(\.kind) == [.manifestExists])
        #expect(error.problems.first?.entry == directory.path + "/p/Info.plist")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path + "/p/Info.plist")) == Data(original))
    }

    @Test func replacingWritesTheNewManifest() throws {
        _ = try directory.write("p/Info.plist", Fixture.manifest(id: "com.example.words.original"))
        _ = try directory.write("p/words.plist", Fixture.wordList(["cat"], name: "Cats"))
        let output = try writer { $0.replace = true }.write(folder: directory.path + "/p/")
        #expect(output.replaced)
        #expect(output.path == directory.path + "/p/Info.plist")
        let manifest = try writtenManifest(directory.path + "/p")
        #expect(manifest["ProductIdentifier"] as? String == "com.example.words.easy")
        #expect(manifest["DisplayName"] as? String == "Cats")
    }

    @Test func aFolderWithoutWordListsIsRefused() throws {
        _ = try directory.write("p/readme.txt", Array("words to come".utf8))
        let error = try #require(throws: PackBuildError.self) { try writer().write(folder: directory.path + "/p") }
        #expect(error.problems.map(\.kind) == [.noWordList])
        #expect(error.problems.first?.entry == directory.path + "/p")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/p/Info.plist"))
    }

    @Test func aMissingFolderIsReported() throws {
        let error = try #require(throws: PackBuildError.self) { try writer().write(folder: directory.path + "/absent") }
        #expect(error.problems.map(\.kind) == [.missingFile])
    }

    @Test(arguments: ["english", "e", "en_US", ""])
    func aLanguageThatIsNotATagIsRefused(_ language: String) throws {
        let error = try #require(throws: PackBuildError.self) {
            try writer { $0.language = language }.draft(for: Fixture.validSource)
        }
        #expect(error.problems.map(\.kind).contains(.badLanguage))
    }

    @Test func aBlankDisplayNameIsRefused() throws {
        let error = try #require(throws: PackBuildError.self) {
            try writer { $0.displayName = " \t" }.draft(for: Fixture.validSource)
        }
        #expect(error.problems.map(\.kind) == [.manifestWrongType])
    }

    @Test func buildingWithoutAManifestSaysHowToWriteOne() throws {
        let source = Fixture.source([("words.plist", Fixture.wordList(["cat", "dog"]))])
        let error = try #require(throws: PackBuildError.self) { try PackBuilder().build(source) }
        #expect(error.problems.map(\.kind) == [.missingManifest])
        #expect(error.problems.first?.message.contains("'hangman pack init DIR --product-id ID'") == true)
    }
}
