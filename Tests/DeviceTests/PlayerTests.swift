import Device
import Foundation
import HTTPServer
import PackServer
import PackServiceClient
import Seller
import Testing
import WordPacks

/// Where a test's service runs: in-process, or behind a real `PackServer` on a free port, spoken
/// to over HTTP.
enum ServiceKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case embedded, server
    var testDescription: String { rawValue }
}

/// The player's session: purchases that end elsewhere (approval, resolution, a crash) are
/// installed by the next start; what the player removed stays removed; states come from one rule.
@Suite struct PlayerTests {
    static let base = FixturePack(id: "com.example.words.base", version: "1.0", name: "Base Words", lists: [("Animals", ["cat", "dog", "emu"])])
    static let fruit = FixturePack(id: "com.example.words.fruit", version: "1.0", name: "Fruit", lists: [("Fruit", ["apple", "pear", "plum"])])

    /// A fresh account and device; each call to `session()` is one command's session.
    final class World {
        let scratch: DeviceScratch
        let packs: String
        let kind: ServiceKind
        private var http: HTTPServer?
        private var credentials: ServiceCredentials?

        init(_ kind: ServiceKind = .embedded) async throws {
            scratch = try DeviceScratch()
            packs = try scratch.packsFolder("packs", base: [PlayerTests.base], paid: [PlayerTests.fruit])
            self.kind = kind
            if kind == .server {
                let server = try PackServer(PackServerConfiguration(
                    dataFolder: scratch.path + "/server", packsFolder: packs, environment: .sandbox, testControls: true))
                let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
                self.http = http
                credentials = try await HTTPPackService.createAccount(at: http.url)
            }
        }

        deinit { http?.stop() }

        /// The embedded service on this world's account (for the embedded kind only).
        func embedded(crash: @escaping @Sendable (CrashPoint) -> Void = { _ in }) throws -> EmbeddedPackService {
            try EmbeddedPackService(catalog: try Catalog.load(folder: packs), packsFolder: packs, accountFolder: scratch.home + "/account", crash: crash)
        }

        /// The service a command would open: in-process, or a client of the server.
        func service() throws -> any PackService & StoreTestControls {
            if let credentials { return HTTPPackService(credentials: credentials) }
            return try embedded()
        }

        /// Opens a session as a command does: recovery, then the player's start.
        func session() async throws -> (Player, Player.StartReport) {
            let service = try service()
            _ = try await service.recoverUnfinished()
            let player = try await Player.open(service: service, device: try DeviceDatabase(folder: scratch.home + "/device"))
            return (player, try await player.start())
        }

        func state(_ player: Player, _ pack: FixturePack) async throws -> PackState? {
            try await player.packs().first { $0.productID == pack.productID }?.state
        }
    }

    @Test(arguments: ServiceKind.allCases)
    func firstStartInstallsTheBasePacksOnly(_ kind: ServiceKind) async throws {
        let world = try await World(kind)
        let (player, report) = try await world.session()
        #expect(report.basePacks == [Self.base.productID])
        #expect(report.delivered.isEmpty)
        #expect(try await world.state(player, Self.base) == .installed)
        #expect(try await world.state(player, Self.fruit) == .locked)
    }

    @Test(arguments: ServiceKind.allCases)
    func buyIsPurchaseThenInstall(_ kind: ServiceKind) async throws {
        let world = try await World(kind)
        let (player, _) = try await world.session()
        let result = try await player.buy(Self.fruit.productID)
        guard case .purchased(_, let installed) = result else {
            Issue.record("expected a purchase, got \(result)")
            return
        }
        #expect(installed == .installed(ContentVersion("1.0")!))
        #expect(try await world.state(player, Self.fruit) == .installed)
        #expect(try await player.playablePacks([Self.fruit.productID]).map(\.productID) == [Self.fruit.productID])
    }

    @Test(arguments: ServiceKind.allCases)
    func approvedAskToBuyIsInstalledByTheNextStart(_ kind: ServiceKind) async throws {
        let world = try await World(kind)
        let (player, _) = try await world.session()
        try await world.service().setControls(StoreControls(askToBuy: true))
        guard case .deferred(let transaction) = try await player.buy(Self.fruit.productID) else {
            Issue.record("ask to buy did not defer the purchase")
            return
        }
        #expect(try await world.state(player, Self.fruit) == .locked)
        _ = try await world.service().approve(transaction.id)  // a parent, elsewhere

        let (next, report) = try await world.session()
        #expect(report.delivered == [Self.fruit.productID])
        #expect(try await world.state(next, Self.fruit) == .installed)
        let (third, again) = try await world.session()
        #expect(again.delivered.isEmpty)  // once
        #expect(try await world.state(third, Self.fruit) == .installed)
    }

    @Test(arguments: ServiceKind.allCases)
    func resolvedInterruptionIsInstalledByTheNextStart(_ kind: ServiceKind) async throws {
        let world = try await World(kind)
        let (player, _) = try await world.session()
        try await world.service().setControls(StoreControls(interruptPurchases: true))
        guard case .interrupted(let transaction) = try await player.buy(Self.fruit.productID) else {
            Issue.record("the purchase was not interrupted")
            return
        }
        _ = try await world.service().resolve(transaction.id)
        let (next, report) = try await world.session()
        #expect(report.delivered == [Self.fruit.productID])
        #expect(try await next.playablePacks([Self.fruit.productID]).count == 1)
    }

