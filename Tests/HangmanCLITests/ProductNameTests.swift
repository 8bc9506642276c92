import Foundation
import HTTPServer
import PackServer
import Testing
import TestSupport

/// The names a person would try for a product find it, or get the products they could mean; a
/// product published a moment ago is found by name without listing the products first.
@Suite struct ProductNameTests {
    @Test func theNamesAPersonWouldTryFindTheProductOrSaySo() async throws {
        let scratch = try TemporaryDirectory()
        let environment = ["HANGMAN_HOME": scratch.file("home")]
        for name in ["10hints", "10 hints", "10 Hints", "10", "hints.10"] {
            let bought = try await CLI.run(["buy", name, "--yes"], environment: environment)
            #expect(bought.status == 0 && bought.stdout.contains("10 Hints"), "\(name): \(bought.stdout)\(bought.stderr)")
        }
        for name in ["hints", "hint", "Hints"] {
            let asked = try await CLI.run(["buy", name, "--yes"], environment: environment)
            #expect(asked.status == 64, "\(name): \(asked.stderr)")
            #expect(asked.stderr.contains("could be more than one product: '10' (10 Hints, com.hangmanpacks.hints.10), '100' (100 Hints"), "\(asked.stderr)")
        }
        let words = try await CLI.run(["buy", "ios words", "--yes"], environment: environment)
        #expect(words.status == 0 && words.stdout.contains("iOS Words"), "\(words.stdout)\(words.stderr)")
        let nothing = try await CLI.run(["buy", "zebras", "--yes"], environment: environment)
        #expect(nothing.status == 64 && nothing.stderr.contains("no product is named 'zebras'"), "\(nothing.stderr)")
        // Words in a language the store sells, not the player's yet: what to buy, at what price.
        let spanish = try await CLI.run(["play", "--language", "es", "--plain"], environment: environment.merging(["LANG": "en_US.UTF-8", "LC_ALL": ""]) { $1 })
        #expect(spanish.status == 77 && spanish.stderr.contains("Palabras en español (3,000 words) is for sale at $1.99: 'hangman buy es'"), "\(spanish.stderr)")
        // A theme not owned is named as the store sells it, with its price and the command.
        let theme = try await CLI.run(["settings", "theme", "zombie"], environment: environment.merging(["LANG": "en_US.UTF-8", "LC_ALL": ""]) { $1 })
        #expect(theme.status == 66 && theme.stderr.contains("Zombie Theme is not yours yet: it is for sale at $0.99, 'hangman buy zombie' buys it"), "\(theme.stderr)")
    }

    /// `catalog add`, the server reads its catalog again (SIGHUP), and a player whose home holds
    /// the older catalog buys the new pack by its name: the name is looked up once more in the
    /// service's newer catalog before it is refused.
    @Test func aProductPublishedAMomentAgoIsBoughtByName() async throws {
        let scratch = try TemporaryDirectory()
        let packs = scratch.file("Packs")
        try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: packs)
        let server = try PackServer(PackServerConfiguration(dataFolder: scratch.file("server"), packsFolder: packs, environment: .sandbox))
        let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        defer { http.stop() }
        let environment = ["HANGMAN_HOME": scratch.file("player"), "HANGMAN_SERVICE": http.url]
        #expect(try await CLI.run(["account", "create"], environment: environment).status == 0)
        #expect(try await CLI.run(["products"], environment: environment).status == 0)
        try FileManager.default.createDirectory(atPath: scratch.file("src/space"), withIntermediateDirectories: true)
        try wordsXML(["comet", "orbit", "nebula"]).write(toFile: scratch.file("src/space/words.plist"), atomically: true, encoding: .utf8)
        #expect(try await CLI.run(["pack", "init", scratch.file("src/space"), "--product-id", "com.hangmanpacks.words.space", "--display-name", "Space"]).status == 0)
        #expect(try await CLI.run(["pack", "build", scratch.file("src/space"), "-o", scratch.file("space.wordpack")]).status == 0)
        let added = try await CLI.run(["catalog", "add", scratch.file("space.wordpack"), "--price", "0.99", "--packs", packs])
        #expect(added.status == 0, "\(added.stderr)")
        guard case .success = server.reloadCatalog() else { Issue.record("the server did not take the new catalog"); return }
        let bought = try await CLI.run(["buy", "space", "--yes"], environment: environment)
        #expect(bought.status == 0 && bought.stdout.contains("Installed Space"), "\(bought.stdout)\(bought.stderr)")
    }
}

/// An embedded home keeps the packs folder it was opened on by name: a later command without
/// `--packs` sells from it; when it is gone, the default folder serves, and a note says so.
@Suite struct RememberedPacksFolderTests {
    @Test func anEmbeddedHomeKeepsThePacksFolderItBoughtFrom() async throws {
        let scratch = try TemporaryDirectory()
        let packs = scratch.file("MyPacks")
        try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: packs)
        // A product only this folder sells.
        let catalog = try String(contentsOfFile: packs + "/Catalog.plist", encoding: .utf8)
        try catalog.replacingOccurrences(of: "<string>10 Hints</string>", with: "<string>Ten Hints</string>")
            .write(toFile: packs + "/Catalog.plist", atomically: true, encoding: .utf8)
        #expect(try await CLI.run(["catalog", "update", "--packs", packs]).status == 0)
        let home = ["HANGMAN_HOME": scratch.file("home")]
        #expect(try await CLI.run(["buy", "10", "--yes", "--packs", packs], environment: home).stdout.contains("Ten Hints"))
        let later = try await CLI.run(["products"], environment: home)
        #expect(later.stdout.contains("Ten Hints"), "\(later.stdout)")
        try FileManager.default.moveItem(atPath: packs, toPath: scratch.file("Moved"))
        let gone = try await CLI.run(["products"], environment: home)
        #expect(gone.status == 0 && gone.stdout.contains("10 Hints") && gone.stderr.contains("has no catalog now"), "\(gone.stdout)\(gone.stderr)")
    }
}
