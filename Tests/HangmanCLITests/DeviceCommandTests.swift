import Foundation
import Testing
import TestSupport

/// A player's world for one test: a packs folder whose archives are built with `hangman pack build`,
/// and a state directory of its own. The commands run with `HANGMAN_HOME` and `HANGMAN_PACKS` set.
final class PlayerWorld {
    static let base = "com.example.words.base"
    static let animals = "com.example.words.animals"
    static let fruit = "com.example.words.fruit"
    static let hints = "com.example.hints.10"

    let scratch: Scratch
    var packs: String { scratch.path + "/packs" }
    var home: String { scratch.path + "/home" }

    /// Base Words (free), Animals 1.0 (1.1 built beside, offered by `offerAnimals("1.1")`), Fruit, 10 hints.
    init(paid extra: [(id: String, name: String, words: [String])] = []) async throws {
        scratch = try Scratch()
        try await build(Self.base, "1.0", "Base Words", ["cat", "dog", "emu"], to: "packs/base.wordpack")
        try await build(Self.animals, "1.0", "Animals", ["lion", "tiger", "zebra"], to: "archives/animals-1.0.wordpack")
        try await build(Self.animals, "1.1", "Animals", ["otter", "panda", "koala", "bison"], to: "archives/animals-1.1.wordpack")
        try await build(Self.fruit, "1.0", "Fruit", ["apple", "pear", "plum"], to: "packs/fruit.wordpack")
        for pack in extra {
            try await build(pack.id, "1.0", pack.name, pack.words, to: "packs/\(pack.id).wordpack")
        }
        try await offerAnimals("1.0")
        func product(_ id: String, _ name: String, _ price: String, _ file: String) -> String {
            """
            <dict><key>ProductIdentifier</key><string>\(id)</string><key>Type</key><string>NonConsumable</string>
            <key>DisplayName</key><string>\(name)</string><key>Description</key><string>\(name).</string>
            <key>Price</key><string>\(price)</string><key>Pack</key><string>\(file)</string></dict>
            """
        }
        let products = [product(Self.animals, "Animals", "0.99", "animals.wordpack"), product(Self.fruit, "Fruit", "1.99", "fruit.wordpack")]
            + extra.map { product($0.id, $0.name, "2.99", "\($0.id).wordpack") }
        try scratch.write("packs/Catalog.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>BundleIdentifier</key><string>com.example.hangman</string>
            <key>BasePacks</key><array><string>base.wordpack</string></array>
            <key>Products</key><array>\(products.joined())
            <dict><key>ProductIdentifier</key><string>\(Self.hints)</string><key>Type</key><string>Consumable</string>
            <key>DisplayName</key><string>10 Hints</string><key>Description</key><string>Ten hints.</string>
            <key>Price</key><string>0.99</string><key>HintCount</key><integer>10</integer></dict>
            </array></dict></plist>
            """)
        try await publish()
    }

    /// `hangman catalog update`: records the archives' SHA-256 and size, as the seller does after changing them.
    func publish() async throws {
        let result = try await hangman("catalog", "update")
        guard result.status == 0 else { throw FixtureError(message: "catalog update: \(result.stderr)") }
    }

    /// Writes a source folder and builds it with `hangman pack build`.
    private func build(_ id: String, _ version: String, _ name: String, _ words: [String], to output: String) async throws {
        let source = "src/\(id)-\(version)"
        try scratch.write(source + "/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>FormatVersion</key><integer>1</integer><key>ProductIdentifier</key><string>\(id)</string>
            <key>ContentVersion</key><string>\(version)</string><key>DisplayName</key><string>\(name)</string>
            </dict></plist>
            """)
        try scratch.write(source + "/words.plist", wordsXML(words))
        try FileManager.default.createDirectory(atPath: scratch.path + "/" + (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let result = try await CLI.run(["pack", "build", scratch.path + "/" + source, "-o", scratch.path + "/" + output])
        guard result.status == 0 else { throw FixtureError(message: "pack build \(id) \(version): \(result.stderr)") }
    }

    /// Puts Animals `version` in the packs folder, as the seller publishing an update (or a rollback) would;
    /// with `publish: false`, the catalog keeps recording the archive that was there before.
    func offerAnimals(_ version: String, publish: Bool = true) async throws {
        let target = packs + "/animals.wordpack"
        if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
        try FileManager.default.copyItem(atPath: scratch.path + "/archives/animals-\(version).wordpack", toPath: target)
        if publish && FileManager.default.fileExists(atPath: packs + "/Catalog.plist") { try await self.publish() }
    }

    /// Runs `hangman arguments` as the player.
    @discardableResult
    func hangman(_ arguments: String...) async throws -> CLI.Result {
        try await CLI.run(arguments, environment: ["HANGMAN_HOME": home, "HANGMAN_PACKS": packs])
    }

    /// `hangman packs --json`, by product id.
    func packRows() async throws -> [String: [String: Any]] {
        let result = try await hangman("packs", "--json")
        guard result.status == 0, let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw FixtureError(message: "packs --json exited \(result.status): \(result.stderr)")
        }
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in (row["productID"] as? String).map { ($0, row) } })
    }

    /// The state `packs` shows for one pack.
    func state(_ id: String) async throws -> String? { try await packRows()[id]?["state"] as? String }

    /// The version `packs` shows installed.
    func installedVersion(_ id: String) async throws -> String? { try await packRows()[id]?["installedVersion"] as? String }

    /// `hangman transactions --json`.
    func transactions() async throws -> [[String: Any]] {
        let result = try await hangman("transactions", "--json")
        guard result.status == 0, let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] else {
            throw FixtureError(message: "transactions --json exited \(result.status): \(result.stderr)")
        }
        return list
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Issue 4 through the command line: first run, install, buy, update, uninstall, reset, restore, refunds, progress.
@Suite struct DeviceCommandTests {
    @Test func firstRunInstallsTheBasePackAndSaysSoOnce() async throws {
        let world = try await PlayerWorld()
        // The state directory and packs folder as flags, the way a player without the variables types them.
        let first = try await CLI.run(["packs", "--wide", "--home", world.home, "--packs", world.packs])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.components(separatedBy: "Installed the base pack").count == 2, "\(first.stderr)")
        #expect(first.stdout.contains("com.example.words.base"))
        let base = try #require(try await world.packRows()[PlayerWorld.base])
        #expect(base["state"] as? String == "installed")
        #expect(base["kind"] as? String == "base")
        #expect(base["installedVersion"] as? String == "1.0")
        let second = try await world.hangman("packs", "--wide")
        #expect(second.status == 0)
        #expect(second.stderr == "")
        #expect(second.stdout == first.stdout)
    }

    @Test func everyPaidPackStartsLocked() async throws {
        let world = try await PlayerWorld()
        let rows = try await world.packRows()
        #expect(rows[PlayerWorld.animals]?["state"] as? String == "locked")
        #expect(rows[PlayerWorld.animals]?["price"] as? String == "0.99")
        #expect(rows[PlayerWorld.animals]?["currency"] as? String == "USD")
        #expect(rows[PlayerWorld.fruit]?["state"] as? String == "locked")
        #expect(rows[PlayerWorld.hints] == nil)
    }

    @Test func lockedPackExits77NamingTheBuyCommandThenBuyInstallsIt() async throws {
        let world = try await PlayerWorld()
        let locked = try await world.hangman("install", PlayerWorld.animals)
        #expect(locked.status == 77)
        #expect(locked.stderr.contains("run 'hangman buy com.example.words.animals'"), "\(locked.stderr)")
        #expect(try await world.state(PlayerWorld.animals) == "locked")
        #expect(try await world.transactions().isEmpty)

        let buy = try await world.hangman("buy", PlayerWorld.animals)
        #expect(buy.status == 0, "\(buy.stderr)")
        #expect(buy.stdout.contains("Installed Animals 1.0 (3 words)."), "\(buy.stdout)")
        #expect(try await world.state(PlayerWorld.animals) == "installed")
        #expect(try await world.installedVersion(PlayerWorld.animals) == "1.0")

        let before = try await world.hangman("packs").stdout
        let again = try await world.hangman("install", PlayerWorld.animals)
        #expect(again.status == 0)
        #expect(again.stdout == "Animals 1.0 is already installed: nothing to do.\n")
        #expect(try await world.hangman("packs").stdout == before)
        #expect(try await world.transactions().count == 1)
    }

    @Test func unknownPackExits64() async throws {
        let world = try await PlayerWorld()
        let result = try await world.hangman("install", "com.example.words.nope")
        #expect(result.status == 64)
        #expect(result.stderr.contains("no pack 'com.example.words.nope' in the catalog"), "\(result.stderr)")
    }

    @Test func updateInstallsTheNewerVersionAndRefusesAnOlderOne() async throws {
        let world = try await PlayerWorld()
        #expect(try await world.hangman("buy", PlayerWorld.animals).status == 0)
        try await world.offerAnimals("1.1")
        let offered = try #require(try await world.packRows()[PlayerWorld.animals])
        #expect(offered["state"] as? String == "update available")
        #expect(offered["installedVersion"] as? String == "1.0")
        #expect(offered["availableVersion"] as? String == "1.1")

        let update = try await world.hangman("update", PlayerWorld.animals)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout == "Updated Animals from 1.0 to 1.1 (4 words).\n")
        #expect(try await world.state(PlayerWorld.animals) == "installed")
        #expect(try await world.installedVersion(PlayerWorld.animals) == "1.1")
        #expect(try await world.packRows()[PlayerWorld.animals]?["wordCount"] as? Int == 4)
        let upToDate = try await world.hangman("update", PlayerWorld.animals)
        #expect(upToDate.status == 0)
        #expect(upToDate.stdout == "Animals 1.1 is up to date.\n")

        // The seller rolls the archive back: refused, 1.1 stays.
        try await world.offerAnimals("1.0")
        for command in ["update", "install"] {
            let older = try await world.hangman(command, PlayerWorld.animals)
            #expect(older.status == 65, "\(command): \(older.stderr)")
            #expect(older.stderr.contains("com.example.words.animals 1.1 is installed; 1.0 is older"), "\(command): \(older.stderr)")
        }
        #expect(try await world.installedVersion(PlayerWorld.animals) == "1.1")
    }

    @Test func updateWithoutArgumentUpdatesEveryInstalledPack() async throws {
        let world = try await PlayerWorld()
        #expect(try await world.hangman("buy", PlayerWorld.animals).status == 0)
        #expect(try await world.hangman("buy", PlayerWorld.fruit).status == 0)
        try await world.offerAnimals("1.1")
        let update = try await world.hangman("update")
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.contains("Updated Animals from 1.0 to 1.1 (4 words)."))
        #expect(update.stdout.contains("Fruit 1.0 is up to date."))
        #expect(update.stdout.contains("Base Words 1.0 is up to date.") || update.stdout.contains("com.example.words.base 1.0 is up to date."))
        #expect(try await world.installedVersion(PlayerWorld.animals) == "1.1")
    }

    @Test func updateOfAPackThatIsNotInstalledExits64() async throws {
        let world = try await PlayerWorld()
        let result = try await world.hangman("update", PlayerWorld.fruit)
        #expect(result.status == 64)
        #expect(result.stderr.contains("'com.example.words.fruit' is not installed"), "\(result.stderr)")
    }

    @Test func uninstallKeepsThePurchaseAndInstallBringsItBackWithoutCharging() async throws {
        let world = try await PlayerWorld()
        #expect(try await world.hangman("buy", PlayerWorld.fruit).status == 0)
        #expect(try await world.transactions().count == 1)

        let uninstall = try await world.hangman("uninstall", PlayerWorld.fruit)
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(uninstall.stdout.contains("Uninstalled Fruit. Run 'hangman install com.example.words.fruit' to bring it back."))
        #expect(try await world.state(PlayerWorld.fruit) == "purchased, not installed")
        #expect(try await world.installedVersion(PlayerWorld.fruit) == nil)
        let twice = try await world.hangman("uninstall", PlayerWorld.fruit)
        #expect(twice.status == 0)
        #expect(twice.stdout == "com.example.words.fruit is not installed: nothing to do.\n")

        let install = try await world.hangman("install", PlayerWorld.fruit)
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout == "Installed Fruit 1.0 (3 words).\n")
        #expect(try await world.state(PlayerWorld.fruit) == "installed")
        #expect(try await world.transactions().count == 1)
    }

    /// An uninstalled base pack stays uninstalled: the next commands do not bring it back
    /// unasked; a game says which command does; `install` brings it back, and then it stays.
    @Test func anUninstalledBasePackStaysUninstalled() async throws {
        let world = try await PlayerWorld()
        #expect(try await world.state(PlayerWorld.base) == "installed")
        let uninstall = try await world.hangman("uninstall", PlayerWorld.base)
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        for _ in 0..<2 {
            let packs = try await world.hangman("packs")
            #expect(!packs.stderr.contains("Installed the base pack"), "\(packs.stderr)")
            #expect(try await world.state(PlayerWorld.base) == "not installed")
        }
        let play = try await world.hangman("play", "--plain")
        #expect(play.status == 77, "\(play.stderr)")
        #expect(play.stderr.contains("'hangman install base' (Base Words, free) brings one back"), "\(play.stderr)")
        #expect(try await world.hangman("install", PlayerWorld.base).status == 0)
        #expect(try await world.state(PlayerWorld.base) == "installed")
        _ = try await world.hangman("packs")
        #expect(try await world.state(PlayerWorld.base) == "installed")
    }

    /// A free pack the store cannot deliver (its archive damaged at the store) is said to be the
    /// store's to fix, not sent to `restore` or `install`, which cannot help.
    @Test func aDamagedFreePackIsSaidToBeTheStores() async throws {
        let world = try await PlayerWorld()
        try Data("not an archive".utf8).write(to: URL(fileURLWithPath: world.packs + "/base.wordpack"))
        let play = try await CLI.run(["play", "--plain", "--home", world.scratch.path + "/fresh-home", "--packs", world.packs])
        #expect(play.status == 77, "\(play.stderr)")
        #expect(play.stderr.contains("the free pack base.wordpack cannot be used"), "\(play.stderr)")
        #expect(play.stderr.contains("it comes back when the store publishes it again"), "\(play.stderr)")
    }

    @Test func resetWithoutYesExits64AndChangesNothing() async throws {
        let world = try await PlayerWorld()
        #expect(try await world.hangman("buy", PlayerWorld.fruit).status == 0)
        let before = try await world.hangman("packs").stdout
        let reset = try await world.hangman("reset")
        #expect(reset.status == 64)
        #expect(reset.stderr.contains("confirm with --yes"), "\(reset.stderr)")
        #expect(FileManager.default.fileExists(atPath: world.home + "/device/device.sqlite"))
        #expect(try await world.hangman("packs").stdout == before)
    }

    @Test func resetThenRestoreBringsEveryPackBackAndKeepsTheHints() async throws {
        let world = try await PlayerWorld()
        #expect(try await world.hangman("buy", PlayerWorld.animals).status == 0)
        #expect(try await world.hangman("buy", PlayerWorld.fruit).status == 0)
        #expect(try await world.hangman("buy", PlayerWorld.hints, "--quantity", "2").status == 0)
        #expect(try await world.hangman("hints", "spend").status == 0)
        #expect(try await world.hangman("hints").stdout == "19 hints\n")

        let reset = try await world.hangman("reset", "--yes")
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains("run 'hangman restore'"))
        #expect(!FileManager.default.fileExists(atPath: world.home + "/device"))
        #expect(try await world.hangman("hints").stdout == "19 hints\n")
        // Like a reinstalled app: the base pack comes back by itself, the paid ones wait for restore.
        let packs = try await world.hangman("packs")
        #expect(packs.stderr.contains("Installed the base pack"), "\(packs.stderr)")
        var rows = try await world.packRows()
        #expect(rows[PlayerWorld.base]?["state"] as? String == "installed")
        #expect(rows[PlayerWorld.animals]?["state"] as? String == "purchased, not installed")
        #expect(rows[PlayerWorld.fruit]?["state"] as? String == "purchased, not installed")

        let restore = try await world.hangman("restore")
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.contains("Restored Animals (com.example.words.animals)"), "\(restore.stdout)")
        #expect(restore.stdout.contains("Installed Animals 1.0 (3 words)."), "\(restore.stdout)")
        #expect(restore.stdout.contains("Installed Fruit 1.0 (3 words)."), "\(restore.stdout)")
        rows = try await world.packRows()
        #expect(rows[PlayerWorld.animals]?["state"] as? String == "installed")
        #expect(rows[PlayerWorld.fruit]?["state"] as? String == "installed")
        let transactions = try await world.transactions()
        #expect(transactions.count == 3)

        let again = try await world.hangman("restore")
        #expect(again.status == 0)
        #expect(again.stdout.components(separatedBy: "is already installed: nothing to do.").count == 3, "\(again.stdout)")
        #expect(try await world.transactions().count == transactions.count)
        #expect(try await world.packRows().mapValues { $0["state"] as? String } == rows.mapValues { $0["state"] as? String })
        #expect(try await world.hangman("hints").stdout == "19 hints\n")
    }

    @Test func refundLocksThePack() async throws {
        let world = try await PlayerWorld()
        #expect(try await world.hangman("buy", PlayerWorld.animals).status == 0)
        let transaction = try #require(try await world.transactions().first?["transactionID"] as? String)
        let refund = try await world.hangman("store", "refund", transaction)
        #expect(refund.status == 0, "\(refund.stderr)")
        #expect(refund.stdout.contains("the pack is revoked"))
        #expect(try await world.state(PlayerWorld.animals) == "revoked")
        let install = try await world.hangman("install", PlayerWorld.animals)
        #expect(install.status == 77, "\(install.stderr)")
        let restore = try await world.hangman("restore")
        #expect(restore.status == 0)
        #expect(!restore.stdout.contains("Animals"), "\(restore.stdout)")
        #expect(try await world.state(PlayerWorld.animals) == "revoked")
    }

    /// One byte changed in an archive of the packs folder: the catalog still lists it (it reads only
    /// the manifest and the recorded size), but the store checks the archive's digest before it
    /// charges: unavailable, nothing charged. Changed after a purchase, the install is refused on
    /// the digest and nothing is installed; once the seller puts the right archive back, it
    /// installs without a second charge.
    @Test func corruptedArchiveInThePacksFolderIsRefusedAndTheRightOneInstallsLater() async throws {
        let syllables: [String] = "bcdfghjklmnprstvwxz".flatMap { c in "aeiou".map { v in "\(c)\(v)" } }
        let words: [String] = (0..<5_000).map { (i: Int) -> String in syllables[i / 95 % 95] + syllables[i % 95] + "ka" }
        let verbs = "com.example.words.verbs"
        let world = try await PlayerWorld(paid: [(verbs, "Verbs", words)])
        let archive = world.packs + "/\(verbs).wordpack"
        let good = try Data(contentsOf: URL(fileURLWithPath: archive))
        var bad = good
        bad[bad.count * 3 / 4] ^= 0x01  // inside the compressed words, after Info.plist
        try bad.write(to: URL(fileURLWithPath: archive))

        let refused = try await world.hangman("buy", verbs, "--yes")
        #expect(refused.status == 69, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("Verbs (\(verbs)) is unavailable: its pack \(verbs).wordpack is not the archive the catalog published"), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was charged"), "\(refused.stderr)")
        #expect(try await world.transactions().isEmpty)

        try good.write(to: URL(fileURLWithPath: archive))
        let buy = try await world.hangman("buy", verbs, "--yes")
        #expect(buy.status == 0, "\(buy.stdout)\(buy.stderr)")
        #expect(try await world.state(verbs) == "installed")
        #expect(try await world.hangman("uninstall", verbs).status == 0)
        try bad.write(to: URL(fileURLWithPath: archive))
        let install = try await world.hangman("install", verbs)
        #expect(install.status == 65, "\(install.stdout)\(install.stderr)")
        let goodCopy = world.scratch.path + "/good.wordpack"
        try good.write(to: URL(fileURLWithPath: goodCopy))
        #expect(install.stderr.contains("the archive of com.example.words.verbs has SHA-256 \(try sha256sum(archive))"), "\(install.stderr)")
        #expect(install.stderr.contains("the catalog says \(try sha256sum(goodCopy))"), "\(install.stderr)")
        #expect(try await world.state(verbs) == "purchased, not installed")

        try good.write(to: URL(fileURLWithPath: archive))
        let again = try await world.hangman("install", verbs)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try await world.state(verbs) == "installed")
        #expect(try await world.transactions().count == 1)
    }

    /// A refunded pack cannot be downloaded again; that must not stop `update` from updating the others.
    @Test func updateWithoutArgumentSkipsARefundedPack() async throws {
        let adverbs = "com.example.words.adverbs"  // sorts before animals: update meets it first
        let world = try await PlayerWorld(paid: [(adverbs, "Adverbs", ["gladly", "slowly", "quickly"])])
        #expect(try await world.hangman("buy", adverbs).status == 0)
        #expect(try await world.hangman("buy", PlayerWorld.animals).status == 0)
        let refunded = try #require(try await world.transactions().first { $0["productID"] as? String == adverbs }?["transactionID"] as? String)
        #expect(try await world.hangman("store", "refund", refunded).status == 0)
        try await world.offerAnimals("1.1")
        let update = try await world.hangman("update")
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try await world.installedVersion(PlayerWorld.animals) == "1.1")
        #expect(try await world.state(adverbs) == "revoked")
    }
}

