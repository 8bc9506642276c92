import Foundation
import Testing
import TestSupport

/// `hangman report` over a server's ledgers made by players through the built binary: its
/// numbers are the ledger's, summed by SQL over the same files.
@Suite struct ReportCommandTests {
    /// A sandbox account's clock moved ahead: the seller's numbers read each account at its own
    /// time, as its player does. A pass cancelled and run out is not active in the report while
    /// its player sees it expired; one renewed is active in both; a renewal charged on a day
    /// outside the report's days is no charged period there, while the trial it followed, started
    /// in these days, counts as "paid since" (trials convert by cohort: the day the trial began)
    /// (the dashboard composes the same numbers, `SellerNumbers`, and sales.tsv reads the same days).
    @Test func aMovedClockLeavesTheSellersNumbersAgreeing() throws {
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        let (server, url) = try ServeProcess.start(data: data, port: 0, extra: ["--test-controls", "--requests-per-minute", "0"])
        defer { _ = server.kill() }
        func player(_ name: String, _ arguments: [String]) throws -> ProcessResult {
            try HangmanBinary.run(arguments, environment: ["HANGMAN_HOME": directory.file(name), "HANGMAN_SERVICE": url, "LC_ALL": "en_US.UTF-8"])
        }
        for name in ["dan", "eve"] {
            #expect(try player(name, ["account", "create"]).status == 0)
            #expect(try player(name, ["buy", "monthly", "--yes"]).status == 0)
        }
        #expect(try player("eve", ["subscriptions", "cancel", "monthly"]).status == 0)
        for name in ["dan", "eve"] { #expect(try player(name, ["store", "clock", "advance", "P40D"]).status == 0) }
        func state(_ name: String) throws -> String? {
            let listed = try player(name, ["subscriptions", "--json"]).stdout
            return (try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])?.first?["state"] as? String
        }
        let (dan, eve) = (try state("dan"), try state("eve"))
        #expect(dan == "active" && eve == "expired", "\(dan ?? "-") \(eve ?? "-")")
        let report = try HangmanBinary.run(["report", "--data", data, "--json"])
        let overview = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any], "\(report.stderr)")
        let subscriptions = try #require(overview["subscriptions"] as? [String: Any])
        #expect((subscriptions["active"] as? [String: Int])?["com.hangmanpacks.pass.monthly"] == 1, "dan's alone: \(subscriptions)")
        #expect(subscriptions["trialsStarted"] as? Int == 2, "\(subscriptions)")
        // Dan's renewals are dated on his clock, after the report's last day: not in these days;
        // his trial, begun in them, was paid for since (Eve's, cancelled, was not).
        #expect(subscriptions["paidPeriods"] as? Int == 0 && subscriptions["trialsConverted"] as? Int == 1, "\(subscriptions)")
        #expect((overview["currencies"] as? [[String: Any]])?.isEmpty == true, "no revenue in these days: \(overview)")
    }

    @Test func theReportsNumbersAreTheLedgers() throws {
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        let (server, url) = try ServeProcess.start(data: data, port: 0, extra: ["--test-controls", "--requests-per-minute", "0"])
        defer { _ = server.kill() }
        func player(_ name: String, _ arguments: [String]) throws -> ProcessResult {
            try HangmanBinary.run(arguments, environment: ["HANGMAN_HOME": directory.file(name), "HANGMAN_SERVICE": url, "LC_ALL": "en_US.UTF-8"])
        }
        // Three players in two storefronts: hints, a pack refunded, a pass's free trial.
        #expect(try player("ana", ["account", "create"]).status == 0)
        #expect(try player("ben", ["account", "create", "--storefront", "DEU"]).status == 0)
        #expect(try player("cai", ["account", "create"]).status == 0)
        for (name, product) in [("ana", "10"), ("ana", "10"), ("ana", "ios"), ("ben", "10"), ("ben", "hard"), ("cai", "monthly")] {
            let bought = try player(name, ["buy", product, "--yes"])
            #expect(bought.status == 0, "\(name) \(product): \(bought.stderr)")
        }
        let transactions = try player("ana", ["transactions", "--json"]).stdout
        let list = try #require(try JSONSerialization.jsonObject(with: Data(transactions.utf8)) as? [[String: Any]])
        let ios = try #require(list.first { ($0["productID"] as? String)?.hasSuffix(".ios") == true }?["transactionID"] as? String)
        #expect(try player("ana", ["store", "refund", ios]).status == 0)

        let report = try HangmanBinary.run(["report", "--data", data, "--json"])
        #expect(report.status == 0, "\(report.stderr)")
        let overview = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let currencies = try #require(overview["currencies"] as? [[String: Any]])
        // The same sums in SQL, over every account's ledger file.
        let ledger = try LedgerSQL.sums(data)
        let (revenue, refunds) = (ledger.revenue, ledger.refunds)
        #expect(Set(currencies.compactMap { $0["currency"] as? String }) == Set(revenue.keys), "\(currencies) \(revenue)")
        for line in currencies {
            let code = try #require(line["currency"] as? String)
            #expect(line["revenue"] as? Int == revenue[code], "\(code)")
            #expect(line["refunds"] as? Int == (refunds[code] ?? 0), "\(code)")
        }
        #expect(revenue["USD"] == 99 + 99 + 99 && revenue["EUR"] != nil && refunds["USD"] == 99, "\(revenue) \(refunds)")
        let subscriptions = try #require(overview["subscriptions"] as? [String: Any])
        #expect(subscriptions["trialsStarted"] as? Int == 1 && (subscriptions["active"] as? [String: Int])?["com.hangmanpacks.pass.monthly"] == 1, "\(subscriptions)")
        // The players: three accounts made, the hints three "10 Hints" sold.
        let players = try #require(overview["players"] as? [String: Any])
        let days = try #require(players["days"] as? [[String: Any]])
        #expect(days.count == 30 && days.reduce(0) { $0 + ($1["accountsMade"] as? Int ?? 0) } == 3, "\(players)")
        #expect(days.reduce(0) { $0 + ($1["hintsSold"] as? Int ?? 0) } == 30, "\(players)")

        // As a person reads it: 80 columns, a sparkline, one storefront alone, digits under TERM=dumb.
        let text = try HangmanBinary.run(["report", "--data", data], environment: ["LC_ALL": "en_US.UTF-8"])
        #expect(text.status == 0 && text.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(text.stdout)")
        #expect(text.stdout.contains("USD") && text.stdout.contains("$2.97") && text.stdout.contains("▁"), "\(text.stdout)")
        #expect(text.stdout.contains("Players: 3 accounts made") && text.stdout.contains("Hints: 30 sold, 0 spent."), "\(text.stdout)")
        let german = try HangmanBinary.run(["report", "--data", data, "--storefront", "deu"], environment: ["TERM": "dumb"])
        #expect(german.stdout.contains("storefront DEU") && !german.stdout.contains("USD") && !german.stdout.contains("▁"), "\(german.stdout)")
        #expect(german.stdout.contains("Players (every storefront): 3 accounts made"), "the players are not the storefront's: \(german.stdout)")
        #expect(try HangmanBinary.run(["report", "--data", data, "--storefront", "XYZ"]).status == 64)
        #expect(try HangmanBinary.run(["report"]).status == 64)
        #expect(try HangmanBinary.run(["report", "--data", directory.file("none")]).status == 66)
    }
}

