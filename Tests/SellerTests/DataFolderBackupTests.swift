import Foundation
@testable import Seller
import Synchronization
import Testing
import TestSupport

/// `hangman backup`'s copy of a data folder, taken while purchases run: every purchase
/// acknowledged before the backup began is in the copy, whose ledgers open and whose kept numbers
/// agree with their transactions.
@Suite struct DataFolderBackupTests {
    @Test func aBackupUnderLoadHoldsEveryPurchaseAcknowledgedBeforeIt() throws {
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        let packs = try StoreFixture.makePacksFolder(in: directory)
        let catalog = try Catalog.load(folder: packs)
        let seller = try SellerService(.sqlite(folder: data))
        let accounts = try (0..<3).map { _ in try seller.directory.create(deviceName: nil, now: 1).accountID }
        try Data("a key\n".utf8).write(to: URL(fileURLWithPath: data + "/" + AccountService.keyName))
        let acknowledged = Mutex<[(account: String, id: TransactionID)]>([])
        let stop = Atomic(false)
        let failures = Mutex<[String]>([])
        let buyers = accounts.map { account in
            Thread {
                do {
                    let service = try AccountService(catalog: catalog, packsFolder: packs, accountFolder: data + "/accounts/" + account)
                    while !stop.load(ordering: .relaxed) {
                        if let id = try service.buy(StoreFixture.hints10, quantity: 1).purchasedTransaction?.id {
                            acknowledged.withLock { $0.append((account, id)) }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        for buyer in buyers { buyer.start() }
        defer { stop.store(true, ordering: .relaxed) }
        // Purchases are running: wait (with a deadline) for some to be acknowledged.
        #expect(eventually(within: 30) { acknowledged.withLock { $0.count } >= 30 })
        let before = acknowledged.withLock { $0 }
        let copy = directory.file("backup")
        let summary = try DataFolderBackup.take(data: data, into: copy)
        let after = acknowledged.withLock { $0.count }
        stop.store(true, ordering: .relaxed)
        #expect(failures.withLock { $0 } == [])
        #expect(after > before.count, "purchases went on while the backup ran: \(before.count) then \(after)")
        // The accounts database and three ledgers; the service key and each account folder's own.
        #expect(summary.databases == 4 && summary.files == 4, "\(summary)")
        #expect(!FileManager.default.fileExists(atPath: copy + ".partial-\(ProcessInfo.processInfo.processIdentifier)"))
        // The copy is a data folder: its ledgers open, with every purchase acknowledged before the backup.
        for account in accounts {
            let restored = try AccountService(catalog: catalog, packsFolder: packs, accountFolder: copy + "/accounts/" + account)
            let ids = Set(try restored.transactions().map(\.id))
            let expected = before.filter { $0.account == account }.map(\.id)
            #expect(expected.allSatisfy(ids.contains), "\(account): \(expected.count) acknowledged, \(expected.filter { !ids.contains($0) }.count) missing")
        }
        #expect(try SQLiteLedgers.salesAggregateDifferences(folder: copy) == [])
        #expect(try SellerService(.sqlite(folder: copy)).hasLedger(accounts[0]))
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy + "/" + AccountService.keyName)) == Data("a key\n".utf8))
        // A backup never goes over a folder that is there.
        #expect(throws: ServiceError.self) { try DataFolderBackup.take(data: data, into: copy) }
    }
}
