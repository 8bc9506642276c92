import Foundation
import HTTPServer
import PackServer
import PackServiceClient
import Signing
import Seller
import Testing
import TestSupport

/// Where the store under test runs: in-process, or behind a real server (its ledgers in SQLite
/// files, or in PostgreSQL) spoken to over HTTP. The same contract holds for all three.
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case embedded, serverOnSQLite, serverOnPostgreSQL
    var testDescription: String { rawValue }
}

/// One account on the shipped packs, on a backend.
final class ContractWorld {
    let directory: TemporaryDirectory
    let service: any PackService & StoreTestControls
    /// A new connection to the same account, as another process of the player's would open.
    let open: @Sendable () throws -> any PackService & StoreTestControls
    private let http: HTTPServer?
    static let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path
    /// The servers' shared secret, which a receipt with an auto-renewable subscription needs.
    static let sharedSecret = "contract-shared-secret"

    /// An account on `backend`, selling from the shipped packs or from `packs`.
    init(_ backend: StoreBackend, packs: String = ContractWorld.packs) async throws {
        directory = try TemporaryDirectory()
        switch backend {
        case .embedded:
            http = nil
            let (catalog, folder) = (try Catalog.load(folder: packs), directory.file("account"))
            open = {
                try EmbeddedPackService(
                    catalog: catalog, packsFolder: packs, accountFolder: folder, sharedSecret: SharedSecret(fileContents: Array(Self.sharedSecret.utf8)))
            }
        case .serverOnSQLite, .serverOnPostgreSQL:
            var configuration = PackServerConfiguration(dataFolder: directory.file("data"), packsFolder: packs, environment: .sandbox, testControls: true)
            configuration.sharedSecret = SharedSecret(fileContents: Array(Self.sharedSecret.utf8))
            if backend == .serverOnPostgreSQL {
                configuration.database = .postgreSQL(try FreshDatabase(on: try TestPostgreSQL.shared()).connectionString)
            }
            let server = try PackServer(configuration)
            let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
            self.http = http
            let credentials = try await HTTPPackService.createAccount(at: http.url)
            open = { HTTPPackService(credentials: credentials) }
        }
        service = try open()
    }

    deinit { http?.stop() }
}

/// The store's refusal of `body`, or `nil` when it did what was asked.
func refusal(_ body: () async throws(ServiceError) -> some Any) async -> ServiceError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

private let hints10 = ProductID(rawValue: "com.hangmanpacks.hints.10")!
private let ios = ProductID(rawValue: "com.hangmanpacks.words.ios")!
private let hard = ProductID(rawValue: "com.hangmanpacks.words.hard")!
private let removeAds = ProductID(rawValue: "com.hangmanpacks.removeads")!

/// The store's contract through the `PackService` protocol, against every backend: what StoreKit
/// and its testing switches promise, and the ledger's rules.
@Suite struct StoreContractTests {
    private func purchased(_ outcome: PurchaseOutcome) throws -> StoreTransaction {
        guard case .purchased(let transaction) = outcome else { throw ServiceError(.wrongState, "expected a purchase, got \(outcome)") }
        return transaction
    }

    private func error(_ body: () async throws(ServiceError) -> some Any) async -> ServiceError? {
        await refusal(body)
    }

    /// Who may download an archive is decided once, for every door: a pack the account owns
    /// whose archive has gone from the store's packs folder is unavailable (410 on a server),
    /// never taken for the store's own failure (a server answered 500).
    @Test(arguments: StoreBackend.allCases)
    func anOwnedPackWhoseArchiveIsGoneIsUnavailable(_ backend: StoreBackend) async throws {
        let folder = try TemporaryDirectory()
        let packs = folder.file("Packs")
        try FileManager.default.copyItem(atPath: ContractWorld.packs, toPath: packs)
        let world = try await ContractWorld(backend, packs: packs)
        defer { withExtendedLifetime(world) {} }
        _ = try purchased(try await world.service.buy(ios, quantity: 1))
        #expect(try await world.service.packArchive(ios).count > 0)
        guard case .nonConsumable(let file)? = try Catalog.load(folder: packs).product(ios)?.kind else {
            Issue.record("\(ios) sells no pack")
            return
        }
        try FileManager.default.removeItem(atPath: packs + "/" + file)
        let refused = await error { () async throws(ServiceError) in try await world.service.packArchive(ios) }
        #expect(refused?.kind == .productUnavailable, "\(String(describing: refused))")
        #expect(refused?.message.contains("is unavailable: its pack archive is missing") == true, "\(refused?.message ?? "")")
    }

