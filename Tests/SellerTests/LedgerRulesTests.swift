import Foundation
import PostgreSQL
import SQLite
import Seller
import Testing
import TestSupport

/// The money rules live in each engine's schema, not only in the code: an operator's SQL, or a
/// bug, cannot break them. The same rules, checked the same way in both dialects.
@Suite struct LedgerRulesTests {
    /// How a statement run straight against the account's database ended: it ran, or the
    /// database refused it with this code (SQLite's extended result code, PostgreSQL's SQLSTATE).
    enum Outcome: Equatable, CustomStringConvertible {
        case ran
        case refused(String)

        var description: String {
            switch self {
            case .ran: "it ran"
            case .refused(let code): "refused with \(code)"
            }
        }
    }

    /// The rule that must refuse a statement, named in each engine's terms.
    struct Rule {
        var sqlite: SQLiteError.Code
        var postgres: PostgreSQLError.State

        static let check = Rule(sqlite: .constraintCheck, postgres: .checkViolation)
        static let unique = Rule(sqlite: .constraintUnique, postgres: .uniqueViolation)
        /// The append-only trigger: SQLite's RAISE(ABORT) in a trigger, PostgreSQL's RAISE EXCEPTION.
        static let trigger = Rule(sqlite: .constraintTrigger, postgres: .raiseException)

        func outcome(on engine: Engine) -> Outcome {
            .refused(engine == .postgresql ? "SQLSTATE \(postgres.rawValue)" : "SQLite \(sqlite.rawValue)")
        }
    }

    /// Runs the statement for the account's engine straight against its database, as an
    /// operator's SQL would. Any other error than a refusal is thrown.
    private func run(_ account: StoreAccount, sqlite: String, postgres: String) throws -> Outcome {
        do {
            if account.engine == .postgresql {
                try account.postgres().execute(postgres, [account.accountID])
            } else {
                try account.database().execute(sqlite)
            }
            return .ran
        } catch let error as SQLiteError where error.code.primary == .constraint {
            return .refused("SQLite \(error.code.rawValue)")
        } catch let error as PostgreSQLError where error.state.rawValue.hasPrefix("23") || error.state == .raiseException {
            return .refused("SQLSTATE \(error.state.rawValue)")
        }
    }

    @Test(arguments: Engine.allCases) func theHintLedgerIsAppendOnly(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        _ = try account.service().buy(StoreFixture.hints10, quantity: 1)
        let update = try run(
            account, sqlite: "UPDATE hint_ledger SET amount = 1000", postgres: "UPDATE hint_ledger SET amount = 1000 WHERE account_id = $1")
        #expect(update == Rule.trigger.outcome(on: engine), "\(update)")
        // Control: appending a row is what the ledger is for.
        let append = try run(
            account,
            sqlite: "INSERT INTO hint_ledger (entry_key, amount, reason, balance_after, created_date) VALUES ('control', 1, 'purchase', 11, 0)",
            postgres: "INSERT INTO hint_ledger (account_id, entry_key, amount, reason, balance_after, created_date) VALUES ($1, 'control', 1, 'purchase', 11, 0)")
        #expect(append == .ran, "\(append)")
    }

    @Test(arguments: Engine.allCases) func theBalanceNeverGoesBelowZero(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        _ = try account.service().buy(StoreFixture.hints10, quantity: 1)
        func spend(key: String, balanceAfter: Int) throws -> Outcome {
            try run(
                account,
                sqlite: "INSERT INTO hint_ledger (entry_key, amount, reason, balance_after, created_date) VALUES ('\(key)', -11, 'spend', \(balanceAfter), 0)",
                postgres: "INSERT INTO hint_ledger (account_id, entry_key, amount, reason, balance_after, created_date) VALUES ($1, '\(key)', -11, 'spend', \(balanceAfter), 0)")
        }
        let below = try spend(key: "below", balanceAfter: -1)
        #expect(below == Rule.check.outcome(on: engine), "\(below)")
        #expect(try account.ledgerRows().allSatisfy { $0.balanceAfter >= 0 })
        // Control: the same row, at zero, is accepted.
        #expect(try spend(key: "zero", balanceAfter: 0) == .ran)
    }

