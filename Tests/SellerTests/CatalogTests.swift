import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Seller
import Testing
import TestSupport
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
        #expect(catalog.basePacks.map(\.file) == ["base-english.wordpack", "base-german.wordpack", "base-french.wordpack", "base-portuguese.wordpack"])
        #expect(catalog.basePacks.map { $0.language ?? "-" } == ["en", "de", "fr", "pt-BR"])
        #expect(catalog.products.map(\.id.rawValue) == [
            "com.hangmanpacks.words.ios", "com.hangmanpacks.words.hard", "com.hangmanpacks.words.es",
            "com.hangmanpacks.theme.robot", "com.hangmanpacks.theme.zombie", "com.hangmanpacks.hints.10", "com.hangmanpacks.streak.freeze", "com.hangmanpacks.hints.100", "com.hangmanpacks.removeads",
            "com.hangmanpacks.pass.monthly", "com.hangmanpacks.pass.yearly", "com.hangmanpacks.pass.30days",
        ])
        #expect(catalog.product(ProductID(rawValue: "com.hangmanpacks.removeads")!)?.kind == .feature("remove-ads"))
        let monthly = try #require(catalog.product(ProductID(rawValue: "com.hangmanpacks.pass.monthly")!)?.autoRenewable)
        #expect(monthly.promotionalOffer("comeback-3-months") == PromotionalOffer(
            identifier: "comeback-3-months", kind: .payAsYouGo, periods: 3, prices: monthly.promotionalOffer("comeback-3-months")?.prices ?? [:]))
        #expect(monthly.promotionalOffer("comeback-3-months")?.prices["USA"] == Money(minorUnits: 99, currency: "USD"))
        #expect(monthly.promotionalOffer("comeback-free-month") == PromotionalOffer(identifier: "comeback-free-month", kind: .freeTrial, periods: 1, prices: [:]))
        var plain = monthly
        plain.promotionalOffers = nil
        #expect(plain == AutoRenewableTerms(
            group: "pass", groupLevel: 2, period: StoreDuration(1, .month), freeTrial: StoreDuration(1, .week), gracePeriod: StoreDuration(6, .day),
            unlocks: .allPacks, hintsPerPeriod: 20))
        #expect(catalog.product(ProductID(rawValue: "com.hangmanpacks.pass.30days")!)?.kind == .nonRenewing(NonRenewingTerms(
            duration: StoreDuration(30, .day), unlocks: .allPacks)))
        // Word counts as Packs/README.md documents them.
        let counts = Dictionary(uniqueKeysWithValues: catalog.products.map { ($0.id.rawValue, $0.wordCount) })
        #expect(counts["com.hangmanpacks.words.ios"] == 197)
        #expect(counts["com.hangmanpacks.words.hard"] == 1000)
        #expect(counts["com.hangmanpacks.words.es"] == 3000)
        #expect(counts["com.hangmanpacks.hints.10"] == .some(nil))
        let consumables = catalog.products.filter(\.isConsumable).map(\.kind)
        #expect(consumables == [.consumable(hints: 10), .streakFreezes(1), .consumable(hints: 100)])
        let ios = try #require(catalog.product(ProductID(rawValue: "com.hangmanpacks.words.ios")!))
        #expect(ios.price(in: "USA") == Money(minorUnits: 99, currency: "USD"))
        #expect(ios.price(in: "JPN") == Money(minorUnits: 120, currency: "JPY"))
        #expect(ios.price(in: "DEU") == Money(minorUnits: 99, currency: "EUR"))
        #expect(catalog.product(ProductID(rawValue: "com.hangmanpacks.words.base")!) == nil)
        #expect(catalog.storefrontCodes == ["BRA", "DEU", "ESP", "FRA", "GBR", "JPN", "MEX", "USA"])
        // Every shipped product is sold in every storefront, named in Spanish, German and French.
        for product in catalog.products {
            #expect(Set(product.prices.keys) == Set(catalog.storefrontCodes), "\(product.id)")
            #expect(Set(product.localizations.keys) == ["es", "de", "fr"], "\(product.id)")
            for text in product.localizations.values { #expect(!text.displayName.isEmpty && !text.description.isEmpty, "\(product.id)") }
        }
        #expect(catalog.catalogVersion >= 1)
    }

    /// A catalog published before base packs' languages were recorded: the language is read from
    /// each base pack's manifest, never guessed.
    @Test func aBasePacksLanguageMissingFromTheCatalogIsReadFromItsManifest() throws {
        let directory = try TemporaryDirectory()
        let packs = directory.file("Packs")
        try FileManager.default.copyItem(atPath: StoreFixture.shippedPacks, toPath: packs)
        let catalog = try String(contentsOfFile: packs + "/Catalog.plist", encoding: .utf8)
        let without = catalog.replacingOccurrences(of: #"\s*<key>Language</key>\s*<string>[^<]*</string>"#, with: "", options: .regularExpression)
        #expect(without != catalog)
        try without.write(toFile: packs + "/Catalog.plist", atomically: true, encoding: .utf8)
        let loaded = try Catalog.load(folder: packs)
        #expect(loaded.basePacks.map { $0.language ?? "-" } == ["en", "de", "fr", "pt-BR"])
    }

    /// The committed catalog was published after the archives were last built.
    @Test func shippedCatalogRecordsTheShippedArchives() throws {
        let catalog = try Catalog.load(folder: StoreFixture.shippedPacks)
        var recorded = catalog.basePacks.map { ($0.file, $0.sha256, $0.size) }
        for product in catalog.products {
            if case .nonConsumable(let file) = product.kind { recorded.append((file, product.packSHA256 ?? "", product.packSize ?? -1)) }
        }
        #expect(recorded.count == 9)
        #expect(catalog.products.filter(\.isTheme).map(\.id.rawValue) == ["com.hangmanpacks.theme.robot", "com.hangmanpacks.theme.zombie"])
        for (file, sha256, size) in recorded {
            let path = StoreFixture.shippedPacks + "/" + file
            #expect(sha256 == (try sha256sum(path)), "\(file): run 'make packs'")
            #expect(size == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int), "\(file): run 'make packs'")
        }
    }

    @Test func recordedDigestAndSizeAreReadFromTheCatalogNotComputed() throws {
        let directory = try TemporaryDirectory()
        let fruit = try StoreFixture.packArchive(id: StoreFixture.fruit.rawValue, words: ["apple", "pear"])
        let base = try StoreFixture.packArchive(id: "com.example.words.base", words: ["cat", "dog"])
        try directory.write("packs/fruit.wordpack", fruit)
        try directory.write("packs/base.wordpack", base)
        // Values no archive here has: only a loader that reads them from the plist reports them.
        let recordedFruit = String(repeating: "ab", count: 32)
        let recordedBase = String(repeating: "CD", count: 32)
        try directory.write("packs/Catalog.plist", StoreFixture.catalogXML(
            products: [StoreFixture.nonConsumable(StoreFixture.fruit.rawValue, pack: "fruit.wordpack", recorded: .fixed(sha256: recordedFruit, size: 12345))],
            basePacks: [StoreFixture.basePack("base.wordpack", recorded: .fixed(sha256: recordedBase, size: 777))]))
        let catalog = try Catalog.load(folder: directory.path + "/packs")
        let product = try #require(catalog.product(StoreFixture.fruit))
        #expect(product.packSHA256 == recordedFruit)
        #expect(product.packSize == 12345)
        #expect(product.wordCount == 2)
        let basePack = try #require(catalog.basePacks.first)
        #expect(basePack.sha256 == String(repeating: "cd", count: 32))
        #expect(basePack.size == 777)
    }

    @Test func catalogWhoseArchiveWasReplacedAfterPublishingStillLoads() throws {
        let directory = try TemporaryDirectory()
        let packs = try StoreFixture.makePacksFolder(in: directory)
        let published = try sha256sum(packs + "/fruit.wordpack")
        let replacement = try StoreFixture.packArchive(id: StoreFixture.fruit.rawValue, words: ["mango", "lime", "kiwi"])
        try directory.write("packs/fruit.wordpack", replacement)
        #expect(try sha256sum(packs + "/fruit.wordpack") != published)

        let catalog = try Catalog.load(folder: packs)
        let fruit = try #require(catalog.product(StoreFixture.fruit))
        #expect(fruit.packSHA256 == published)
        #expect(fruit.wordCount == 3, "the manifest is read from the archive as it is now")
    }

    enum UnpublishedEntry: String, CaseIterable, Sendable {
        case noSHA256, noSize, shortSHA256, negativeSize
    }

    @Test(arguments: UnpublishedEntry.allCases)
    func productWithoutItsRecordedDigestNamesTheProductAndTheFix(_ entry: UnpublishedEntry) throws {
        let pack = try StoreFixture.packArchive(id: "com.example.words.mine", words: ["alpha", "beta"])
        let recorded: String = switch entry {
        case .noSHA256: "<key>Size</key><integer>\(pack.count)</integer>"
        case .noSize: "<key>SHA256</key><string>\(String(repeating: "0", count: 64))</string>"
        case .shortSHA256: "<key>SHA256</key><string>abc123</string><key>Size</key><integer>10</integer>"
        case .negativeSize: "<key>SHA256</key><string>\(String(repeating: "0", count: 64))</string><key>Size</key><integer>-1</integer>"
        }
        let product = StoreFixture.nonConsumable("com.example.words.mine", pack: "mine.wordpack", recorded: .nothing)
            .replacingOccurrences(of: "</dict>", with: recorded + "</dict>")
        let found = try problems(catalog: StoreFixture.catalogXML(products: [product]), files: [("mine.wordpack", pack)])
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("product 1: 'com.example.words.mine': pack mine.wordpack:") == true, "\(found)")
        #expect(found.first?.contains(entry == .noSize || entry == .negativeSize ? "'Size'" : "'SHA256'") == true, "\(found)")
        #expect(found.first?.hasSuffix("run 'hangman catalog update' to record the archive's SHA-256 and size") == true, "\(found)")
    }

    @Test func basePackListedByFileNameOnlyIsReportedAsUnpublished() throws {
        let base = try StoreFixture.packArchive(id: "com.example.words.base", words: ["cat", "dog"])
        let found = try problems(
            catalog: StoreFixture.catalogXML(products: []).replacingOccurrences(
                of: "<key>BasePacks</key><array></array>", with: "<key>BasePacks</key><array><string>base.wordpack</string></array>"),
            files: [("base.wordpack", base)])
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("BasePacks: base.wordpack: no recorded 'SHA256': run 'hangman catalog update'") == true, "\(found)")
    }

    @Test func missingCatalogVersionSaysToPublish() throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [StoreFixture.consumable("com.example.hints.10", hints: 10)], version: nil))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("'CatalogVersion' is missing: run 'hangman catalog update'") == true, "\(found)")
    }

    @Test func versionAndCurrencyAreRead() throws {
        let directory = try TemporaryDirectory()
        try directory.write("packs/Catalog.plist", StoreFixture.catalogXML(products: [StoreFixture.consumable("com.example.hints.10", hints: 10)], version: 42, currency: "EUR"))
        let catalog = try Catalog.load(folder: directory.path + "/packs")
        #expect(catalog.catalogVersion == 42)
        #expect(catalog.storefronts == ["USA": "EUR"])
    }

    @Test func missingCurrencyIsUSD() throws {
        let directory = try TemporaryDirectory()
        try directory.write("packs/Catalog.plist", StoreFixture.catalogXML(products: [StoreFixture.consumable("com.example.hints.10", hints: 10)], currency: nil))
        #expect(try Catalog.load(folder: directory.path + "/packs").storefronts == ["USA": "USD"])
    }

    @Test(arguments: ["usd", "Dollars", "US", ""])
    func currencyThatIsNotAnISOCodeIsRefused(_ code: String) throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [StoreFixture.consumable("com.example.hints.10", hints: 10)], currency: code))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("'Currency' must be an ISO 4217 code") == true, "\(found)")
    }

    @Test func unknownProductType() throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [StoreFixture.consumable("com.example.gems", hints: 5, type: "Subscription")]))
        #expect(found.count == 1)
        #expect(found.first?.contains("unknown product type 'Subscription' (Consumable, NonConsumable, AutoRenewable or NonRenewing)") == true, "\(found)")
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
        #expect(found.first?.hasSuffix("/packs/Catalog.plist: product 1: 'com.example.hints.x': a Consumable needs 'HintCount' (or 'StreakFreezes'), a positive integer") == true)
    }

    @Test(arguments: [0, -3])
    func consumableWithNonPositiveHintCount(_ count: Int) throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [StoreFixture.consumable("com.example.hints.x", hints: count)]))
        #expect(found.count == 1)
        #expect(found.first?.contains("a Consumable needs 'HintCount'") == true)
    }

    /// Loads a catalog that must load; returns it.
    private func loaded(catalog: String, files: [(String, [UInt8])] = []) throws -> Catalog {
        let directory = try TemporaryDirectory()
        for (name, bytes) in files { try directory.write("packs/" + name, bytes) }
        try directory.write("packs/Catalog.plist", catalog)
        return try Catalog.load(folder: directory.path + "/packs")
    }

    // A pack that is missing, damaged or for another product makes its product unavailable: the
    // rest of the catalog loads and sells as usual.

    @Test func nonConsumableWhosePackIsMissingIsUnavailable() throws {
        let hints = StoreFixture.consumable("com.example.hints.10", hints: 10)
        let catalog = try loaded(catalog: StoreFixture.catalogXML(products: [
            StoreFixture.nonConsumable("com.example.words.gone", pack: "gone.wordpack", recorded: .placeholder), hints,
        ]))
        let gone = try #require(catalog.product(ProductID(rawValue: "com.example.words.gone")!))
        #expect(!gone.isAvailable)
        #expect(gone.unavailableReason == "its pack gone.wordpack is missing from the packs folder")
        #expect(catalog.product(ProductID(rawValue: "com.example.hints.10")!)?.isAvailable == true)
    }

    @Test func nonConsumableWhosePackIsForAnotherProductIsUnavailable() throws {
        let other = try StoreFixture.packArchive(id: "com.example.words.other", words: ["alpha", "beta"])
        let catalog = try loaded(
            catalog: StoreFixture.catalogXML(products: [StoreFixture.nonConsumable("com.example.words.mine", pack: "mine.wordpack", recorded: .of(other))]),
            files: [("mine.wordpack", other)])
        #expect(catalog.products.first?.unavailableReason == "its pack mine.wordpack is for 'com.example.words.other'")
    }

    @Test func nonConsumableWhosePackIsNotAPackIsUnavailable() throws {
        let notAnArchive = Array("not an archive at all".utf8)
        let fruit = try StoreFixture.packArchive(id: StoreFixture.fruit.rawValue, words: ["apple", "pear"])
        let catalog = try loaded(
            catalog: StoreFixture.catalogXML(products: [
                StoreFixture.nonConsumable("com.example.words.mine", pack: "mine.wordpack", recorded: .of(notAnArchive)),
                StoreFixture.nonConsumable(StoreFixture.fruit.rawValue, pack: "fruit.wordpack", recorded: .of(fruit)),
            ]),
            files: [("mine.wordpack", notAnArchive), ("fruit.wordpack", fruit)])
        #expect(catalog.products[0].unavailableReason?.hasPrefix("its pack mine.wordpack cannot be used: ") == true, "\(catalog.products[0])")
        #expect(catalog.products[1].isAvailable)
        #expect(catalog.products[1].wordCount == 2)
    }

    @Test func nonConsumableWhosePackIsAFIFOIsUnavailableWithoutBlocking() throws {
        let directory = try TemporaryDirectory()
        try directory.write("packs/Catalog.plist", StoreFixture.catalogXML(products: [
            StoreFixture.nonConsumable("com.example.words.pipe", pack: "pipe.wordpack", recorded: .placeholder),
        ]))
        try #require(mkfifo(directory.file("packs/pipe.wordpack"), 0o600) == 0)
        let catalog = try Catalog.load(folder: directory.path + "/packs")
        #expect(catalog.products.first?.unavailableReason?.contains("is a FIFO (named pipe)") == true, "\(catalog.products)")
    }

    @Test(arguments: ["../packs/inside.wordpack", "../../etc/passwd", "sub/inside.wordpack", "/tmp/inside.wordpack", "..", ".hidden.wordpack"])
    func packPathOutsideTheFolderIsRefused(_ path: String) throws {
        // A valid pack really is at the place a path with folders points to: the refusal is about the path.
        let pack = try StoreFixture.packArchive(id: "com.example.words.mine", words: ["alpha", "beta"])
        let found = try problems(
            catalog: StoreFixture.catalogXML(products: [StoreFixture.nonConsumable("com.example.words.mine", pack: path, recorded: .of(pack))]),
            files: [("inside.wordpack", pack), ("sub/inside.wordpack", pack), (".hidden.wordpack", pack)])
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.contains("'com.example.words.mine': a NonConsumable needs 'Pack', the archive's file name in the packs folder") == true, "\(found)")
    }

    static func feature(_ extra: String) -> String {
        """
        <dict><key>ProductIdentifier</key><string>com.example.removeads</string><key>Type</key><string>NonConsumable</string>
        <key>DisplayName</key><string>Remove Ads</string><key>Price</key><string>2.99</string>\(extra)</dict>
        """
    }

    /// A price without its storefront is read one way by the catalog file and by 'catalog add': in
    /// the only storefront, else in USA when the catalog sells there (the loader refused what
    /// 'catalog add' wrote as USA's).
    @Test func aBarePriceIsInTheOnlyStorefrontElseInUSA() throws {
        let several = StoreFixture.catalogXML(products: [Self.feature("<key>Feature</key><string>remove-ads</string>")], currency: nil).replacingOccurrences(
            of: "<key>BasePacks</key>", with: "<key>Storefronts</key><dict><key>USA</key><string>USD</string><key>DEU</key><string>EUR</string></dict><key>BasePacks</key>")
        let product = try #require(try loaded(catalog: several).products.first)
        #expect(product.price(in: "USA") == Money(minorUnits: 299, currency: "USD"))
        #expect(product.price(in: "DEU") == nil)
        #expect(Catalog.barePriceStorefront(["DEU": "EUR"]) == "DEU")
        #expect(Catalog.barePriceStorefront(["DEU": "EUR", "USA": "USD"]) == "USA")
        #expect(Catalog.barePriceStorefront(["DEU": "EUR", "FRA": "EUR"]) == nil)
    }

    @Test func aFeatureIsANonConsumableWithoutAPack() throws {
        let catalog = try loaded(catalog: StoreFixture.catalogXML(products: [Self.feature("<key>Feature</key><string>remove-ads</string>")]))
        let product = try #require(catalog.products.first)
        #expect(product.kind == .feature("remove-ads"))
        #expect(product.packFile == nil)
        #expect(product.typeName == "NonConsumable")
        #expect(product.isAvailable)
    }

    @Test(arguments: [
        ("<key>Feature</key><string>remove-ads</string><key>Pack</key><string>x.wordpack</string>", "either 'Pack' or 'Feature', not both"),
        ("<key>Feature</key><string>Remove Ads!</string>", "'Feature' must be a name of lowercase letters"),
        ("<key>Feature</key><integer>1</integer>", "'Feature' must be a name of lowercase letters"),
        ("", "a NonConsumable needs 'Pack'"),
    ])
    func aFeatureThatIsNotOneIsRefused(_ extra: String, _ message: String) throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [Self.feature(extra)]))
        #expect(found.count == 1 && found[0].contains(message), "\(found)")
    }

    @Test func basePackPathOutsideTheFolderIsRefused() throws {
        let found = try problems(catalog: StoreFixture.catalogXML(products: [], basePacks: [StoreFixture.basePack("../base.wordpack", recorded: .placeholder)]))
        #expect(found.count == 1)
        #expect(found.first?.contains("BasePacks: every entry must be an archive file name in the packs folder") == true, "\(found)")
    }

    @Test func missingBasePackIsUnavailable() throws {
        let catalog = try loaded(catalog: StoreFixture.catalogXML(products: [], basePacks: [StoreFixture.basePack("base.wordpack", recorded: .placeholder)]))
        #expect(catalog.basePacks.isEmpty)
        #expect(catalog.unavailableBasePacks == [.init(file: "base.wordpack", reason: "base.wordpack is missing from the packs folder")])
    }

    // What the catalog itself gets wrong does not load: a pack is sold once, a base pack never.

    @Test func aPackSoldByTwoProductsIsRefused() throws {
        let fruit = try StoreFixture.packArchive(id: StoreFixture.fruit.rawValue, words: ["apple", "pear"])
        let found = try problems(
            catalog: StoreFixture.catalogXML(products: [
                StoreFixture.nonConsumable(StoreFixture.fruit.rawValue, pack: "fruit.wordpack", recorded: .of(fruit)),
                StoreFixture.nonConsumable("com.example.words.fruit2", pack: "fruit.wordpack", recorded: .of(fruit)),
            ]),
            files: [("fruit.wordpack", fruit)])
        #expect(found == ["\(found.first?.split(separator: ":").first ?? ""): product 2: 'com.example.words.fruit2' sells fruit.wordpack, which '\(StoreFixture.fruit)' sells already: a pack is sold once"])
    }

    @Test func aBasePackSoldAsAProductIsRefused() throws {
        let base = try StoreFixture.packArchive(id: "com.example.words.base", words: ["apple", "pear"])
        let byFile = try problems(
            catalog: StoreFixture.catalogXML(
                products: [StoreFixture.nonConsumable("com.example.words.base", pack: "base.wordpack", recorded: .of(base))],
                basePacks: [StoreFixture.basePack("base.wordpack", recorded: .of(base))]),
            files: [("base.wordpack", base)])
        #expect(byFile.count == 1)
        #expect(byFile.first?.hasSuffix("product 1: 'com.example.words.base' sells base.wordpack, a base pack: base packs are free, never sold") == true, "\(byFile)")
        let byIdentifier = try problems(
            catalog: StoreFixture.catalogXML(
                products: [StoreFixture.nonConsumable("com.example.words.base", pack: "copy.wordpack", recorded: .of(base))],
                basePacks: [StoreFixture.basePack("base.wordpack", recorded: .of(base))]),
            files: [("base.wordpack", base), ("copy.wordpack", base)])
        #expect(byIdentifier.count == 1)
        #expect(byIdentifier.first?.hasSuffix("base pack base.wordpack is 'com.example.words.base', which is also a product: base packs are free, never sold") == true, "\(byIdentifier)")
    }

    @Test func aBasePackListedTwiceIsRefused() throws {
        let base = try StoreFixture.packArchive(id: "com.example.words.base", words: ["apple", "pear"])
        let sameFile = try problems(
            catalog: StoreFixture.catalogXML(products: [], basePacks: [
                StoreFixture.basePack("base.wordpack", recorded: .of(base)), StoreFixture.basePack("base.wordpack", recorded: .of(base)),
            ]),
            files: [("base.wordpack", base)])
        #expect(sameFile.count == 1)
        #expect(sameFile.first?.hasSuffix("BasePacks: base.wordpack is listed twice") == true, "\(sameFile)")
        let samePack = try problems(
            catalog: StoreFixture.catalogXML(products: [], basePacks: [
                StoreFixture.basePack("base.wordpack", recorded: .of(base)), StoreFixture.basePack("copy.wordpack", recorded: .of(base)),
            ]),
            files: [("base.wordpack", base), ("copy.wordpack", base)])
        #expect(samePack.count == 1)
        #expect(samePack.first?.hasSuffix("base pack copy.wordpack is 'com.example.words.base' again: a pack is listed once") == true, "\(samePack)")
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
            StoreFixture.consumable("com.example.hints.10", hints: 10),
            StoreFixture.consumable("com.example.hints.10", hints: 20),
        ]))
        #expect(found.count == 3, "\(found)")
    }
}