/// Revenue, refunds (per currency, minor units) and units (per product) of a server's SQLite
/// ledgers, summed by SQL over every account's file: what the seller's views are checked against.
enum LedgerSQL {
    static let charged = "state IN ('purchased', 'delivered', 'finished') AND offer IS NULL AND price_minor > 0"

    static func sums(_ data: String) throws -> (revenue: [String: Int], refunds: [String: Int], units: [String: Int]) {
        let files = try FileManager.default.contentsOfDirectory(atPath: data + "/accounts").map { data + "/accounts/" + $0 + "/account.sqlite" }
        func sum(_ query: String) throws -> [String: Int] {
            var sums: [String: Int] = [:]
            for file in files where FileManager.default.fileExists(atPath: file) {
                for line in try ExternalProcess.run("/usr/bin/sqlite3", [file, query]).stdout.split(separator: "\n") {
                    let parts = line.split(separator: "|")
                    if parts.count == 2 { sums[String(parts[0]), default: 0] += Int(parts[1]) ?? 0 }
                }
            }
            return sums
        }
        return (
            try sum("SELECT currency, sum(price_minor) FROM transactions WHERE \(charged) GROUP BY currency"),
            try sum("SELECT currency, sum(coalesce(refund_cents, price_minor)) FROM transactions WHERE \(charged) AND revocation_date IS NOT NULL GROUP BY currency"),
            try sum("SELECT product_id, sum(quantity) FROM transactions WHERE \(charged) GROUP BY product_id"))
    }
}
