import Foundation
import Store
import Testing
import WordPacks

@Suite struct CatalogTests {
    /// Loads a catalog written in a temporary packs folder; returns the error's problems.
    private func problems(catalog: String, files: [(String, [UInt8])] = []) throws -> [String] {
        let directory = try TemporaryDirectory()
        for (name, bytes) in files { try directory.write("packs/" + name, bytes) }
        try directory.write("packs/Catalog.plist", catalog)
        do {
            _ = try Catalog.load(folder: directory.path + "/packs")
            return []
        } catch {
            return error.problems
        }
    }

    @Test func loadsTheShippedCatalog() throws {
        let catalog = try Catalog.load(folder: StoreFixture.shippedPacks)
        #expect(catalog.bundleIdentifier == "com.hangmanpacks.hangman")
        #expect(catalog.basePacks.map(\.file) == ["base-english.wordpack"])
        #expect(catalog.products.map(\.id.rawValue) == [
            "com.hangmanpacks.words.ios", "com.hangmanpacks.words.hard", "com.hangmanpacks.words.es",
            "com.hangmanpacks.hints.10", "com.hangmanpacks.hints.100",
        ])
        // Word counts as Packs/README.md documents them.
        let counts = Dictionary(uniqueKeysWithValues: catalog.products.map { ($0.id.rawValue, $0.wordCount) })
        #expect(counts["com.hangmanpacks.words.ios"] == 197)
        #expect(counts["com.hangmanpacks.words.hard"] == 1000)
        #expect(counts["com.hangmanpacks.words.es"] == 3000)
        #expect(counts["com.hangmanpacks.hints.10"] == .some(nil))
        let hints = catalog.products.filter(\.isConsumable).map(\.kind)
        #expect(hints == [.consumable(hints: 10), .consumable(hints: 100)])
        #expect(catalog.product(ProductID(rawValue: "com.hangmanpacks.words.ios")!)?.price == "0.99")
        #expect(catalog.product(ProductID(rawValue: "com.hangmanpacks.words.base")!) == nil)
    }

    @Test func packDigestIsTheArchiveSHA256() throws {
        let directory = try TemporaryDirectory()
        let packs = try StoreFixture.makePacksFolder(in: directory)
        let catalog = try Catalog.load(folder: packs)
        let fruit = try #require(catalog.product(StoreFixture.fruit))
        #expect(fruit.wordCount == 4)
        // 64 lowercase hex digits, and different packs have different digests.
        #expect(fruit.packSHA256?.count == 64)
        #expect(fruit.packSHA256 != catalog.product(StoreFixture.animals)?.packSHA256)
    }

    @Test func unknownProductType() throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [StoreFixture.consumable("com.example.gems", hints: 5, type: "Subscription")]))
        #expect(found.count == 1)
        #expect(found.first?.contains("unknown product type 'Subscription' (Consumable or NonConsumable)") == true, "\(found)")
        #expect(found.first?.contains("product 1") == true)
    }

    @Test func duplicateProductIDs() throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [
            StoreFixture.consumable("com.example.hints.10", hints: 10),
            StoreFixture.consumable("com.example.hints.20", hints: 20),
            StoreFixture.consumable("com.example.hints.10", hints: 30),
        ]))
        #expect(found.count == 1)
        #expect(found.first?.contains("product 3: 'com.example.hints.10' is listed twice") == true, "\(found)")
    }

    @Test func consumableWithoutHintCount() throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [StoreFixture.consumable("com.example.hints.x", hints: nil)]))
        #expect(found.count == 1)
        #expect(found.first?.hasSuffix("/packs/Catalog.plist: product 1: 'com.example.hints.x': a Consumable needs 'HintCount', a positive integer") == true)
    }

    @Test(arguments: [0, -3])
    func consumableWithNonPositiveHintCount(_ count: Int) throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [StoreFixture.consumable("com.example.hints.x", hints: count)]))
        #expect(found.count == 1)
        #expect(found.first?.contains("a Consumable needs 'HintCount'") == true)
    }

    @Test func nonConsumableWhosePackIsMissing() throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [StoreFixture.nonConsumable("com.example.words.gone", pack: "gone.wordpack")]))
        #expect(found.count == 1)
        #expect(found.first?.contains("'com.example.words.gone': pack gone.wordpack:") == true, "\(found)")
        #expect(found.first?.contains("no such file") == true, "\(found)")
    }

    @Test func nonConsumableWhosePackIsForAnotherProduct() throws {
        let other = try StoreFixture.packArchive(id: "com.example.words.other", words: ["alpha", "beta"])
        let found = try problems(
            catalog: StoreFixture.catalogXML(products: [StoreFixture.nonConsumable("com.example.words.mine", pack: "mine.wordpack")]),
            files: [("mine.wordpack", other)])
        #expect(found.count == 1)
        #expect(found.first?.contains("'com.example.words.mine': pack mine.wordpack is for 'com.example.words.other'") == true, "\(found)")
    }

    @Test func nonConsumableWhosePackIsNotAPack() throws {
        let found = try problems(
            catalog: StoreFixture.catalogXML(products: [StoreFixture.nonConsumable("com.example.words.mine", pack: "mine.wordpack")]),
            files: [("mine.wordpack", Array("not an archive at all".utf8))])
        #expect(found.count == 1)
        #expect(found.first?.contains("'com.example.words.mine': pack mine.wordpack:") == true, "\(found)")
    }

    @Test(arguments: ["../packs/inside.wordpack", "../../etc/passwd", "sub/inside.wordpack", "/tmp/inside.wordpack", "..", ".hidden.wordpack"])
    func packPathOutsideTheFolderIsRefused(_ path: String) throws {
        // A valid pack really is at the place a path with folders points to: the refusal is about the path.
        let pack = try StoreFixture.packArchive(id: "com.example.words.mine", words: ["alpha", "beta"])
        let found = try problems(
            catalog: StoreFixture.catalogXML(products: [StoreFixture.nonConsumable("com.example.words.mine", pack: path)]),
            files: [("inside.wordpack", pack), ("sub/inside.wordpack", pack), (".hidden.wordpack", pack)])
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("'com.example.words.mine': a NonConsumable needs 'Pack', the archive's file name in the packs folder") == true, "\(found)")
    }

    @Test func basePackPathOutsideTheFolderIsRefused() throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [], basePacks: ["../base.wordpack"]))
        #expect(found.count == 1)
        #expect(found.first?.contains("BasePacks: every entry must be an archive file name in the packs folder") == true, "\(found)")
    }

    @Test func missingBasePack() throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [], basePacks: ["base.wordpack"]))
        #expect(found.count == 1)
        #expect(found.first?.contains("Catalog.plist: base pack base.wordpack:") == true, "\(found)")
        #expect(found.first?.contains("no such file") == true, "\(found)")
    }

    @Test(arguments: [
        "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>BundleIdentifier</key><string>x",
        "",
        "{ this is not a plist }",
    ])
    func malformedCatalog(_ text: String) throws {
        let found = try problems(catalog: text)
        #expect(found.count == 1)
        #expect(found.first?.contains("Catalog.plist: not a valid property list") == true, "\(found)")
    }

    @Test func catalogWhoseRootIsNotADictionary() throws {
        let found = try problems(catalog: StoreFixture.plist("<array><string>com.example.hints</string></array>"))
        #expect(found.count == 1)
        #expect(found.first?.contains("root is") == true && found.first?.contains("expected a dictionary") == true, "\(found)")
    }

    @Test func missingCatalogSaysWhereItLooked() throws {
        let directory = try TemporaryDirectory()
        do {
            _ = try Catalog.load(folder: directory.path)
            Issue.record("an empty folder loaded as a catalog")
        } catch {
            #expect(error.isMissing)
            #expect(error.problems.first?.hasPrefix(directory.path + "/Catalog.plist: no catalog") == true)
        }
    }

    @Test func everyProblemIsReportedAtOnce() throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [
            StoreFixture.consumable("com.example.gems", hints: 5, type: "Gems"),
            StoreFixture.consumable("com.example.hints.x", hints: nil),
            StoreFixture.nonConsumable("com.example.words.gone", pack: "gone.wordpack"),
        ]))
        #expect(found.count == 3, "\(found)")
    }
}
