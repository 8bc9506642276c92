import Foundation
import Messages
import Testing
import TestSupport

/// Theme packs through the command line (bought, chosen, restored on a new device) and the base
/// packs a home takes by the reader's language.
@Suite struct ThemeAndLanguageCommandTests {
    static let robot = "com.hangmanpacks.theme.robot"

    @Test func aThemeIsBoughtChosenAndRestoredOnANewDevice() async throws {
        let world = try ServiceCommandTests.ServedWorld()
        #expect(try await world.hangman("alice", "account", "create").status == 0)
        // Sold apart from the words: after every word pack and hint bundle.
        let products = try await world.hangman("alice", "products", "--json")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(products.stdout.utf8)) as? [[String: Any]])
        let kinds = list.map { ($0["packKind"] as? String) ?? "-" }
        #expect(kinds.suffix(2) == ["Theme", "Theme"] && !kinds.dropLast(2).contains("Theme"), "\(kinds)")
        #expect(try await world.hangman("alice", "products", "--wide").stdout.contains("theme: the gallows drawn anew"))
        // Not bought: not installed, not chosen.
        let early = try await world.hangman("alice", "settings", "theme", "robot")
        #expect(early.status == 66 && early.stderr.contains("Robot Theme is not yours yet: it is for sale"), "\(early.stderr)")

        let bought = try await world.hangman("alice", "buy", Self.robot)
        #expect(bought.status == 0 && bought.stdout.contains("Installed Robot"), "\(bought.stdout)\(bought.stderr)")
        let chosen = try await world.hangman("alice", "settings", "theme", "robot")
        #expect(chosen.status == 0 && chosen.stdout.contains("Robot theme"), "\(chosen.stdout)\(chosen.stderr)")
        let settings = try await world.hangman("alice", "settings", "--json")
        let chosenTheme = (try JSONSerialization.jsonObject(with: Data(settings.stdout.utf8)) as? [String: Any])?["theme"] as? String
        #expect(chosenTheme == Self.robot, "\(settings.stdout)")
        let packs = try await world.hangman("alice", "packs", "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(packs.stdout.utf8)) as? [[String: Any]])
        let robotRow = try #require(rows.first { $0["productID"] as? String == Self.robot })
        #expect(robotRow["kind"] as? String == "theme" && robotRow["state"] as? String == "installed", "\(robotRow)")
        #expect(rows.last?["kind"] as? String == "theme", "themes after the word packs")
        #expect(try await world.hangman("alice", "settings", "theme", "zombie").status == 66, "not bought")

        // A second device of the account: restore brings the theme back, and it can be chosen.
        let token = try await world.hangman("alice", "account", "token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let login = try await CLI.run(
            ["account", "login"], environment: ["HANGMAN_HOME": world.scratch.file("bob"), "HANGMAN_SERVICE": world.url, "HANGMAN_TOKEN": token])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(try await world.hangman("bob", "settings", "theme", "robot").status == 66, "not on this device until restored")
        let restored = try await world.hangman("bob", "restore")
        #expect(restored.stdout.contains("Robot"), "\(restored.stdout)\(restored.stderr)")
        #expect(try await world.hangman("bob", "settings", "theme", "robot").status == 0)
        #expect(try await world.hangman("bob", "settings").stdout.contains("theme      Robot"))
        #expect(try await world.hangman("bob", "settings", "theme", "classic").stdout.contains("classic stick figure"))
    }

    /// A served game draws from the device's languages: a French reader's games on a pack server
    /// are French (the server would draw from every base pack of the account).
    @Test func aServedGameFollowsTheDevicesLanguages() async throws {
        let world = try ServiceCommandTests.ServedWorld()
        let environment = ["HANGMAN_HOME": world.scratch.file("claire"), "HANGMAN_SERVICE": world.url, "LANG": "fr_FR.UTF-8"]
        #expect(try await CLI.run(["account", "create"], environment: environment).status == 0)
        for _ in 0..<3 {
            let game = try await CLI.run(["play", "--plain", "--new"], environment: environment, input: "quit\n")
            #expect(game.stdout.contains("GAME id=") && game.stdout.contains("pack=com.hangmanpacks.words.base.fr "), "\(game.stdout)\(game.stderr)")
        }
    }

    /// A German reader's first start installs the German base pack and English, and draws German
    /// words; French comes with `play --language fr`. A reader in the C locale gets English alone.
    @Test func theFirstBasePacksFollowTheReadersLanguage() async throws {
        let home = try TemporaryDirectory()
        func hangman(_ arguments: [String], language: String, input: String = "") async throws -> CLI.Result {
            try await CLI.run(arguments, environment: ["HANGMAN_HOME": home.file(language), "LANG": language], input: input)
        }
        func installed(_ language: String) async throws -> [String: String] {
            let packs = try await hangman(["packs", "--json"], language: language)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(packs.stdout.utf8)) as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: rows.compactMap { row in
                (row["productID"] as? String).map { ($0, row["state"] as? String ?? "") }
            })
        }
        let german = try await installed("de_DE.UTF-8")
        #expect(german["com.hangmanpacks.words.base"] == "installed" && german["com.hangmanpacks.words.base.de"] == "installed", "\(german)")
        #expect(german["com.hangmanpacks.words.base.fr"] != "installed" && german["com.hangmanpacks.words.base.pt"] != "installed", "\(german)")
        let settings = try await hangman(["settings", "--json"], language: "de_DE.UTF-8")
        let languages = (try JSONSerialization.jsonObject(with: Data(settings.stdout.utf8)) as? [String: Any])?["gameLanguages"] as? [String]
        #expect(languages == ["de"], "\(settings.stdout)")
        let game = try await hangman(["play", "--plain", "--new", "--seed", "3"], language: "de_DE.UTF-8", input: "quit\n")
        #expect(game.stdout.contains("GAME pack=com.hangmanpacks.words.base.de "), "\(game.stdout)")

        let french = try await hangman(["play", "--plain", "--new", "--language", "fr", "--seed", "3"], language: "de_DE.UTF-8", input: "quit\n")
        #expect(french.status == 0 && french.stderr.contains("Mots de tous les jours"), "\(french.stdout)\(french.stderr)")
        #expect(french.stdout.contains("GAME pack=com.hangmanpacks.words.base.fr "), "\(french.stdout)")
        let unknown = try await hangman(["play", "--plain", "--new", "--language", "sw"], language: "de_DE.UTF-8", input: "quit\n")
        // Refused in the reader's language (German here), naming the language asked for.
        let refusal = L10n.$language.withValue("de") {
            L10n.text("no words in '%s' here or in the store's free packs: there are words in %s", "sw", "\u{0}").prefix { $0 != "\u{0}" }
        }
        #expect(refusal.contains("'sw'") && !refusal.hasPrefix("no words"), "\(refusal)")
        #expect(unknown.status == 66 && unknown.stderr.contains(refusal), "\(unknown.stderr)")

        let plain = try await installed("C")
        #expect(plain["com.hangmanpacks.words.base"] == "installed" && plain.filter { $0.key.hasPrefix("com.hangmanpacks.words.base.") && $0.value == "installed" }.isEmpty, "\(plain)")
    }

    /// A device that played before gains no language by itself when its reader's locale has a
    /// base pack (its games would change language unasked); a language chosen by its primary tag
    /// (`pt`) plays the `pt-BR` pack.
    @Test func anOlderDeviceKeepsItsLanguagesAndAChoiceMatchesByLanguage() async throws {
        let home = try TemporaryDirectory()
        func hangman(_ arguments: [String], language: String, input: String = "") async throws -> CLI.Result {
            try await CLI.run(arguments, environment: ["HANGMAN_HOME": home.file("home"), "LANG": language], input: input)
        }
        #expect(try await hangman(["packs"], language: "C").status == 0)
        let packs = try await hangman(["packs", "--json"], language: "de_DE.UTF-8")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(packs.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first { $0["productID"] as? String == "com.hangmanpacks.words.base.de" }?["state"] as? String == "not installed", "\(packs.stdout)")
        #expect(try await hangman(["settings", "languages", "pt"], language: "de_DE.UTF-8").status == 0)
        let game = try await hangman(["play", "--plain", "--new"], language: "de_DE.UTF-8", input: "quit\n")
        #expect(game.stdout.contains("GAME pack=com.hangmanpacks.words.base.pt "), "\(game.stdout)\(game.stderr)")
    }

    /// A theme's new version is installed by `update`, as a word pack's is.
    @Test func aThemeIsUpdated() async throws {
        let scratch = try TemporaryDirectory()
        let packs = scratch.file("Packs")
        try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: packs)
        let environment = ["HANGMAN_HOME": scratch.file("home"), "HANGMAN_PACKS": packs]
        #expect(try await CLI.run(["buy", "robot", "--yes"], environment: environment).status == 0)
        let info = try String(contentsOfFile: packs + "/theme-robot/Info.plist", encoding: .utf8)
        try info.replacingOccurrences(of: "<string>1.0</string>", with: "<string>1.1</string>").write(toFile: packs + "/theme-robot/Info.plist", atomically: true, encoding: .utf8)
        #expect(try HangmanBinary.run(["pack", "build", packs + "/theme-robot", "--output", packs + "/theme-robot.wordpack"]).status == 0)
        #expect(try HangmanBinary.run(["catalog", "update", "--packs", packs]).status == 0)
        let updated = try await CLI.run(["update"], environment: environment)
        #expect(updated.status == 0 && updated.stdout.contains("Updated Robot Theme from 1.0 to 1.1"), "\(updated.stdout)\(updated.stderr)")
    }

    /// A client from before themes (its purchase says no pack kinds) is not sold a theme it could
    /// not install: refused, nothing charged; the same request naming the kinds buys it.
    @Test func aClientThatCannotInstallAThemeIsNotSoldOne() async throws {
        let world = try ServiceCommandTests.ServedWorld()
        #expect(try await world.hangman("ana", "account", "create").status == 0)
        let token = try await world.hangman("ana", "account", "token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        func purchase(_ body: String, key: String) throws -> (status: Int, body: String) {
            let result = try ExternalProcess.run("/usr/bin/curl", [
                "-s", "-w", "\n%{http_code}", "-X", "POST", world.url + "/v1/purchases", "-H", "Authorization: Bearer " + token,
                "-H", "Idempotency-Key: " + key, "-H", "Content-Type: application/json", "--data", body,
            ])
            #expect(result.status == 0, "curl: \(result.stderr)")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
        }
        let old = try purchase(#"{"productID":"\#(Self.robot)","quantity":1}"#, key: "old-client-theme-1")
        #expect(old.status >= 400 && old.status < 500 && old.body.contains("update hangman"), "\(old)")
        let transactions = try await world.hangman("ana", "transactions", "--json")
        #expect(!transactions.stdout.contains(Self.robot), "nothing charged: \(transactions.stdout)")
        // Words are still sold to it.
        #expect(try purchase(#"{"productID":"com.hangmanpacks.words.ios","quantity":1}"#, key: "old-client-ios-1").status == 200)
        let new = try purchase(#"{"productID":"\#(Self.robot)","quantity":1,"packKinds":["Words","Theme"]}"#, key: "new-client-theme-1")
        #expect(new.status == 200, "\(new)")
    }
}
