import Foundation
import PackServiceClient
import Testing
import TestSupport

/// A token rotated by several requests at once is replaced once: one new live token, the others
/// told the token is no longer live (8 concurrent rotations minted 2 live tokens).
@Suite struct TokenRotationTests {
    @Test(arguments: [StoreBackend.serverOnSQLite, .serverOnPostgreSQL])
    func concurrentRotationsOfOneTokenMakeOne(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let client = try #require(world.service as? HTTPPackService)
        let credentials = client.credentials
        let outcomes = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do {
                        return try await HTTPPackService(credentials: credentials, attempts: 1).rotateToken().token
                    } catch {
                        return nil
                    }
                }
            }
            var made: [String?] = []
            for await outcome in group { made.append(outcome) }
            return made
        }
        let made = outcomes.compactMap { $0 }
        #expect(made.count == 1, "\(outcomes.count - made.count) refused, \(made.count) made")
        var rotated = credentials
        rotated.token = try #require(made.first)
        let live = try await HTTPPackService(credentials: rotated).tokens().filter { $0.revokedDate == nil }
        #expect(live.count == 1, "\(live)")
    }
}
