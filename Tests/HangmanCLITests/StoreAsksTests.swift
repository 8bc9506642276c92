import CivilCalendar
import Foundation
@testable import hangman
import TestSupport
import Testing

/// The store asks before it charges, honours `store payments off`, formats prices for the
/// locale, and knows products by their short names.
@Suite struct StoreAsksTests {
    static let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path

    /// A fresh home; every command runs with `--home` and the repository's packs.
    struct Home {
        let scratch: Scratch
        init() throws { scratch = try Scratch() }

        func run(_ arguments: [String], input: String = "", terminal: Bool = false, environment: [String: String] = [:]) async throws -> CLI.Result {
            try await CLI.run(
                arguments + ["--home", scratch.path + "/home", "--packs", StoreAsksTests.packs],
                environment: ["LANG": "en_US.UTF-8", "LC_ALL": "", "LC_MONETARY": ""].merging(environment) { _, new in new },
                input: input, terminal: terminal)
        }
    }

    @Test func onATerminalBuyAsksAndNoChargesNothing() async throws {
        let home = try Home()
        let declined = try await home.run(["buy", "hard"], input: "n\n", terminal: true)
        #expect(declined.status == 1, "\(declined.stderr)")
        #expect(declined.stdout.contains("Buy Hard Words for $1.99? [y/N] "))
        #expect(declined.stdout.contains("Not bought: nothing was charged."))
        let history = try await home.run(["transactions"])
        #expect(!history.stdout.contains("Hard Words"), "\(history.stdout)")
        let packs = try await home.run(["packs", "--json"])
        #expect(packs.stdout.contains("\"locked\""))
    }

    @Test(arguments: ["", "\n", "no\n", "yess\n"])
    func anythingButYesIsNo(_ answer: String) async throws {
        let home = try Home()
        let result = try await home.run(["buy", "10"], input: answer, terminal: true)
        #expect(result.status == 1, "answer \(answer.debugDescription): \(result.stdout)")
        #expect(try await home.run(["hints"]).stdout.contains("0"))
    }

