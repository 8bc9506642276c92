import Foundation
import Testing
import TestSupport

/// The ids `transactions` shows are the ids `store refund` takes, at any width: whole, in
/// Apple's form, or by their first digits when only one transaction starts so; the date stays.
@Suite struct TransactionNameTests {
    @Test func theIdsShownAreTheIdsTakenAtEveryWidth() async throws {
        let home = try StoreAsksTests.Home()
        for product in ["10", "ios", "monthly"] { #expect(try await home.run(["buy", product, "--yes"]).status == 0) }
        let listed = try await home.run(["transactions", "--json"])
        let ids = try #require((try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])?.compactMap { $0["transactionID"] as? String })
        #expect(ids.count == 3)
        for width in ["40", "80"] {
            let table = try await home.run(["transactions"], environment: ["COLUMNS": width])
            for id in ids { #expect(table.stdout.contains(id), "\(width) columns: \(table.stdout)") }
            #expect(table.stdout.split(separator: "\n").allSatisfy { $0.count <= Int(width)! }, "\(table.stdout)")
            if width == "80" { #expect(table.stdout.contains("DATE") && table.stdout.contains(" UTC"), "\(table.stdout)") }
        }
        // Its first digits, when no other id starts so.
        let first = ids[0]
        let unique = try #require((4...16).lazy.map { String(first.prefix($0)) }.first { prefix in ids.filter { $0.hasPrefix(prefix) }.count == 1 })
        let refunded = try await home.run(["store", "refund", unique])
        #expect(refunded.status == 0 && refunded.stdout.hasPrefix("Refunded "), "\(refunded.stdout)\(refunded.stderr)")
        let nothing = try await home.run(["store", "refund", "ffff0000"])
        #expect(nothing.status == 64 && nothing.stderr.contains("no transaction of this account starts with 'ffff0000'"), "\(nothing.stderr)")
        let notAnID = try await home.run(["store", "refund", "d2a9…"])
        #expect(notAnID.status == 64 && notAnID.stderr.contains("is not a transaction id"), "\(notAnID.stderr)")
    }
}
