import Foundation
import Testing
import TestSupport

/// `hangman catalog update`, and what the player's commands do with an archive the catalog does not record.
@Suite struct CatalogCommandTests {
    private func catalogBytes(_ world: PlayerWorld) async throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: world.packs + "/Catalog.plist"))
    }

    @Test func archiveReplacedWithoutPublishingExits65NamingBothDigests() async throws {
        let world = try await PlayerWorld()
        #expect(try await world.hangman("buy", PlayerWorld.animals).status == 0)
        let published = try sha256sum(world.packs + "/animals.wordpack")
        try await world.offerAnimals("1.1", publish: false)
        let actual = try sha256sum(world.packs + "/animals.wordpack")
        #expect(actual != published)

        let refused = try await world.hangman("update", PlayerWorld.animals)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("has SHA-256 \(actual)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("the catalog says \(published)"), "\(refused.stderr)")
        #expect(try await world.installedVersion(PlayerWorld.animals) == "1.0")

        // The seller publishes: the same archive is accepted.
        try await world.publish()
        let update = try await world.hangman("update", PlayerWorld.animals)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try await world.installedVersion(PlayerWorld.animals) == "1.1")
    }

    @Test func tamperedBasePackStopsTheFirstRun() async throws {
        let world = try await PlayerWorld()
        let original = try sha256sum(world.packs + "/base.wordpack")
        // Another valid build of the base pack (other words), dropped in without publishing.
        let source = world.scratch.path + "/src/tampered"
        try world.scratch.write("src/tampered/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>FormatVersion</key><integer>1</integer><key>ProductIdentifier</key><string>\(PlayerWorld.base)</string>
            <key>ContentVersion</key><string>1.0</string><key>DisplayName</key><string>Base Words</string>
            </dict></plist>
            """)
        try world.scratch.write("src/tampered/words.plist", wordsXML(["crow", "wren", "hawk"]))
        let built = try await CLI.run(["pack", "build", source, "-o", world.packs + "/base.wordpack"])
        #expect(built.status == 0, "\(built.stderr)")

        let result = try await world.hangman("play", "--plain")
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("the catalog says \(original)"), "\(result.stderr)")
        #expect(result.stderr.contains("has SHA-256 \(try sha256sum(world.packs + "/base.wordpack"))"), "\(result.stderr)")
        // Nothing was installed: the next command meets the same refusal.
        let again = try await world.hangman("packs")
        #expect(again.status == 65, "\(again.stderr)")
        #expect(again.stderr.contains("the catalog says \(original)"), "\(again.stderr)")
    }

    /// Other words under the same ContentVersion: players who have that version would be told
    /// "up to date" and keep the old words. `catalog update` refuses it (65) and writes nothing;
    /// the author raises the version (the control above: 1.1 is published).
    @Test func aChangedPackUnderTheSameVersionIsNotPublished() async throws {
        let world = try await PlayerWorld()
        let before = try await catalogBytes(world)
        let source = world.scratch.path + "/src/same-version"
        try world.scratch.write("src/same-version/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>FormatVersion</key><integer>1</integer><key>ProductIdentifier</key><string>\(PlayerWorld.base)</string>
            <key>ContentVersion</key><string>1.0</string><key>DisplayName</key><string>Base Words</string>
            </dict></plist>
            """)
        try world.scratch.write("src/same-version/words.plist", wordsXML(["crow", "wren", "hawk"]))
        #expect(try await CLI.run(["pack", "build", source, "-o", world.packs + "/base.wordpack"]).status == 0)
        let refused = try await CLI.run(["catalog", "update", "--packs", world.packs])
        #expect(refused.status == 65, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("base pack base.wordpack changed since it was published, but its ContentVersion is still 1.0"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Raise ContentVersion"), "\(refused.stderr)")
        #expect(try await catalogBytes(world) == before, "nothing was written")
    }

    /// An author sells the pack they built and plays it, without editing the catalog by hand;
    /// whatever is refused leaves the packs folder as it was.
    @Test func anAuthorAddsTheirPackBuysItAndPlaysIt() async throws {
        let world = try await PlayerWorld()
        try world.scratch.write("src/birds/words.plist", wordsXML(["robin", "heron", "finch"]))
        #expect(try await CLI.run(["pack", "init", world.scratch.path + "/src/birds", "--product-id", "com.example.words.birds", "--display-name", "Birds"]).status == 0)
        let archive = world.scratch.path + "/birds.wordpack"
        #expect(try await CLI.run(["pack", "build", world.scratch.path + "/src/birds", "-o", archive]).status == 0)
        // Refused: not a pack; no file is copied, the catalog is unchanged.
        let before = try await catalogBytes(world)
        try world.scratch.write("junk.wordpack", "not an archive")
        let junk = try await CLI.run(["catalog", "add", world.scratch.path + "/junk.wordpack", "--price", "1.00", "--packs", world.packs])
        #expect(junk.status == 65, "\(junk.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.packs + "/junk.wordpack"))
        #expect(try await catalogBytes(world) == before)
        let wrongID = try await CLI.run(["catalog", "add", archive, "--price", "1.00", "--product-id", "com.example.words.owls", "--packs", world.packs])
        #expect(wrongID.status == 65 && wrongID.stderr.contains("is the pack com.example.words.birds"), "\(wrongID.stderr)")
        // A pack is not sold for nothing (before: on sale at $0.00); a price in too many decimals says how many.
        let free = try await CLI.run(["catalog", "add", archive, "--price", "0", "--packs", world.packs])
        #expect(free.status == 65 && free.stderr.contains("a pack is not sold for 0.00 USD") && free.stderr.contains("BasePacks"), "\(free.stderr)")
        let fraction = try await CLI.run(["catalog", "add", archive, "--price", "1.499", "--packs", world.packs])
        #expect(fraction.status == 65 && fraction.stderr.contains("at most 2 decimals"), "\(fraction.stderr)")
        #expect(try await catalogBytes(world) == before)
        // Added: copied, its product written from the manifest, published.
        let added = try await CLI.run(["catalog", "add", archive, "--price", "1.49", "--description", "Three birds.", "--packs", world.packs])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Added Birds (com.example.words.birds) at 1.49 USD (USA): birds.wordpack, 3 words."), "\(added.stdout)")
        #expect(added.stdout.contains("CatalogVersion 2 (was 1)"), "\(added.stdout)")
        #expect(FileManager.default.fileExists(atPath: world.packs + "/birds.wordpack"))
        let again = try await CLI.run(["catalog", "add", archive, "--price", "1.49", "--packs", world.packs])
        #expect(again.status == 65 && again.stderr.contains("has com.example.words.birds already"), "\(again.stderr)")
        // A player buys it and plays it.
        let bought = try await world.hangman("buy", "birds")
        #expect(bought.status == 0 && bought.stdout.contains("Installed Birds 1.0 (3 words)"), "\(bought.stdout)\(bought.stderr)")
        let played = try await world.hangman("play", "--plain", "--pack", "birds", "--new")
        #expect(played.status == 0 && played.stdout.contains("GAME pack=com.example.words.birds"), "\(played.stdout)\(played.stderr)")
        // Taken off sale by its short name, as 'catalog add' named it: no longer sold; its owner
        // keeps it, on this device and on a new one; the archive stays.
        let removed = try await CLI.run(["catalog", "remove", "birds", "--packs", world.packs])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout.contains("Birds (com.example.words.birds) is off sale: those who bought it keep it."), "\(removed.stdout)")
        let twice = try await CLI.run(["catalog", "remove", "birds", "--packs", world.packs])
        #expect(twice.status == 65 && twice.stderr.contains("already off sale"), "\(twice.stderr)")
        #expect(!(try await world.hangman("products", "--wide").stdout.contains("com.example.words.birds")))
        #expect(try await world.hangman("packs", "--wide").stdout.contains("com.example.words.birds"), "its owner still sees it")
        let stranger = try await CLI.run(["packs", "--wide"], environment: ["HANGMAN_HOME": world.scratch.path + "/stranger", "HANGMAN_PACKS": world.packs])
        #expect(stranger.status == 0 && !stranger.stdout.contains("com.example.words.birds"), "\(stranger.stdout)\(stranger.stderr)")
        #expect(FileManager.default.fileExists(atPath: world.packs + "/birds.wordpack"))
        let rebuy = try await world.hangman("buy", "birds", "--yes")
        #expect(rebuy.status == 69 && rebuy.stderr.contains("no longer sold; this account owns it"), "\(rebuy.stdout)\(rebuy.stderr)")
        #expect(try await world.hangman("reset", "--yes").status == 0)
        let restored = try await world.hangman("restore")
        #expect(restored.status == 0, "\(restored.stdout)\(restored.stderr)")
        #expect(restored.stdout.contains("Restored Birds (com.example.words.birds)"), "\(restored.stdout)")
        let playedAgain = try await world.hangman("play", "--plain", "--pack", "birds", "--new")
        #expect(playedAgain.status == 0, "\(playedAgain.stdout)\(playedAgain.stderr)")
        // Its archive deleted as well: restore names it, keeps the purchase, and exits 0.
        try FileManager.default.removeItem(atPath: world.packs + "/birds.wordpack")
        #expect(try await world.hangman("reset", "--yes").status == 0)
        let withdrawn = try await world.hangman("restore")
        #expect(withdrawn.status == 0, "\(withdrawn.stdout)\(withdrawn.stderr)")
        #expect(withdrawn.stderr.contains("note: not restored: Birds (com.example.words.birds) is off sale and its pack is no longer published"), "\(withdrawn.stderr)")
    }

    @Test func updatePrintsWhatChangedAndRaisesTheVersion() async throws {
        let world = try await PlayerWorld()
        let upToDate = try await world.hangman("catalog", "update")
        #expect(upToDate.status == 0, "\(upToDate.stderr)")
        #expect(upToDate.stdout == "\(world.packs)/Catalog.plist is up to date: CatalogVersion 1, 3 archives.\n")

        let old = try sha256sum(world.packs + "/animals.wordpack")
        let oldSize = try #require(try FileManager.default.attributesOfItem(atPath: world.packs + "/animals.wordpack")[.size] as? Int)
        try await world.offerAnimals("1.1", publish: false)
        let new = try sha256sum(world.packs + "/animals.wordpack")
        let newSize = try #require(try FileManager.default.attributesOfItem(atPath: world.packs + "/animals.wordpack")[.size] as? Int)
        let changed = try await CLI.run(["catalog", "update", "--packs", world.packs])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stdout == """
            animals.wordpack: sha256 \(new), \(newSize) bytes (was \(old), \(oldSize) bytes)
            \(world.packs)/Catalog.plist: CatalogVersion 2 (was 1), 3 archives, storefronts USA.

            """)
        let catalog = try String(contentsOfFile: world.packs + "/Catalog.plist", encoding: .utf8)
        #expect(catalog.contains("<string>\(new)</string>"))
        #expect(!catalog.contains("<string>\(old)</string>"))
    }

    @Test func missingArchiveExits65AndWritesNothing() async throws {
        let world = try await PlayerWorld()
        let before = try await catalogBytes(world)
        try FileManager.default.removeItem(atPath: world.packs + "/fruit.wordpack")
        let result = try await world.hangman("catalog", "update")
        #expect(result.status == 65)
        #expect(result.stderr.contains("'\(PlayerWorld.fruit)': pack fruit.wordpack: no such file"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was written"), "\(result.stderr)")
        #expect(try await catalogBytes(world) == before)
    }

    @Test func noCatalogExits66() async throws {
        let scratch = try Scratch()
        let result = try await CLI.run(["catalog", "update", "--packs", scratch.path])
        #expect(result.status == 66)
        #expect(result.stderr.contains("no catalog"), "\(result.stderr)")
    }

    @Test func helpNamesTheCommand() async throws {
        let help = try await CLI.run(["catalog", "update", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: Record every pack archive's SHA-256 and size in Catalog.plist"))
        #expect(help.stdout.contains("USAGE: hangman catalog update [--packs <DIR>]"))
        #expect(help.stdout.contains("--packs <DIR>"))
        let top = try await CLI.run(["--help"])
        #expect(top.stdout.contains("  catalog "), "\(top.stdout)")
        let unknown = try await CLI.run(["catalog", "publish"])
        #expect(unknown.status == 64)
    }
}
