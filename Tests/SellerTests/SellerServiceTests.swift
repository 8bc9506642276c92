import Foundation
import Seller
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
}