    @Test(arguments: Engine.allCases) func onePackHasOneLivePurchase(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let bought = try #require(try account.service().buy(StoreFixture.animals, quantity: 1).purchasedTransaction)
        func purchase(id: String, product: String) throws -> Outcome {
            try run(
                account,
                sqlite: "INSERT INTO transactions (id, product_id, consumable, quantity, state, purchase_date, updated_date) VALUES ('\(id)', '\(product)', 0, 1, 'purchased', 0, 0)",
                postgres: "INSERT INTO transactions (account_id, id, product_id, consumable, quantity, state, purchase_date, updated_date) VALUES ($1, '\(id)', '\(product)', 0, 1, 'purchased', 0, 0)")
        }
        let second = try purchase(id: "00000000000000f1", product: bought.productID.rawValue)
        #expect(second == Rule.unique.outcome(on: engine), "a second live purchase of \(bought.productID): \(second)")
        // Control: a live purchase of another pack is accepted.
        #expect(try purchase(id: "00000000000000f3", product: "com.example.words.other") == .ran)
    }

    @Test(arguments: Engine.allCases) func anIdempotencyKeyMakesOneTransaction(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        _ = try account.service().buy(StoreFixture.hints10, quantity: 1, requestKey: "key-1")
        func insert(id: String, key: String) throws -> Outcome {
            try run(
                account,
                sqlite: "INSERT INTO transactions (id, product_id, consumable, quantity, state, purchase_date, updated_date, request_key) VALUES ('\(id)', 'x', 1, 1, 'failed', 0, 0, '\(key)')",
                postgres: "INSERT INTO transactions (account_id, id, product_id, consumable, quantity, state, purchase_date, updated_date, request_key) VALUES ($1, '\(id)', 'x', 1, 1, 'failed', 0, 0, '\(key)')")
        }
        let again = try insert(id: "00000000000000f2", key: "key-1")
        #expect(again == Rule.unique.outcome(on: engine), "\(again)")
        // Control: another key makes another transaction.
        #expect(try insert(id: "00000000000000f4", key: "key-2") == .ran)
    }

    @Test func bothEnginesHaveTheSameNamedMigrations() throws {
        let account = try StoreAccount(engine: .sqlite)
        _ = try account.service()
        let sqlite = try account.database().query("SELECT name FROM schema_migrations ORDER BY rowid").map { try $0.string(0) }
        #expect(sqlite == PostgreSQLLedgers.migrationNames)
        #expect(sqlite.count == 35)
    }

    /// A spend is the same rule on both engines (PostgreSQL's in one call to the database): one
    /// hint per key, a key spent again takes nothing, no hint left refuses a new key but still
    /// answers an old one, and the ledger sums to the balance.
    @Test(arguments: Engine.allCases) func aSpendIsOneRuleOnBothEngines(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        _ = try service.buy(StoreFixture.hints10, quantity: 1)
        #expect(try service.spendHint(idempotencyKey: "a") == HintSpend(balance: 9, wasAlreadySpent: false))
        #expect(try service.spendHint(idempotencyKey: "a") == HintSpend(balance: 9, wasAlreadySpent: true))
        for index in 0..<9 { _ = try service.spendHint(idempotencyKey: "k\(index)") }
        #expect(try service.hintBalance() == 0)
        let refused = storeError { () throws(ServiceError) in _ = try service.spendHint(idempotencyKey: "new") }
        #expect(refused?.kind == .notEnoughHints, "\(String(describing: refused))")
        #expect(try service.spendHint(idempotencyKey: "k8") == HintSpend(balance: 0, wasAlreadySpent: true))
        if engine == .postgresql {
            // The function itself: an account without a ledger is not found, nothing is written.
            let row = try account.postgres().execute("SELECT has_ledger, spent FROM ledger_spend_hint('no-such-account', 'spend:x', 0)", []).rows
            #expect(row == [["f", "f"]])
        }
    }

    @Test func aLedgerDatabaseThatIsNotThereIsUnavailable() throws {
        let folder = try TemporaryDirectory()
        let error = storeError { () throws(ServiceError) in
            try PostgreSQLLedgers(connectionString: "host=\(folder.path) port=5432 user=postgres dbname=postgres connect_timeout=2")
        }
        #expect(error?.kind == .unavailable, "\(String(describing: error))")
    }

    @Test func parametersAreBoundNeverSpliced() throws {
        _ = try PostgreSQLLedgers(connectionString: TestPostgreSQL.shared())  // the schema, whichever test runs first
        let connection = try PostgreSQL.Connection(connectionString: TestPostgreSQL.shared())
        let hostile = "'); DROP TABLE ledgers; --"
        #expect(try connection.execute("SELECT $1::text, $2::text IS NULL", [hostile, nil]).rows == [[hostile, "t"]])
        #expect(try connection.execute("SELECT count(*) FROM ledgers").scalar != nil)
        let failure = #expect(throws: PostgreSQLError.self) { try connection.execute("SELECT * FROM no_such_table") }
        #expect(failure?.state == .undefinedTable)
    }
}
