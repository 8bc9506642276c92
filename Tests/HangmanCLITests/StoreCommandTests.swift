import Foundation
import TestSupport
import PropertyList
import Testing

/// One account's state directory and the repository's packs, driven through the built binary.
private final class StoreHome {
    let scratch: Scratch
    var path: String { scratch.path + "/home" }
    var database: String { path + "/account/account.sqlite" }
    static let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path

    static let hints10 = "com.hangmanpacks.hints.10"
    static let hints100 = "com.hangmanpacks.hints.100"
    static let ios = "com.hangmanpacks.words.ios"
    static let hard = "com.hangmanpacks.words.hard"

    init() async throws { scratch = try Scratch() }

    /// `hangman ARGS --home H --packs Packs/`.
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CLI.Result {
        // Prices as the C locale writes them ($0.99), whatever this machine's locale.
        try await CLI.run(arguments + ["--home", path, "--packs", Self.packs], environment: ["LC_ALL": "C.UTF-8"].merging(environment) { _, new in new })
    }

    /// Runs `hangman ARGS` and requires exit 0.
    @discardableResult
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> CLI.Result {
        let result = try await run(arguments)
        #expect(result.status == 0, "hangman \(arguments.joined(separator: " ")): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// Starts every command at once, then waits for all of them.
    func runConcurrently(_ commands: [[String]]) async throws -> [CLI.Result] {
        let started = try commands.map { arguments in
            try ExternalProcess(HangmanBinary.path, arguments + ["--home", path, "--packs", Self.packs])
        }
        return started.map { $0.wait() }
    }

    func balance() async throws -> Int {
        let result = try await ok(["hints", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["hintBalance"] as? Int)
    }

    func transactions() async throws -> [[String: Any]] {
        let result = try await ok(["transactions", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    /// A pack's state as `hangman packs --json` gives it.
    func packState(_ id: String) async throws -> String? {
        let result = try await ok(["packs", "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return rows.first { $0["productID"] as? String == id }?["state"] as? String
    }

    func restored() async throws -> [String] {
        let result = try await ok(["restore", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return list.compactMap { $0["productID"] as? String }
    }

    /// The id printed by `buy` for a deferred or interrupted purchase.
    func transactionID(in text: String) async throws -> String {
        let words = text.split(whereSeparator: { !$0.isHexDigit }).map(String.init)
        return try #require(words.first { $0.count == 16 }, "no transaction id in \(text)")
    }

    /// Runs SQL on the account's database with the `sqlite3` tool, which knows nothing of this code.
    func sqlite(_ sql: String) async throws -> String {
        let tool = "/usr/bin/sqlite3"
        try #require(FileManager.default.isExecutableFile(atPath: tool), "the sqlite3 tool (Debian package sqlite3) is needed")
        return try ExternalProcess.run(tool, [database, sql]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

@Suite struct StoreCommandTests {
    // MARK: - Crash points

    @Test(arguments: ["after-charge", "after-deliver"])
    func killedHintPurchaseIsCompletedExactlyOnce(_ point: String) async throws {
        let home = try await StoreHome()
        let killed = try await home.run(["buy", StoreHome.hints10], environment: ["HANGMAN_CRASH_AT": point])
        #expect(killed.wasSignaled)
        #expect(killed.status == 9)
        #expect(!killed.stdout.contains("Purchased"))

        let next = try await home.ok(["hints"])
        #expect(next.stdout == "10 hints\n")
        #expect(next.stderr.contains("completed an unfinished purchase: "), "\(next.stderr)")
        #expect(next.stderr.contains("10 Hints  finished, 10 hints"), "\(next.stderr)")
        for _ in 0..<2 {
            let again = try await home.ok(["hints"])
            #expect(again.stdout == "10 hints\n")
            #expect(!again.stderr.contains("unfinished"))
        }
        let transactions = try await home.transactions()
        #expect(transactions.count == 1)
        #expect(transactions.first?["state"] as? String == "finished")
        #expect(transactions.first?["hintsCredited"] as? Int == 10)
        #expect(try await home.sqlite("PRAGMA integrity_check") == "ok")
        #expect(try await home.sqlite("SELECT count(*), sum(amount) FROM hint_ledger") == "1|10")
    }

    /// The refund cycle from the command line: the customer asks, the store (killed inside its
    /// decision, then deciding again) grants once, and reverses once.
    @Test func aRefundIsAskedGrantedOnceAfterAKillAndReversed() async throws {
        let home = try await StoreHome()
        _ = try await home.ok(["buy", StoreHome.hints10])
        let id = try #require(try await home.transactions().first?["transactionID"] as? String)
        #expect(try await home.ok(["refund", id]).stdout.contains("has no refund"))
        let asked = try await home.ok(["refund", "request", String(id.prefix(6)), "--reason", "unintended-purchase"])
        #expect(asked.stdout.contains("Refund of 10 Hints (transaction \(id)) requested"), "\(asked.stdout)")
        let status = try await home.ok(["refund", "status", id, "--json"])
        #expect(status.stdout.contains("\"reason\" : \"UNINTENDED_PURCHASE\"") && status.stdout.contains("\"transactionID\" : \"\(id)\""), "\(status.stdout)")
        let bad = try await home.run(["refund", "request", id, "--reason", "boredom"])
        #expect(bad.status == 64, "\(bad.stderr)")
        let killed = try await home.run(["store", "refund-decision", id, "grant"], environment: ["HANGMAN_CRASH_AT": "in-refund-decision"])
        #expect(killed.wasSignaled && killed.status == 9, "\(killed.stderr)")
        #expect(try await home.ok(["hints"]).stdout == "10 hints\n", "the killed decision kept nothing")
        let granted = try await home.ok(["store", "refund-decision", id, "grant"])
        #expect(granted.stdout.contains("Refund granted: 10 Hints ($0.99 back), transaction \(id); 10 hints taken back."), "\(granted.stdout)")
        #expect(try await home.ok(["store", "refund-decision", id, "grant"]).stdout.contains("Refund granted"))
        #expect(try await home.ok(["hints"]).stdout == "0 hints\n")
        let declined = try await home.run(["store", "refund-decision", id, "decline"])
        #expect(declined.status == 65, "granted already: \(declined.stderr)")
        #expect(try await home.ok(["store", "refund-decision", id, "reverse"]).stdout.contains("10 hints given back"))
        #expect(try await home.ok(["hints"]).stdout == "10 hints\n")
        #expect(try await home.sqlite("SELECT count(*), sum(amount) FROM hint_ledger") == "3|10")
        #expect(try await home.ok(["refund", id]).stdout.contains("reversed on"))
    }

    @Test(arguments: ["after-charge", "after-deliver"])
    func killedPackPurchaseIsGrantedExactlyOnce(_ point: String) async throws {
        let home = try await StoreHome()
        let killed = try await home.run(["buy", StoreHome.ios], environment: ["HANGMAN_CRASH_AT": point])
        #expect(killed.wasSignaled && killed.status == 9)

        let next = try await home.ok(["hints"])
        #expect(next.stdout == "0 hints\n")
        #expect(next.stderr.contains("completed an unfinished purchase: "), "\(next.stderr)")
        #expect(next.stderr.contains("iOS Words  finished"), "\(next.stderr)")
        // The next command on the device's side installs it: no 'install', no 'restore'.
        let packs = try await home.ok(["packs"])
        #expect(packs.stderr.contains("Delivered iOS Words, bought earlier"), "\(packs.stderr)")
        #expect(packs.stdout.contains("iOS Words"), "\(packs.stdout)")
        #expect(try await home.packState(StoreHome.ios) == "installed")
        #expect(try await home.restored() == [StoreHome.ios])
        #expect(try await home.restored() == [StoreHome.ios])
        // Owned: buying again charges nothing.
        let again = try await home.ok(["buy", StoreHome.ios])
        #expect(again.stdout.hasPrefix("You already own iOS Words"), "\(again.stdout)")
        #expect(!again.stderr.contains("unfinished"))
        let transactions = try await home.transactions()
        #expect(transactions.count == 1)
        #expect(transactions.first?["state"] as? String == "finished")
        #expect(try await home.sqlite("SELECT count(*) FROM entitlements WHERE revoked_date IS NULL") == "1")
        #expect(try await home.sqlite("PRAGMA integrity_check") == "ok")
    }

    @Test(arguments: ["approve", "resolve"])
    func packWaitingForSomeoneIsInstalledByTheNextCommand(_ action: String) async throws {
        let home = try await StoreHome()
        try await home.ok(["store", action == "approve" ? "ask-to-buy" : "interrupt-purchases", "on"])
        let waiting = try await home.run(["buy", StoreHome.ios])
        #expect(waiting.status == 75)
        #expect(try await home.packState(StoreHome.ios) == "locked")
        let id = try await home.transactionID(in: waiting.stdout)
        try await home.ok(["store", action, id])
        #expect(try await home.packState(StoreHome.ios) == "installed")
        let again = try await home.ok(["buy", StoreHome.ios])
        #expect(again.stdout.hasPrefix("You already own iOS Words"), "\(again.stdout)")
        #expect(try await home.transactions().count == 1)
    }

    @Test func killedApprovalIsCompletedExactlyOnce() async throws {
        let home = try await StoreHome()
        try await home.ok(["store", "ask-to-buy", "on"])
        let deferred = try await home.run(["buy", StoreHome.hints100])
        #expect(deferred.status == 75)
        let id = try await home.transactionID(in: deferred.stdout)
        let killed = try await home.run(["store", "approve", id], environment: ["HANGMAN_CRASH_AT": "after-charge"])
        #expect(killed.wasSignaled && killed.status == 9)
        #expect(try await home.balance() == 100)
        #expect(try await home.balance() == 100)
        let approveAgain = try await home.run(["store", "approve", id])
        #expect(approveAgain.status == 65)
        #expect(try await home.balance() == 100)
        #expect(try await home.sqlite("PRAGMA integrity_check") == "ok")
    }

    @Test func anUnknownCrashPointCrashesNothing() async throws {
        let home = try await StoreHome()
        let result = try await home.run(["buy", StoreHome.hints10], environment: ["HANGMAN_CRASH_AT": "before-lunch"])
        #expect(result.status == 0 && !result.wasSignaled)
        #expect(try await home.balance() == 10)
    }

    // MARK: - Hints

    @Test func eightProcessesSpendingAtOnceLoseNothing() async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.hints10])
        for index in 0..<5 { try await home.ok(["hints", "spend", "--key", "setup-\(index)"]) }
        #expect(try await home.balance() == 5)
        // Two rounds of 8 processes at once, each spending under its own key: demand 16, supply 5.
        var results: [CLI.Result] = []
        for round in 0..<2 {
            results += try await home.runConcurrently((0..<8).map { ["hints", "spend", "--key", "round\(round)-spender\($0)"] })
        }
        #expect(results.filter { $0.status == 0 }.count == 5)
        #expect(results.filter { $0.status == 77 }.count == 11)
        #expect(results.allSatisfy { [0, 77].contains($0.status) }, "\(results.map { "\($0.status): \($0.stderr)" })")
        #expect(results.filter { $0.status == 77 }.allSatisfy { $0.stderr.contains("no hints left") })
        // Each success saw a different balance: 4, 3, 2, 1, 0.
        let left = results.filter { $0.status == 0 }.map(\.stdout).sorted()
        #expect(left == (0..<5).map { "Spent one hint. \($0) left.\n" })
        #expect(try await home.balance() == 0)
        #expect(try await home.sqlite("SELECT sum(amount) FROM hint_ledger") == "0")
        #expect(try await home.sqlite("SELECT count(*) FROM hint_ledger WHERE reason = 'spend'") == "10")
        #expect(try await home.sqlite("SELECT min(balance_after) FROM hint_ledger") == "0")
        #expect(try await home.sqlite("PRAGMA integrity_check") == "ok")
    }

    @Test func eightProcessesSpendingLessThanTheBalance() async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.hints10, "--quantity", "3"])
        let results = try await home.runConcurrently((0..<8).map { ["hints", "spend", "--key", "spender\($0)"] })
            + home.runConcurrently((0..<8).map { ["hints", "spend", "--key", "spender\($0 + 8)"] })
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map { "\($0.status): \($0.stderr)" })")
        #expect(try await home.balance() == 14)
        #expect(try await home.sqlite("SELECT sum(amount) FROM hint_ledger") == "14")
        #expect(try await home.sqlite("SELECT balance_after FROM hint_ledger ORDER BY seq DESC LIMIT 1") == "14")
    }

    @Test func eightProcessesRetryingOneKeySpendOnce() async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.hints10])
        let results = try await home.runConcurrently(Array(repeating: ["hints", "spend", "--key", "the-key"], count: 8))
        #expect(results.allSatisfy { $0.status == 0 })
        #expect(results.filter { $0.stdout == "Spent one hint. 9 left.\n" }.count == 1)
        #expect(results.filter { $0.stdout.hasPrefix("Already spent under key 'the-key'") }.count == 7)
        #expect(try await home.balance() == 9)
    }

    @Test func eightProcessesStartingOnAFreshHomeAgreeOnOneAccount() async throws {
        let home = try await StoreHome()
        let results = try await home.runConcurrently(Array(repeating: ["hints"], count: 8))
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map { "\($0.status): \($0.stderr)" })")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path + "/account").filter { $0.hasSuffix(".tmp") }.isEmpty)
        try await home.ok(["buy", StoreHome.hints10])
        try await home.ok(["receipt", "-o", home.scratch.path + "/r.plist"])
        #expect(try await home.run(["receipt", "verify", home.scratch.path + "/r.plist"]).status == 0)
    }

    @Test func theSameKeyTwiceSpendsOnce() async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.hints10])
        #expect(try await home.ok(["hints", "spend", "--key", "K"]).stdout == "Spent one hint. 9 left.\n")
        #expect(try await home.ok(["hints", "spend", "--key", "K"]).stdout == "Already spent under key 'K': nothing taken. 9 left.\n")
        // One JSON writer for every --json: pretty, keys sorted.
        #expect(try await home.ok(["hints", "spend", "--key", "K", "--json"]).stdout == "{\n  \"alreadySpent\" : true,\n  \"hintBalance\" : 9\n}\n")
        #expect(try await home.balance() == 9)
        // Without a key, every spend is a new one.
        try await home.ok(["hints", "spend"])
        try await home.ok(["hints", "spend"])
        #expect(try await home.balance() == 7)
    }

    @Test func spendingWithNoHintsExits77NamingWhatToBuy() async throws {
        let home = try await StoreHome()
        let result = try await home.run(["hints", "spend"])
        #expect(result.status == 77)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("hangman buy \(StoreHome.hints10)"), "\(result.stderr)")
        #expect(try await home.balance() == 0)
    }

    // MARK: - Restore

    @Test func restoreTwiceListsOwnedPacksOnly() async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.hints10])
        try await home.ok(["buy", StoreHome.hard])
        try await home.ok(["buy", StoreHome.ios])
        let first = try await home.ok(["restore"])
        let second = try await home.ok(["restore"])
        #expect(first.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("Restored ") }.count == 2)
        #expect(first.stdout.contains("(\(StoreHome.ios))") && first.stdout.contains("(\(StoreHome.hard))"))
        #expect(!first.stdout.contains("hints"))
        #expect(second.stdout.contains("(\(StoreHome.ios))") && second.stdout.contains("(\(StoreHome.hard))"))
        #expect(Set(try await home.restored()) == [StoreHome.ios, StoreHome.hard])
        #expect(try await home.restored() == (try await home.restored()))
        #expect(try await home.transactions().count == 3)
        #expect(try await home.balance() == 10)
    }

    @Test func restoreOmitsARefundedPack() async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.ios])
        try await home.ok(["buy", StoreHome.hard])
        let id = try #require(try await home.transactions().first { $0["productID"] as? String == StoreHome.ios }?["transactionID"] as? String)
        let refund = try await home.ok(["store", "refund", id])
        #expect(refund.stdout == "Refunded iOS Words ($0.99 back): the pack is revoked (buy it to play it again).\n")
        #expect(try await home.restored() == [StoreHome.hard])
        #expect(try await home.restored() == [StoreHome.hard])
        // Bought again: charged (a new transaction), and restored again.
        let again = try await home.ok(["buy", StoreHome.ios])
        #expect(again.stdout.hasPrefix("Purchased iOS Words for $0.99: transaction "))
        #expect(!again.stdout.contains(id))
        #expect(try await home.transactions().count == 3)
        #expect(Set(try await home.restored()) == [StoreHome.ios, StoreHome.hard])
    }

    @Test func deletingEverythingButTheAccountKeepsPacksAndHints() async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.ios])
        try await home.ok(["buy", StoreHome.hints10])
        try await home.ok(["hints", "spend"])
        try home.scratch.write("home/device/stats.sqlite", "pretend")
        for name in try FileManager.default.contentsOfDirectory(atPath: home.path) where name != "account" {
            try FileManager.default.removeItem(atPath: home.path + "/" + name)
        }
        #expect(try await home.restored() == [StoreHome.ios])
        #expect(try await home.balance() == 9)
        #expect(try await home.transactions().count == 2)
    }

    @Test func resetKeepsPacksAndHints() async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.ios])
        try await home.ok(["buy", StoreHome.hints10])
        try await home.ok(["reset", "--yes"])
        #expect(try await home.restored() == [StoreHome.ios])
        #expect(try await home.balance() == 10)
    }

    // MARK: - Refunds

    @Test func refundingHintsTakesBackWhatIsLeft() async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.hints10])
        for _ in 0..<7 { try await home.ok(["hints", "spend"]) }
        let id = try #require(try await home.transactions().first?["transactionID"] as? String)
        let refund = try await home.ok(["store", "refund", id])
        #expect(refund.stdout == "Refunded 10 Hints ($0.99 back): 3 hints taken back (of 10). Balance: 0 hints.\n")
        #expect(try await home.balance() == 0)
        let twice = try await home.run(["store", "refund", id])
        #expect(twice.status == 65)
        #expect(twice.stderr.contains("already refunded"))
        #expect(try await home.balance() == 0)
        #expect(try await home.sqlite("SELECT min(balance_after) FROM hint_ledger") == "0")
        let revoked = try await home.transactions().first?["revocationDate"] as? String
        #expect(revoked != nil)
    }

    @Test func refundingAFailedPurchaseIsRefused() async throws {
        let home = try await StoreHome()
        try await home.ok(["store", "fail-purchases", "on"])
        #expect(try await home.run(["buy", StoreHome.hints10]).status == 69)
        let id = try #require(try await home.transactions().first?["transactionID"] as? String)
        let refund = try await home.run(["store", "refund", id])
        #expect(refund.status == 65)
        #expect(refund.stderr.contains("only a delivered purchase can be refunded"))
    }

    @Test func refundingAnUnknownTransactionIsAUsageError() async throws {
        let home = try await StoreHome()
        #expect(try await home.run(["store", "refund", "0123456789abcdef"]).status == 64)
        #expect(try await home.run(["store", "refund", "not-an-id"]).status == 64)
    }

    // MARK: - Test controls

    @Test func failPurchasesExits69AndDeliversNothing() async throws {
        let home = try await StoreHome()
        #expect(try await home.ok(["store", "fail-purchases", "on"]).stdout == "fail-purchases is on\n")
        let hints = try await home.run(["buy", StoreHome.hints10])
        #expect(hints.status == 69)
        #expect(hints.stderr.contains("failed"))
        let pack = try await home.run(["buy", StoreHome.ios])
        #expect(pack.status == 69)
        #expect(try await home.balance() == 0)
        #expect(try await home.restored().isEmpty)
        #expect(try await home.transactions().map { $0["state"] as? String } == ["failed", "failed"])
        try await home.ok(["store", "fail-purchases", "off"])
        try await home.ok(["buy", StoreHome.ios])
        #expect(try await home.restored() == [StoreHome.ios])
    }

    @Test func askToBuyWaitsForApproval() async throws {
        let home = try await StoreHome()
        try await home.ok(["store", "ask-to-buy", "on"])
        let deferred = try await home.run(["buy", StoreHome.hints10, "--quantity", "2"])
        #expect(deferred.status == 75)
        #expect(deferred.stdout.contains("Waiting for approval"))
        let id = try await home.transactionID(in: deferred.stdout)
        #expect(try await home.balance() == 0)
        #expect(try await home.balance() == 0)
        let approved = try await home.ok(["store", "approve", id])
        #expect(approved.stdout.hasPrefix("Approved: \(id)"))
        #expect(try await home.balance() == 20)
        let twice = try await home.run(["store", "approve", id])
        #expect(twice.status == 65)
        #expect(twice.stderr.contains("cannot approve transaction \(id): it is finished, not deferred"))
        #expect(try await home.balance() == 20)
        #expect(try await home.sqlite("SELECT count(*) FROM hint_ledger") == "1")
    }

    @Test func askToBuyDeclinedDeliversNothing() async throws {
        let home = try await StoreHome()
        try await home.ok(["store", "ask-to-buy", "on"])
        let deferred = try await home.run(["buy", StoreHome.ios])
        #expect(deferred.status == 75)
        let id = try await home.transactionID(in: deferred.stdout)
        let declined = try await home.ok(["store", "decline", id])
        #expect(declined.stdout.hasPrefix("Declined: \(id)"))
        #expect(declined.stdout.contains("failed (declined by the approver)"))
        #expect(try await home.restored().isEmpty)
        #expect(try await home.run(["store", "approve", id]).status == 65)
        #expect(try await home.restored().isEmpty)
        #expect(try await home.transactions().map { $0["state"] as? String } == ["failed"])
    }

    @Test func interruptedPurchaseCompletesWhenResolved() async throws {
        let home = try await StoreHome()
        try await home.ok(["store", "interrupt-purchases", "on"])
        let interrupted = try await home.run(["buy", StoreHome.hints10])
        #expect(interrupted.status == 75)
        #expect(interrupted.stdout.contains("interrupted"))
        let id = try await home.transactionID(in: interrupted.stdout)
        #expect(try await home.balance() == 0)
        #expect(try await home.run(["store", "approve", id]).status == 65)
        let resolved = try await home.ok(["store", "resolve", id])
        #expect(resolved.stdout.hasPrefix("Resolved: \(id)"))
        #expect(try await home.balance() == 10)
        #expect(try await home.run(["store", "resolve", id]).status == 65)
        #expect(try await home.balance() == 10)
    }

    @Test func clearEmptiesTheHistoryAndResetTurnsSwitchesOff() async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.hints10])
        try await home.ok(["buy", StoreHome.ios])
        try await home.ok(["store", "ask-to-buy", "on"])
        try await home.ok(["store", "fail-purchases", "on"])
        #expect(try await home.ok(["store", "clear", "--yes"]).stdout == "The purchase history is empty.\n")
        #expect(try await home.transactions().isEmpty)
        #expect(try await home.ok(["transactions"]).stdout == "No transactions yet: see 'hangman products'.\n")
        #expect(try await home.balance() == 0)
        #expect(try await home.restored().isEmpty)
        #expect(try await home.ok(["store"]).stdout == "fail-purchases       on\nask-to-buy           on\ninterrupt-purchases  off\nfail-renewals        off\npayments             on\n")
        #expect(try await home.ok(["store", "reset"]).stdout.hasPrefix("Every switch is off, and the store's time is the real time again ("))
        #expect(try await home.ok(["store", "status"]).stdout == "fail-purchases       off\nask-to-buy           off\ninterrupt-purchases  off\nfail-renewals        off\npayments             on\n")
        try await home.ok(["buy", StoreHome.ios])
        #expect(try await home.restored() == [StoreHome.ios])
    }

    /// The clock moves by any ISO 8601 duration, and 'store reset' brings it back to the real time.
    @Test func theClockTakesEveryDurationAndResetBringsItBack() async throws {
        let home = try await StoreHome()
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        for step in ["PT1H", "P2M3D", "P1DT30M", "P3W"] {
            let moved = try await home.ok(["store", "clock", "advance", step])
            #expect(moved.stdout.contains("(moved \(step) from "), "\(moved.stdout)")
        }
        let refused = try await home.run(["store", "clock", "advance", "P1W2D"])
        #expect(refused.status == 64 && refused.stderr.contains("weeks stand alone"), "\(refused.stderr)")
        try await home.ok(["store", "clock", "advance", "P1000Y"])
        let far = try await home.ok(["store", "clock"]).stdout
        #expect(far.contains("\(year + 1000)-") || far.contains("\(year + 1001)-"), "\(far)")
        try await home.ok(["store", "reset"])
        let back = try await home.ok(["store", "clock"]).stdout
        #expect(back.contains("\(year)-") && !back.contains("\(year + 1000)-"), "\(back)")
    }

    @Test func badStoreArgumentsAreUsageErrors() async throws {
        let home = try await StoreHome()
        #expect(try await home.run(["store", "ask-to-buy", "maybe"]).status == 64)
        #expect(try await home.run(["store", "teleport"]).status == 64)
        #expect(try await home.run(["store", "approve"]).status == 64)
    }

    // MARK: - Receipts

    @Test func receiptWrittenThenVerified() async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.hints10])
        try await home.ok(["buy", StoreHome.ios])
        let file = home.scratch.path + "/receipt.plist"
        let written = try await home.ok(["receipt", "-o", file])
        #expect(written.stdout == "wrote \(file): 2 transactions, signed\n")
        let verified = try await home.run(["receipt", "verify", file])
        #expect(verified.status == 0)
        let lines = verified.stdout.split(separator: "\n")
        #expect(lines.first == "status 0: valid: 2 transactions for com.hangmanpacks.hangman", "\(verified.stdout)")
        // Then each purchase, in words.
        #expect(lines.count == 3 && lines[1].contains("10 Hints") && lines[2].contains("iOS Words"), "\(verified.stdout)")
        let json = try await home.run(["receipt", "verify", file, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["status"] as? Int == 0)
        let key = try FileManager.default.attributesOfItem(atPath: home.path + "/account/service-signing.key")
        #expect((key[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    /// The receipt's outer fields and its payload, as the file holds them.
    private func open(_ file: String) async throws -> (outer: [String: PropertyList], payload: [String: PropertyList]) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let outer = try #require(try PropertyListDecoding.decode(bytes).value.dictionaryValue)
        let payloadBytes = try #require(outer["Payload"]?.dataValue)
        let payload = try #require(try PropertyListDecoding.decode(payloadBytes).value.dictionaryValue)
        return (outer, payload)
    }

    private func write(_ file: String, outer: [String: PropertyList], payload: [String: PropertyList]) async throws {
        var fields = outer
        fields["Payload"] = .data(PropertyListEncoding.xml(.dictionary(payload)))
        try Data(PropertyListEncoding.xml(.dictionary(fields))).write(to: URL(fileURLWithPath: file))
    }

    @Test(arguments: ["product-added", "date-changed", "refund-removed"])
    func tamperedReceiptIsNotAuthenticated(_ change: String) async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.hints10])
        let hard = try await home.ok(["buy", StoreHome.hard])
        if change == "refund-removed" {
            let id = try await home.transactionID(in: hard.stdout.replacingOccurrences(of: StoreHome.hard, with: ""))
            try await home.ok(["store", "refund", id])
        }
        let file = home.scratch.path + "/receipt.plist"
        try await home.ok(["receipt", "-o", file])
        var (outer, payload) = try await open(file)
        var items = try #require(payload["Transactions"]?.arrayValue?.compactMap { $0.dictionaryValue })
        switch change {
        case "product-added":
            var extra = items[0]
            extra["TransactionIdentifier"] = .string("feedfacefeedface")
            extra["ProductIdentifier"] = .string(StoreHome.ios)
            items.append(extra)
        case "date-changed":
            items[0]["PurchaseDate"] = .integer((items[0]["PurchaseDate"]?.integerValue ?? 0) + 1)
        default:
            #expect(items[1]["RevocationDate"] != nil)
            items[1]["RevocationDate"] = nil
        }
        payload["Transactions"] = .array(items.map { .dictionary($0) })
        try await write(file, outer: outer, payload: payload)
        let verified = try await home.run(["receipt", "verify", file])
        #expect(verified.status == 65)
        #expect(verified.stdout.hasPrefix("status 21003: "), "\(verified.stdout)")
        outer["Signature"] = .data(Array(repeating: 0, count: 64))
        try await write(file, outer: outer, payload: payload)
        #expect(try await home.run(["receipt", "verify", file]).stdout.hasPrefix("status 21003: "))
    }

    @Test(arguments: ["garbage", "truncated", "empty"])
    func malformedReceiptExits65(_ kind: String) async throws {
        let home = try await StoreHome()
        try await home.ok(["buy", StoreHome.hints10])
        let file = home.scratch.path + "/receipt.plist"
        try await home.ok(["receipt", "-o", file])
        let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let bytes: [UInt8] = switch kind {
        case "garbage": Array("PK\u{3}\u{4} this is not a receipt at all".utf8)
        case "truncated": Array(good.prefix(good.count - 40))
        default: []
        }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let verified = try await home.run(["receipt", "verify", file])
        #expect(verified.status == 65)
        #expect(verified.stdout.hasPrefix("status 21002: "), "\(verified.stdout)")
    }

    @Test func anotherAccountsReceiptIsNotAuthenticated() async throws {
        let mine = try await StoreHome()
        let theirs = try await StoreHome()
        try await theirs.ok(["buy", StoreHome.ios])
        let file = theirs.scratch.path + "/receipt.plist"
        try await theirs.ok(["receipt", "-o", file])
        #expect(try await theirs.run(["receipt", "verify", file]).status == 0)
        let verified = try await mine.run(["receipt", "verify", file])
        #expect(verified.status == 65)
        #expect(verified.stdout.hasPrefix("status 21003: "))
    }

    @Test func missingReceiptExits66() async throws {
        let home = try await StoreHome()
        #expect(try await home.run(["receipt", "verify", home.scratch.path + "/nothing.plist"]).status == 66)
    }

    // MARK: - Exit codes and help

    @Test(arguments: [
        ["buy", "com.hangmanpacks.nothing"],
        ["buy", "not-a-product-id"],
        ["buy"],
        ["buy", StoreHome.hints10, StoreHome.hints100],
        ["buy", StoreHome.hints10, "--quantity", "abc"],
        ["buy", StoreHome.hints10, "--quantity", "0"],
        ["buy", StoreHome.hints10, "--quantity", "11"],
        ["buy", StoreHome.hints10, "--quantity", "-1"],
        ["buy", StoreHome.ios, "--quantity", "2"],
        ["buy", StoreHome.hints10, "--colour", "red"],
        ["hints", "borrow"],
        ["transactions", "all"],
        ["restore", "now"],
        ["receipt", "print"],
    ])
    func usageErrorsExit64(_ arguments: [String]) async throws {
        let home = try await StoreHome()
        let result = try await home.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("error: "))
        #expect(result.stdout.isEmpty)
        #expect(try await home.transactions().isEmpty)
    }

    @Test func unknownProductSaysWhereToLook() async throws {
        let result = try await StoreHome().run(["buy", "com.hangmanpacks.nothing"])
        #expect(result.stderr.contains("no product 'com.hangmanpacks.nothing' in the catalog: see 'hangman products'"))
    }

    @Test(arguments: [["products"], ["buy"], ["restore"], ["hints"], ["hints", "spend"], ["transactions"], ["receipt"], ["receipt", "verify"], ["store"], ["store", "refund"]])
    func helpExits0(_ command: [String]) async throws {
        let home = try await StoreHome()
        let result = try await home.run(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: "), "\(result.stdout)")
        #expect(result.stdout.contains("USAGE: hangman \(command[0])"))
        #expect(result.stdout.contains("--home <DIR>"))
        #expect(result.stderr.isEmpty)
        // Help touches no state.
        #expect(!FileManager.default.fileExists(atPath: home.path))
    }

    @Test func topLevelHelpDocumentsTheExitCodes() async throws {
        let result = try await CLI.run(["--help"])
        #expect(result.status == 0)
        for line in ["69  the store refused the payment", "75  try again later", "77  not entitled"] {
            #expect(result.stdout.contains(line), "\(line)")
        }
    }

    @Test func productsListsTheCatalog() async throws {
        let home = try await StoreHome()
        let result = try await home.ok(["products", "--json"])
        let products = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(products.count == 12)
        #expect(products.suffix(2).map { $0["packKind"] as? String } == ["Theme", "Theme"], "themes listed last")
        let words = Dictionary(uniqueKeysWithValues: products.map { ($0["productID"] as? String ?? "", $0["wordCount"] as? Int ?? 0) })
        #expect(words["com.hangmanpacks.words.ios"] == 197)
        #expect(words["com.hangmanpacks.words.hard"] == 1000)
        #expect(words["com.hangmanpacks.words.es"] == 3000)
        let table = try await home.ok(["products", "--wide"])
        #expect(table.stdout.contains("com.hangmanpacks.hints.100      100        Consumable     $4.99              100 Hints               100 hints"), "\(table.stdout)")
        #expect(table.stdout.contains("com.hangmanpacks.pass.monthly   monthly    AutoRenewable  $2.99/month        Hangman Pass (monthly)  all word packs, 20 hints a month, free trial: 1 week"), "\(table.stdout)")
        #expect(table.stdout.contains("com.hangmanpacks.pass.30days    30days     NonRenewing    $3.99 for 30 days  Hangman 30-Day Pass     all word packs"), "\(table.stdout)")
    }

    @Test func brokenCatalogExits65() async throws {
        let home = try await StoreHome()
        try home.scratch.write("packs/Catalog.plist", "<plist><dict><key>Products</key>")
        let result = try await CLI.run(["hints", "--home", home.path, "--packs", home.scratch.path + "/packs"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("not a valid property list"))
        let missing = try await CLI.run(["hints", "--home", home.path, "--packs", home.scratch.path + "/nowhere"])
        #expect(missing.status == 66)
    }
}
