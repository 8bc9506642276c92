import Device
import Foundation
import HangmanGame
import SQLite
import Seller
import Testing
import TestSupport
import WordPacks

/// A pack service in front of the embedded one that counts downloads and can change their bytes:
/// a tampered mirror, a corrupted transfer.
final class RelayService: PackService {
    let inner: EmbeddedPackService
    let tamper: @Sendable ([UInt8]) -> [UInt8]
    private(set) var downloads = 0

    init(_ inner: EmbeddedPackService, tamper: @escaping @Sendable ([UInt8]) -> [UInt8] = { $0 }) {
        self.inner = inner
        self.tamper = tamper
    }

    var catalog: Catalog { inner.catalog }
    func fetchCatalog() throws(ServiceError) -> Catalog { inner.catalog }
    func recoverUnfinished() throws(ServiceError) -> [StoreTransaction] { try inner.recoverUnfinished() }
    func buy(_ product: ProductID, quantity: Int, options: PurchaseOptions) throws(ServiceError) -> PurchaseOutcome { try inner.buy(product, quantity: quantity, options: options) }
    func consentToPriceIncrease(_ product: ProductID) throws(ServiceError) -> SubscriptionStatus { try inner.consentToPriceIncrease(product) }
    func redeem(offerCode: String) throws(ServiceError) -> PurchaseOutcome { try inner.redeem(offerCode: offerCode) }
    func restore() throws(ServiceError) -> [Entitlement] { try inner.restore() }
    func transactions() throws(ServiceError) -> [StoreTransaction] { try inner.transactions() }
    func entitlements() throws(ServiceError) -> [Entitlement] { try inner.entitlements() }
    func hintBalance() throws(ServiceError) -> Int { try inner.hintBalance() }
    func storefront() throws(ServiceError) -> String { try inner.storefront() }
    func appTransaction() throws(ServiceError) -> AppTransactionRecord { try inner.appTransaction() }
    func offers() throws(ServiceError) -> Offers { try inner.offers() }
    func setStorefront(_ code: String) throws(ServiceError) -> String { try inner.setStorefront(code) }
    func spendHint(idempotencyKey: String) throws(ServiceError) -> HintSpend { try inner.spendHint(idempotencyKey: idempotencyKey) }
    func packArchive(_ product: ProductID) throws(ServiceError) -> [UInt8] {
        downloads += 1
        return tamper(try inner.packArchive(product))
    }
    func receipt() throws(ServiceError) -> Receipt { try inner.receipt() }
    func requestRefund(_ id: TransactionID, reason: RefundReason) throws(ServiceError) -> RefundCase { try inner.requestRefund(id, reason: reason) }
    func refundCase(_ id: TransactionID) throws(ServiceError) -> RefundCase? { try inner.refundCase(id) }
    func subscriptions() throws(ServiceError) -> [SubscriptionStatus] { try inner.subscriptions() }
    func setAutoRenew(_ product: ProductID, on: Bool) throws(ServiceError) -> SubscriptionStatus { try inner.setAutoRenew(product, on: on) }
    func subscriptionChange(to product: ProductID) throws(ServiceError) -> SubscriptionChange { try inner.subscriptionChange(to: product) }
    func verifyReceipt(_ bytes: [UInt8]) -> ReceiptVerification { inner.verifyReceipt(bytes) }
    func verifyReceipt(_ bytes: [UInt8], password: String?) -> ReceiptVerification { inner.verifyReceipt(bytes, password: password) }
}

/// `PackInstaller` with the embedded service: entitlement, the catalog's SHA-256, refunds, atomic updates.
@Suite struct PackInstallerTests {
    static let base = FixturePack(id: "com.example.words.base", version: "1.0", name: "Base Words", lists: [("Animals", ["cat", "dog", "emu"])])
    static let fruit = FixturePack(id: "com.example.words.fruit", version: "1.0", name: "Fruit", lists: [("Fruit", ["apple", "pear", "plum"])])
    static let fruitNew = FixturePack(id: "com.example.words.fruit", version: "1.1", name: "Fruit", lists: [("Fruit", ["mango", "lime", "kiwi", "fig"])])

    /// A service on a fresh account, selling `fruit`, and a device.
    private func world(_ scratch: DeviceScratch, fruit: FixturePack = Self.fruit, folder: String = "packs") throws -> (EmbeddedPackService, DeviceDatabase) {
        let packs = try scratch.packsFolder(folder, base: [Self.base], paid: [fruit])
        let service = try EmbeddedPackService(catalog: try Catalog.load(folder: packs), packsFolder: packs, accountFolder: scratch.home + "/account")
        return (service, try DeviceDatabase(folder: scratch.home + "/device"))
    }

    private func purchase(_ service: some PackService, _ pack: FixturePack) async throws -> StoreTransaction {
        guard case .purchased(let transaction) = try await service.buy(pack.productID, quantity: 1) else {
            Issue.record("the purchase of \(pack.id) did not go through")
            throw DeviceError(.storage, "no purchase")
        }
        return transaction
    }

