import CivilCalendar
import Foundation
import HangmanGame
@testable import Seller
import SQLite
import Testing
import TestSupport

/// The seller's numbers kept by the ledger's triggers (``SalesAggregates``) against a sum of every
/// transaction: equal after a random history of purchases, refunds, subscriptions with trials,
/// renewals, upgrades and lapses, on both engines; and against the sums a person makes of the
/// account's own transactions.
@Suite struct SalesAggregatesTests {
    static let products = [
        "com.hangmanpacks.hints.10", "com.hangmanpacks.hints.100", "com.hangmanpacks.words.ios", "com.hangmanpacks.words.es", "com.hangmanpacks.removeads",
        "com.hangmanpacks.pass.monthly", "com.hangmanpacks.pass.yearly", "com.hangmanpacks.pass.30days",
    ].map { ProductID(rawValue: $0)! }

    /// What a random history did that the players' numbers count: games served, hints spent.
    struct Played { var games: Set<String> = [], spent = 0 }

    /// `steps` random things a player and the store's test controls do; refusals are part of it.
    @discardableResult
    static func history(_ service: AccountService, seed: UInt64, steps: Int) -> Played {
        var random = SeededGenerator(seed: seed)
        var bought: [TransactionID] = []
        var played = Played()
        for step in 0..<steps {
            do {
                switch Int.random(in: 0..<12, using: &random) {
                case 10:
                    // A new game, or the daily word (the day's one game again when it was served).
                    let game = Bool.random(using: &random)
                        ? try service.startDaily(language: nil, lives: nil) : try service.startGame(GameRequest(new: true), seed: UInt64(step))
                    played.games.insert(game.id)
                case 11:
                    _ = try service.spendHint(idempotencyKey: "spend-\(seed)-\(step)")
                    played.spent += 1
                case 0...3:
                    let product = products.randomElement(using: &random)!
                    let quantity = product.rawValue.contains(".hints.") ? Int.random(in: 1...3, using: &random) : 1
                    if let id = try service.buy(product, quantity: quantity).transaction?.id { bought.append(id) }
                case 4, 5:
                    if let id = bought.randomElement(using: &random) { _ = try service.refund(id) }
                case 6, 7:
                    _ = try service.advanceClock(by: StoreDuration(Int.random(in: 1...40, using: &random), .day))
                case 8:
                    _ = try service.setAutoRenew(products[Int.random(in: 5...6, using: &random)], on: Bool.random(using: &random))
                default:
                    // Renewals the clock made are transactions too: refund one of them now and then.
                    if let id = try service.transactions().filter({ $0.expiresDate != nil }).randomElement(using: &random)?.id { _ = try service.refund(id) }
                }
            } catch {
                continue
            }
        }
        return played
    }

    /// What a person sums from the account's own transactions: revenue and refunds by currency.
    static func personsSums(_ transactions: [StoreTransaction]) -> (revenue: [String: Int64], refunds: [String: Int64]) {
        var revenue: [String: Int64] = [:], refunds: [String: Int64] = [:]
        for transaction in transactions {
            guard [.purchased, .delivered, .finished].contains(transaction.state), !transaction.isTrial, let price = transaction.price, price.minorUnits > 0 else { continue }
            revenue[price.currency, default: 0] += price.minorUnits
            if transaction.revocationDate != nil {
                let back = transaction.refund ?? price
                refunds[back.currency, default: 0] += back.minorUnits
            }
        }
        return (revenue, refunds)
    }

    /// The cohorts a person makes of accounts' own transactions: each account's first month with
    /// a charge in a currency is its cohort; each month it was charged in counts it once; revenue
    /// in the month of the charge, refunds in the month of the refund.
    static func personsCohorts(_ accounts: [[StoreTransaction]]) -> Set<CohortMonth> {
        struct Key: Hashable { var cohort: Int, month: Int, currency: String }
        var sums: [Key: CohortMonth] = [:]
        for transactions in accounts {
            let charged = transactions.filter { [.purchased, .delivered, .finished].contains($0.state) && !$0.isTrial && ($0.price?.minorUnits ?? 0) > 0 }
            for currency in Set(charged.compactMap { $0.price?.currency }) {
                let mine = charged.filter { $0.price?.currency == currency }
                let paying = Set(mine.map { CohortMonth.month(ofMilliseconds: $0.purchaseDate) })
                let cohort = paying.min()!
                func add(_ month: Int, customers: Int64 = 0, revenue: Int64 = 0, refunds: Int64 = 0) {
                    let key = Key(cohort: cohort, month: month, currency: currency)
                    var row = sums[key] ?? CohortMonth(cohort: cohort, month: month, currency: currency, customers: 0, revenue: 0, refunds: 0)
                    row.customers += customers
                    row.revenue += revenue
                    row.refunds += refunds
                    sums[key] = row
                }
                for month in paying { add(month, customers: 1) }
                for transaction in mine {
                    add(CohortMonth.month(ofMilliseconds: transaction.purchaseDate), revenue: transaction.price!.minorUnits)
                    if let revoked = transaction.revocationDate {
                        add(CohortMonth.month(ofMilliseconds: revoked), refunds: (transaction.refund ?? transaction.price!).minorUnits)
                    }
                }
            }
        }
        return Set(sums.values)
    }

