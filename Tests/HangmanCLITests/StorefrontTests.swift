import Foundation
import Messages
@testable import hangman
import PackServiceAPI
import TestSupport
import Testing

/// Storefronts and locales: each account buys in its storefront's currency, at its price; a
/// player reads product names in their language and numbers as their locale writes them; what
/// was charged is recorded, in its currency, and given back in it.
@Suite struct StorefrontTests {
    /// A fresh embedded home reading the shipped packs, in one locale (LANG; the LC_ variables unset).
    struct Home {
        let scratch: Scratch
        let lang: String
        init(lang: String) throws {
            scratch = try Scratch()
            self.lang = lang
        }

        func run(_ arguments: String..., environment: [String: String] = [:]) async throws -> CLI.Result {
            try await CLI.run(arguments, environment: Self.environment(lang, scratch).merging(environment) { _, new in new })
        }

        func json(_ arguments: String...) async throws -> [[String: Any]] {
            let result = try await CLI.run(arguments + ["--json"], environment: Self.environment(lang, scratch))
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        }

        /// The home and the shipped packs, in `lang` alone (no LC_ variable), 200 columns.
        static func environment(_ lang: String, _ scratch: Scratch) -> [String: String] {
            [
                "LANG": lang, "LC_ALL": "", "LC_MONETARY": "", "LC_MESSAGES": "", "LC_NUMERIC": "", "COLUMNS": "200",
                "HANGMAN_HOME": scratch.path + "/home", "HANGMAN_PACKS": StoreAsksTests.packs,
            ]
        }
    }

    struct Expected: Sendable, CustomStringConvertible {
        var lang: String
        var storefront: String
        var currency: String
        /// iOS Words' price as the locale writes it, and as a decimal string.
        var price: String
        var decimal: String
        /// iOS Words' name in the locale's language, and Hard Words' 1000 words as it is written.
        var name: String
        var thousand: String
        /// The purchase's sentence up to the transaction's number, and the unlock's, in the locale's language.
        var purchased: String = ""
        var unlocked: String = ""
        var installed: String = ""
        var description: String { lang }
    }

    static let locales: [Expected] = [
        Expected(
            lang: "en_US.UTF-8", storefront: "USA", currency: "USD", price: "$0.99", decimal: "0.99", name: "iOS Words", thousand: "1,000 words",
            purchased: "Purchased iOS Words for $0.99: transaction ", unlocked: "iOS Words is unlocked.", installed: "Installed iOS Words 1.0"),
        Expected(
            lang: "de_DE.UTF-8", storefront: "DEU", currency: "EUR", price: "0,99\u{a0}€", decimal: "0.99", name: "iOS-Wörter", thousand: "1.000 Wörter",
            purchased: "iOS-Wörter für 0,99\u{a0}€ gekauft: Transaktion ", unlocked: "iOS-Wörter ist freigeschaltet.", installed: "iOS-Wörter 1.0 (197 Wörter) installiert"),
        Expected(
            lang: "fr_FR.UTF-8", storefront: "FRA", currency: "EUR", price: "0,99\u{a0}€", decimal: "0.99", name: "Mots iOS", thousand: "1\u{202f}000 mots",
            purchased: "Mots iOS acheté pour 0,99\u{a0}€ : transaction ", unlocked: "Mots iOS est débloqué.", installed: "Mots iOS 1.0 (197 mots) installé"),
        Expected(
            lang: "es_ES.UTF-8", storefront: "ESP", currency: "EUR", price: "0,99\u{a0}€", decimal: "0.99", name: "Palabras de iOS", thousand: "1000 palabras",
            purchased: "Palabras de iOS comprado por 0,99\u{a0}€: transacción ", unlocked: "Palabras de iOS está desbloqueado.", installed: "Palabras de iOS 1.0 (197 palabras) instalado"),
        Expected(
            lang: "ja_JP.UTF-8", storefront: "JPN", currency: "JPY", price: "¥120", decimal: "120", name: "iOS Words", thousand: "1,000 words",
            purchased: "Purchased iOS Words for ¥120: transaction ", unlocked: "iOS Words is unlocked.", installed: "Installed iOS Words 1.0"),
        Expected(
            lang: "C", storefront: "USA", currency: "USD", price: "$0.99", decimal: "0.99", name: "iOS Words", thousand: "1,000 words",
            purchased: "Purchased iOS Words for $0.99: transaction ", unlocked: "iOS Words is unlocked.", installed: "Installed iOS Words 1.0"),
    ]