    @Test func lockedPackIsNotInstalledAndNamesTheBuyCommand() async throws {
        let scratch = try DeviceScratch()
        let (service, device) = try world(scratch)
        let installer = PackInstaller(service: service, catalog: service.catalog, device: device)
        let error = await #expect(throws: DeviceError.self) { try await installer.install(Self.fruit.productID) }
        #expect(error?.kind == .notEntitled)
        #expect(error?.message.contains("run 'hangman buy com.example.words.fruit'") == true)
        #expect(try device.installedPacks().isEmpty)
    }

    @Test func unknownPackIsRefused() async throws {
        let scratch = try DeviceScratch()
        let (service, device) = try world(scratch)
        let error = await #expect(throws: DeviceError.self) {
            try await PackInstaller(service: service, catalog: service.catalog, device: device).install(try #require(ProductID(rawValue: "com.example.words.nope")))
        }
        #expect(error?.kind == .unknownPack)
    }

    @Test func refundedPackIsNoLongerPlayable() async throws {
        let scratch = try DeviceScratch()
        let (service, device) = try world(scratch)
        let installer = PackInstaller(service: service, catalog: service.catalog, device: device)
        #expect(try await installer.installMissingBasePacks() == [Self.base.productID])
        let transaction = try await purchase(service, Self.fruit)
        #expect(try await installer.install(Self.fruit.productID) == .installed(try #require(ContentVersion("1.0"))))
        #expect(try await installer.playablePacks().map(\.productID) == [Self.base.productID, Self.fruit.productID])

        _ = try service.refund(transaction.id)
        let playable = try await installer.playablePacks()
        #expect(playable.map(\.productID) == [Self.base.productID])
        // Still on the device, but no new game gets a word from it.
        #expect(try device.installedPacks().map(\.productID).contains(Self.fruit.productID))
        var generator = SeededGenerator(seed: 4)
        for _ in 0..<100 {
            #expect(try device.randomWord(from: playable, using: &generator)?.pack == Self.base.productID)
        }
        let error = await #expect(throws: DeviceError.self) { try await installer.install(Self.fruit.productID) }
        #expect(error?.kind == .notEntitled)
    }

    enum Tampering: String, CaseIterable, Sendable {
        case oneByteFlipped, byteAppended, anotherValidPack
    }

    @Test(arguments: Tampering.allCases)
    func archiveThatIsNotTheCatalogsIsRefused(_ tampering: Tampering) async throws {
        let scratch = try DeviceScratch()
        let (embedded, device) = try world(scratch)
        let other = try Self.fruitNew.archive()
        let service = RelayService(embedded) { bytes in
            var bytes = bytes
            switch tampering {
            case .oneByteFlipped: bytes[bytes.count / 2] ^= 0x01
            case .byteAppended: bytes.append(0)
            case .anotherValidPack: bytes = other
            }
            return bytes
        }
        _ = try await purchase(service, Self.fruit)
        let expected = try #require(embedded.catalog.product(Self.fruit.productID)?.packSHA256)
        let error = await #expect(throws: DeviceError.self) { try await PackInstaller(service: service, catalog: service.catalog, device: device).install(Self.fruit.productID) }
        #expect(error?.kind == .invalidPack)
        #expect(error?.message.contains("SHA-256") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("the catalog says \(expected)") == true, "\(error?.message ?? "")")
        // Refused on the digest, before the archive was parsed.
        #expect(error?.problems.isEmpty == true)
        #expect(try device.installedPacks().isEmpty)
        let snapshot = try DeviceSnapshot.read(scratch.deviceDatabase)
        #expect(snapshot.totalWords == 0 && snapshot.isConsistent)
    }

    /// The seller replaced an archive without publishing the catalog again, after a purchase:
    /// the catalog still loads (it records digests, it does not compute them), and the installer
    /// refuses the bytes.
    @Test func archiveReplacedAfterPublishingIsRefusedNamingBothDigests() async throws {
        let scratch = try DeviceScratch()
        let packs = try scratch.packsFolder("packs", base: [Self.base], paid: [Self.fruit])
        let path = packs + "/" + Self.fruit.fileName
        let published = try sha256sum(path)
        _ = try await purchase(
            try EmbeddedPackService(catalog: try Catalog.load(folder: packs), packsFolder: packs, accountFolder: scratch.home + "/account"), Self.fruit)
        try Data(try Self.fruitNew.archive()).write(to: URL(fileURLWithPath: path))
        let actual = try sha256sum(path)
        #expect(actual != published)

        let catalog = try Catalog.load(folder: packs)
        #expect(catalog.product(Self.fruit.productID)?.packSHA256 == published)
        let service = try EmbeddedPackService(catalog: catalog, packsFolder: packs, accountFolder: scratch.home + "/account")
        let device = try DeviceDatabase(folder: scratch.home + "/device")
        let error = await #expect(throws: DeviceError.self) { try await PackInstaller(service: service, catalog: service.catalog, device: device).install(Self.fruit.productID) }
        #expect(error?.kind == .invalidPack)
        #expect(error?.message.contains("has SHA-256 \(actual)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("the catalog says \(published)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("hangman catalog update") == true, "\(error?.message ?? "")")
        #expect(try device.installedPacks().isEmpty)
    }