    @Test(arguments: StoreBackend.allCases)
    func hintsAreCreditedPerUnitAndSpentOncePerKey(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        let bought = try purchased(try await store.buy(hints10, quantity: 3))
        #expect(bought.quantity == 3 && bought.hintsCredited == 30 && bought.isConsumable)
        #expect(try await store.hintBalance() == 30)
        for index in 0..<30 { _ = try await store.spendHint(idempotencyKey: "key-\(index)") }
        #expect(try await store.hintBalance() == 0)
        let replay = try await store.spendHint(idempotencyKey: "key-7")
        #expect(replay.wasAlreadySpent && replay.balance == 0)
        #expect(await error { () async throws(ServiceError) in try await store.spendHint(idempotencyKey: "one-more") }?.kind == .notEnoughHints)
    }

    @Test(arguments: StoreBackend.allCases)
    func aPackIsBoughtOnceAndItsArchiveIsTheCatalogs(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        let catalog = try await store.fetchCatalog()
        #expect(await error { () async throws(ServiceError) in try await store.packArchive(ios) }?.kind == .notEntitled)
        _ = try purchased(try await store.buy(ios, quantity: 1))
        guard case .alreadyOwned(let owned) = try await store.buy(ios, quantity: 1) else { throw ServiceError(.wrongState, "bought twice") }
        #expect(owned.productID == ios && owned.isActive)
        #expect(await error { () async throws(ServiceError) in try await store.buy(hard, quantity: 2) }?.kind == .invalidRequest)
        #expect(SHA256.hash(try await store.packArchive(ios)).hex == catalog.product(ios)?.packSHA256)
        #expect(try await store.transactions().count == 1)
    }

    @Test(arguments: StoreBackend.allCases)
    func failedPurchasesChargeNothing(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        try await store.setControls(StoreControls(failPurchases: true))
        guard case .failed(let failed) = try await store.buy(hints10, quantity: 1) else { throw ServiceError(.wrongState, "not failed") }
        #expect(failed.state == .failed && failed.failureReason != nil)
        #expect(try await store.hintBalance() == 0)
        try await store.reset()
        #expect(try await store.controls() == StoreControls())
        _ = try purchased(try await store.buy(hints10, quantity: 1))
        #expect(try await store.hintBalance() == 10)
    }

    @Test(arguments: StoreBackend.allCases)
    func askToBuyWaitsForApprovalOrDecline(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        try await store.setControls(StoreControls(askToBuy: true))
        guard case .deferred(let waiting) = try await store.buy(ios, quantity: 1) else { throw ServiceError(.wrongState, "not deferred") }
        #expect(try await store.entitlements().isEmpty)
        #expect(await error { () async throws(ServiceError) in try await store.buy(ios, quantity: 1) }?.kind == .purchaseInProgress)
        let approved = try await store.approve(waiting.id)
        #expect(approved.state == .finished || approved.state == .purchased)
        #expect(try await store.entitlements().map(\.productID) == [ios])
        #expect(await error { () async throws(ServiceError) in try await store.approve(waiting.id) }?.kind == .wrongState)
        guard case .deferred(let second) = try await store.buy(hard, quantity: 1) else { throw ServiceError(.wrongState, "not deferred") }
        #expect(try await store.decline(second.id).state == .failed)
        #expect(try await store.entitlements().map(\.productID) == [ios])
    }

