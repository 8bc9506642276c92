import Foundation
import SQLite
import Seller
import Synchronization
import Testing
import WordPacks

@Suite struct HintTests {
    /// `"9"` for a spend that left 9, `"9 again"` for a retry that took nothing.
    private func summary(_ spend: HintSpend) -> String { "\(spend.balance)\(spend.wasAlreadySpent ? " again" : "")" }

    @Test(arguments: Engine.allCases) func spendingTakesOneHint(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        _ = try service.buy(StoreFixture.hints10, quantity: 1)
        #expect(summary(try service.spendHint(idempotencyKey: "game-1-hint-1")) == "9")
        #expect(summary(try service.spendHint(idempotencyKey: "game-1-hint-2")) == "8")
        #expect(try account.service().hintBalance() == 8)
    }

    @Test(arguments: Engine.allCases) func theSameKeySpendsOnce(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        _ = try service.buy(StoreFixture.hints10, quantity: 1)
        #expect(summary(try service.spendHint(idempotencyKey: "retry-me")) == "9")
        #expect(summary(try service.spendHint(idempotencyKey: "retry-me")) == "9 again")
        // From another process, too, and after other spends.
        #expect(summary(try service.spendHint(idempotencyKey: "other")) == "8")
        #expect(summary(try account.service().spendHint(idempotencyKey: "retry-me")) == "8 again")
        #expect(try account.ledgerRows().map(\.amount) == [10, -1, -1])
    }

    @Test(arguments: Engine.allCases) func aSpentKeyIsStillSpentWhenTheBalanceIsZero(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        _ = try service.buy(StoreFixture.hints10, quantity: 1)
        for index in 0..<10 { _ = try service.spendHint(idempotencyKey: "k\(index)") }
        // A retry of a spend that succeeded is not "not enough hints".
        #expect(summary(try service.spendHint(idempotencyKey: "k9")) == "0 again")
    }

    @Test(arguments: Engine.allCases) func noHintsIsNotEnoughHints(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let error = storeError { () throws(ServiceError) in try service.spendHint(idempotencyKey: "first") }
        #expect(error?.kind == .notEnoughHints)
        // The message says what to buy: a product of this catalog.
        #expect(error?.message.contains("hangman buy ") == true, "\(error?.message ?? "")")
        #expect(try service.hintBalance() == 0)
        #expect(try account.ledgerRows().isEmpty)
    }

    @Test(arguments: Engine.allCases) func notEnoughHintsNamesAProductTheCatalogSells(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        let message = storeError { () throws(ServiceError) in try service.spendHint(idempotencyKey: "first") }?.message ?? ""
        let named = account.catalog.products.filter(\.isConsumable).map(\.id.rawValue)
        #expect(named.contains { message.contains("hangman buy \($0)") }, "'\(message)' names none of \(named)")
    }

    @Test(arguments: Engine.allCases) func theLastHintThenNone(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        _ = try service.buy(StoreFixture.hints10, quantity: 1)
        for index in 0..<10 {
            #expect(try service.spendHint(idempotencyKey: "k\(index)").balance == 9 - index)
        }
        #expect(storeError { () throws(ServiceError) in try service.spendHint(idempotencyKey: "k10") }?.kind == .notEnoughHints)
        #expect(try service.hintBalance() == 0)
    }

    @Test(arguments: ["", String(repeating: "k", count: 201)])
    func badKeysAreRefused(_ key: String) throws {
        let account = try StoreAccount()
        let service = try account.service()
        _ = try service.buy(StoreFixture.hints10, quantity: 1)
        #expect(storeError { () throws(ServiceError) in try service.spendHint(idempotencyKey: key) }?.kind == .invalidRequest)
        #expect(try service.hintBalance() == 10)
    }

    @Test func theLedgerIsAppendOnlyAndNeverNegative() throws {
        let account = try StoreAccount()
        _ = try account.service().buy(StoreFixture.hints10, quantity: 1)
        let db = try account.database()
        // Each refused by its own rule: the append-only trigger, then the CHECK on the balance.
        let update = #expect(throws: SQLiteError.self) { try db.execute("UPDATE hint_ledger SET amount = 1000") }
        #expect(update?.code == .constraintTrigger)
        let negative = #expect(throws: SQLiteError.self) {
            try db.execute("INSERT INTO hint_ledger (entry_key, amount, reason, balance_after, created_date) VALUES ('x', -11, 'spend', -1, 0)")
        }
        #expect(negative?.code == .constraintCheck)
        #expect(try account.service().hintBalance() == 10)
    }

    @Test(arguments: Engine.allCases) func concurrentSpendersFromManyConnectionsLoseNothing(engine: Engine) throws {
        // 8 threads, each with its own service (its own database connection, as a process has),
        // each spending 4 hints under distinct keys from a balance of 20: demand 32 > supply 20.
        let account = try StoreAccount(engine: engine)
        let setup = try account.service()
        _ = try setup.buy(StoreFixture.hints10, quantity: 2)
        let open = account.opener()
        let results = Mutex<[String]>([])
        let group = DispatchGroup()
        for worker in 0..<8 {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                guard let service = try? open() else {
                    results.withLock { $0.append("cannot open") }
                    return
                }
                for spend in 0..<4 {
                    let error = storeError { () throws(ServiceError) in try service.spendHint(idempotencyKey: "w\(worker)-s\(spend)") }
                    let outcome = error?.kind.rawValue ?? "spent"
                    results.withLock { $0.append(outcome) }
                }
            }
            thread.start()
        }
        group.wait()
        let outcomes = results.withLock { $0 }
        #expect(outcomes.count == 32)
        #expect(outcomes.filter { $0 == "spent" }.count == 20)
        #expect(outcomes.filter { $0 == "not-enough-hints" }.count == 12, "\(outcomes)")
        #expect(try setup.hintBalance() == 0)
        let rows = try account.ledgerRows()
        #expect(rows.map(\.amount).reduce(0, +) == 0)
        // Every row's running balance is the sum of the rows up to it, and never negative.
        var running: Int64 = 0
        for row in rows {
            running += row.amount
            #expect(row.balanceAfter == running)
            #expect(row.balanceAfter >= 0)
        }
    }

    @Test(arguments: Engine.allCases) func concurrentRetriesOfOneKeySpendOnce(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        _ = try account.service().buy(StoreFixture.hints10, quantity: 1)
        let open = account.opener()
        let fresh = Mutex(0)
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let spend = try open().spendHint(idempotencyKey: "the-same-key")
                    if !spend.wasAlreadySpent { fresh.withLock { $0 += 1 } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        group.wait()
        // Every retry is answered (none fails while another spends), and one of them spent.
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(fresh.withLock { $0 } == 1)
        #expect(try account.service().hintBalance() == 9)
    }
}