    /// In each locale: the products table, a purchase, the transactions and the receipt show the
    /// storefront's currency and amount, the localized name and the locale's numbers; `--json`
    /// carries the plain decimal, the currency and the storefront.
    @Test(arguments: locales)
    func eachLocaleBuysInItsStorefrontAndReadsItsOwnWay(_ expected: Expected) async throws {
        let home = try Home(lang: expected.lang)
        let products = try await home.run("products")
        let ios = products.stdout.split(separator: "\n").first { $0.contains("words.ios ") } ?? ""
        #expect(ios.contains(expected.price) && ios.contains(expected.name), "\(expected): \(ios)")
        #expect(products.stdout.contains(expected.thousand), "\(expected): \(products.stdout)")

        let show = try await home.run("account", "show")
        #expect(show.stdout.contains("storefront  \(expected.storefront) (\(expected.currency))"), "\(expected): \(show.stdout)")

        let bought = try await home.run("buy", "ios", "--yes")
        #expect(bought.status == 0, "\(expected): \(bought.stderr)")
        #expect(bought.stdout.contains(expected.purchased), "\(expected): \(bought.stdout)")
        // One name per line: the pack installed is named as it was bought (before: "Installed iOS Words" under de_DE).
        #expect(bought.stdout.contains("\(expected.unlocked) \(expected.installed)"), "\(expected): \(bought.stdout)")

        let history = try await home.run("transactions")
        let row = try #require(history.stdout.split(separator: "\n").first { $0.contains(expected.name) }, "\(history.stdout)")
        #expect(row.contains("  \(expected.price)  ") && row.hasSuffix("finished"), "\(expected): \(history.stdout)")
        let recorded = try #require(try await home.json("transactions").first)
        #expect(recorded["price"] as? String == expected.decimal && recorded["currency"] as? String == expected.currency)
        #expect(recorded["storefront"] as? String == expected.storefront)

        let receiptFile = home.scratch.file("receipt")
        #expect(try await home.run("receipt", "--output", receiptFile).status == 0)
        let verified = try await home.run("receipt", "verify", receiptFile)
        #expect(verified.stdout.contains("\(expected.name)  (\(expected.price) in \(expected.storefront))"), "\(expected): \(verified.stdout)")

        // JSON is locale-free but for the name, whose language it says.
        let listed = try await home.json("products")
        let entry = try #require(listed.first { $0["shortName"] as? String == "ios" })
        #expect(entry["displayName"] as? String == expected.name && entry["price"] as? String == expected.decimal)
        #expect(entry["currency"] as? String == expected.currency && entry["storefront"] as? String == expected.storefront)
        let language = String(expected.lang.prefix(2))
        #expect(entry["locale"] as? String == (["de", "fr", "es"].contains(language) ? language : nil))
        #expect(try await home.json("packs").first { $0["productID"] as? String == "com.hangmanpacks.words.hard" }?["wordCount"] as? Int == 1000)
    }

