import Foundation
import PropertyList
import Seller
import Testing
import TestSupport

/// `CatalogPublisher`: what `hangman catalog update` writes into `Catalog.plist`.
@Suite struct CatalogPublisherTests {
    static let base = "com.example.words.base"

    /// A packs folder whose catalog was never published: the base pack listed by file name (the
    /// shape before digests were recorded), no `SHA256`, `Size` or `CatalogVersion` anywhere.
    private func unpublishedFolder(_ directory: TemporaryDirectory, version: Int? = nil) throws -> String {
        try directory.write("packs/base.wordpack", StoreFixture.packArchive(id: Self.base, words: ["cat", "dog"]))
        try directory.write("packs/animals.wordpack", StoreFixture.packArchive(id: StoreFixture.animals.rawValue, words: ["horse", "zebra"]))
        try directory.write("packs/fruit.wordpack", StoreFixture.packArchive(id: StoreFixture.fruit.rawValue, words: ["apple", "pear"]))
        let catalog = StoreFixture.catalogXML(
            products: [
                StoreFixture.consumable(StoreFixture.hints10.rawValue, hints: 10),
                StoreFixture.nonConsumable(StoreFixture.animals.rawValue, pack: "animals.wordpack", recorded: .nothing),
                StoreFixture.nonConsumable(StoreFixture.fruit.rawValue, pack: "fruit.wordpack", recorded: .nothing),
            ],
            version: version
        ).replacingOccurrences(of: "<key>BasePacks</key><array></array>", with: "<key>BasePacks</key><array><string>base.wordpack</string></array>")
        try directory.write("packs/Catalog.plist", catalog)
        return directory.path + "/packs"
    }