    @Test func purchaseCutShortAfterTheChargeIsInstalledByTheNextStart() async throws {
        let world = try await World()
        _ = try await world.session()
        // The buyer's thread dies right after the charge, as a power cut would end the process.
        let packs = world.packs, account = world.scratch.home + "/account"
        let thread = Thread {
            let dying = try? EmbeddedPackService(catalog: try Catalog.load(folder: packs), packsFolder: packs, accountFolder: account) { point in
                if point == .afterCharge { Thread.exit() }
            }
            _ = try? dying?.buy(Self.fruit.productID, quantity: 1)
        }
        thread.start()
        while !thread.isFinished { usleep(1_000) }
        let (next, report) = try await world.session()
        #expect(report.delivered == [Self.fruit.productID])
        #expect(try await world.state(next, Self.fruit) == .installed)
        #expect(try await next.service.transactions().count == 1)
    }

    @Test(arguments: ServiceKind.allCases)
    func uninstalledPackIsNotBroughtBackUnasked(_ kind: ServiceKind) async throws {
        let world = try await World(kind)
        let (player, _) = try await world.session()
        _ = try await player.buy(Self.fruit.productID)
        #expect(try player.device.uninstall(Self.fruit.productID))
        let (next, report) = try await world.session()
        #expect(report.delivered.isEmpty)
        #expect(try await world.state(next, Self.fruit) == .purchasedNotInstalled)
        await #expect(throws: PlayerError.self) { try await next.playablePacks([Self.fruit.productID]) }
    }

    @Test(arguments: ServiceKind.allCases)
    func deletedDeviceGetsOwnedPacksBackThroughRestoreOnly(_ kind: ServiceKind) async throws {
        let world = try await World(kind)
        let (player, _) = try await world.session()
        _ = try await player.buy(Self.fruit.productID)
        try DeviceDatabase.erase(folder: world.scratch.home + "/device")

        let (fresh, report) = try await world.session()
        #expect(report.delivered.isEmpty)
        #expect(try await world.state(fresh, Self.fruit) == .purchasedNotInstalled)
        let restored = try await fresh.restore()
        #expect(restored.restored.map(\.entitlement.productID) == [Self.fruit.productID])
        #expect(try await world.state(fresh, Self.fruit) == .installed)
    }

    @Test(arguments: ServiceKind.allCases)
    func refundedPackIsRevokedAndNotPlayable(_ kind: ServiceKind) async throws {
        let world = try await World(kind)
        let (player, _) = try await world.session()
        guard case .purchased(let transaction, _) = try await player.buy(Self.fruit.productID) else {
            Issue.record("no purchase")
            return
        }
        _ = try await world.service().refund(transaction.id)
        #expect(try await world.state(player, Self.fruit) == .revoked)
        #expect(try await player.playablePacks().map(\.productID) == [Self.base.productID])
        do {
            _ = try await player.playablePacks([Self.fruit.productID])
            Issue.record("a refunded pack was playable")
        } catch {
            #expect(error.description.contains("revoked (refunded)"))
        }
    }

    @Test(arguments: [
        // isBase, installed, available, owned (nil: never bought), refunded, expected
        (true, nil, "1.0", false, false, PackState.notInstalled),
        (true, "1.0", "1.0", false, false, .installed),
        (true, "1.0", "1.1", false, false, .updateAvailable),
        (false, nil, "1.0", false, false, .locked),
        (false, nil, "1.0", true, false, .purchasedNotInstalled),
        (false, "1.0", "1.2", true, false, .updateAvailable),
        (false, "1.0", "1.0", true, true, .revoked),
        (false, nil, "1.0", true, true, .revoked),
    ] as [(Bool, String?, String, Bool, Bool, PackState)])
    func oneRuleDecidesEveryState(_ isBase: Bool, _ installed: String?, _ available: String, _ owned: Bool, _ refunded: Bool, _ expected: PackState) async throws {
        let world = try await World()
        let (player, _) = try await world.session()
        let pack = isBase ? Self.base : Self.fruit
        if !isBase, owned {
            guard case .purchased(let transaction, _) = try await player.buy(pack.productID) else { throw PlayerError.device(DeviceError(.storage, "no purchase")) }
            if refunded { _ = try await world.service().refund(transaction.id) }
        }
        if installed == nil { _ = try player.device.uninstall(pack.productID) }
        guard available != "1.0" else {
            #expect(try await world.state(player, pack) == expected)
            return
        }
        // A newer version in the catalog: rewrite the packs folder with it, look from a new session.
        var newer = pack
        newer.version = available
        _ = try world.scratch.packsFolder("packs", base: [isBase ? newer : Self.base], paid: [isBase ? Self.fruit : newer])
        let (next, _) = try await world.session()
        #expect(try await world.state(next, pack) == expected)
    }
}