    /// Same digest recorded, another size: refused too (a catalog edited by hand).
    @Test func sizeThatIsNotTheRecordedOneIsRefused() async throws {
        let scratch = try DeviceScratch()
        let packs = try scratch.packsFolder("packs", base: [Self.base], paid: [Self.fruit])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: packs + "/" + Self.fruit.fileName)[.size] as? Int)
        _ = try await purchase(
            try EmbeddedPackService(catalog: try Catalog.load(folder: packs), packsFolder: packs, accountFolder: scratch.home + "/account"), Self.fruit)
        let catalogPath = packs + "/Catalog.plist"
        let text = try String(contentsOfFile: catalogPath, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "<integer>\(size)</integer>", with: "<integer>\(size + 1)</integer>")
        #expect(edited != text)
        try edited.write(toFile: catalogPath, atomically: true, encoding: .utf8)
        let service = try EmbeddedPackService(catalog: try Catalog.load(folder: packs), packsFolder: packs, accountFolder: scratch.home + "/account")
        let device = try DeviceDatabase(folder: scratch.home + "/device")
        let error = await #expect(throws: DeviceError.self) { try await PackInstaller(service: service, catalog: service.catalog, device: device).install(Self.fruit.productID) }
        #expect(error?.kind == .invalidPack)
        #expect(error?.message.contains("(\(size) bytes), but the catalog says") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("(\(size + 1) bytes)") == true, "\(error?.message ?? "")")
        #expect(try device.installedPacks().isEmpty)
    }

    @Test func updateKeepsTheOldWordsReadableUntilItCommits() async throws {
        let scratch = try DeviceScratch()
        let (service, device) = try world(scratch)
        _ = try await purchase(service, Self.fruit)
        _ = try await PackInstaller(service: service, catalog: service.catalog, device: device).install(Self.fruit.productID)
        // The same account, later: the catalog now offers 1.1.
        let (newer, _) = try world(scratch, fruit: Self.fruitNew, folder: "packs-new")
        let reader = try Database(path: scratch.deviceDatabase)
        var seenDuringUpdate: [String] = []
        let outcome = try await PackInstaller(service: newer, catalog: newer.catalog, device: device).install(Self.fruit.productID) { _ in
            let version = (try? reader.string("SELECT content_version FROM packs WHERE product_id = ?", .text(Self.fruit.id))) ?? nil
            let words = (try? reader.query("SELECT word FROM words ORDER BY id").map { try $0.string(0) }) ?? []
            seenDuringUpdate.append("\(version ?? "none"): \(words.joined(separator: " "))")
        }
        #expect(outcome == .updated(from: try #require(ContentVersion("1.0")), to: try #require(ContentVersion("1.1"))))
        #expect(!seenDuringUpdate.isEmpty)
        #expect(Set(seenDuringUpdate) == ["1.0: apple pear plum"])
        #expect(try reader.string("SELECT content_version FROM packs WHERE product_id = ?", .text(Self.fruit.id)) == "1.1")
        #expect(try DeviceSnapshot.read(scratch.deviceDatabase).holds(Self.fruitNew))
    }

    /// "Installing what is installed is a no-op": for a 1,000,000-word pack, downloading and
    /// verifying it again first costs about a second and 130 MB (release build).
    @Test func installingWhatIsInstalledDownloadsNothing() async throws {
        let scratch = try DeviceScratch()
        let (embedded, device) = try world(scratch)
        let service = RelayService(embedded)
        _ = try await purchase(service, Self.fruit)
        let installer = PackInstaller(service: service, catalog: service.catalog, device: device)
        _ = try await installer.install(Self.fruit.productID)
        #expect(service.downloads == 1)
        #expect(try await installer.install(Self.fruit.productID) == .alreadyInstalled(try #require(ContentVersion("1.0"))))
        #expect(service.downloads == 1, "the installed version was downloaded and verified again")
    }

    @Test func olderVersionIsRefusedAndTheNewerStays() async throws {
        let scratch = try DeviceScratch()
        let (older, device) = try world(scratch)
        _ = try await purchase(older, Self.fruit)
        let (newer, _) = try world(scratch, fruit: Self.fruitNew, folder: "packs-new")
        _ = try await PackInstaller(service: newer, catalog: newer.catalog, device: device).install(Self.fruit.productID)
        let error = await #expect(throws: DeviceError.self) { try await PackInstaller(service: older, catalog: older.catalog, device: device).install(Self.fruit.productID) }
        #expect(error?.kind == .olderVersion)
        #expect(try DeviceSnapshot.read(scratch.deviceDatabase).holds(Self.fruitNew))
    }
}
