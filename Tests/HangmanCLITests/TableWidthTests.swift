import Foundation
import Testing
import TestSupport

/// The listings fit the width they are written for (the terminal's, `COLUMNS` in a pipe, 80 by
/// default): columns are left out and long cells cut with `…`, never a line longer; `--wide`
/// keeps every column whole.
@Suite struct TableWidthTests {
    static let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path

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
        #expect(wide.stdout.contains("com.hangmanpacks.words.hard") && wide.stdout.contains("subscribed (Hangman Pass (yearly), until "), "\(wide.stdout)")
    }
}
