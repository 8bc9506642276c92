import Foundation
@testable import Seller
import Testing
import TestSupport

/// The outbox's rules on both engines: a change writes its notification in its own transaction,
/// one sender holds a due notification at a time, and attempts move it on or finish it.
@Suite struct OutboxTests {
    /// A delivered notification keeps its payload for the retention, then only its record: a
    /// delivery lets go of the payloads delivered longer ago than that.
    @Test(arguments: Engine.allCases) func deliveredPayloadsAreLetGoAfterTheirRetention(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        service.notifies = true
        _ = try service.buy(StoreFixture.hints10, quantity: 1)
        _ = try service.buy(StoreFixture.hints10, quantity: 1)
        let uuids = try service.notificationHistory().map(\.notification.uuid)
        #expect(uuids.count == 2)
        let day: Int64 = 86_400_000
        try service.recordNotificationAttempt(
            uuids[0], NotificationAttempt(date: 1 * day, result: "SUCCESS", httpStatus: 200), delivered: true, nextAttempt: nil, payload: "old.jws",
            payloadRetention: 30 * day)
        #expect(try service.notificationHistory().first?.notification.signedPayload == "old.jws")
        // 31 days later, the second delivery: the first is past its 30 days.
        try service.recordNotificationAttempt(
            uuids[1], NotificationAttempt(date: 32 * day, result: "SUCCESS", httpStatus: 200), delivered: true, nextAttempt: nil, payload: "new.jws",
            payloadRetention: 30 * day)
        let history = try service.notificationHistory()
        #expect(history.map(\.notification.signedPayload) == [nil, "new.jws"], "\(history.map(\.notification.signedPayload))")
        #expect(history.map(\.notification.delivered) == [1 * day, 32 * day] && history.allSatisfy { $0.attempts.count == 1 })
    }

    @Test(arguments: Engine.allCases) func aChangeIsToldOnceAndHeldByOneSender(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let service = try account.service()
        service.notifies = true
        let bought = try #require(try service.buy(StoreFixture.hints10, quantity: 1).purchasedTransaction)
        let history = try service.notificationHistory()
        #expect(history.map(\.notification.type) == ["ONE_TIME_CHARGE"] && history.first?.notification.transaction == bought.id, "\(history)")
        let uuid = try #require(history.first?.notification.uuid)
        #expect(uuid.count == 36 && uuid.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
        // Two senders at once (a second service on the same ledger, as another server): one gets it.
        let other = try account.service()
        let held = try service.claimNotifications(now: 1_000, until: 61_000, limit: 20)
        #expect(held.map(\.uuid) == [uuid])
        #expect(try other.claimNotifications(now: 1_000, until: 61_000, limit: 20).isEmpty, "held by the first")
        // Its holder died: after the lease, another takes it.
        #expect(try other.claimNotifications(now: 61_000, until: 121_000, limit: 20).map(\.uuid) == [uuid])
        // A failed attempt schedules the next; not due before it.
        try other.recordNotificationAttempt(
            uuid, NotificationAttempt(date: 62_000, result: "TIMED_OUT", httpStatus: nil), delivered: false, nextAttempt: 70_000, payload: "first.jws")
        #expect(try service.nextNotificationDue() == 70_000)
        #expect(try service.claimNotifications(now: 69_999, until: 129_999, limit: 20).isEmpty)
        // The retry carries the payload the first attempt sent, kept however the next is recorded.
        #expect(try service.claimNotifications(now: 70_000, until: 130_000, limit: 20).map(\.signedPayload) == ["first.jws"])
        try service.recordNotificationAttempt(
            uuid, NotificationAttempt(date: 70_001, result: "SUCCESS", httpStatus: 200), delivered: true, nextAttempt: nil, payload: "other.jws")
        #expect(try service.notificationHistory().first?.notification.signedPayload == "first.jws")
        #expect(try service.nextNotificationDue() == nil)
        let done = try #require(try other.notificationHistory().first)
        #expect(done.notification.delivered == 70_001 && done.notification.attempts == 2 && done.attempts.map(\.result) == ["TIMED_OUT", "SUCCESS"])
        // A refused change writes nothing: a refund of a transaction the ledger does not have.
        _ = try? service.refund(TransactionID(rawValue: "00000000000000ff")!)
        #expect(try service.notificationHistory().count == 1)
        // Without notifications on, nothing is written.
        let quiet = try account.service()
        _ = try quiet.buy(StoreFixture.hints10, quantity: 1)
        #expect(try quiet.notificationHistory().count == 1)
    }

}