    /// The catalog file as a dictionary, read without the `Store` module.
    private func rawCatalog(_ packs: String) throws -> [String: PropertyList] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: packs + "/Catalog.plist")))
        return try #require(try PropertyListDecoding.decode(bytes).value.dictionaryValue)
    }

    /// The `Products` entry of `id`, or the `BasePacks` entry of `file`.
    private func entry(_ root: [String: PropertyList], product id: String? = nil, base file: String? = nil) -> [String: PropertyList]? {
        if let id {
            return root["Products"]?.arrayValue?.compactMap(\.dictionaryValue).first { $0["ProductIdentifier"] == .string(id) }
        }
        return root["BasePacks"]?.arrayValue?.compactMap(\.dictionaryValue).first { $0["Pack"] == .string(file ?? "") }
    }

    private func fileSize(_ path: String) throws -> Int64 {
        Int64(try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
    }

    @Test func recordsTheSHA256AndSizeOfEveryArchive() throws {
        let directory = try TemporaryDirectory()
        let packs = try unpublishedFolder(directory)
        let update = try CatalogPublisher(folder: packs).update()
        #expect(update.previousVersion == nil)
        #expect(update.version == 1)
        #expect(update.wroteCatalog)
        #expect(update.changes.map(\.file) == ["base.wordpack", "animals.wordpack", "fruit.wordpack"])
        #expect(update.changes.allSatisfy { $0.previousSHA256 == nil && $0.previousSize == nil })

        let root = try rawCatalog(packs)
        #expect(root["CatalogVersion"] == .integer(1))
        for (file, written) in [
            ("base.wordpack", entry(root, base: "base.wordpack")),
            ("animals.wordpack", entry(root, product: StoreFixture.animals.rawValue)),
            ("fruit.wordpack", entry(root, product: StoreFixture.fruit.rawValue)),
        ] {
            let path = packs + "/" + file
            #expect(written?["SHA256"] == .string(try sha256sum(path)), "\(file)")
            #expect(written?["Size"] == .integer(try fileSize(path)), "\(file)")
        }
        // What the author wrote stays as it was; a consumable gets no record.
        let hints = try #require(entry(root, product: StoreFixture.hints10.rawValue))
        #expect(hints["SHA256"] == nil && hints["Size"] == nil)
        #expect(hints["HintCount"] == .integer(10))
        #expect(entry(root, product: StoreFixture.fruit.rawValue)?["Description"] == .string("A pack."))
        #expect(root["BundleIdentifier"] == .string(StoreFixture.bundleID))

        let catalog = try Catalog.load(folder: packs)
        #expect(catalog.catalogVersion == 1)
        #expect(catalog.product(StoreFixture.fruit)?.packSHA256 == (try sha256sum(packs + "/fruit.wordpack")))
        #expect(catalog.basePacks.map(\.file) == ["base.wordpack"])
    }

    @Test func catalogAlreadyUpToDateIsNotRewritten() throws {
        let directory = try TemporaryDirectory()
        let packs = try unpublishedFolder(directory)
        _ = try CatalogPublisher(folder: packs).update()
        let path = packs + "/Catalog.plist"
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int

        let again = try CatalogPublisher(folder: packs).update()
        #expect(again.changes.isEmpty)
        #expect(again.previousVersion == 1 && again.version == 1)
        #expect(!again.wroteCatalog)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == inode, "the file was replaced")
    }

    @Test func rebuiltArchiveRaisesTheVersionByOne() throws {
        let directory = try TemporaryDirectory()
        let packs = try unpublishedFolder(directory, version: 41)
        #expect(try CatalogPublisher(folder: packs).update().version == 42)
        let oldFruit = try sha256sum(packs + "/fruit.wordpack")
        let oldAnimals = try #require(entry(try rawCatalog(packs), product: StoreFixture.animals.rawValue))

        // Other words under the same version are refused (players would keep the old ones)...
        try directory.write("packs/fruit.wordpack", StoreFixture.packArchive(id: StoreFixture.fruit.rawValue, words: ["mango", "lime", "kiwi"]))
        #expect(throws: CatalogError.self) { try CatalogPublisher(folder: packs).update() }
        // ...and published under a new one.
        try directory.write("packs/fruit.wordpack", StoreFixture.packArchive(id: StoreFixture.fruit.rawValue, words: ["mango", "lime", "kiwi"], version: "1.1"))
        let update = try CatalogPublisher(folder: packs).update()
        #expect(update.previousVersion == 42 && update.version == 43)
        #expect(update.changes.count == 1)
        #expect(update.changes.first?.file == "fruit.wordpack")
        #expect(update.changes.first?.previousSHA256 == oldFruit)

        let root = try rawCatalog(packs)
        #expect(root["CatalogVersion"] == .integer(43))
        let newFruit = try sha256sum(packs + "/fruit.wordpack")
        #expect(newFruit != oldFruit)
        #expect(entry(root, product: StoreFixture.fruit.rawValue)?["SHA256"] == .string(newFruit))
        #expect(entry(root, product: StoreFixture.fruit.rawValue)?["Size"] == .integer(try fileSize(packs + "/fruit.wordpack")))
        #expect(entry(root, product: StoreFixture.animals.rawValue) == oldAnimals)
        #expect(try CatalogPublisher(folder: packs).update().version == 43)
    }

    /// A price edited by hand, or a product added, between two publishes: the catalog's content is
    /// not what was published, so the version rises (clients refuse a catalog older than one seen).
    @Test(arguments: [("<string>0.99</string>", "<string>1.49</string>"), ("<string>A pack.</string>", "<string>A better pack.</string>")])
    func anEditedCatalogRaisesTheVersion(_ old: String, _ new: String) throws {
        let directory = try TemporaryDirectory()
        let packs = try unpublishedFolder(directory, version: 7)
        #expect(try CatalogPublisher(folder: packs).update().version == 8)
        let path = packs + "/Catalog.plist"
        let published = try String(contentsOfFile: path, encoding: .utf8)
        #expect(published.contains("<key>PublishedSHA256</key>"))
        let edited = published.replacingOccurrences(of: old, with: new)
        #expect(edited != published, "the edit must apply")
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        let update = try CatalogPublisher(folder: packs).update()
        #expect(update.previousVersion == 8 && update.version == 9)
        #expect(update.changes.isEmpty)
        #expect(try CatalogPublisher(folder: packs).update().version == 9)
    }

    @Test func missingArchiveWritesNothingAndNamesTheProduct() throws {
        let directory = try TemporaryDirectory()
        let packs = try unpublishedFolder(directory)
        try FileManager.default.removeItem(atPath: packs + "/fruit.wordpack")
        let before = try Data(contentsOf: URL(fileURLWithPath: packs + "/Catalog.plist"))
        let listing = try FileManager.default.contentsOfDirectory(atPath: packs).sorted()
        do {
            _ = try CatalogPublisher(folder: packs).update()
            Issue.record("a catalog naming a missing archive was published")
        } catch {
            #expect(error.kind == .invalid)
            #expect(error.problems.contains { $0.contains("'\(StoreFixture.fruit)': pack fruit.wordpack: no such file") }, "\(error.problems)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: packs + "/Catalog.plist")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: packs).sorted() == listing)
    }

    @Test func catalogThatWouldNotLoadIsNotWritten() throws {
        let directory = try TemporaryDirectory()
        let packs = try unpublishedFolder(directory)
        try directory.write("packs/fruit.wordpack", StoreFixture.packArchive(id: "com.example.words.other", words: ["alpha", "beta"]))
        let before = try Data(contentsOf: URL(fileURLWithPath: packs + "/Catalog.plist"))
        do {
            _ = try CatalogPublisher(folder: packs).update()
            Issue.record("a catalog selling another product's pack was published")
        } catch {
            #expect(error.kind == .invalid)
            #expect(error.problems.contains { $0.contains("its pack fruit.wordpack is for 'com.example.words.other'") }, "\(error.problems)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: packs + "/Catalog.plist")) == before)
    }

    /// Publishing records each manifest's facts, so that loading the catalog reads no archive:
    /// an archive swapped for junk of the same size still lists as published (an install would
    /// refuse it by its digest), while one of another size is read, and its product unavailable.
    @Test func recordedFactsSpareLoadingFromReadingArchives() throws {
        let directory = try TemporaryDirectory()
        let packs = try unpublishedFolder(directory)
        _ = try CatalogPublisher(folder: packs).update()
        let root = try rawCatalog(packs)
        let base = try #require(entry(root, base: "base.wordpack"))
        #expect(base["ProductIdentifier"] == .string(Self.base))
        #expect(base["DisplayName"] == .string("Test \(Self.base)"))
        #expect(base["ContentVersion"] == .string("1.0"))
        #expect(base["WordCount"] == .integer(2))
        let fruit = try #require(entry(root, product: StoreFixture.fruit.rawValue))
        #expect(fruit["ContentVersion"] == .string("1.0") && fruit["WordCount"] == .integer(2))
        #expect(fruit["DisplayName"] != .string("Test \(StoreFixture.fruit)"), "a product keeps its own display name")

        let size = Int(try fileSize(packs + "/fruit.wordpack"))
        try directory.write("packs/fruit.wordpack", [UInt8](repeating: 0x2A, count: size))
        let loaded = try Catalog.load(folder: packs)
        #expect(loaded.product(StoreFixture.fruit)?.contentVersion?.text == "1.0")
        #expect(loaded.basePacks.map(\.productID.rawValue) == [Self.base])

        #expect(loaded.product(StoreFixture.fruit)?.unavailableReason == nil)

        try directory.write("packs/fruit.wordpack", [UInt8](repeating: 0x2A, count: size + 1))
        let reread = try Catalog.load(folder: packs)
        #expect(reread.product(StoreFixture.fruit)?.unavailableReason != nil)
        #expect(reread.basePacks.map(\.productID.rawValue) == [Self.base])
    }

    @Test func missingCatalogIsReportedAsMissing() throws {
        let directory = try TemporaryDirectory()
        do {
            _ = try CatalogPublisher(folder: directory.path).update()
            Issue.record("an empty folder was published")
        } catch {
            #expect(error.kind == .missing)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
