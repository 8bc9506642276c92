import Foundation
import Testing
import TestSupport

/// The seller's dashboard of the built binary (`serve --admin-listen`), seeded by players through
/// the binary, read in headless Chromium (Debian's, over WebDriver: Tests/Browser/dashboard.py)
/// and by scripts, each number checked against SQL over the same ledgers.
@Suite(.serialized) struct DashboardTests {
    /// A server with the dashboard, its admin token, and players in three storefronts: hints, a
    /// pack refunded, a pass's free trial; a product whose name is markup.
    final class World {
        let directory: TemporaryDirectory
        let server: ExternalProcess
        let url: String
        let admin: String
        let token: String
        /// The number of Ana's refunded purchase of iOS Words.
        var refundedNumber = ""
        var data: String { directory.file("data") }

        init() throws {
            directory = try TemporaryDirectory()
            let packs = directory.file("Packs")
            try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: packs)
            let catalog = try String(contentsOfFile: packs + "/Catalog.plist", encoding: .utf8)
            try catalog.replacingOccurrences(of: "<string>10 Hints</string>", with: "<string>&lt;script&gt;alert(1)&lt;/script&gt; Hints</string>")
                .write(toFile: packs + "/Catalog.plist", atomically: true, encoding: .utf8)
            #expect(try HangmanBinary.run(["catalog", "update", "--packs", packs]).status == 0)
            let made = try HangmanBinary.run(["serve", "--data", directory.file("data"), "--admin-token"])
            try #require(made.status == 0, "\(made.stderr)")
            token = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            server = try ExternalProcess(HangmanBinary.path, [
                "serve", "--listen", "127.0.0.1:0", "--admin-listen", "127.0.0.1:0", "--data", directory.file("data"), "--packs", packs,
                "--environment", "sandbox", "--test-controls", "--requests-per-minute", "0",
            ])
            var said = ""
            let pid = server.processIdentifier
            try #require(eventually(within: 10) {
                said = (try? String(contentsOfFile: "/proc/\(pid)/fd/1", encoding: .utf8)) ?? ""
                return said.contains("dashboard on ")
            }, "the server did not say where its dashboard is")
            func address(after words: String) -> String? {
                said.range(of: words).map { String(said[$0.upperBound...].prefix { !$0.isNewline }) }
            }
            url = try #require(address(after: "listening on "), "\(said)")
            admin = try #require(address(after: "dashboard on "), "\(said)")
            for (name, storefront) in [("ana", "USA"), ("ben", "DEU"), ("cai", "JPN"), ("dan", "USA")] {
                #expect(try player(name, ["account", "create", "--storefront", storefront]).status == 0)
            }
            for (name, product) in [("ana", "10"), ("ana", "10"), ("ana", "ios"), ("ben", "10"), ("ben", "hard"), ("cai", "100"), ("dan", "monthly")] {
                let bought = try player(name, ["buy", product, "--yes"])
                #expect(bought.status == 0, "\(name) \(product): \(bought.stderr)")
            }
            let list = try JSONSerialization.jsonObject(with: Data(try player("ana", ["transactions", "--json"]).stdout.utf8)) as? [[String: Any]]
            let ios = try #require(list?.first { ($0["productID"] as? String)?.hasSuffix(".ios") == true }?["transactionID"] as? String)
            refundedNumber = ios
            #expect(try player("ana", ["store", "refund", ios]).status == 0)
            // A refund asked for and declined: the refunds page lists it.
            let benList = try JSONSerialization.jsonObject(with: Data(try player("ben", ["transactions", "--json"]).stdout.utf8)) as? [[String: Any]]
            let hard = try #require(benList?.first { ($0["productID"] as? String)?.hasSuffix(".hard") == true }?["transactionID"] as? String)
            #expect(try player("ben", ["refund", "request", hard, "--reason", "unsatisfied"]).status == 0)
            #expect(try player("ben", ["store", "refund-decision", hard, "decline"]).status == 0)
            // Renewals through the store's clock: the trial's end and a month later, charged.
            let renewed = try player("dan", ["store", "clock", "advance", "P40D"])
            #expect(renewed.status == 0 && renewed.stdout.contains("2 renewals processed"), "\(renewed.stdout)\(renewed.stderr)")
            // Games served: one with a hint spent, and the day's word.
            let game = try HangmanBinary.run(
                ["play", "--plain", "--new"], environment: ["HANGMAN_HOME": directory.file("ana"), "HANGMAN_SERVICE": url], input: Array("?\nquit\n".utf8))
            #expect(game.stdout.contains("HINT"), "\(game.stdout)\(game.stderr)")
            let daily = try HangmanBinary.run(
                ["play", "--daily", "--plain"], environment: ["HANGMAN_HOME": directory.file("ben"), "HANGMAN_SERVICE": url], input: Array("quit\n".utf8))
            #expect(daily.status == 0, "\(daily.stdout)\(daily.stderr)")
        }

        /// A number summed by SQL over every account's ledger file.
        func count(_ query: String) throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: data + "/accounts").map { data + "/accounts/" + $0 + "/account.sqlite" }
                .filter { FileManager.default.fileExists(atPath: $0) }
                .reduce(0) { total, file in total + (Int(try ExternalProcess.run("/usr/bin/sqlite3", [file, query]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) }
        }

        deinit { _ = server.kill() }

        /// The days the history covers: the store's clock of a sandbox account runs ahead of the
        /// real one (a renewal a month on is dated then).
        static var range: String {
            let format = DateFormatter()
            format.dateFormat = "yyyy-MM-dd"
            format.timeZone = TimeZone(identifier: "UTC")
            let today = Date()
            return "from=\(format.string(from: today.addingTimeInterval(-30 * 86_400)))&to=\(format.string(from: today.addingTimeInterval(60 * 86_400)))"
        }

        func player(_ name: String, _ arguments: [String]) throws -> ProcessResult {
            try HangmanBinary.run(arguments, environment: ["HANGMAN_HOME": directory.file(name), "HANGMAN_SERVICE": url])
        }

        /// `curl` on the dashboard: the status and the body.
        func curl(_ path: String, _ headers: [String] = []) throws -> (status: String, body: String) {
            let result = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-w", "\n%{http_code}"] + headers.flatMap { ["-H", $0] } + [admin + path])
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
        }

        /// Revenue and refunds per currency, and units per product, summed by SQL over every ledger file.
        func ledger() throws -> (revenue: [String: Int], refunds: [String: Int], units: [String: Int]) {
            try LedgerSQL.sums(data)
        }
    }

    /// An amount as the dashboard writes it for an English reader: `7.96 USD`, `240 JPY`.
    static func amount(_ minor: Int, _ currency: String) -> String {
        currency == "JPY" ? "\(minor) JPY" : String(format: "%d.%02d %@", minor / 100, minor % 100, currency)
    }

    @Test func thePagesShowTheLedgersNumbersInABrowser() throws {
        let world = try World()
        let artifacts = HangmanBinary.packageRoot.appendingPathComponent(".build/test-artifacts/dashboard").path
        try? FileManager.default.removeItem(atPath: artifacts)
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        let tokenFile = try world.directory.write("token", Array(world.token.utf8))
        let range = World.range
        // Ana's story, and a search by the number of her refunded purchase.
        let ana = try #require(try world.player("ana", ["account", "show"]).stdout.split(separator: "\n").first { $0.hasPrefix("account ") }?.split(separator: " ").last)
        let browser = try ExternalProcess.run("/usr/bin/python3", [
            HangmanBinary.packageRoot.appendingPathComponent("Tests/Browser/dashboard.py").path, world.admin, tokenFile, artifacts, range, String(ana), world.refundedNumber,
        ], killAfter: 240)
        #expect(browser.status == 0, "\(browser.stdout)\(browser.stderr)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(browser.stdout.utf8)) as? [String: Any])
        let pages = try #require(seen["pages"] as? [String: [String: Any]])
        #expect(pages.count == 32, "\(pages.keys)")
        // Light and dark, as the viewer's system asks.
        #expect(pages["overview-1280"]?["background"] as? String == "rgb(255, 255, 255)")
        #expect(pages["overview-1280-dark"]?["background"] as? String == "rgb(22, 22, 23)", "\(pages["overview-1280-dark"] ?? [:])")
        for (name, page) in pages {
            #expect(page["fits"] as? Bool == true, "\(name) is wider than its window")
            #expect(page["scripts"] as? Int == 0, "\(name) runs a script")
            // Readable at 375 and 1280, light and dark: no word broken in the middle, nothing cut.
            #expect((page["broken"] as? [String])?.isEmpty == true, "\(name) breaks words: \(page["broken"] ?? "")")
            #expect((page["clipped"] as? [String])?.isEmpty == true, "\(name) cuts text: \(page["clipped"] ?? "")")
        }
        let ledger = try world.ledger()
        // The totals: each currency's revenue, refunds and net, as the ledger sums them.
        let totals = try #require((pages["overview-1280"]?["tables"] as? [String: [[String]]])?["totals"])
        #expect(Set(totals.map { $0[0] }) == Set(ledger.revenue.keys) && ledger.revenue.count == 3, "\(totals) \(ledger)")
        for row in totals {
            let code = row[0], revenue = ledger.revenue[row[0]] ?? 0, refunds = ledger.refunds[row[0]] ?? 0
            #expect(row == [code, Self.amount(revenue, code), Self.amount(refunds, code), Self.amount(revenue - refunds, code)], "\(row)")
        }
        // The cohorts: each paying customer once in each currency they paid in, in the cohort of
        // the month they first paid in; the tables shaded and cut by nothing (checked above).
        let overviewTables = pages["overview-1280"]?["tables"] as? [String: [[String]]] ?? [:]
        let cohortRows = overviewTables.filter { $0.key.hasPrefix("cohorts-") }.values.flatMap { $0 }
        let payers = try world.count("SELECT count(DISTINCT coalesce(currency, 'USD')) FROM transactions WHERE \(LedgerSQL.charged)")
        #expect(payers >= 3 && cohortRows.map { Int($0[1]) ?? -1 }.reduce(0, +) == payers, "\(cohortRows) against \(payers) paying")
        // Units per product, and the product named with markup shown as its text.
        let units = try #require((pages["overview-375"]?["tables"] as? [String: [[String]]])?["units-table"])
        #expect(units.map { Int($0[1]) ?? -1 }.reduce(0, +) == ledger.units.values.reduce(0, +), "\(units)")
        #expect(units.contains { $0[0] == "<script>alert(1)</script> Hints" && $0[1] == "3" }, "\(units)")
        let products = try #require((pages["products-1280"]?["tables"] as? [String: [[String]]])?["products"])
        #expect(products.map(\.[0]) == (1...products.count).map(String.init) && products.count == ledger.units.count, "\(products)")
        let active = try #require((pages["subscriptions-1280"]?["tables"] as? [String: [[String]]])?["active-table"])
        #expect(active == [["Hangman Pass (monthly)", "1"]], "\(active)")
        let periods = try #require((pages["subscriptions-1280"]?["tables"] as? [String: [[String]]])?["trials"])
        let renewals = try world.count(
            "SELECT count(*) FROM transactions WHERE \(LedgerSQL.charged) AND original_transaction_id IS NOT NULL AND original_transaction_id <> id")
        #expect(renewals == 2 && periods.first { $0[0] == "Renewals" }?[1] == "2", "\(periods)")
        #expect(periods.first { $0[0] == "Free trials started" }?[1] == "1" && periods.first { $0[0] == "Trials paid since" }?[1] == "1", "\(periods)")
        // Recurring revenue: Dan's trial brought none, his paid month brought its price, in dollars.
        let monthly = try #require((pages["subscriptions-1280"]?["tables"] as? [String: [[String]]])?["mrr-USD-movement"])
        #expect(monthly.count == 1 && monthly[0][0] == "2.99 USD", "\(monthly)")
        // The players: accounts made, games served, the day's word, hints sold and spent.
        let players = try #require((pages["players-1280"]?["tables"] as? [String: [[String]]])?["players-totals"])
        let sold = try world.count("SELECT coalesce(sum(amount), 0) FROM hint_ledger WHERE reason = 'purchase'")
        let spent = try world.count("SELECT coalesce(-sum(amount), 0) FROM hint_ledger WHERE reason = 'spend'")
        #expect(players.map(\.[1]) == ["4", String(try world.count("SELECT count(*) FROM games")), "1", String(sold), String(spent)], "\(players)")
        // 130 bought as hints, and what the pass's charged periods credit.
        #expect(spent == 1 && sold > 130, "\(sold) \(spent)")
        let refunds = try #require((pages["refunds-1280"]?["tables"] as? [String: [[String]]])?["refunds"])
        #expect(refunds.contains { $0[2] == "Hard Words" && $0[3] == "UNSATISFIED_WITH_PURCHASE" && $0[4] == "declined" && $0[6] == "none" }, "\(refunds)")
        // The customers page: the search found Ana by her purchase; her story tells the refund.
        let story = try #require(pages["customer-1280"]?["tables"] as? [String: [[String]]])
        #expect(story["devices"]?.count == 1 && story["holds"]?.count == 1, "\(story)")
        #expect(story["timeline"]?.contains { $0[1] == "refund" && $0[2] == "iOS Words" } == true, "\(story["timeline"] ?? [])")
        #expect(story["timeline"]?.filter { $0[1] == "purchase" }.count == 3, "\(story["timeline"] ?? [])")
        for page in ["overview", "subscriptions", "players", "products", "refunds", "customers", "customer", "notifications"] {
            for width in [1280, 375] {
                let file = "\(page)-\(width)"
                let size = (try? FileManager.default.attributesOfItem(atPath: artifacts + "/\(file).png")[.size] as? Int) ?? 0
                #expect(size > 10_000, "\(file).png")
            }
        }
    }

    /// Support from the customer's page: an admin grants with a reason (the player sees it, the
    /// audit log names the token), a viewer reads the same page and is refused any action (403).
    @Test func anAdminActsOnACustomerAndAViewerOnlyReads() throws {
        let world = try World()
        let ana = try #require(try world.player("ana", ["account", "show"]).stdout.split(separator: "\n").first { $0.hasPrefix("account ") }?.split(separator: " ").last)
        let viewer = try HangmanBinary.run(["serve", "--data", world.data, "--admin-token", "--admin-role", "viewer"])
        let viewerToken = viewer.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(viewer.status == 0 && viewer.stderr.contains("a viewer: reads only"), "\(viewer.stderr)")
        let before = try world.player("ana", ["hints", "--json"]).stdout
        func act(_ token: String, _ fields: [String]) throws -> (status: String, location: String) {
            let answer = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-D", "-", "-o", "/dev/null", "-H", "Authorization: Bearer \(token)"]
                + (["account=\(ana)"] + fields).flatMap { ["--data-urlencode", $0] } + [world.admin + "/customers/act"]).stdout
            let status = answer.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            let location = answer.split(separator: "\r\n").first { $0.hasPrefix("Location: ") }.map { String($0.dropFirst("Location: ".count)) } ?? ""
            return (status, location)
        }
        let refused = try act(viewerToken, ["action=grant", "product=com.hangmanpacks.hints.10", "reason=goodwill", "key=v1"])
        #expect(refused.status == "403", "\(refused)")
        let viewerPage = try world.curl("/customers?account=\(ana)", ["Authorization: Bearer \(viewerToken)"])
        #expect(viewerPage.status == "200" && viewerPage.body.contains("a viewer&#39;s") == false && viewerPage.body.contains("takes no action") && !viewerPage.body.contains("<form class=\"act\""))
        let granted = try act(world.token, ["action=grant", "product=com.hangmanpacks.hints.10", "quantity=2", "reason=sorry for the outage", "key=a1"])
        #expect(granted.status == "303" && granted.location.contains("done=granted"), "\(granted)")
        // The same form sent again (the same key): one grant.
        _ = try act(world.token, ["action=grant", "product=com.hangmanpacks.hints.10", "quantity=2", "reason=sorry for the outage", "key=a1"])
        let balance = { (text: String) in (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["hintBalance"] as? Int ?? -1 }
        #expect(balance(try world.player("ana", ["hints", "--json"]).stdout) == balance(before) + 20, "the player sees 20 hints more, once")
        let page = try world.curl("/customers?account=\(ana)", ["Authorization: Bearer \(world.token)"])
        let adminID = String(world.token.split(separator: ".")[1])
        #expect(page.body.contains("sorry for the outage") && page.body.contains(adminID) && page.body.contains("<form class=\"act\""), "the audit log names the token")
        let unknown = try act(world.token, ["action=extend", "days=7", "reason=outage", "key=a2"])
        #expect(unknown.location.contains("done=refused"), "ana has no subscription: \(unknown)")
        // The events feed: JSON for a viewer's script too (what happened this minute is told the next), 401 without a token, 400 for a cursor that is none.
        let feed = try world.curl("/events?limit=10", ["Authorization: Bearer \(viewerToken)"])
        #expect(feed.status == "200" && feed.body.contains("\"events\""), "\(feed)")
        #expect(try world.curl("/events").status == "401")
        #expect(try world.curl("/events?after=nonsense", ["Authorization: Bearer \(world.token)"]).status == "400")
        let listed = try HangmanBinary.run(["serve", "--data", world.data, "--list-admin-tokens"]).stdout
        #expect(listed.contains("viewer") && listed.contains("admin") && listed.contains("last used"), "\(listed)")
    }

    @Test func onlyALiveAdminTokenOpensIt() throws {
        let world = try World()
        // Markup from the catalog is text in the page; the policy lets nothing else load.
        let page = try world.curl("/overview", ["Authorization: Bearer \(world.token)"])
        // A range asked wrongly is the asker's: 400 with its sentence, not a failure of the server.
        for query in ["from=bad&to=2026-01-01", "from=2000-01-01&to=2026-01-01"] {
            let refused = try world.curl("/overview?" + query, ["Authorization: Bearer \(world.token)"])
            #expect(refused.status == "400" && refused.body.contains("YYYY-MM-DD"), "\(query): \(refused.status) \(refused.body.prefix(200))")
        }
        #expect(page.status == "200" && page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt; Hints") && !page.body.contains("<script>"))
        let headers = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-D", "-", "-o", "/dev/null", "-H", "Authorization: Bearer \(world.token)", world.admin + "/overview"]).stdout
        #expect(headers.contains("Content-Security-Policy: default-src 'none'; style-src 'self'"), "\(headers)")
        // Refused: no token, a wrong one, a player's, and on the players' address not served at all.
        #expect(try world.curl("/overview").status == "401")
        #expect(try world.curl("/export/sales.tsv", ["Authorization: Bearer hpa1.0000000000000000.nope"]).status == "401")
        let playerToken = try world.player("ana", ["account", "token"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(playerToken.hasPrefix("hp1."))
        #expect(try world.curl("/overview", ["Authorization: Bearer \(playerToken)"]).status == "401")
        #expect(try world.curl("/overview", ["Cookie: hangman_admin=\(playerToken)"]).status == "401")
        let players = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(world.token)", world.url + "/overview"])
        #expect(players.stdout == "404", "the dashboard is not on the players' address")
        // Signing in sets an HttpOnly, SameSite=Strict cookie holding a session, never the token.
        func signIn() throws -> String {
            let answer = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-D", "-", "-o", "/dev/null", "--data-urlencode", "token=\(world.token)", world.admin + "/sign-in"]).stdout
            #expect(answer.hasPrefix("HTTP/1.1 303") && answer.contains("HttpOnly; SameSite=Strict"), "\(answer)")
            let cookie = answer.split(separator: "\r\n").first { $0.hasPrefix("Set-Cookie: hangman_admin=") }.map { String($0.dropFirst("Set-Cookie: hangman_admin=".count).prefix { $0 != ";" }) }
            return cookie ?? ""
        }
        let session = try signIn()
        #expect(!session.isEmpty && session != world.token && !session.contains(world.token.split(separator: ".")[2]), "\(session)")
        #expect(try world.curl("/overview", ["Cookie: hangman_admin=\(session)"]).status == "200")
        #expect(try world.curl("/overview", ["Cookie: hangman_admin=\(world.token)"]).status == "401", "the token is no session")
        // Signing out is a POST (a link elsewhere cannot do it), and ends the session.
        #expect(try world.curl("/sign-out", []).status == "405")
        let out = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "Cookie: hangman_admin=\(session)", world.admin + "/sign-out"]).stdout
        #expect(out == "303")
        #expect(try world.curl("/overview", ["Cookie: hangman_admin=\(session)"]).status == "401", "signed out")
        // Revoked: every session of the token ends, and the token is refused from then on.
        let second = try signIn()
        #expect(try world.curl("/overview", ["Cookie: hangman_admin=\(second)"]).status == "200")
        let id = String(world.token.split(separator: ".")[1])
        #expect(try HangmanBinary.run(["serve", "--data", world.data, "--revoke-admin-token", id]).status == 0)
        #expect(try world.curl("/overview", ["Cookie: hangman_admin=\(second)"]).status == "401")
        #expect(try world.curl("/export/sales.tsv", ["Authorization: Bearer \(world.token)"]).status == "401")
        #expect(try HangmanBinary.run(["serve", "--data", world.data, "--revoke-admin-token", id]).status == 64, "already revoked")
        let listed = try HangmanBinary.run(["serve", "--data", world.data, "--list-admin-tokens"])
        #expect(listed.status == 0 && listed.stdout.contains("\(id)  admin  made ") && listed.stdout.contains("revoked") && !listed.stdout.contains("hpa1."), "\(listed.stdout)")
        // Guessing tokens: after three wrong ones an address waits, longer each time.
        var statuses: [String] = []
        for _ in 0..<5 {
            statuses.append(try ExternalProcess.run(
                "/usr/bin/curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--data-urlencode", "token=hpa1.0000000000000000.wrong", world.admin + "/sign-in"]).stdout)
        }
        #expect(statuses == ["401", "401", "401", "401", "429"], "\(statuses)")
    }

    /// The summary sales report, read back as App Store Connect's columns: units times price per
    /// currency is the ledger's revenue less its refunds.
    @Test func theSalesReportHasAppStoreConnectsColumns() throws {
        let world = try World()
        let report = try world.curl("/export/sales.tsv?\(World.range)", ["Authorization: Bearer \(world.token)"])
        #expect(report.status == "200")
        let rows = report.body.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(rows.first)
        #expect(Array(header.prefix(20)) == [
            "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units", "Developer Proceeds", "Begin Date",
            "End Date", "Customer Currency", "Country Code", "Currency of Proceeds", "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier",
            "Subscription", "Period",
        ])
        let column = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })
        var sums: [String: Int] = [:]
        for row in rows.dropFirst() {
            #expect(row.count == header.count, "\(row)")
            let currency = row[column["Customer Currency"]!], units = Int(row[column["Units"]!]) ?? 0
            let price = row[column["Customer Price"]!].split(separator: ".")
            let minor = currency == "JPY" ? (Int(price[0]) ?? 0) : (Int(price[0]) ?? 0) * 100 + (Int(price.count > 1 ? price[1] : "0") ?? 0)
            sums[currency, default: 0] += units * minor
            #expect(["IA1", "IA9", "IAY"].contains(row[column["Product Type Identifier"]!]))
            #expect(["US", "DE", "JP"].contains(row[column["Country Code"]!]), "\(row)")
        }
        let ledger = try world.ledger()
        #expect(sums == ledger.revenue.mapValues { $0 } .merging(ledger.refunds.mapValues { -$0 }) { $0 + $1 }, "\(sums) \(ledger)")
        // iOS Words, bought and refunded the same day: two rows, +1 and -1, never netted away.
        let ios = rows.dropFirst().filter { $0[column["SKU"]!] == "com.hangmanpacks.words.ios" }.map { $0[column["Units"]!] }
        #expect(ios.sorted() == ["-1", "1"], "\(ios)")
    }
}