extension DeviceCommandTests {
    /// Issue 4, progress: a bar on a terminal, nothing of the kind through a pipe.
    @Suite struct Progress {
        static let big = "com.example.words.big"

        /// A world that also sells a 20,000-word pack (the smallest that draws a bar).
        private func bigWorld() async throws -> PlayerWorld {
            let syllables = "bcdfghjklmnprstvwxz".flatMap { c in "aeiou".map { "\(c)\($0)" } }
            let n = syllables.count
            let words = (0..<20_000).map { syllables[$0 / (n * n)] + syllables[$0 / n % n] + syllables[$0 % n] }
            return try await PlayerWorld(paid: [(Self.big, "Big Words", words)])
        }

        @Test func noProgressBarWhenOutputIsNotATerminal() async throws {
            let world = try await bigWorld()
            let buy = try await world.hangman("buy", Self.big)
            #expect(buy.status == 0, "\(buy.stderr)")
            #expect(buy.stdout.contains("Installed Big Words 1.0 (20,000 words)."), "\(buy.stdout)")
            #expect(try await world.hangman("uninstall", Self.big).status == 0)
            let install = try await world.hangman("install", Self.big)
            #expect(install.status == 0, "\(install.stderr)")
            for output in [buy.stdout, buy.stderr, install.stdout, install.stderr] {
                #expect(!output.contains("\r") && !output.contains("#") && !output.contains("\u{1B}"), "\(output.debugDescription)")
            }
            #expect(install.stdout == "Installed Big Words 1.0 (20,000 words).\n")
            #expect(install.stderr == "")
        }