    /// A purchase in Japan records 120 JPY; its refund gives back 120 JPY. Moving the account
    /// changes what the next purchase costs, not what the first one cost, and nothing is added up
    /// across currencies.
    @Test func aJapanesePurchaseIsChargedAndRefundedInYen() async throws {
        let home = try Home(lang: "C")
        let moved = try await home.run("account", "storefront", "JPN")
        #expect(moved.status == 0 && moved.stdout.contains("now JPN (JPY) (was USA (USD))"), "\(moved.stdout)\(moved.stderr)")
        #expect(try await home.run("account", "storefront").stdout.contains("The account's storefront is JPN (JPY)."))
        let bought = try await home.run("buy", "ios", "--yes")
        #expect(bought.stdout.contains("for ¥120:"), "\(bought.stdout)")
        let first = try #require(try await home.json("transactions").first)
        #expect(first["price"] as? String == "120" && first["currency"] as? String == "JPY" && first["storefront"] as? String == "JPN")
        let id = try #require(first["transactionID"] as? String)
        let refund = try await home.run("store", "refund", id)
        #expect(refund.stdout.contains("Refunded iOS Words (¥120 back)"), "\(refund.stdout)")

        // Moves are spaced (30 days unless the catalog says otherwise): buying in one storefront
        // and moving straight back is refused, saying from when it may move.
        let soon = try await home.run("account", "storefront", "USA")
        #expect(soon.status == 75 && soon.stderr.contains("it may move again 30 days after that, from "), "\(soon.stderr)")
        #expect(try await home.run("account", "storefront").stdout.contains("JPN (JPY)"))
        #expect(try await home.run("store", "clock", "advance", "P30D").status == 0)
        #expect(try await home.run("account", "storefront", "USA").status == 0)
        #expect(try await home.run("buy", "hints.10", "--yes", "--quantity", "2").stdout.contains("for $1.98 in all"))
        let all = try await home.json("transactions")
        #expect(all.map { $0["currency"] as? String } == ["JPY", "USD"])
        #expect(all.map { $0["price"] as? String } == ["120", "1.98"], "the first stays as it was charged")
        #expect(try await home.run("account", "storefront", "ATA").status == 64)
    }

    /// A subscription's renewals are priced where it began: the storefront stays while it lasts,
    /// cancelled or not, and moves once it has ended.
    @Test func theStorefrontStaysWhileASubscriptionLasts() async throws {
        let home = try Home(lang: "C")
        #expect(try await home.run("buy", "monthly", "--yes").status == 0)
        let refused = try await home.run("account", "storefront", "JPN")
        #expect(refused.status == 75 && refused.stderr.contains("the storefront stays while Hangman Pass (monthly) lasts (until "), "\(refused.stderr)")
        #expect(try await home.run("subscriptions", "cancel", "monthly").status == 0)
        #expect(try await home.run("account", "storefront", "JPN").status == 75, "cancelled, it still lasts to its end")
        #expect(try await home.run("store", "clock", "advance", "P8D").status == 0)
        let moved = try await home.run("account", "storefront", "JPN")
        #expect(moved.status == 0, "\(moved.stderr)")
        // Moving to where the account is moves nothing, and is no move to wait after.
        #expect(try await home.run("account", "storefront", "JPN").status == 0)
    }

    /// A product without a price in the account's storefront is not listed there, and buying it
    /// says so (69), as StoreKit calls it an invalid product identifier there.
    @Test func aProductNotPricedInTheStorefrontIsNotSoldThere() async throws {
        let scratch = try Scratch()
        let packs = scratch.file("Packs")
        try FileManager.default.copyItem(atPath: StoreAsksTests.packs, toPath: packs)
        let catalogPath = packs + "/Catalog.plist"
        var text = try String(contentsOfFile: catalogPath, encoding: .utf8)
        // Hard Words loses its Japanese price.
        let hard = try #require(text.range(of: "<string>Hard Words</string>"))
        let jpn = try #require(text.range(of: "<key>JPN</key>\n\t\t\t\t<string>250</string>\n", range: hard.upperBound..<text.endIndex))
        text.removeSubrange(jpn)
        try text.write(toFile: catalogPath, atomically: true, encoding: .utf8)
        let environment = ["LANG": "ja_JP.UTF-8", "LC_ALL": "", "HANGMAN_HOME": scratch.file("home"), "HANGMAN_PACKS": packs]
        let products = try await CLI.run(["products", "--wide"], environment: environment)
        #expect(!products.stdout.contains("words.hard") && products.stdout.contains("words.ios"), "\(products.stdout)")
        #expect(products.stderr.contains("1 product is not sold in the JPN storefront"), "\(products.stderr)")
        let buy = try await CLI.run(["buy", "hard", "--yes"], environment: environment)
        #expect(buy.status == 69 && buy.stderr.contains("is not sold in the JPN storefront"), "\(buy.status) \(buy.stderr)")
        let packsTable = try await CLI.run(["packs", "--wide"], environment: environment)
        #expect(packsTable.stdout.split(separator: "\n").contains { $0.contains("words.hard") && $0.contains(" - ") }, "\(packsTable.stdout)")
    }