    @Test func yesBuysAndInstalls() async throws {
        let home = try Home()
        let result = try await home.run(["buy", "ios"], input: "Y\n", terminal: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Purchased iOS Words for $0.99"))
        #expect(result.stdout.contains("Installed iOS Words 1.0 (197 words)"))
        // Owned: no question the second time, and nothing charged.
        let again = try await home.run(["buy", "ios"], input: "", terminal: true)
        #expect(again.status == 0)
        #expect(!again.stdout.contains("[y/N]"))
        #expect(again.stdout.contains("You already own iOS Words"))
    }

    @Test func aQuantityShowsTheTotal() async throws {
        let home = try Home()
        let result = try await home.run(["buy", "hints.10", "--quantity", "3"], input: "y\n", terminal: true)
        #expect(result.stdout.contains("Buy 3 x 10 Hints for $0.99 each ($2.97 in all)? [y/N] "), "\(result.stdout)")
        #expect(result.status == 0)
    }

    @Test func yesFlagAndScriptsDoNotAsk() async throws {
        let home = try Home()
        let flagged = try await home.run(["buy", "10", "--yes"], terminal: true)
        #expect(flagged.status == 0)
        #expect(!flagged.stdout.contains("[y/N]"))
        let piped = try await home.run(["buy", "10"])
        #expect(piped.status == 0)
        #expect(!piped.stdout.contains("[y/N]"))
        #expect(try await home.run(["hints"]).stdout.contains("20"))
    }

    @Test func paymentsOffRefusesEveryPurchaseWith69() async throws {
        let home = try Home()
        #expect(try await home.run(["store", "payments", "off"]).status == 0)
        #expect(try await home.run(["store"]).stdout.contains("payments             off"))
        for product in ["10", "hard"] {
            let refused = try await home.run(["buy", product, "--yes"])
            #expect(refused.status == 69)
            #expect(refused.stderr.contains("purchases are turned off on this device"))
        }
        // Refused before the store is asked: no transaction at all.
        #expect(!(try await home.run(["transactions", "--json"]).stdout.contains("com.hangmanpacks")))
        #expect(try await home.run(["store", "payments", "on"]).status == 0)
        #expect(try await home.run(["buy", "10"]).status == 0)
        #expect(try await home.run(["store", "payments", "maybe"]).status == 64)
    }

    /// `reset` asks on a terminal, as `buy` and `store clear` do; without one it needs --yes.
    @Test func resetAsksOnATerminalOrNeedsYes() async throws {
        let home = try Home()
        #expect(try await home.run(["buy", "ios"]).status == 0)
        let script = try await home.run(["reset"])
        #expect(script.status == 64 && script.stderr.contains("--yes"), "\(script.stderr)")
        let declined = try await home.run(["reset"], input: "n\n", terminal: true)
        #expect(declined.status == 1 && declined.stdout.contains("Nothing was deleted."), "\(declined.stdout)")
        #expect(declined.stdout.contains("Delete this device's packs, saved game and statistics?"), "\(declined.stdout)")
        #expect(try await home.run(["packs"]).stdout.contains("installed"))
        let accepted = try await home.run(["reset"], input: "y\n", terminal: true)
        #expect(accepted.status == 0 && accepted.stdout.contains("Deleted this device's state"), "\(accepted.stdout)")
        #expect(try await home.run(["reset", "-y"]).status == 0)
    }

    @Test func storeClearAsksOrNeedsYes() async throws {
        let home = try Home()
        #expect(try await home.run(["buy", "10"]).status == 0)
        let script = try await home.run(["store", "clear"])
        #expect(script.status == 64)
        #expect(script.stderr.contains("--yes"))
        let declined = try await home.run(["store", "clear"], input: "n\n", terminal: true)
        #expect(declined.status == 1)
        #expect(try await home.run(["hints"]).stdout.contains("10"))
        let accepted = try await home.run(["store", "clear"], input: "y\n", terminal: true)
        #expect(accepted.status == 0)
        #expect(!(try await home.run(["hints"]).stdout.contains("10")))
    }

    /// The embedded account's storefront is the region's (de_DE: Germany, in euros); the price is
    /// written as the reader's locale writes it.
    @Test(arguments: [
        ("de_DE.UTF-8", "1,99\u{a0}€"), ("fr_FR.UTF-8", "1,99\u{a0}€"), ("en_US.UTF-8", "$1.99"), ("C", "$1.99"), ("en_GB.UTF-8", "£1.99"),
    ])
    func pricesFollowTheLocale(_ locale: String, _ expected: String) async throws {
        let home = try Home()
        let result = try await home.run(["products", "--wide"], environment: ["LANG": locale])
        let hard = result.stdout.split(separator: "\n").first { $0.contains("words.hard") } ?? ""
        #expect(hard.contains(expected), "\(locale): \(hard)")
    }

    @Test func lcAllWinsOverLang() async throws {
        let home = try Home()
        let result = try await home.run(["products"], environment: ["LANG": "en_US.UTF-8", "LC_ALL": "de_DE.UTF-8"])
        #expect(result.stdout.contains("4,99\u{a0}€"), "\(result.stdout)")
    }

    /// A German reader whose account is in the US storefront pays dollars, written the German way.
    @Test func aGermanReaderInTheUSStorefrontSeesDollarsTheGermanWay() async throws {
        let home = try Home()
        #expect(try await home.run(["account", "storefront", "USA"], environment: ["LANG": "de_DE.UTF-8"]).status == 0)
        let result = try await home.run(["products", "--wide"], environment: ["LANG": "de_DE.UTF-8"])
        let hard = result.stdout.split(separator: "\n").first { $0.contains("words.hard") } ?? ""
        #expect(hard.contains("1,99\u{a0}$") && hard.contains("Schwere Wörter") && hard.contains("1.000 Wörter"), "\(hard)")
    }

    @Test(arguments: [
        ("ios", "com.hangmanpacks.words.ios"), ("IOS", "com.hangmanpacks.words.ios"), ("words.hard", "com.hangmanpacks.words.hard"),
        ("Hard Words", "com.hangmanpacks.words.hard"), ("es", "com.hangmanpacks.words.es"),
    ])
    func shortNamesNameOneProduct(_ typed: String, _ id: String) async throws {
        let home = try Home()
        let result = try await home.run(["buy", typed])
        #expect(result.status == 0, "\(typed): \(result.stderr)")
        #expect(try await home.run(["transactions", "--json"]).stdout.contains("\"\(id)\""))
    }

    @Test func aMistypedShortNameGetsASuggestionAndChargesNothing() async throws {
        let home = try Home()
        let result = try await home.run(["buy", "hrad"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("no product is named 'hrad': did you mean 'hard'?"), "\(result.stderr)")
        let far = try await home.run(["buy", "zebra"])
        #expect(far.status == 64)
        #expect(far.stderr.contains("see 'hangman products'"))
    }

    @Test func productsListsEveryShortName() async throws {
        let home = try Home()
        let lines = try await home.run(["products", "--wide"]).stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let shortNames = Dictionary(uniqueKeysWithValues: lines.dropFirst().map { (String($0[0]), String($0[1])) })
        #expect(shortNames == [
            "com.hangmanpacks.words.ios": "ios", "com.hangmanpacks.words.hard": "hard", "com.hangmanpacks.words.es": "es",
            "com.hangmanpacks.hints.10": "10", "com.hangmanpacks.hints.100": "100", "com.hangmanpacks.removeads": "removeads",
            "com.hangmanpacks.pass.monthly": "monthly", "com.hangmanpacks.pass.yearly": "yearly", "com.hangmanpacks.pass.30days": "30days",
            "com.hangmanpacks.theme.robot": "robot", "com.hangmanpacks.theme.zombie": "zombie", "com.hangmanpacks.streak.freeze": "freeze",
        ])
    }
}