        /// The same install on an 80-column terminal (tmux, every byte recorded), the bar asked to
        /// show at once: it redraws one line in place, no line is ever longer than the width, and
        /// nothing of it is left on the screen.
        @Test
        func progressBarOnATerminalFitsEightyColumns() async throws {
            let world = try await bigWorld()
            #expect(try await world.hangman("buy", Self.big).status == 0)
            #expect(try await world.hangman("uninstall", Self.big).status == 0)
            let recording = world.scratch.path + "/terminal.raw"
            let terminal = try await TmuxTerminal(
                width: 80, height: 24, command: "bash --norc --noprofile",
                environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs, "HANGMAN_PROGRESS_AFTER_MS": "0", "HM": HangmanBinary.path])
            try await terminal.type("PS1='$ '; clear")
            try await terminal.press("Enter")
            try await terminal.waitFor("$ ")
            try await terminal.record(to: recording)
            try await terminal.type("$HM install \(Self.big); echo EXIT=$?")
            try await terminal.press("Enter")
            let screen = try await terminal.waitFor("EXIT=0", seconds: 60)
            #expect(screen.contains("Installed Big Words 1.0 (20,000 words)."), "\(screen)")
            #expect(screen.contains("EXIT=0"))
            #expect(!screen.contains("Installing"), "the bar is gone: \(screen)")
            for line in screen.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
            let raw = try await terminal.waitForRecording(recording, toContain: "EXIT=0")
            #expect(raw.contains("\rInstalling Big Words ["), "\(raw.prefix(400).debugDescription)")
            #expect(raw.contains("/20,000 words"), "\(raw.prefix(400).debugDescription)")
            let segments = raw.split { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
            #expect(segments.count > 3, "redrawn in place")
            for segment in segments where segment.contains("Installing") || segment.contains("Checking") {
                #expect(segment.count < 80, "\(segment.debugDescription)")
            }
        }

        @Test
        func noProgressBarForAnInstallShorterThanTheDelay() async throws {
            let world = try await bigWorld()
            #expect(try await world.hangman("buy", Self.big).status == 0)
            #expect(try await world.hangman("uninstall", Self.big).status == 0)
            let recording = world.scratch.path + "/terminal.raw"
            let terminal = try await TmuxTerminal(
                width: 80, height: 24, command: "bash --norc --noprofile",
                environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs, "HANGMAN_PROGRESS_AFTER_MS": "600000", "HM": HangmanBinary.path])
            try await terminal.record(to: recording)
            try await terminal.type("$HM install \(Self.big); echo EXIT=$?")
            try await terminal.press("Enter")
            let screen = try await terminal.waitFor("EXIT=0", seconds: 60)
            #expect(screen.contains("EXIT=0"), "\(screen)")
            // Everything the install wrote is in the recording once the shell's echo after it is.
            let raw = try await terminal.waitForRecording(recording, toContain: "EXIT=0")
            #expect(raw.contains("Installed Big Words"), "\(raw.debugDescription)")
            #expect(!raw.contains("Installing Big Words"), "\(raw.debugDescription)")
        }
    }
}
