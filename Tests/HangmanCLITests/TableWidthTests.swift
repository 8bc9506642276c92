import Foundation
import Testing
import TestSupport

/// The listings fit the width they are written for (the terminal's, `COLUMNS` in a pipe, 80 by
/// default): columns are left out and long cells cut with `…`, never a line longer; `--wide`
/// keeps every column whole.
@Suite struct TableWidthTests {
    static let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path

    /// `transactions` is a table with a header and aligned columns; narrow, the ids are cut first
    /// (leading digits kept), the price never (before, at 60 columns: `$2.…` beside a whole
    /// 16-digit id); a failed purchase shows no price, since nothing was charged.
    @Test(arguments: [40, 60, 80])
    func transactionsCutTheLeastUsefulFirst(_ width: Int) async throws {
        let scratch = try Scratch()
        func hangman(_ arguments: [String]) async throws -> CLI.Result {
            try await CLI.run(arguments + ["--home", scratch.file("home"), "--packs", Self.packs], environment: ["COLUMNS": String(width), "LC_ALL": "C.UTF-8"])
        }
        #expect(try await hangman(["buy", "hints.100", "--yes"]).status == 0)
        #expect(try await hangman(["store", "fail-purchases", "on"]).status == 0)
        _ = try await hangman(["buy", "hard", "--yes"])
        let listed = try await hangman(["transactions"])
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines[0].hasPrefix("ID ") && lines[0].contains("PRICE") && lines[0].contains("STATE"), "\(listed.stdout)")
        let ids = try JSONSerialization.jsonObject(with: Data(try await hangman(["transactions", "--json"]).stdout.utf8)) as? [[String: Any]] ?? []
        let first = try #require(ids.first?["transactionID"] as? String)
        #expect(lines[1].hasPrefix(String(first.prefix(8))), "leading digits kept: \(lines[1])")
        #expect(lines[1].contains("$4.99"), "the price whole: \(lines[1])")
        let price = try #require(lines[0].range(of: "PRICE")).lowerBound.utf16Offset(in: lines[0])
        #expect(lines[2].dropFirst(price).hasPrefix("-"), "aligned, and no price for a failed purchase: \(listed.stdout)")
        for line in lines { #expect(line.count <= width, "\(line)") }
    }

    @Test(arguments: [40, 80, 200])
    func listingsFitTheWidth(_ width: Int) async throws {
        let scratch = try Scratch()
        func hangman(_ arguments: [String]) async throws -> CLI.Result {
            try await CLI.run(arguments + ["--home", scratch.file("home"), "--packs", Self.packs], environment: ["COLUMNS": String(width), "LC_ALL": "C.UTF-8"])
        }
        // Long cells: a pass's state on every pack, a renewal's details, an upgrade's refund.
        for purchase in [["buy", "10", "--quantity", "3"], ["buy", "monthly", "--yes"], ["store", "clock", "advance", "P1W"], ["buy", "yearly", "--yes"]] {
            #expect(try await hangman(purchase).status == 0, "\(purchase)")
        }
        for listing in [["products"], ["packs"], ["transactions"], ["subscriptions"]] {
            let result = try await hangman(listing)
            #expect(result.status == 0, "\(listing): \(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count > 2, "\(listing): \(result.stdout)")
            for line in lines { #expect(line.count <= width, "\(listing) at \(width): \(line)") }
            // Whole words where nothing had to be cut; a cut cell ends with the ellipsis.
            if width >= 200 { #expect(!result.stdout.contains("…"), "\(listing) at \(width): \(result.stdout)") }
        }
        let wide = try await hangman(["packs", "--wide"])
        #expect(wide.stdout.contains("com.hangmanpacks.words.hard") && wide.stdout.contains("subscribed until ") && wide.stdout.contains(" (Hangman Pass (yearly))"), "\(wide.stdout)")
    }
}
