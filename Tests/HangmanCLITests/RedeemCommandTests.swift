import Foundation
import Testing
import TestSupport

/// The seller's codes and the player's redemption, with the commands on the embedded store: a
/// pack's code unlocks and installs it, free, once; the retry says the same purchase; another
/// code for the owned pack is refused (65) and the file holds no code.
@Suite struct RedeemCommandTests {
    @Test func aCodeFromTheSellersCommandUnlocksItsPackOnce() async throws {
        let world = try await PlayerWorld()
        let output = world.scratch.path + "/codes.txt"
        let made = try await world.hangman("catalog", "offer-codes", PlayerWorld.fruit, "--count", "2", "--days", "7", "-o", output, "--packs", world.packs)
        #expect(made.status == 0 && made.stdout.contains("2 offer codes for"), "\(made.stdout)\(made.stderr)")
        let codes = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(codes.count == 2 && codes.allSatisfy { $0.count == 16 })
        let permissions = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
        #expect(permissions == 0o600, "the codes are the seller's alone")
        let file = try String(contentsOfFile: world.packs + "/OfferCodes.plist", encoding: .utf8)
        #expect(!codes.contains { file.contains($0) })
        // Killed once the code is claimed and before its purchase is recorded: the next try finishes it.
        let killed = try await CLI.run(
            ["redeem", codes[0]], environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs, "HANGMAN_CRASH_AT": "after-offer-code-claim"])
        #expect(killed.wasSignaled && killed.status == 9, "\(killed.stdout)\(killed.stderr)")
        #expect(try await world.transactions().isEmpty)
        let redeemed = try await world.hangman("redeem", codes[0].lowercased())
        #expect(redeemed.status == 0 && redeemed.stdout.contains("Redeemed the offer code") && redeemed.stdout.contains("free"), "\(redeemed.stdout)\(redeemed.stderr)")
        #expect(try await world.state(PlayerWorld.fruit) == "installed")
        let again = try await world.hangman("redeem", codes[0])
        #expect(again.status == 0 && again.stdout.contains("Redeemed the offer code"), "\(again.stdout)\(again.stderr)")
        let owned = try await world.hangman("redeem", codes[1])
        #expect(owned.status == 65 && owned.stderr.contains("owns") && owned.stderr.contains("stays unused"), "\(owned.stdout)\(owned.stderr)")
        #expect(try await world.transactions().count == 1, "one purchase for three redemptions")
    }
}
