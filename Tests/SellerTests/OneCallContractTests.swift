import Foundation
import Signing
@testable import Seller
import Testing
import TestSupport

/// PostgreSQL's one-call functions (a purchase's insert and moves, a delivery, a refund, a spend)
/// are the Swift ledger rules again, in PL/pgSQL, to keep each operation one round trip. This
/// suite keeps them from drifting: the same history is made down both paths (the functions, and
/// the Swift rules over the plain statements) and everything the ledger holds afterwards is
/// compared: outcomes, refusals and their kinds, the hint ledger's amounts, balances and entry keys,
/// every transaction's state, quantity, hints and revocation.
@Suite struct OneCallContractTests {
    /// A fresh PostgreSQL account whose rules run in the database's functions, or in Swift.
    private func service(_ account: StoreAccount, rulesInSwift: Bool) throws -> AccountService {
        let connectionString = try #require(account.connectionString)
        return try AccountService(
            catalog: account.catalog, packsFolder: account.packs,
            ledgers: try PostgreSQLLedgers(connectionString: connectionString, connections: 2, rulesInSwift: rulesInSwift), account: account.accountID,
            clock: account.stepping.clock, signingKey: SigningKey.generate(), environment: .sandbox)
    }

    /// One history, every rule and its refusals, as a list of what each step answered.
    private func history(_ service: AccountService) -> [String] {
        var said: [String] = []
        func step(_ name: String, _ body: () throws -> String) {
            do {
                said.append("\(name): \(try body())")
            } catch let error as ServiceError {
                said.append("\(name): refused \(error.kind.rawValue)")
            } catch {
                said.append("\(name): failed \(error)")
            }
        }
        var hints: TransactionID?
        var pack: TransactionID?
        step("buy hints x2") {
            let outcome = try service.buy(StoreFixture.hints10, quantity: 2, requestKey: "r1")
            hints = outcome.purchasedTransaction?.id
            return "\(outcome.purchasedTransaction?.state.rawValue ?? "?") \(outcome.purchasedTransaction?.hintsCredited ?? -1)"
        }
        step("the same key again") { "\(try service.buy(StoreFixture.hints10, quantity: 2, requestKey: "r1").purchasedTransaction?.id == hints)" }
        step("the same key, another purchase") { "\(try service.buy(StoreFixture.hints10, quantity: 1, requestKey: "r1"))" }
        step("spend k1") { "\(try service.spendHint(idempotencyKey: "k1"))" }
        step("spend k1 again") { "\(try service.spendHint(idempotencyKey: "k1"))" }
        step("spend k2") { "\(try service.spendHint(idempotencyKey: "k2"))" }
        step("buy a pack") {
            let outcome = try service.buy(StoreFixture.animals, quantity: 1)
            pack = outcome.purchasedTransaction?.id
            return outcome.purchasedTransaction?.state.rawValue ?? "\(outcome)"
        }
        step("buy it again") { if case .alreadyOwned = try service.buy(StoreFixture.animals, quantity: 1) { "already owned" } else { "bought twice" } }
        for n in 3...17 { step("spend k\(n)") { "\(try service.spendHint(idempotencyKey: "k\(n)").balance)" } }
        step("refund the hints") {
            guard let hints else { return "no purchase" }
            let refund = try service.refund(hints)
            return "\(refund.hintsTakenBack) taken back, \(refund.transaction.state.rawValue)"
        }
        step("refund them again") { try service.refund(hints ?? TransactionID(rawValue: "00000000000000fe")!).transaction.state.rawValue }
        step("refund the pack") { "\(try service.refund(pack ?? TransactionID(rawValue: "00000000000000fe")!).hintsTakenBack)" }
        step("refund what is no transaction") { "\(try service.refund(TransactionID(rawValue: "00000000000000ff")!).hintsTakenBack)" }
        step("spend with none left") { "\(try service.spendHint(idempotencyKey: "k-last"))" }
        step("balance") { "\(try service.hintBalance())" }
        step("buy the pack again") { try service.buy(StoreFixture.animals, quantity: 1).purchasedTransaction?.state.rawValue ?? "?" }
        return said
    }

    /// What the ledger holds, transaction ids replaced by their order (they are random).
    private func holdings(_ account: StoreAccount, _ service: AccountService) throws -> [String] {
        let transactions = try service.transactions()
        var names: [String: String] = [:]
        for (index, transaction) in transactions.enumerated() { names[transaction.id.rawValue] = "t\(index)" }
        func named(_ text: String) -> String { names.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) } }
        let ledger = try account.ledgerRows().map { "\($0.amount) -> \($0.balanceAfter) \(named($0.key))" }
        let rows = transactions.map { transaction in
            "\(names[transaction.id.rawValue] ?? "?") \(transaction.productID) x\(transaction.quantity) \(transaction.state.rawValue) \(transaction.hintsCredited) hints"
                + (transaction.revocationDate == nil ? "" : " revoked")
        }
        return ledger + rows
    }

    @Test func everyRuleIsTheSameDownBothPaths() throws {
        let inTheDatabase = try StoreAccount(engine: .postgresql), inSwift = try StoreAccount(engine: .postgresql)
        let functions = try service(inTheDatabase, rulesInSwift: false), swift = try service(inSwift, rulesInSwift: true)
        #expect(functions.checksTokensInSpend && !swift.checksTokensInSpend, "the two paths are not two")
        let byFunctions = history(functions), bySwift = history(swift)
        #expect(byFunctions == bySwift)
        #expect(byFunctions.contains("spend with none left: refused not-enough-hints"), "\(byFunctions)")
        #expect(byFunctions.contains("refund what is no transaction: refused unknown-transaction"), "\(byFunctions)")
        #expect(byFunctions.contains { $0.hasPrefix("the same key, another purchase: refused") }, "\(byFunctions)")
        let held = try holdings(inTheDatabase, functions)
        #expect(held == (try holdings(inSwift, swift)))
        #expect(held.contains { $0.hasPrefix("20 -> 20 credit:t0") }, "\(held)")
        #expect(held.contains { $0.contains("spend:k1") }, "\(held)")
    }
}
