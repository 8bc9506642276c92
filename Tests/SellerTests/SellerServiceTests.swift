import Foundation
import PackIdentifiers
import PostgreSQL
import Seller
import Signing
import SQLite
import Testing
import TestSupport

/// The seller's door: one listing of the accounts, which says when it cannot list them.
@Suite struct SellerServiceTests {
    @Test func theAccountsAreListedOnceWithOneRule() throws {
        let folder = try TemporaryDirectory()
        let accounts = folder.file("accounts")
        for name in ["bbbbbbbbbbbbbbbb", "aaaaaaaaaaaaaaaa", "notanaccount", ".hidden", "cccccccccccccccc", "AAAAAAAAAAAAAAAA"] {
            try FileManager.default.createDirectory(atPath: accounts + "/" + name, withIntermediateDirectories: true)
            // Every one but c holds a ledger.
            if name != "cccccccccccccccc" { _ = FileManager.default.createFile(atPath: accounts + "/" + name + "/" + AccountService.databaseName, contents: Data()) }
        }
        #expect(try SellerService.ledgerAccounts(inFolder: folder.path) == ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"])
        // No folder: no account. A folder that cannot be listed: an error, not an empty list.
        #expect(try SellerService.ledgerAccounts(inFolder: folder.file("nowhere")).isEmpty)
        let file = try TemporaryDirectory()
        _ = FileManager.default.createFile(atPath: file.file("accounts"), contents: Data("not a folder".utf8))
        #expect(throws: ServiceError.self) { try SellerService.ledgerAccounts(inFolder: file.path) }
    }

    @Test func aServiceOnSQLiteMakesItsFoldersAndListsItsLedgers() throws {
        let folder = try TemporaryDirectory()
        let seller = try SellerService(.sqlite(folder: folder.file("data")))
        #expect(try seller.accountsWithLedgers().isEmpty)
        let made = try seller.directory.create(now: 0)
        #expect(try seller.directory.isOpen(account: made.accountID))
        #expect(SellerService.isAccountID(made.accountID))
    }
    /// A transaction's number is its 64 bits in decimal, both ways; anything else is no number.
    @Test func aTransactionsNumberIsItsSixtyFourBitsInDecimal() {
        let id = TransactionID(rawValue: "00000000000000ff")!
        #expect(id.number == "255" && TransactionID(number: "255") == id)
        #expect(TransactionID(number: "18446744073709551615")?.rawValue == "ffffffffffffffff")
        for bad in ["", "18446744073709551616", "123456789012345678901", "12a", "-1", " 1", "+1", "１２"] {
            #expect(TransactionID(number: bad) == nil, "\(bad)")
        }
        #expect(TransactionID.number(ofRawValue: "00000000000000ff") == "255" && TransactionID.number(ofRawValue: "not an id") == "not an id")
    }