/// A second language does not slip into default games: buy keeps the languages played so far
/// (or asks, on a terminal), and `settings languages` changes them.
@Suite struct GameLanguageTests {
    /// The language of the pack a default game drew its word from.
    private func gameLanguages(_ home: StoreAsksTests.Home, seeds: ClosedRange<Int>) async throws -> Set<String> {
        var packs: Set<String> = []
        for seed in seeds {
            let game = try await home.run(["play", "--new", "--plain", "--seed", String(seed)], input: "quit\n")
            if let line = game.stdout.split(separator: "\n").first(where: { $0.hasPrefix("GAME ") }),
                let pack = line.split(separator: " ").first(where: { $0.hasPrefix("pack=") })
            {
                packs.insert(String(pack.dropFirst(5)))
            }
        }
        return packs
    }

    @Test func withoutATerminalTheOldLanguageStaysAndItIsSaid() async throws {
        let home = try StoreAsksTests.Home()
        let bought = try await home.run(["buy", "es"])
        #expect(bought.status == 0, "\(bought.stderr)")
        #expect(bought.stdout.contains("Games without --pack stay in English (en); play Spanish with 'hangman play --pack es'."), "\(bought.stdout)")
        #expect(try await home.run(["settings"]).stdout.contains("languages  English (en)"))
        // 3,000 Spanish words against 3,000 English ones: twenty games would meet Spanish if they could.
        #expect(try await gameLanguages(home, seeds: 1...20) == ["com.hangmanpacks.words.base"])
        #expect(try await gameLanguages(home, seeds: 1...3).isEmpty == false)
        let spanish = try await home.run(["play", "--new", "--plain", "--pack", "es"], input: "quit\n")
        #expect(spanish.stdout.contains("pack=com.hangmanpacks.words.es"))
    }

    @Test func onATerminalYesMixesTheNewLanguageIn() async throws {
        let home = try StoreAsksTests.Home()
        let bought = try await home.run(["buy", "es"], input: "y\ny\n", terminal: true)
        #expect(bought.stdout.replacingOccurrences(of: "\n", with: " ").contains("Should games without --pack mix Spanish words in with English (en)? [y/N] "), "\(bought.stdout)")
        #expect(try await home.run(["settings", "--json"]).stdout.contains("\"es\""))
        #expect(try await gameLanguages(home, seeds: 1...20) == ["com.hangmanpacks.words.base", "com.hangmanpacks.words.es"])
    }