    /// `catalog update` refuses a storefront, a currency or a price that is none, naming it (65).
    @Test(arguments: [
        ("<key>JPN</key>\n\t\t<string>JPY</string>", "<key>XYZ</key>\n\t\t<string>JPY</string>", "'XYZ' is not an App Store storefront"),
        ("<key>GBR</key>\n\t\t<string>GBP</string>", "<key>GBR</key>\n\t\t<string>QQQ</string>", "GBR's currency must be an ISO 4217 code"),
        ("<string>120</string>", "<string>120.5</string>", "'com.hangmanpacks.words.ios': Prices: JPN's price must be a whole number (JPY has no minor unit)"),
        ("<string>0.99</string>", "<string>0.999</string>", "'com.hangmanpacks.words.ios': Prices: DEU's price must be a decimal string with at most 2 decimals, in EUR"),
    ])
    func aCatalogWithABadStorefrontCurrencyOrPriceIsRefused(_ from: String, _ to: String, _ says: String) async throws {
        let scratch = try Scratch()
        let packs = scratch.file("Packs")
        try FileManager.default.copyItem(atPath: StoreAsksTests.packs, toPath: packs)
        let catalogPath = packs + "/Catalog.plist"
        let text = try String(contentsOfFile: catalogPath, encoding: .utf8)
        let first = try #require(text.range(of: from), "\(from) is in the shipped catalog")
        try text.replacingCharacters(in: first, with: to).write(toFile: catalogPath, atomically: true, encoding: .utf8)
        let result = try await CLI.run(["catalog", "update", "--packs", packs])
        #expect(result.status == 65, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains(says), "\(result.stderr)")
    }

    /// Over a server: two accounts in two storefronts buy the same pack, each charged in its own
    /// currency; the storefront belongs to the account (another device sees it), and moving it
    /// changes future prices only.
    @Test func twoAccountsOnAServerPayInTheirOwnCurrencies() async throws {
        let world = try ServiceCommandTests.ServedWorld()
        func hangman(_ player: String, _ lang: String, _ arguments: String...) async throws -> CLI.Result {
            try await CLI.run(arguments, environment: [
                "HANGMAN_HOME": world.scratch.file(player), "HANGMAN_SERVICE": world.url, "LANG": lang, "LC_ALL": "", "LC_MONETARY": "",
                "LC_MESSAGES": "", "LC_NUMERIC": "",
            ])
        }
        func transactions(_ player: String) async throws -> [[String: Any]] {
            let listed = try await hangman(player, "C", "transactions", "--json")
            return try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        }
        // Anna names her storefront; Kenji's comes from his locale's region; a storefront the
        // store does not sell in is refused before any account is made.
        #expect(try await hangman("refused", "C", "account", "create", "--storefront", "ATA").status == 64)
        #expect(try await hangman("anna", "C", "account", "create", "--storefront", "DEU").status == 0)
        #expect(try await hangman("kenji", "ja_JP.UTF-8", "account", "create").status == 0)
        let annaBuys = try await hangman("anna", "de_DE.UTF-8", "buy", "ios", "--yes")
        #expect(annaBuys.stdout.contains("iOS-Wörter für 0,99\u{a0}€ gekauft"), "\(annaBuys.stdout)\(annaBuys.stderr)")
        let kenjiBuys = try await hangman("kenji", "ja_JP.UTF-8", "buy", "ios", "--yes")
        #expect(kenjiBuys.stdout.contains("for ¥120"), "\(kenjiBuys.stdout)\(kenjiBuys.stderr)")
        let anna = try #require(try await transactions("anna").first)
        let kenji = try #require(try await transactions("kenji").first)
        #expect(anna["price"] as? String == "0.99" && anna["currency"] as? String == "EUR" && anna["storefront"] as? String == "DEU")
        #expect(kenji["price"] as? String == "120" && kenji["currency"] as? String == "JPY" && kenji["storefront"] as? String == "JPN")

        // Anna moves to the UK: her next purchase is in pounds, her first stays in euros.
        #expect(try await hangman("anna", "C", "account", "storefront", "GBR").status == 0)
        #expect(try await hangman("anna", "C", "account", "show").stdout.contains("storefront  GBR (GBP)"))
        #expect(try await hangman("anna", "en_GB.UTF-8", "buy", "hints.10", "--yes").stdout.contains("for £0.99"))
        let history = try await transactions("anna")
        #expect(history.map { $0["currency"] as? String } == ["EUR", "GBP"])
        #expect(try await hangman("anna", "C", "account", "storefront", "ATA").status == 64)
        #expect(try await hangman("kenji", "C", "account", "show").stdout.contains("storefront  JPN (JPY)"), "the server keeps it")
    }

