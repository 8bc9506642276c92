import Foundation
import PostgreSQL
import SQLite
import Store
import Testing
import TestSupport

/// The money rules live in each engine's schema, not only in the code: an operator's SQL, or a
/// bug, cannot break them. The same rules, checked the same way in both dialects.
@Suite struct LedgerRulesTests {
    /// Runs `sql` straight against the account's database; the error's text, or `nil` when it ran.
    private func refusal(_ account: StoreAccount, sqlite: String, postgres: String) throws -> String? {
        do {
            if account.engine == .postgresql {
                try account.postgres().execute(postgres, [account.accountID])
            } else {
                try account.database().execute(sqlite)
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: Engine.allCases) func theHintLedgerIsAppendOnly(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        _ = try account.service().buy(StoreFixture.hints10, quantity: 1)
        let refused = try refusal(
            account, sqlite: "UPDATE hint_ledger SET amount = 1000", postgres: "UPDATE hint_ledger SET amount = 1000 WHERE account_id = $1")
        #expect(refused?.contains("append-only") == true, "\(refused ?? "the update ran")")
        #expect(try account.service().hintBalance() == 10)
    }

    @Test(arguments: Engine.allCases) func theBalanceNeverGoesBelowZero(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        _ = try account.service().buy(StoreFixture.hints10, quantity: 1)
        let refused = try refusal(
            account,
            sqlite: "INSERT INTO hint_ledger (entry_key, amount, reason, balance_after, created_date) VALUES ('x', -11, 'spend', -1, 0)",
            postgres: "INSERT INTO hint_ledger (account_id, entry_key, amount, reason, balance_after, created_date) VALUES ($1, 'x', -11, 'spend', -1, 0)")
        #expect(refused != nil)
        #expect(try account.ledgerRows().allSatisfy { $0.balanceAfter >= 0 })
    }

    @Test(arguments: Engine.allCases) func onePackHasOneLivePurchase(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let bought = try #require(try account.service().buy(StoreFixture.animals, quantity: 1).purchasedTransaction)
        let refused = try refusal(
            account,
            sqlite: "INSERT INTO transactions (id, product_id, consumable, quantity, state, purchase_date, updated_date) VALUES ('00000000000000f1', '\(StoreFixture.animals)', 0, 1, 'purchased', 0, 0)",
            postgres: "INSERT INTO transactions (account_id, id, product_id, consumable, quantity, state, purchase_date, updated_date) VALUES ($1, '00000000000000f1', '\(StoreFixture.animals)', 0, 1, 'purchased', 0, 0)")
        #expect(refused != nil, "a second live purchase of \(bought.productID) was accepted")
    }

    @Test(arguments: Engine.allCases) func anIdempotencyKeyMakesOneTransaction(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        _ = try account.service().buy(StoreFixture.hints10, quantity: 1, requestKey: "key-1")
        let refused = try refusal(
            account,
            sqlite: "INSERT INTO transactions (id, product_id, consumable, quantity, state, purchase_date, updated_date, request_key) VALUES ('00000000000000f2', 'x', 1, 1, 'failed', 0, 0, 'key-1')",
            postgres: "INSERT INTO transactions (account_id, id, product_id, consumable, quantity, state, purchase_date, updated_date, request_key) VALUES ($1, '00000000000000f2', 'x', 1, 1, 'failed', 0, 0, 'key-1')")
        #expect(refused != nil)
    }

    @Test func bothEnginesHaveTheSameNamedMigrations() throws {
        let account = try StoreAccount(engine: .sqlite)
        _ = try account.service()
        let sqlite = try account.database().query("SELECT name FROM schema_migrations ORDER BY rowid").map { try $0.string(0) }
        #expect(sqlite == PostgreSQLLedgers.migrationNames)
        #expect(sqlite.count == 3)
    }

    @Test func aLedgerDatabaseThatIsNotThereIsUnavailable() throws {
        let folder = try TemporaryDirectory()
        let error = storeError { () throws(StoreError) in
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