    /// The kept numbers' sums by currency over every day.
    static func keptSums(_ days: SalesDays) -> (revenue: [String: Int64], refunds: [String: Int64]) {
        var revenue: [String: Int64] = [:], refunds: [String: Int64] = [:]
        for row in days.rows {
            if row.revenue != 0 { revenue[row.currency, default: 0] += row.revenue }
            if row.refunds != 0 { refunds[row.currency, default: 0] += row.refunds }
        }
        return (revenue, refunds)
    }

    @Test(arguments: Engine.allCases) func theKeptNumbersAreARebuildsAfterARandomHistory(engine: Engine) throws {
        // PostgreSQL: a database of its own, so that every row in it is this test's.
        let world = try SellerWorld(engine, shipped: true)
        var all: [StoreTransaction] = []
        var accounts: [[StoreTransaction]] = []
        var played = Played()
        for index in 0..<3 {
            let service = try world.open(try world.seller.directory.create(now: 1).accountID)
            // The daily word drawn by the store itself (a server's is drawn by its own secret).
            service.drawsOwnDailyWord = true
            let did = Self.history(service, seed: 61 + UInt64(index), steps: 120)
            played.games.formUnion(did.games)
            // On PostgreSQL, a fold between accounts: some hint rows folded, the later ones not.
            try world.seller.ledgers?.foldPlayerNumbers(now: 1_000_000 * Int64(index + 1))
            played.spent += did.spent
            accounts.append(try service.transactions())
            all += accounts.last!
        }
        #expect(try world.salesAggregateDifferences() == [], "the triggers' numbers are a rebuild's")
        #expect(all.contains { $0.revocationDate != nil } && all.contains { $0.expiresDate != nil } && all.contains { $0.isTrial }, "the history has refunds, periods and trials")
        let days = try world.salesDays()
        let kept = Self.keptSums(days), person = Self.personsSums(all)
        #expect(kept.revenue == person.revenue && kept.refunds == person.refunds, "kept \(kept), summed by hand \(person)")
        #expect(days.rows.reduce(0) { $0 + $1.liveChange } == 0, "every period that began has ended (or ends) on some day")
        // The cohorts, as a person makes them from the three accounts' transactions.
        let cohorts = Self.personsCohorts(accounts)
        #expect(Set(cohorts.map(\.cohort)).count > 1 || cohorts.contains { $0.month > $0.cohort }, "the history spans months: \(cohorts)")
        #expect(Set(days.cohorts) == cohorts, "kept \(days.cohorts.sorted { ($0.cohort, $0.month) < ($1.cohort, $1.month) })")
        // The players' numbers: every game served and hint spent, and every hint a purchase credited.
        let players = try world.seller.ledgers?.playerDays(firstDay: 0, lastDay: 200_000)
            ?? SQLiteLedgers.playerDays(folder: world.data, firstDay: 0, lastDay: 200_000)
        #expect(played.games.count > 3 && played.spent > 3, "the history played: \(played)")
        #expect(players.map { $0.games + $0.dailyGames }.reduce(0, +) == Int64(played.games.count), "\(players)")
        #expect(players.map(\.hintsSpent).reduce(0, +) == Int64(played.spent), "\(players)")
        #expect(players.map(\.hintsSold).reduce(0, +) > 0 && players.map(\.dailyPlayers).reduce(0, +) > 0, "\(players)")
    }

