import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import hangman
import Testing
import TestSupport

/// Issue 12, bullet 7: the catalog's own mistakes stop it (65); a product whose pack is missing
/// or damaged is unavailable, and everything else keeps working.
@Suite struct CatalogRulesCommandTests {
    /// The world's published catalog, edited as a property list.
    private func editCatalog(_ world: PlayerWorld, _ edit: (inout [String: Any]) -> Void) throws {
        let url = URL(fileURLWithPath: world.packs + "/Catalog.plist")
        var root = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any])
        edit(&root)
        try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0).write(to: url)
    }

    @Test func aBasePackSoldAsAProductIs65() async throws {
        let world = try await PlayerWorld()
        try editCatalog(world) { root in
            var products = root["Products"] as? [[String: Any]] ?? []
            // The base pack's archive and its record; the facts published beside them (its own
            // ProductIdentifier and DisplayName among them) stay the base pack's.
            let base = ((root["BasePacks"] as? [[String: Any]])?.first ?? [:]).filter { ["Pack", "SHA256", "Size"].contains($0.key) }
            for index in products.indices where products[index]["ProductIdentifier"] as? String == PlayerWorld.fruit {
                products[index].merge(base) { _, new in new }
            }
            root["Products"] = products
        }
        let result = try await world.hangman("products")
        #expect(result.status == 65)
        #expect(result.stderr.contains("'\(PlayerWorld.fruit)' sells base.wordpack, a base pack: base packs are free, never sold"), "\(result.stderr)")
    }

    @Test func aProductListedTwiceIs65() async throws {
        let world = try await PlayerWorld()
        try editCatalog(world) { root in
            let products = root["Products"] as? [[String: Any]] ?? []
            root["Products"] = products + products.filter { $0["ProductIdentifier"] as? String == PlayerWorld.hints }
        }
        let result = try await world.hangman("hints")
        #expect(result.status == 65)
        #expect(result.stderr.contains("'\(PlayerWorld.hints)' is listed twice"), "\(result.stderr)")
    }

    @Test func aDamagedArchiveMakesOneProductUnavailableAndNothingElse() async throws {
        let world = try await PlayerWorld()
        try Data("not an archive".utf8).write(to: URL(fileURLWithPath: world.packs + "/fruit.wordpack"))
        for command in [["hints"], ["packs"], ["transactions"], ["stats"], ["play", "--plain"]] {
            let result = try await CLI.run(command, environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs], input: "quit\n")
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        #expect(try await world.state(PlayerWorld.fruit) == "unavailable")
        #expect(try await world.state(PlayerWorld.animals) == "locked")
        let products = try await world.hangman("products", "--json")
        let rows = try JSONSerialization.jsonObject(with: Data(products.stdout.utf8)) as? [[String: Any]] ?? []
        let fruit = rows.first { $0["productID"] as? String == PlayerWorld.fruit }
        #expect(fruit?["available"] as? Bool == false)
        #expect((fruit?["unavailableReason"] as? String)?.hasPrefix("its pack fruit.wordpack cannot be used") == true, "\(String(describing: fruit))")
        let buy = try await world.hangman("buy", PlayerWorld.fruit)
        #expect(buy.status == 69)
        #expect(buy.stderr.contains("Fruit (\(PlayerWorld.fruit)) is unavailable"), "\(buy.stderr)")
        #expect(buy.stderr.contains("nothing was charged"), "\(buy.stderr)")
        #expect(try await world.transactions().isEmpty)
        let animals = try await world.hangman("buy", PlayerWorld.animals)
        #expect(animals.status == 0, "\(animals.stderr)")
    }

    @Test func anOwnedPackThatBecameUnavailableStaysPlayableAndRestoreSkipsIt() async throws {
        let world = try await PlayerWorld()
        #expect(try await world.hangman("buy", PlayerWorld.fruit).status == 0)
        #expect(try await world.hangman("buy", PlayerWorld.animals).status == 0)
        try FileManager.default.removeItem(atPath: world.packs + "/fruit.wordpack")
        #expect(try await world.state(PlayerWorld.fruit) == "installed")
        let game = try await CLI.run(
            ["play", "--plain", "--pack", PlayerWorld.fruit], environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs], input: "quit\n")
        #expect(game.status == 0, "\(game.stderr)")
        #expect(try await world.hangman("reset", "--yes").status == 0)
        let restore = try await world.hangman("restore")
        #expect(restore.status == 69)
        #expect(restore.stdout.contains("Restored Animals"), "\(restore.stdout)")
        #expect(restore.stderr.contains("warning: not restored: Fruit (\(PlayerWorld.fruit)) is unavailable: its pack fruit.wordpack is missing from the packs folder"), "\(restore.stderr)")
        #expect(try await world.state(PlayerWorld.animals) == "installed")
        #expect(try await world.state(PlayerWorld.fruit) == "unavailable")
    }
}