    /// An order id names one transaction: ten characters for every id drawn now, 13 for an older
    /// one, read back in any case; anything else is no order id.
    @Test func anOrderIdNamesItsTransaction() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let id = TransactionID.random(using: &random)
            #expect(id.orderID.utf8.count == 10 && TransactionID(orderID: id.orderID) == id && TransactionID(orderID: id.orderID.lowercased()) == id)
        }
        let first = TransactionID(number: "1000000000000000")!
        #expect(first.orderID == "0000000000" && TransactionID(orderID: "ZZZZZZZZZZ")?.number == "4656158440062975")
        let older = TransactionID(rawValue: "ffffffffffffffff")!
        #expect(older.orderID.utf8.count == 13 && TransactionID(orderID: older.orderID) == older)
        for bad in ["", "MK5TTT", "MK5TTTVWJ-", "ZZZZZZZZZZZZZ", "MK5TTTVWJHX", "MK5TTTVWJ H"] {
            #expect(TransactionID(orderID: bad) == nil, "\(bad)")
        }
    }

    /// Every transaction id is the service's once (issue 57.6): claimed for one account before
    /// its ledger records it, never for a second, and its account found from the id alone.
    @Test(arguments: Engine.allCases) func aTransactionIDIsClaimedOnceAndFindsItsAccount(_ engine: Engine) throws {
        let folder = try TemporaryDirectory()
        let seller = try engine == .sqlite
            ? SellerService(.sqlite(folder: folder.file("data")))
            : SellerService(.postgreSQL(connectionString: try TestPostgreSQL.shared(), connections: 2))
        let first = try seller.directory.create(now: 0).accountID
        let second = try seller.directory.create(now: 0).accountID
        var random = SystemRandomNumberGenerator()
        let id = TransactionID.random(using: &random)
        #expect(id.number.utf8.count == 16 && TransactionID(number: id.number) == id)
        #expect(try seller.account(ofTransaction: id) == nil)
        #expect(try seller.transactionIDClaims(account: first)(id))
        #expect(try seller.transactionIDClaims(account: first)(id), "the same account again")
        #expect(try !seller.transactionIDClaims(account: second)(id), "another account's")
        #expect(try seller.account(ofTransaction: id) == first)
    }

    /// A ledger whose transactions were recorded before ids were claimed has them claimed once,
    /// when the service opens: a backend finds them by their numbers.
    @Test func aLedgerRecordedBeforeIdsWereClaimedIsClaimedWhenTheServiceOpens() throws {
        let store = try StoreAccount()
        let data = store.directory.path + "/data"
        let seller = try SellerService(.sqlite(folder: data))
        let account = try seller.directory.create(now: 0).accountID
        // An account service with no claims, as every one was before.
        let service = try AccountService(catalog: store.catalog, packsFolder: store.packs, accountFolder: data + "/accounts/" + account, clock: store.stepping.clock)
        guard case .purchased(let bought) = try service.buy(StoreFixture.hints10, quantity: 1) else {
            Issue.record("the hints were not bought")
            return
        }
        #expect(try seller.account(ofTransaction: bought.id) == nil)
        try Database(path: data + "/accounts.sqlite").execute("DELETE FROM claimed_ledgers")
        let reopened = try SellerService(.sqlite(folder: data))
        #expect(try reopened.account(ofTransaction: bought.id) == account)
    }
    /// On PostgreSQL the migration that brings the claims claims every transaction already in the
    /// shared database (ledgers made before any server made its accounts' tables included).
    @Test func postgreSQLTransactionsRecordedBeforeIdsWereClaimedAreClaimedByTheMigration() throws {
        let server = try TestPostgreSQL.shared()
        let name = "hangman_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        try PostgreSQL.Connection(connectionString: server).execute("CREATE DATABASE \(name)")  // a fixed shape: no value from outside
        let database = server.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(name)")
        let store = try StoreAccount()
        let account = "00000000000000a1"
        let service = try AccountService(
            catalog: store.catalog, packsFolder: store.packs, ledgers: try PostgreSQLLedgers(connectionString: database, connections: 2), account: account,
            clock: store.stepping.clock, signingKey: try ServiceKey.loadOrCreate(at: store.directory.path + "/key"), environment: .sandbox)
        guard case .purchased(let bought) = try service.buy(StoreFixture.hints10, quantity: 1) else {
            Issue.record("the hints were not bought")
            return
        }
        let seller = try SellerService(.postgreSQL(connectionString: database, connections: 2))
        #expect(try seller.account(ofTransaction: bought.id) == account)
    }
}

/// A product identifier's rule (``ProductID``): two or more dot-separated labels of ASCII
/// letters, digits, `-` and `_`, at most 255 bytes.
@Suite struct ProductIdentifierTests {
    @Test func onlyDottedLabelsOfASCIILettersDigitsDashesAndUnderscoresAreIdentifiers() {
        for good in ["com.hangmanpacks.hints.10", "a.b", "A-1.b_2", String(repeating: "a", count: 253) + ".b"] {
            #expect(ProductID(rawValue: good)?.rawValue == good, "\(good)")
        }
        for bad in ["", "hints", ".a.b", "a.b.", "a..b", "a.b c", "a.b/c", "a.é", "a.b\u{0}", "ａ.b", String(repeating: "a", count: 254) + ".b"] {
            #expect(ProductID(rawValue: bad) == nil, "\(bad)")
        }
    }
}
