import Testing
import WordPacks

/// The folder of packs beside `Tests/`: `Packs/EasyWords/` (the source), `EasyWords.wordpack`
/// (built from it and signed with the release key), `release.pub` (that key's public half).
let packs: String = {
    var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(3)  // Tests/ContentAuthorTests/EasyWordsTests.swift
    return components.joined(separator: "/") + "/Packs"
}()

/// The release key, pinned in the test as well as kept in `Packs/release.pub`.
let releaseKey = "hangman-ed25519-public L4ycDUVOcZUZgTIy57CZPclb4WmFdrV9j/GKb1T2sEA="

@Suite struct EasyWordsTests {
    @Test func theSourceFolderBuildsIntoAValidPack() throws {
        let built = try PackBuilder().build(folder: packs + "/EasyWords")
        let result = PackVerifier().verify(built.bytes)
        #expect(result.problems.isEmpty)
        let pack = try #require(result.pack)
        #expect(pack.manifest.productIdentifier.rawValue == "com.example.words.easy")
        #expect(pack.manifest.displayName == "Easy Words")
        #expect(pack.manifest.contentVersion.text == "1.0")
        #expect(pack.wordCount == 12)
        #expect(pack.lists.map(\.name) == ["Easy Words"])
    }

    @Test func theShippedPackIsSignedByTheReleaseKey() throws {
        let verifier = try PackVerifier(trustedKeyFileAt: packs + "/release.pub")
        let result = verifier.verify(fileAt: packs + "/EasyWords.wordpack")
        #expect(result.problems.isEmpty)
        #expect(result.pack?.signature?.publicKey.keyID == "c05c64ef58e6bdf9")
        // The archive is the one published: its SHA-256 as `sha256sum` printed it.
        #expect(result.archive?.sha256.hex == "f60d9b6e4da0d578f916e4ce7bd6752738cae62d12d2f62fdcd9237e4856baf2")
    }

    @Test func theShippedPackHoldsTheWordsOfTheSource() throws {
        let shipped = try PackVerifier(trustedKeyFile: Array(releaseKey.utf8)).verify(fileAt: packs + "/EasyWords.wordpack")
        #expect(shipped.problems.isEmpty)
        let source = try PackBuilder().build(folder: packs + "/EasyWords")
        let words = try #require(shipped.pack?.lists.first?.words.map(\.text))
        #expect(words == source.pack.lists.first?.words.map(\.text), "rebuild EasyWords.wordpack: the source folder changed")
        #expect(words.first == "apple" && words.last == "table")
    }

    @Test func aPackEditedAfterItWasBuiltIsRefused() {
        let result = PackVerifier().verify(fileAt: packs + "/EasyWords-edited.wordpack")
        #expect(!result.isValid)
        #expect(result.problems.map(\.kind) == [.fileHashMismatch])
        #expect(result.problems.first?.entry == "com.example.words.easy/words.plist")
    }

    @Test func aKeyThatDidNotSignThePackRefusesIt() throws {
        let otherKey = "hangman-ed25519-public Pyi4Nf4Lv8KWFCygQe3mSr5NLmmNhhRDUehxZdkEbVE="
        let result = try PackVerifier(trustedKeyFile: otherKey).verify(fileAt: packs + "/EasyWords.wordpack")
        #expect(result.problems.map(\.kind) == [.signatureUntrusted])
    }

    @Test func aMissingKeyFileIsAnError() {
        let path = packs + "/missing.pub"
        #expect(throws: SigningError.missingKeyFile(.publicKey, path: path)) { try PackVerifier(trustedKeyFileAt: path) }
    }
}