    /// Dates read as the reader's locale writes them, in UTC; the C locale keeps ISO 8601.
    @Test(arguments: [
        ("de_DE.UTF-8", "01.12.2025, 20:00 UTC"), ("fr_FR.UTF-8", "1 déc. 2025"), ("ja_JP.UTF-8", "2025/12/01 20:00 UTC"),
        ("C", "2025-12-01 20:00:00 UTC"), ("", "2025-12-01 20:00:00 UTC"),
    ])
    func datesFollowTheLocale(_ lang: String, _ expected: String) {
        let moment: Int64 = 1_764_619_200_000  // 2025-12-01T20:00:00Z
        let text = ReaderLocale(environment: ["LANG": lang]).reading { StoreText.date(moment) }
        #expect(text.contains(expected) && text.hasSuffix(" UTC"), "\(lang): \(text)")
    }

    /// An author prices a pack per storefront; a price its currency cannot hold, or a storefront
    /// the catalog does not list, is refused and the folder left as it was.
    @Test func anAuthorPricesAPackPerStorefront() async throws {
        let scratch = try Scratch()
        let packs = scratch.file("Packs")
        try FileManager.default.copyItem(atPath: StoreAsksTests.packs, toPath: packs)
        try scratch.write("src/birds/words.plist", wordsXML(["robin", "heron", "finch"]))
        #expect(try await CLI.run(["pack", "init", scratch.file("src/birds"), "--product-id", "com.example.words.birds", "--display-name", "Birds"]).status == 0)
        let archive = scratch.file("birds.wordpack")
        #expect(try await CLI.run(["pack", "build", scratch.file("src/birds"), "-o", archive]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: packs + "/Catalog.plist"))
        for (price, says) in [("JPN=200.5", "'200.5' is not a price in JPY (JPN)"), ("ATA=1", "ATA is not one of the catalog's storefronts")] {
            let refused = try await CLI.run(["catalog", "add", archive, "--price", "1.49", "--price", price, "--packs", packs])
            #expect(refused.status == 65 && refused.stderr.contains(says), "\(price): \(refused.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: packs + "/Catalog.plist")) == before)
            #expect(!FileManager.default.fileExists(atPath: packs + "/birds.wordpack"))
        }
        let added = try await CLI.run(["catalog", "add", archive, "--price", "1.49", "--price", "deu=1.49", "--price", "JPN=200", "--packs", packs])
        #expect(added.stdout.contains("at 1.49 EUR (DEU), 200 JPY (JPN), 1.49 USD (USA)"), "\(added.stdout)\(added.stderr)")
        // The storefronts it is not sold in are named, with how to sell there.
        #expect(added.stdout.contains("Not sold in") && added.stdout.contains("FRA") && !added.stdout.contains("DEU,"), "\(added.stdout)")
        let environment = ["HANGMAN_HOME": scratch.file("home"), "HANGMAN_PACKS": packs, "LANG": "ja_JP.UTF-8", "LC_ALL": ""]
        #expect(try await CLI.run(["buy", "birds", "--yes"], environment: environment).stdout.contains("for ¥200"))
        let french = ["HANGMAN_HOME": scratch.file("fr"), "HANGMAN_PACKS": packs, "LANG": "fr_FR.UTF-8", "LC_ALL": ""]
        #expect(try await CLI.run(["buy", "birds", "--yes"], environment: french).status == 69, "not sold in FRA")
    }
}