/// Issue 12, bullet 8: every command's exit codes as documented, and every error a sentence
/// naming the path or value and the cause. `$S` stands for the test's scratch folder.
@Suite struct ExitCodeTableTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var code: Int32
        /// Words the output must hold: the value or path, and the cause.
        var says: [String]
        var setUp: @Sendable (PlayerWorld) async throws -> Void = { _ in }

        var testDescription: String { "hangman \(arguments.joined(separator: " ")) -> \(code)" }
    }

    static let fruit = PlayerWorld.fruit
    static let nothing = "com.example.words.nothing"
    static let source = "$S/src/\(PlayerWorld.fruit)-1.0"

    static func run(_ world: PlayerWorld, _ command: String...) async throws {
        let result = try await CLI.run(command, environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs])
        guard [0, 75].contains(result.status) else { throw FixtureError(message: "\(command): \(result.stderr)") }
    }

    static let rows: [Row] = [
        Row(arguments: ["play", "--lives", "0"], code: 64, says: ["--lives", "'0'"]),
        Row(arguments: ["play", "--pack", fruit], code: 77, says: [fruit, "locked"]),
        Row(arguments: ["play", "--pack", nothing], code: 64, says: [nothing]),
        Row(arguments: ["stats", "now"], code: 64, says: ["'now'"]),
        Row(arguments: ["stats", "--home", ""], code: 64, says: ["--home", "empty"]),
        Row(arguments: ["daily", "--language", "sw"], code: 64, says: ["'sw'", "base packs in"]),
        Row(arguments: ["play", "--daily", "--pack", fruit], code: 64, says: ["--daily", "--pack"]),
        Row(arguments: ["play", "--daily", "--lives", "26"], code: 64, says: ["--daily", "--lives", "6 lives"]),
        Row(arguments: ["play", "--date", "2026-11-30"], code: 64, says: ["--date", "--daily"]),
        Row(arguments: ["play", "--daily", "--date", "2999-01-01", "--plain"], code: 64, says: ["2999-01-01", "after today"]),
        Row(arguments: ["play", "--daily", "--date", "2025-12-31", "--plain"], code: 64, says: ["2025-12-31", "archive starts on 2026-01-01"]),
        Row(arguments: ["daily", "--since", "2026-11-01"], code: 64, says: ["--since", "--archive"]),
        Row(arguments: ["daily", "--archive", "--since", "soon"], code: 64, says: ["'soon'", "YYYY-MM-DD"]),
        Row(arguments: ["play", "--language", "sw"], code: 66, says: ["'sw'", "no words"]),
        Row(arguments: ["play", "--language", "es", "--pack", fruit], code: 64, says: ["--language", "--pack"]),
        Row(arguments: ["settings", "theme", "robot"], code: 66, says: ["'robot'", "installed"]),
        Row(arguments: ["settings", "palette", "pink"], code: 64, says: ["palette", "high-contrast"]),
        Row(arguments: ["leaderboard", "2026-02-30"], code: 64, says: ["'2026-02-30'", "YYYY-MM-DD"]),
        Row(arguments: ["leaderboard"], code: 69, says: ["leaderboards", "no board"]),
        Row(arguments: ["friends"], code: 69, says: ["friends are a pack server's"]),
        Row(arguments: ["friends", "befriend", "ana"], code: 64, says: ["'friends' takes nothing"]),
        Row(arguments: ["challenge", "Ana"], code: 69, says: ["friends are a pack server's"]),
        Row(arguments: ["challenge", "Ana", "--word", "zebra", "--hard"], code: 64, says: ["--word", "--hard"]),
        Row(arguments: ["challenges"], code: 69, says: ["friends are a pack server's"]),
        Row(arguments: ["play", "--challenge", "0123abcd", "--daily"], code: 64, says: ["--challenge", "--daily"]),
        Row(arguments: ["play", "--hard", "--plain"], code: 69, says: ["hard mode", "pack server"]),
        Row(arguments: ["account", "name", "a\u{7}b"], code: 64, says: ["U+7"]),
        Row(arguments: ["account", "name", "Ana"], code: 69, says: ["names", "no board"]),
        Row(arguments: ["products", "--packs", "$S/nowhere"], code: 66, says: ["$S/nowhere"]),
        Row(arguments: ["products"], code: 65, says: ["Catalog.plist is a FIFO"]) { world in
            try FileManager.default.removeItem(atPath: world.packs + "/Catalog.plist")
            guard mkfifo(world.packs + "/Catalog.plist", 0o600) == 0 else { throw FixtureError(message: "mkfifo") }
        },
        Row(arguments: ["buy", nothing], code: 64, says: [nothing]),
        Row(arguments: ["buy", fruit], code: 69, says: ["fail-purchases"]) { world in try await run(world, "store", "fail-purchases", "on") },
        Row(arguments: ["buy", fruit], code: 75, says: [fruit, "already in progress"]) { world in
            try await run(world, "store", "ask-to-buy", "on")
            try await run(world, "buy", fruit)
        },
        Row(arguments: ["buy", fruit], code: 69, says: [fruit, "unavailable", "fruit.wordpack"]) { world in
            try Data("damaged".utf8).write(to: URL(fileURLWithPath: world.packs + "/fruit.wordpack"))
        },
        Row(arguments: ["restore", "now"], code: 64, says: ["'now'"]),
        Row(arguments: ["restore"], code: 69, says: [fruit, "fruit.wordpack is missing"]) { world in
            try await run(world, "buy", fruit)
            try FileManager.default.removeItem(atPath: world.packs + "/fruit.wordpack")
        },
        Row(arguments: ["packs", "--colour"], code: 64, says: ["--colour"]),
        Row(arguments: ["install", fruit], code: 77, says: [fruit, "not purchased"]),
        Row(arguments: ["install", nothing], code: 64, says: [nothing]),
        Row(arguments: ["update", fruit], code: 64, says: [fruit, "not installed"]),
        Row(arguments: ["uninstall", nothing], code: 64, says: [nothing]),
        Row(arguments: ["uninstall", fruit], code: 0, says: ["\(fruit) is not installed: nothing to do"]),
        Row(arguments: ["reset"], code: 64, says: ["--yes"]),
        Row(arguments: ["hints", "spend"], code: 77, says: ["no hints left"]),
        Row(arguments: ["transactions", "all"], code: 64, says: ["'all'"]),
        Row(arguments: ["subscriptions", "cancel", fruit], code: 64, says: [fruit, "not an auto-renewable subscription"]),
        Row(arguments: ["catalog", "add", "$S/nothing.wordpack", "--price", "1.00"], code: 66, says: ["nothing.wordpack", "no such pack archive"]),
        Row(arguments: ["catalog", "add", "$S/nothing.wordpack"], code: 64, says: ["--price"]),
        Row(arguments: ["catalog", "remove", nothing], code: 64, says: [nothing, "sells no product"]),
        Row(arguments: ["subscriptions", "renew", "monthly"], code: 64, says: ["'cancel <PRODUCT>'"]),
        Row(arguments: ["subscriptions", "consent", fruit], code: 64, says: [fruit, "not an auto-renewable subscription"]),
        Row(arguments: ["store", "clock", "advance", "P1Q"], code: 64, says: ["ISO 8601 duration", "'P1Q'"]),
        Row(arguments: ["receipt", "verify", "$S/none.plist"], code: 66, says: ["$S/none.plist"]),
        Row(arguments: ["receipt", "verify", "$S/src"], code: 65, says: ["$S/src is a folder, not a regular file"]),
        Row(arguments: ["receipt", "-o", "$S/pipe"], code: 73, says: ["$S/pipe", "FIFO"]),
        Row(arguments: ["store", "approve", "0123456789abcdef"], code: 64, says: ["no transaction 81985529216486895"]),
        Row(arguments: ["buy", "10", "--app-account-token", "nope"], code: 64, says: ["an app account token is a UUID"]),
        Row(arguments: ["store", "refund", "zz"], code: 64, says: ["'zz'"]),
        Row(arguments: ["store", "refund-decision", "0123456789abcdef", "maybe"], code: 64, says: ["grant, decline or reverse"]),
        Row(arguments: ["refund", "request", "0123456789abcdef"], code: 64, says: ["no transaction 81985529216486895"]),
        Row(arguments: ["refund", "request", "0123", "--reason", "boredom"], code: 64, says: ["--reason", "boredom"]),
        Row(arguments: ["buy", fruit, "--introductory-offer-eligibility", "e30.e30.e30"], code: 64, says: ["invalidOfferSignature", "--api-key"]),
        Row(arguments: ["receipt", "app-transaction"], code: 69, says: ["comes from a pack server"]),
        Row(arguments: ["redeem", "ABCD"], code: 64, says: ["not an offer code", "16 letters and digits"]),
        Row(arguments: ["redeem", "abcd-efgh-jklm-npqr"], code: 64, says: ["ABCDEFGHJKLMNPQR", "no offer code"]),
        Row(arguments: ["catalog", "offer-codes", fruit, "--count", "2"], code: 64, says: ["-o <FILE>"]),
        Row(arguments: ["catalog", "offer-codes", nothing, "--count", "2", "-o", "$S/codes"], code: 64, says: [nothing]),
        Row(arguments: ["catalog", "offer-codes", fruit, "--count", "2", "-o", "$S/pipe"], code: 73, says: ["$S/pipe", "FIFO"]),
        Row(arguments: ["catalog", "offer-codes", fruit, "--count", "2", "--offer", "half-off", "-o", "$S/codes"], code: 64, says: ["--offer", "subscription"]),
        Row(arguments: ["store", "clear"], code: 64, says: ["--yes"]),
        Row(arguments: ["store", "notify", "nope"], code: 64, says: ["'NOPE'", "ONE_TIME_CHARGE"]),
        Row(arguments: ["store", "notify", "offer_redeemed"], code: 65, says: ["OFFER_REDEEMED", "hangman redeem CODE"]),
        Row(arguments: ["store", "notify", "DID_RENEW"], code: 65, says: ["DID_RENEW", "live subscription"]),
        Row(arguments: ["buy", fruit], code: 69, says: ["purchases are turned off", "store payments on"]) { world in
            try await run(world, "store", "payments", "off")
        },
        Row(arguments: ["buy", "frut"], code: 64, says: ["'frut'", "did you mean"]),
        Row(arguments: ["settings", "languages", "english!"], code: 64, says: ["'english!'", "language tag"]),
        Row(arguments: ["completion", "csh"], code: 64, says: ["'csh'", "bash, zsh or fish"]),
        Row(arguments: ["man", "page"], code: 64, says: ["'page'"]),
        Row(arguments: ["settings", "payment"], code: 64, says: ["'payment'", "did you mean 'payments'"]),
        Row(arguments: ["pack", "init", "$S/nowhere", "--product-id", "com.example.words.x"], code: 66, says: ["$S/nowhere"]),
        Row(arguments: ["pack", "init", source, "--product-id", fruit], code: 73, says: ["Info.plist", "--force"]),
        Row(arguments: ["pack", "build", "$S/nowhere", "-o", "$S/x.wordpack"], code: 66, says: ["$S/nowhere"]),
        Row(arguments: ["pack", "build", source, "-o", "$S/pipe"], code: 73, says: ["$S/pipe", "FIFO"]),
        Row(arguments: ["pack", "build", "$S/home", "-o", "$S/x.wordpack"], code: 65, says: ["$S/home"]) { world in
            _ = try await world.hangman("hints")
        },
        Row(arguments: ["pack", "verify", "$S/none.wordpack"], code: 66, says: ["$S/none.wordpack", "no such file"]),
        Row(arguments: ["pack", "verify", "$S/pipe"], code: 65, says: ["$S/pipe", "FIFO"]),
        Row(arguments: ["pack", "inspect", "$S/none.wordpack"], code: 66, says: ["$S/none.wordpack", "no such file"]),
        Row(arguments: ["pack", "keygen", "-o", "$S/release"], code: 73, says: ["$S/release.key", "exists"]) { world in
            _ = try world.scratch.write("release.key", "x")
        },
        Row(arguments: ["catalog", "update", "--packs", "$S/src"], code: 66, says: ["no catalog", "$S/src"]),
        Row(arguments: ["account", "show"], code: 77, says: ["no account", "hangman account create --service URL"]),
        Row(arguments: ["account", "storefront", "XYZ"], code: 64, says: ["'XYZ' is not a storefront of this store", "USA"]),
        Row(arguments: ["account", "token"], code: 77, says: ["no account", "hangman account create --service URL"]),
        Row(arguments: ["account", "create"], code: 64, says: ["--service <URL>"]),
        Row(arguments: ["account", "tokens"], code: 77, says: ["no account", "hangman account login --service URL"]),
        Row(arguments: ["account", "close", "--yes"], code: 77, says: ["no account", "hangman account create --service URL"]),
        Row(arguments: ["account", "login", "--service", "http://127.0.0.1:1"], code: 64, says: ["HANGMAN_TOKEN"]),
        Row(arguments: ["account", "token", "revoke"], code: 64, says: ["needs the token's ID", "Run 'hangman account token --help' for usage."]),
        Row(arguments: ["--verison"], code: 64, says: ["did you mean '--version'?", "Run 'hangman --help' for usage."]),
        Row(arguments: ["packs", "--wdie"], code: 64, says: ["unknown option '--wdie'", "Run 'hangman packs --help' for usage."]),
        Row(arguments: ["play", "--category", "Nope", "--plain"], code: 64, says: ["no words in category 'Nope'", "their categories are '"]),
        Row(arguments: ["account", "create", "--service", "http://127.0.0.1:1"], code: 69, says: ["http://127.0.0.1:1", "cannot be reached"]),
        Row(arguments: ["report"], code: 64, says: ["--data <DIR>", "ledgers"]),
        Row(arguments: ["report", "--data", "$S/nowhere"], code: 66, says: ["$S/nowhere", "no such data folder"]),
        Row(arguments: ["report", "--data", "$S", "--days", "0"], code: 64, says: ["--days"]),
        Row(arguments: ["report", "--data", "$S", "--check", "--rebuild"], code: 64, says: ["--check and --rebuild"]),
        Row(arguments: ["backup", "--data", "$S/nowhere", "-o", "$S/copy"], code: 66, says: ["$S/nowhere", "no data folder"]),
        Row(arguments: ["backup", "--data", "$S", "-o", "$S"], code: 64, says: ["$S", "a backup goes into a new folder"]),
        Row(arguments: ["backup", "--data", "$S"], code: 64, says: ["-o <NEW-DIR>", "where the copy goes"]),
        Row(arguments: ["customer"], code: 64, says: ["what to find", "--help"]),
        Row(arguments: ["customer", "anna", "--data", "$S/nowhere"], code: 66, says: ["$S/nowhere", "no pack server's data folder"]),
        Row(arguments: ["serve", "--listen", "127.0.0.1:0"], code: 64, says: ["--data <DIR>"]),
        Row(arguments: ["serve", "--data", "$S/data", "--listen", "nowhere"], code: 64, says: ["HOST:PORT", "'nowhere'"]),
        Row(arguments: ["serve", "--data", "$S/data", "--test-controls"], code: 64, says: ["--test-controls", "--environment sandbox"]),
        Row(arguments: ["serve", "--data", "$S/data", "--api-issuer", "issuer"], code: 64, says: ["--api-issuer", "--api-key"]),
        Row(arguments: ["serve", "--data", "$S/data", "--api-issuer", "issuer", "--api-key", "KID=$S/nowhere.pem"], code: 66, says: ["$S/nowhere.pem"]),
        Row(arguments: ["serve", "--data", "$S/data", "--notification-url", "ftp://backend/notify"], code: 64, says: ["--notification-url", "https://", "'ftp://backend/notify'"]),
        Row(arguments: ["serve", "--data", "$S/data", "--notification-retry", "2s,soon"], code: 64, says: ["--notification-retry", "'2s,soon'"]),
        Row(arguments: ["serve", "--data", "$S/data", "--downloads-url", "http://127.0.0.1:1/packs"], code: 64, says: ["--downloads-url", "--downloads-secret"]),
        Row(arguments: ["serve", "--data", "$S/data", "--database", "mysql://db/hangman"], code: 64, says: ["--database", "postgresql://", "'mysql://db/hangman'"]),
        // A database out of reach at start: what an operator does, not a client's "send it again".
        Row(arguments: ["serve", "--data", "$S/data", "--database", "host=$S/no-server port=5432 dbname=hangman"], code: 69,
            says: ["ledger database cannot be reached", "no-server", "createuser hangman", "createdb --owner hangman hangman"]),
        Row(arguments: ["serve", "--data", "$S/data", "--listen", "127.0.0.1:0"], code: 74, says: ["accounts.sqlite"]) { world in
            // A damaged state database is 74, as the table says, not 65 (invalid data given to it).
            try FileManager.default.createDirectory(atPath: world.scratch.path + "/data/accounts", withIntermediateDirectories: true)
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: world.scratch.path + "/data/accounts.sqlite"))
        },
    ]

    @Test func everyCommandHasRows() {
        let covered = Set(Self.rows.map { row in
            ["pack", "catalog", "account"].contains(row.arguments[0]) ? row.arguments.prefix(2).joined(separator: " ") : row.arguments[0]
        })
        let commands = Set(Hangman.commands.map { $0.path.joined(separator: " ") })
        #expect(commands.subtracting(covered).isEmpty, "commands without an exit-code row: \(commands.subtracting(covered).sorted())")
    }

    @Test(arguments: rows)
    func exitCodeAndMessage(row: Row) async throws {
        let world = try await PlayerWorld()
        guard mkfifo(world.scratch.path + "/pipe", 0o600) == 0 else { throw FixtureError(message: "mkfifo") }
        try await row.setUp(world)
        let arguments = row.arguments.map { $0.replacingOccurrences(of: "$S", with: world.scratch.path) }
        let result = try await CLI.run(arguments, environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs])
        #expect(result.status == row.code, "\(result.stdout)\(result.stderr)")
        let output = result.stdout + result.stderr
        for words in row.says.map({ $0.replacingOccurrences(of: "$S", with: world.scratch.path) }) {
            #expect(output.contains(words), "missing '\(words)' in: \(output)")
        }
        // A sentence: the line naming the value says more than the value, and nothing is a dump.
        if row.code != 0, let named = row.says.first?.replacingOccurrences(of: "$S", with: world.scratch.path) {
            let line = output.split(separator: "\n").first { $0.contains(named) } ?? ""
            #expect(line.count >= named.count + 12, "not a sentence: \(line)")
        }
        for dump in ["CocoaError", "Optional(", "userInfo", "NSUnderlyingError"] {
            #expect(!output.contains(dump), "\(output)")
        }
    }

    /// A value the store refuses is said by the store, without pointing at the command's help:
    /// the command line was right, the value was not (issue 37, messages).
    @Test func aValueTheStoreRefusesDoesNotPointAtTheHelp() async throws {
        let world = try await PlayerWorld()
        let result = try await CLI.run(
            ["store", "clock", "advance", "P9999Y"], environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("9999-12-31"), "\(result.stderr)")
        #expect(!result.stderr.contains("--help"), "\(result.stderr)")
    }

    /// The documented codes and the help agree: every code a row expects is in `hangman --help`'s table.
    @Test func theHelpDocumentsEveryCode() async throws {
        let help = try await CLI.run(["--help"]).stdout
        for code in Set(Self.rows.map(\.code)) where code != 0 {
            #expect(help.contains("  \(code)  "), "\(code) is not in the help's EXIT CODES")
        }
    }
}