    /// The sandbox's `store clear` takes an account's history away, its kept numbers with it: a trial
    /// that converted and a renewal, whose facts read the periods before them, leave nothing.
    @Test(arguments: Engine.allCases) func aClearedHistoryTakesItsNumbersAway(engine: Engine) throws {
        let world = try SellerWorld(engine, shipped: true)
        func open() throws -> AccountService { try world.open(try world.seller.directory.create(now: 1).accountID) }
        let (resetting, staying) = (try open(), try open())
        _ = try staying.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1)
        _ = try resetting.buy(ProductID(rawValue: "com.hangmanpacks.pass.monthly")!, quantity: 1)
        _ = try resetting.advanceClock(by: StoreDuration(70, .day))
        let periods = try resetting.transactions().filter { $0.expiresDate != nil }
        #expect(periods.count >= 3 && periods.contains { $0.isTrial }, "a trial and two paid periods: \(periods)")
        try resetting.clear()
        #expect(try world.salesAggregateDifferences() == [], "nothing of the reset account is left in the kept numbers")
        let days = try world.salesDays()
        #expect(days.rows.allSatisfy { $0.conversions == 0 && $0.mrrRenewedFrom == 0 && $0.liveChange == 0 } && days.rows.map(\.charged).reduce(0, +) == 1, "\(days.rows)")
    }

    /// The players' numbers follow a grant recorded after its hints were credited (a purchase cut
    /// short between them, finished by a retry) and one let go, and a cleared history, on both engines.
    @Test(arguments: Engine.allCases) func thePlayersNumbersFollowGrantsAndClears(engine: Engine) throws {
        let world = try SellerWorld(engine, shipped: true)
        let account = try world.seller.directory.create(now: 1).accountID
        let service = try world.open(account)
        service.drawsOwnDailyWord = true
        let bought = try #require(try service.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1).purchasedTransaction)
        _ = try service.spendHint(idempotencyKey: "s1")
        _ = try service.startDaily(language: nil, lives: nil)
        // On PostgreSQL the hint rows are folded into the kept numbers once settled: two folds a
        // settle time apart take them, so that what follows changes folded rows.
        if let ledgers = world.seller.ledgers {
            try ledgers.foldPlayerNumbers(now: 1_000_000)
            try ledgers.foldPlayerNumbers(now: 1_000_000 + PlayerAggregates.settle)
        }
        func sums() throws -> PlayerDay {
            let days = try world.seller.ledgers?.playerDays(firstDay: 0, lastDay: 200_000) ?? SQLiteLedgers.playerDays(folder: world.data, firstDay: 0, lastDay: 200_000)
            #expect(try world.salesAggregateDifferences() == [], "the triggers' numbers are a rebuild's")
            return PlayerDay.merged(days.map { var day = $0; day.day = 0; return day }).first ?? PlayerDay(day: 0)
        }
        #expect(try sums() == PlayerDay(day: 0, dailyGames: 1, dailyPlayers: 1, hintsSold: 10, hintsSpent: 1))
        try world.execute(
            "INSERT INTO grants ({account}transaction_id, reason, granted_by, granted_date) VALUES ({id}'\(bought.id.rawValue)', 'a late record', 'cli:ops', 5)",
            account: account)
        #expect(try sums().hintsSold == 0, "a grant's hints were given, not sold")
        try world.execute("DELETE FROM grants", account: account)
        #expect(try sums().hintsSold == 10)
        try service.clear()
        #expect(try sums() == PlayerDay(day: 0), "nothing of a cleared history is left")
    }

    @Test func aRebuildMendsNumbersThatWentWrong() throws {
        let directory = try TemporaryDirectory()
        let catalog = try Catalog.load(folder: StoreFixture.shippedPacks)
        let clock = SteppingClock()
        let folder = directory.path + "/accounts/00000000000000a1"
        let service = try AccountService(catalog: catalog, packsFolder: StoreFixture.shippedPacks, accountFolder: folder, clock: clock.clock)
        Self.history(service, seed: 7, steps: 40)
        let data = directory.path
        let before = try SQLiteLedgers.salesDays(folder: data, firstDay: 0, lastDay: 100_000, storefront: nil)
        try Database(path: folder + "/" + AccountService.databaseName).execute("UPDATE sales_days SET revenue = revenue + 1; UPDATE customer_months SET refunds = refunds + 1")
        let found = try SQLiteLedgers.salesAggregateDifferences(folder: data)
        #expect(found.contains { $0.contains(" customer_months ") } && found.count > 2, "a check finds the damage in both tables: \(found)")
        try SQLiteLedgers.rebuildSalesAggregates(folder: data)
        #expect(try SQLiteLedgers.salesAggregateDifferences(folder: data) == [])
        #expect(try SQLiteLedgers.salesDays(folder: data, firstDay: 0, lastDay: 100_000, storefront: nil) == before)
    }
}
