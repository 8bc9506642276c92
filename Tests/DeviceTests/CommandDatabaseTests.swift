import Foundation
import TestSupport
import Testing

/// The commands as a player types them, checked where it matters: in `device.sqlite`.
@Suite struct CommandDatabaseTests {
    static let base = FixturePack(id: "com.example.words.base", version: "1.0", name: "Base Words", lists: [("Animals", ["cat", "dog", "emu"])])
    static let fruit = FixturePack(id: "com.example.words.fruit", version: "1.0", name: "Fruit", lists: [
        ("Sweet", ["apple", "pear", "plum"]), ("Sour", ["lemon", "lime"]),
    ])
    static let fruitNew = FixturePack(id: "com.example.words.fruit", version: "1.1", name: "Fruit", lists: [
        ("Sweet", ["mango", "kiwi"]), ("Tropical", ["papaya", "guava", "lychee"]), ("Sour", ["yuzu"]),
    ])

    @Test func updateReplacesEveryWordAndAnOlderArchiveChangesNothing() async throws {
        let scratch = try DeviceScratch()
        let old = try scratch.packsFolder("packs-1.0", base: [Self.base], paid: [Self.fruit])
        let new = try scratch.packsFolder("packs-1.1", base: [Self.base], paid: [Self.fruitNew])
        #expect(try HangmanBinary.run(["buy", Self.fruit.id], home: scratch.home, packs: old).status == 0)
        var snapshot = try DeviceSnapshot.read(scratch.deviceDatabase)
        #expect(snapshot.holds(Self.base) && snapshot.holds(Self.fruit) && snapshot.isConsistent)

        let update = try HangmanBinary.run(["update", Self.fruit.id], home: scratch.home, packs: new)
        #expect(update.status == 0, "\(update.stderr)")
        snapshot = try DeviceSnapshot.read(scratch.deviceDatabase)
        #expect(snapshot.holds(Self.base) && snapshot.holds(Self.fruitNew) && snapshot.isConsistent)
        #expect(snapshot.totalWords == Self.base.wordCount + Self.fruitNew.wordCount)

        let downgrade = try HangmanBinary.run(["update", Self.fruit.id], home: scratch.home, packs: old)
        #expect(downgrade.status == 65)
        #expect(downgrade.stderr.contains("1.1 is installed; 1.0 is older"), "\(downgrade.stderr)")
        #expect(try DeviceSnapshot.read(scratch.deviceDatabase).holds(Self.fruitNew))
    }

    @Test func uninstallRemovesEveryWordAndInstallBringsThemBack() async throws {
        let scratch = try DeviceScratch()
        let packs = try scratch.packsFolder("packs", base: [Self.base], paid: [Self.fruit])
        #expect(try HangmanBinary.run(["buy", Self.fruit.id], home: scratch.home, packs: packs).status == 0)
        #expect(try HangmanBinary.run(["uninstall", Self.fruit.id], home: scratch.home, packs: packs).status == 0)
        var snapshot = try DeviceSnapshot.read(scratch.deviceDatabase)
        #expect(snapshot.packs.keys.sorted() == [Self.base.id])
        #expect(snapshot.totalWords == Self.base.wordCount && snapshot.isConsistent)
        #expect(try HangmanBinary.run(["install", Self.fruit.id], home: scratch.home, packs: packs).status == 0)
        snapshot = try DeviceSnapshot.read(scratch.deviceDatabase)
        #expect(snapshot.holds(Self.fruit) && snapshot.isConsistent)
    }

    @Test func resetDeletesTheDeviceAndKeepsTheAccount() async throws {
        let scratch = try DeviceScratch()
        let packs = try scratch.packsFolder("packs", base: [Self.base], paid: [Self.fruit])
        #expect(try HangmanBinary.run(["buy", Self.fruit.id], home: scratch.home, packs: packs).status == 0)
        #expect(try HangmanBinary.run(["reset", "--yes"], home: scratch.home, packs: packs).status == 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.home + "/device"))
        #expect(FileManager.default.fileExists(atPath: scratch.home + "/account/account.sqlite"))
        #expect(try HangmanBinary.run(["restore"], home: scratch.home, packs: packs).status == 0)
        let snapshot = try DeviceSnapshot.read(scratch.deviceDatabase)
        #expect(snapshot.holds(Self.base) && snapshot.holds(Self.fruit) && snapshot.isConsistent)
    }
}
