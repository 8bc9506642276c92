import Foundation
import PackServiceAPI
import PropertyList
import Seller
import Testing

/// A product taken off sale (`catalog remove`) is bought by nobody, and stays whole for those
/// who own it: restore, download, receipts.
@Suite struct RemovedFromSaleTests {
    /// A service on `account`'s ledger, over the catalog as its folder is published now.
    private func reopened(_ account: StoreAccount) throws -> AccountService {
        try AccountService(
            catalog: try Catalog.load(folder: account.packs), packsFolder: account.packs, accountFolder: account.accountFolder,
            clock: account.stepping.clock)
    }

    @Test func anOwnerKeepsEverythingAndNobodyBuysIt() throws {
        let account = try StoreAccount()
        let bought = try #require(try account.service().buy(StoreFixture.animals, quantity: 1).purchasedTransaction)
        let update = try CatalogPublisher(folder: account.packs).remove(StoreFixture.animals)
        let product = try #require(update.catalog.product(StoreFixture.animals))
        #expect(!product.isForSale && product.isAvailable)
        #expect(throws: CatalogError.self) { try CatalogPublisher(folder: account.packs).remove(StoreFixture.animals) }

        let service = try reopened(account)
        // Owned: restored, downloadable, and a valid part of the account's receipts.
        #expect(try service.restore().map(\.productID).contains(StoreFixture.animals))
        #expect(!(try service.packArchive(StoreFixture.animals)).isEmpty)
        let verification = service.verifyReceipt(try service.receipt().bytes, password: nil)
        #expect(verification.status == .valid, "\(verification.message)")
        // Not sold: neither offered nor bought, by the owner or anyone else.
        #expect(try service.offers().offer(StoreFixture.animals) == nil)
        #expect(try service.offers().offer(StoreFixture.fruit) != nil)
        do {
            _ = try service.buy(StoreFixture.animals, quantity: 1)
            Issue.record("bought a product off sale")
        } catch {
            #expect(error.kind == .productUnavailable)
            #expect(error.message.contains("no longer sold; this account owns it: 'hangman restore'"), "\(error.message)")
        }
        let stranger = try StoreAccount()
        let strangerService = try AccountService(
            catalog: update.catalog, packsFolder: account.packs, accountFolder: stranger.accountFolder, clock: stranger.stepping.clock)
        do {
            _ = try strangerService.buy(StoreFixture.animals, quantity: 1)
            Issue.record("a stranger bought a product off sale")
        } catch {
            #expect(error.kind == .productUnavailable && error.message.contains("is no longer sold: see 'hangman products'"), "\(error.message)")
        }
        #expect(throws: ServiceError.self) { try strangerService.packArchive(StoreFixture.animals) }
        #expect(try service.transactions().contains { $0.id == bought.id })
    }

    @Test func theCatalogSaysOffSaleAsABooleanOnly() throws {
        let account = try StoreAccount()
        let path = account.packs + "/" + Catalog.fileName
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(
            of: "<string>com.example.words.animals</string>", with: "<string>com.example.words.animals</string><key>RemovedFromSale</key><string>yes</string>"
        ).write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try Catalog.load(folder: account.packs)
        } throws: { error in
            (error as? CatalogError)?.problems.contains { $0.contains("'RemovedFromSale' must be <true/> or <false/>") } == true
        }
    }
}
