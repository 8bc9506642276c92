import Foundation
import PackServer
import PackServiceClient
import Seller
import SystemCalls
import Testing
import TestSupport

private let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
private let hard = ProductID(rawValue: "com.hangmanpacks.words.hard")!

/// Offline, a pass's packs play from the last signed statement until the subscription's end
/// (its grace period's end while the statement said so), on this device's clock, never after.
@Suite struct OfflinePassTests {
    private func offline(_ client: HTTPPackService, folder: String, at now: Int64) throws -> OfflinePackService {
        try #require(OfflinePackService(
            credentials: client.credentials, folder: folder, reason: ServiceError(.unavailable, "the server is gone"), clock: SystemCalls.Clock { now }))
    }

    @Test func aTrialPlaysOfflineUntilItsEndAndNotAfter() async throws {
        let running = try RunningServer(environment: .sandbox)
        let folder = running.directory.file("account")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let client = try await running.newClient(statePath: folder + "/catalog-version")
        _ = try await client.fetchCatalog()
        _ = try await client.buy(monthly, quantity: 1)
        let trialEnds = try #require(try await client.subscriptions().first?.expiresDate)
        _ = try await client.statement()
        #expect(try offline(client, folder: folder, at: trialEnds - 60_000).entitlements().contains { $0.productID == hard && $0.isActive })
        #expect(try offline(client, folder: folder, at: trialEnds - 60_000).restore().contains { $0.productID == hard })
        let after = try offline(client, folder: folder, at: trialEnds + 1).entitlements().first { $0.productID == hard }
        #expect(after?.isActive == false && after?.revokedDate == trialEnds)
    }

    @Test func aGracePeriodPlaysOfflineUntilTheGraceEnds() async throws {
        let running = try RunningServer(environment: .sandbox)
        let folder = running.directory.file("account")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let client = try await running.newClient(statePath: folder + "/catalog-version")
        _ = try await client.fetchCatalog()
        _ = try await client.buy(monthly, quantity: 1)
        try await client.setControls(StoreControls(failRenewals: true))
        let storeNow = try await client.advanceClock(by: StoreDuration(1, .week))
        let status = try #require(try await client.subscriptions().first)
        #expect(status.state == .gracePeriod)
        let graceEnds = try #require(status.gracePeriodExpiresDate)
        let statement = try await client.statement()
        // The statement's expiry is on the store's clock, a week ahead of this device's.
        let lead = try #require(statement.storeTime) - statement.issued
        #expect(lead >= 7 * 86_400_000 - 60_000 && storeNow >= statement.issued)
        let deviceAtGraceEnd = graceEnds - lead
        #expect(try offline(client, folder: folder, at: deviceAtGraceEnd - 60_000).entitlements().contains { $0.productID == hard && $0.isActive })
        #expect(try offline(client, folder: folder, at: deviceAtGraceEnd + 60_000).entitlements().contains { $0.productID == hard && !$0.isActive })
    }
}