    @Test func settingsLanguagesAllBringsEveryPackBack() async throws {
        let home = try StoreAsksTests.Home()
        #expect(try await home.run(["buy", "es"]).status == 0)
        #expect(try await home.run(["settings", "languages", "all"]).stdout == "Games without --pack draw from English (en), Spanish (es): the installed packs' languages.\n")
        #expect(try await gameLanguages(home, seeds: 1...20).contains("com.hangmanpacks.words.es"))
        #expect(try await home.run(["settings", "languages", "es"]).status == 0)
        #expect(try await gameLanguages(home, seeds: 1...10) == ["com.hangmanpacks.words.es"])
    }

    /// A choice made earlier does not silently leave out a pack bought later in another language.
    @Test func aPackOutsideTheChosenLanguagesIsSaidToBeLeftOut() async throws {
        let home = try StoreAsksTests.Home()
        #expect(try await home.run(["settings", "languages", "es"]).status == 0)
        let bought = try await home.run(["buy", "hard"])
        #expect(bought.stdout.contains("Games without --pack stay in Spanish (es); play English with 'hangman play --pack hard'."), "\(bought.stdout)")
        let asked = try await home.run(["buy", "ios"], input: "y\ny\n", terminal: true)
        #expect(asked.stdout.replacingOccurrences(of: "\n", with: " ").contains("iOS Words is in English. Should games without --pack mix English words in with Spanish (es)?"), "\(asked.stdout)")
        #expect(try await home.run(["settings"]).stdout.contains("languages  Spanish (es), English (en)"))
    }

    @Test func aSecondPackInTheSameLanguageAsksNothing() async throws {
        let home = try StoreAsksTests.Home()
        let bought = try await home.run(["buy", "hard"], input: "y\n", terminal: true)
        #expect(bought.status == 0)
        #expect(!bought.stdout.contains("Should games"))
        #expect(try await home.run(["settings"]).stdout.contains("languages  English (en): the installed packs' languages"))
    }
}

