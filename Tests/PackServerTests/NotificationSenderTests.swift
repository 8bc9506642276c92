import Foundation
import HTTPServer
import PackServer
import PackServiceAPI
import PackServiceClient
import Synchronization
import Testing
import TestSupport

/// The notification sender sends different customers' notifications side by side: a backend
/// slow to answer one customer's holds back no other customer.
@Suite struct NotificationSenderTests {
    /// A backend that answers the first notification only once a second has arrived (or after
    /// 8 seconds without one), and records whether they overlapped.
    final class SlowBackend: Sendable {
        let arrived = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)

        func handle(_ request: HTTPRequest) -> HTTPResponse {
            let number = arrived.add(1, ordering: .relaxed).newValue
            if number == 1 {
                let deadline = Date().addingTimeInterval(8)
                while arrived.load(ordering: .relaxed) < 2 && Date() < deadline { usleep(5_000) }
                overlapped.store(arrived.load(ordering: .relaxed) >= 2, ordering: .relaxed)
            }
            return .text(200, "ok")
        }
    }

    @Test func aSlowBackendForOneCustomerHoldsBackNoOther() async throws {
        let directory = try TemporaryDirectory()
        let backend = SlowBackend()
        let receiver = try HTTPServer(HTTPServerConfiguration()) { backend.handle($0) }
        defer { receiver.stop() }
        var configuration = PackServerConfiguration(
            dataFolder: directory.file("data"), packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, environment: .sandbox)
        configuration.notificationURL = receiver.url + "/notifications"
        configuration.notificationTimeout = 20
        let server = try PackServer(configuration)
        let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        defer { http.stop() }
        for _ in 0..<2 {
            let player = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: http.url))
            _ = try await player.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1)
        }
        let sent = server.deliverDueNotifications(now: configuration.clock.now())
        #expect(sent == 2, "one notification a customer")
        let overlapped = backend.overlapped.load(ordering: .relaxed)
        #expect(overlapped, "the second customer's notification waited for the first's answer")
    }
}