    @Test(arguments: StoreBackend.allCases)
    func anInterruptedPurchaseCompletesWhenResolved(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        try await store.setControls(StoreControls(interruptPurchases: true))
        guard case .interrupted(let waiting) = try await store.buy(hints10, quantity: 2) else { throw ServiceError(.wrongState, "not interrupted") }
        #expect(try await store.hintBalance() == 0)
        _ = try await store.resolve(waiting.id)
        #expect(try await store.hintBalance() == 20)
        #expect(await error { () async throws(ServiceError) in try await store.resolve(waiting.id) }?.kind == .wrongState)
    }

    @Test(arguments: StoreBackend.allCases)
    func refundsRevokePacksAndTakeBackWhatIsLeftOfHints(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        let pack = try purchased(try await store.buy(hard, quantity: 1))
        let hints = try purchased(try await store.buy(hints10, quantity: 1))
        for index in 0..<7 { _ = try await store.spendHint(idempotencyKey: "k\(index)") }
        #expect(try await store.refund(pack.id).hintsTakenBack == 0)
        #expect(try await store.entitlements().first { $0.productID == hard }?.isActive == false)
        #expect(try await store.restore().isEmpty)
        #expect(await error { () async throws(ServiceError) in try await store.packArchive(hard) }?.kind == .notEntitled)
        #expect(try await store.refund(hints.id).hintsTakenBack == 3)
        #expect(try await store.hintBalance() == 0)
        #expect(await error { () async throws(ServiceError) in try await store.refund(hints.id) }?.kind == .wrongState)
        // Bought again after a refund: a new transaction, owned again.
        _ = try purchased(try await store.buy(hard, quantity: 1))
        #expect(try await store.restore().map(\.productID) == [hard])
    }

    @Test(arguments: StoreBackend.allCases)
    func restoreListsPacksAndFeaturesNotHints(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        for product in [ios, hints10, removeAds] { _ = try purchased(try await store.buy(product, quantity: 1)) }
        #expect(Set(try await store.restore().map(\.productID)) == [ios, removeAds])
    }

    @Test(arguments: StoreBackend.allCases)
    func theReceiptVerifiesAndAChangedByteDoesNot(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        _ = try purchased(try await store.buy(ios, quantity: 1))
        let receipt = try await store.receipt()
        let verified = await store.verifyReceipt(receipt.bytes)
        #expect(verified.status == .valid, "\(verified.message)")
        #expect(verified.payload?.transactions.map(\.productID) == [ios.rawValue])
        var changed = receipt.bytes
        changed[changed.count / 2] ^= 0x01
        #expect(await store.verifyReceipt(changed).status != .valid)
    }

    @Test(arguments: StoreBackend.allCases)
    func unknownProductsAndTransactionsAreNamed(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        let unknown = ProductID(rawValue: "com.hangmanpacks.words.nope")!
        #expect(await error { () async throws(ServiceError) in try await store.buy(unknown, quantity: 1) }?.kind == .unknownProduct)
        let nobody = TransactionID(rawValue: "0123456789abcdef")!
        #expect(await error { () async throws(ServiceError) in try await store.approve(nobody) }?.kind == .unknownTransaction)
        #expect(await error { () async throws(ServiceError) in try await store.refund(nobody) }?.kind == .unknownTransaction)
    }

    @Test(arguments: StoreBackend.allCases)
    func clearEmptiesTheHistory(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        _ = try purchased(try await store.buy(hints10, quantity: 1))
        _ = try purchased(try await store.buy(ios, quantity: 1))
        try await store.clear()
        #expect(try await store.transactions().isEmpty)
        #expect(try await store.entitlements().isEmpty)
        #expect(try await store.hintBalance() == 0)
    }

    @Test(arguments: StoreBackend.allCases)
    func concurrentSpendersNeverSpendMoreThanTheBalance(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        _ = try purchased(try await store.buy(hints10, quantity: 1))
        let open = world.open
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    do {
                        _ = try await open().spendHint(idempotencyKey: "racer-\(index)")
                        return true
                    } catch {
                        return false
                    }
                }
            }
            var spent: [Bool] = []
            for await result in group { spent.append(result) }
            return spent
        }
        #expect(results.filter { $0 }.count == 10)
        #expect(try await store.hintBalance() == 0)
    }
}
