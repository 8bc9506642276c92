import Archive
import Foundation
import Testing
import WordPacks

/// The packs in `Packs/`: each archive verifies and holds exactly what a fresh build of its source holds.
@Suite struct ShippedPacksTests {
    static let packsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Packs").path

    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: packsFolder)) ?? []
        return files.filter { $0.hasSuffix(".wordpack") }.map { String($0.dropLast(".wordpack".count)) }.sorted()
    }()

    @Test func everySourceFolderHasItsArchive() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.packsFolder).filter {
            FileManager.default.fileExists(atPath: "\(Self.packsFolder)/\($0)/Info.plist")
        }
        #expect(folders.sorted() == Self.names)
        #expect(Self.names == ["base-english", "hard-words", "ios-words", "spanish"])
    }

    @Test(arguments: names)
    func archiveVerifies(_ name: String) {
        let result = PackVerifier().verify(fileAt: "\(Self.packsFolder)/\(name).wordpack")
        #expect(result.isValid, "\(result.problems)")
        #expect(result.pack?.manifest.license?.isEmpty == false)
        #expect(result.pack?.manifest.attribution?.isEmpty == false)
    }

    @Test(arguments: names)
    func archiveHoldsWhatItsSourceBuildsTo(_ name: String) throws {
        let shipped = try Data(contentsOf: URL(fileURLWithPath: "\(Self.packsFolder)/\(name).wordpack"))
        let fresh = try PackBuilder().build(folder: "\(Self.packsFolder)/\(name)")
        #expect(try entries([UInt8](shipped)) == (try entries(fresh.bytes)), "rebuild with 'make packs'")
    }

    @Test func basePackHasTwoThousandCommonWords() {
        let pack = PackVerifier().verify(fileAt: "\(Self.packsFolder)/base-english.wordpack").pack
        #expect((pack?.wordCount ?? 0) >= 2000)
        #expect(pack?.manifest.productIdentifier.rawValue == "com.hangmanpacks.words.base")
    }

    @Test func spanishPackHasEnyeAndAccents() {
        let pack = PackVerifier().verify(fileAt: "\(Self.packsFolder)/spanish.wordpack").pack
        let words = pack?.lists.flatMap(\.words).map(\.text) ?? []
        #expect(pack?.manifest.language == "es")
        #expect(words.contains { $0.contains("\u{F1}") })
        #expect(words.contains { $0.contains("\u{E1}") || $0.contains("\u{E9}") || $0.contains("\u{F3}") })
    }

    @Test func iOSWordsHaveClues() {
        let pack = PackVerifier().verify(fileAt: "\(Self.packsFolder)/ios-words.wordpack").pack
        let words = pack?.lists.flatMap(\.words) ?? []
        #expect(words.count >= 100)
        #expect(words.allSatisfy { $0.clue != nil })
        #expect(pack?.manifest.displayName == "iOS Words")
    }

    /// Names and bytes of every file (compressed bytes may differ between zlib versions).
    private func entries(_ bytes: [UInt8]) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let summary = ArchiveReader().read(bytes) { files[$0.name.path] = $0.bytes }
        try #require(summary.problems.isEmpty)
        return files
    }
}