/// Remove Ads: a non-consumable with no pack, owned by the account, restored like a pack and in
/// the receipt.
@Suite struct RemoveAdsTests {
    @Test func boughtOnceRestoredAfterDeletingTheDeviceAndInTheReceipt() async throws {
        let home = try StoreAsksTests.Home()
        let bought = try await home.run(["buy", "removeads"])
        #expect(bought.status == 0, "\(bought.stderr)")
        #expect(bought.stdout.contains("Purchased Remove Ads for $2.99"))
        #expect(bought.stdout.contains("No more suggestions after your games"))
        // Not a pack: not in the pack table, nothing to install.
        #expect(!(try await home.run(["packs"]).stdout.contains("removeads")))
        let again = try await home.run(["buy", "removeads"])
        #expect(again.stdout.contains("You already own Remove Ads"), "\(again.stdout)")
        #expect(try await home.run(["buy", "removeads", "--quantity", "2"]).status == 64)
        #expect(try await home.run(["reset", "--yes"]).status == 0)
        let restored = try await home.run(["restore"])
        #expect(restored.status == 0)
        #expect(restored.stdout.contains("Restored Remove Ads (com.hangmanpacks.removeads)"), "\(restored.stdout)")
        let receipt = try await home.run(["receipt", "--json"])
        #expect(receipt.stdout.contains("\"com.hangmanpacks.removeads\""))
        let history = try await home.run(["transactions", "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(rows.filter { $0["productID"] as? String == "com.hangmanpacks.removeads" }.count == 1)
    }

    @Test func aRefundTakesItBack() async throws {
        let home = try StoreAsksTests.Home()
        #expect(try await home.run(["buy", "removeads"]).status == 0)
        let history = try await home.run(["transactions", "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]] ?? []
        let id = try #require(rows.first?["transactionID"] as? String)
        let refund = try await home.run(["store", "refund", id])
        #expect(refund.stdout.contains("Refunded Remove Ads ($2.99 back): it is no longer owned."), "\(refund.stdout)")
        #expect(try await home.run(["restore"]).stdout.contains("Nothing to restore"))
    }
}

/// One JSON naming scheme across every `--json` (README, "JSON output"): lowerCamelCase keys,
/// `productID` and `transactionID` for identifiers, `...Date` keys as ISO 8601 UTC strings, counts
/// as `...Count`, the balance as `hintBalance`.
@Suite struct JSONSchemeTests {
    static let forbidden: Set<String> = ["id", "productIdentifier", "hints", "consumable", "grantedDate", "revokedDate", "words"]

    /// Every key in a JSON document, with its value.
    func keys(_ value: Any, into found: inout [(String, Any)]) {
        if let object = value as? [String: Any] {
            for (key, inner) in object {
                found.append((key, inner))
                keys(inner, into: &found)
            }
        } else if let array = value as? [Any] {
            for inner in array { keys(inner, into: &found) }
        }
    }

    /// What in a `--json` document breaks the scheme, and how many dates it holds.
    static func problems(_ json: String, _ command: [String]) throws -> (problems: [String], dates: Int) {
        let document = try JSONSerialization.jsonObject(with: Data(json.utf8))
        var found: [(String, Any)] = []
        JSONSchemeTests().keys(document, into: &found)
        var problems: [String] = []
        var dates = 0
        for (key, value) in found {
            if forbidden.contains(key) { problems.append("\(command): '\(key)'") }
            // Identifiers end in ID (productID), never Id.
            if key.hasSuffix("Id") { problems.append("\(command): '\(key)'") }
            if !(key.first?.isLowercase == true && !key.contains("_") && !key.contains("-") || key.allSatisfy(\.isNumber)) {
                problems.append("\(command): '\(key)'")
            }
            if key.hasSuffix("Date") {
                dates += 1
                if (value as? String ?? "").wholeMatch(of: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) == nil { problems.append("\(command): \(key) = \(value)") }
            }
        }
        return (problems, dates)
    }

    @Test func everyJSONDocumentFollowsTheScheme() async throws {
        let home = try StoreAsksTests.Home()
        for setup in [["buy", "ios"], ["buy", "10"], ["buy", "removeads"], ["hints", "spend"], ["play", "--daily", "--plain"]] {
            #expect(try await home.run(setup).status == 0)
        }
        let history = try await home.run(["transactions", "--json"])
        let id = try #require((try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])?.first?["transactionID"] as? String)
        #expect(try await home.run(["store", "refund", id]).status == 0)
        let pack = HangmanBinary.packageRoot.appendingPathComponent("Packs/ios-words.wordpack").path
        let receipt = home.scratch.path + "/receipt.plist"
        #expect(try await home.run(["receipt", "-o", receipt]).status == 0)
        let commands: [[String]] = [
            ["receipt", "verify", "--json", receipt],
            ["products", "--json"], ["packs", "--json"], ["transactions", "--json"], ["restore", "--json"], ["hints", "--json"],
            ["hints", "spend", "--json"], ["receipt", "--json"], ["stats", "--json"], ["settings", "--json"], ["pack", "inspect", "--json", pack],
            ["pack", "verify", "--json", pack], ["daily", "--json"],
        ]
        var datesSeen = 0
        for command in commands {
            let result = command[0] == "pack" ? try await CLI.run(command) : try await home.run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let checked = try Self.problems(result.stdout, command)
            #expect(checked.problems.isEmpty, "\(checked.problems)")
            datesSeen += checked.dates
        }
        // Purchase, update, revocation dates of three transactions, the receipt's, entitlements', the day's game.
        #expect(datesSeen >= 11)
    }

    @Test(arguments: [(Int64(0), "1970-01-01T00:00:00.000Z"), (1_796_060_411_057, "2026-11-30T17:40:11.057Z"), (951_782_400_005, "2000-02-29T00:00:00.005Z"),
        (-1, "1969-12-31T23:59:59.999Z"), (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"), (253_402_300_800_000, "10000-01-01T00:00:00.000Z"),
    ])
    func isoDatesAreUTCWithMilliseconds(_ milliseconds: Int64, _ expected: String) {
        #expect(ISO8601.string(milliseconds) == expected)
    }
}

/// In the game: `$` asks before buying hints (y buys, another key does not), a purchase goes
/// through the player (so `store payments off` refuses it), and the free tier's line after a game
/// suggests a pack until Remove Ads is bought.
@Suite struct InGameStoreTests {
    /// Keys on a terminal, in-process: `$` then the answer, then Esc to save and quit.
    private func playKeys(_ home: StoreAsksTests.Home, _ keys: String) async throws -> CLI.Result {
        try await home.run(["play", "--new", "--seed", "3"], input: keys, terminal: true, environment: ["TERM": "xterm", "NO_COLOR": "1"])
    }

    @Test func dollarAsksAndOnlyYBuys() async throws {
        let home = try StoreAsksTests.Home()
        let declined = try await playKeys(home, "$n\u{1B}")
        #expect(declined.stdout.contains("Buy 10 Hints for $0.99? [y/N]"), "\(declined.stdout.suffix(600))")
        #expect(declined.stdout.contains("Not bought: nothing was charged."))
        #expect(try await home.run(["hints"]).stdout == "0 hints\n")
        let bought = try await playKeys(home, "$y\u{1B}")
        #expect(bought.stdout.contains("Bought 10 Hints for $0.99: +10 hints."), "\(bought.stdout.suffix(600))")
        #expect(try await home.run(["hints"]).stdout == "10 hints\n")
    }

    @Test func paymentsOffRefusesTheInGamePurchase() async throws {
        let home = try StoreAsksTests.Home()
        #expect(try await home.run(["store", "payments", "off"]).status == 0)
        let result = try await playKeys(home, "$y\u{1B}")
        #expect(result.stdout.contains("purchases are turned off on this device"), "\(result.stdout.suffix(600))")
        #expect(try await home.run(["hints"]).stdout == "0 hints\n")
    }

    /// A game lost at once (26 wrong letters can only lose), then the line after it.
    private func playOneGame(_ home: StoreAsksTests.Home) async throws -> [Substring] {
        let guesses = "abcdefghijklmnopqrstuvwxyz".map { "\($0)\n" }.joined()
        let result = try await home.run(["play", "--new", "--plain", "--lives", "1"], input: guesses + "n\n")
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n")
    }

    @Test func theFreeTierSuggestsAPackUntilRemoveAdsIsBought() async throws {
        let home = try StoreAsksTests.Home()
        let lines = try await playOneGame(home)
        let suggestion = lines.first { $0.hasPrefix("SUGGEST ") } ?? ""
        #expect(suggestion.contains(": hangman buy "), "\(lines)")
        #expect(suggestion.hasSuffix("(ads off: buy removeads)"), "\(suggestion)")
        // After the verdict, before the question.
        let order = lines.map { String($0.split(separator: " ").first ?? "") }.filter { ["LOST", "WON", "SUGGEST", "AGAIN?"].contains($0) }
        #expect(order.suffix(2) == ["SUGGEST", "AGAIN?"], "\(order)")
        #expect(try await home.run(["buy", "removeads"]).status == 0)
        #expect(!(try await playOneGame(home)).contains { $0.hasPrefix("SUGGEST ") })
    }

    @Test func nothingIsSuggestedWhenEveryPackIsOwned() async throws {
        let home = try StoreAsksTests.Home()
        for pack in ["ios", "hard", "es"] { #expect(try await home.run(["buy", pack]).status == 0) }
        #expect(!(try await playOneGame(home)).contains { $0.hasPrefix("SUGGEST ") })
    }

    @Test func aSuggestedPackIsOneNotOwned() async throws {
        let home = try StoreAsksTests.Home()
        #expect(try await home.run(["buy", "ios"]).status == 0)
        #expect(try await home.run(["buy", "es"]).status == 0)
        let suggestion = (try await playOneGame(home)).first { $0.hasPrefix("SUGGEST ") } ?? ""
        #expect(suggestion.hasPrefix("SUGGEST com.hangmanpacks.words.hard Hard Words: 1,000 words, $1.99: hangman buy hard"), "\(suggestion)")
    }
}
