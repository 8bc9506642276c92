import Foundation
@testable import Seller
import Testing
import TestSupport

/// Support's actions on a customer (``SellerService/act(_:on:reason:by:requestKey:service:now:)``)
/// on both engines: a grant is the customer's at no charge, recorded with its reason and giver,
/// never revenue, once per key; a refund takes back; every action is in the audit log, refusals too.
@Suite struct SupportActionTests {
    @Test(arguments: Engine.allCases) func aGrantIsGivenOnceRecordedAndNeverRevenue(engine: Engine) throws {
        let world = try SellerWorld(engine)
        let (seller, ledgers) = (world.seller, world.seller.ledgers)
        let account = try seller.directory.create(now: 1).accountID
        func open() throws -> AccountService { try world.open(account) }
        let service = try open()
        // The developer's server is told (a server with notifications sets this).
        service.notifies = true
        // The store's controls would fail a payment: a grant charges nothing, so nothing fails.
        var controls = try service.controls()
        controls.failPurchases = true
        try service.setControls(controls)
        let said = try seller.act(.grant(StoreFixture.hints10, quantity: 2), on: account, reason: "the app lost a game", by: "00000000000000aa", requestKey: "k1", service: service, now: 5)
        #expect(said.hasPrefix("granted: transaction "), "\(said)")
        #expect(try service.hintBalance() == 20, "seen by the player")
        // The same key again: the same grant, nothing given twice.
        try seller.act(.grant(StoreFixture.hints10, quantity: 2), on: account, reason: "the app lost a game", by: "00000000000000aa", requestKey: "k1", service: try open(), now: 6)
        #expect(try open().hintBalance() == 20)
        let granted = try #require(try service.transactions().first)
        #expect(try service.transactions().count == 1 && granted.price?.minorUnits == 0 && granted.state == .finished, "\(granted)")
        // Told to the developer's server as Apple tells a purchase: a one-time charge of the
        // granted transaction (its price 0), once for the one grant.
        let told = try service.notificationHistory().map(\.notification).filter { $0.transaction == granted.id }
        #expect(told.map(\.type) == ["ONE_TIME_CHARGE"], "\(told)")
        let record = try #require(try service.grantRecord(granted.id))
        #expect(record.reason == "the app lost a game" && record.grantedBy == "00000000000000aa" && record.grantedDate == granted.purchaseDate, "\(record)")
        // A pack, seen as owned.
        try seller.act(.grant(StoreFixture.animals, quantity: 1), on: account, reason: "contest prize", by: "cli:ops", requestKey: "k2", service: service, now: 7)
        #expect(try service.entitlements().contains { $0.productID == StoreFixture.animals && $0.revokedDate == nil })
        // Never revenue: the kept numbers count no charge, no unit.
        let days = try world.salesDays()
        #expect(days.rows.allSatisfy { $0.revenue == 0 && $0.charged == 0 && $0.units == 0 }, "\(days.rows)")
        let players = try ledgers?.playerDays(firstDay: 0, lastDay: 200_000) ?? SQLiteLedgers.playerDays(folder: world.data, firstDay: 0, lastDay: 200_000)
        #expect(players.allSatisfy { $0.hintsSold == 0 }, "granted hints are no hints sold: \(players)")
        // Refusals are said and logged: days of a subscription there is not, a grant without a reason.
        #expect(throws: ServiceError.self) { try seller.act(.extend(days: 7), on: account, reason: "outage", by: "cli:ops", requestKey: "k3", service: service, now: 8) }
        #expect(throws: ServiceError.self) { try seller.act(.grant(StoreFixture.hints10, quantity: 1), on: account, reason: " ", by: "cli:ops", requestKey: "k4", service: service, now: 9) }
        // A refund of the granted hints takes them back.
        let refunded = try seller.act(.refund(granted.id), on: account, reason: "granted twice by mistake", by: "00000000000000aa", requestKey: "k5", service: service, now: 10)
        let left = try service.hintBalance()
        #expect(refunded.contains("20 hints taken back") && left == 0, "\(refunded)")
        let log = try seller.directory.actions(account: account, before: nil, limit: 10)
        #expect(log.map(\.action) == ["refund", "extend", "grant", "grant", "grant"], "\(log)")
        #expect(log.map(\.admin) == ["00000000000000aa", "cli:ops", "cli:ops", "00000000000000aa", "00000000000000aa"])
        #expect(log[1].outcome.hasPrefix("refused: ") && log[0].outcome.hasPrefix("refunded") && log[4].reason == "the app lost a game", "\(log)")
        #expect(try seller.directory.actions(account: account, before: log[3].id, limit: 10).count == 1, "paged by id")
    }
}

/// The seller's delivery log (``SellerService/undeliveredNotifications(limit:)``) on both engines:
/// what is not delivered, with its last attempt, newest first; a retry makes one due now and is
/// in the audit log; a delivered one is neither listed nor retried.
@Suite struct DeliveryLogTests {
    @Test(arguments: Engine.allCases) func aNotificationNotDeliveredIsListedAndRetried(engine: Engine) throws {
        let world = try SellerWorld(engine)
        let (seller, clock) = (world.seller, world.clock)
        let accounts = try (0..<2).map { _ in try seller.directory.create(now: 1).accountID }
        func open(_ account: String) throws -> AccountService {
            let service = try world.open(account)
            service.notifies = true
            return service
        }
        let (first, second) = (try open(accounts[0]), try open(accounts[1]))
        let failing = try first.requestTestNotification()
        let delivered = try second.requestTestNotification()
        let later = clock.clock.now() + 3_600_000
        try first.recordNotificationAttempt(failing, NotificationAttempt(date: clock.clock.now(), result: "connection refused", httpStatus: nil), delivered: false, nextAttempt: later)
        try second.recordNotificationAttempt(delivered, NotificationAttempt(date: clock.clock.now(), result: "delivered", httpStatus: 200), delivered: true, nextAttempt: nil)
        let log = try seller.undeliveredNotifications()
        #expect(log.map(\.notification.uuid) == [failing], "\(log)")
        #expect(log.first?.account == accounts[0] && log.first?.lastAttempt?.result == "connection refused" && log.first?.notification.nextAttempt == later)
        let said = try seller.act(.retryNotification(failing), on: accounts[0], reason: "the receiver is back", by: "00000000000000aa", requestKey: "r", service: first, now: 5)
        #expect(said.hasPrefix("due now"), "\(said)")
        #expect(try seller.undeliveredNotifications().first?.notification.nextAttempt ?? .max <= clock.clock.now())
        #expect(throws: ServiceError.self) {
            try seller.act(.retryNotification(delivered), on: accounts[1], reason: "again", by: "00000000000000aa", requestKey: "r2", service: second, now: 6)
        }
        #expect(try seller.directory.actions(account: nil, before: nil, limit: 5).map(\.action) == ["retry-notification", "retry-notification"])
    }
}

/// The seller's feed of the service's own events (``SellerService/events(after:limit:now:)``) on
/// both engines: written with each change, read by cursor a minute behind the clock, let go
/// after their retention.
@Suite struct EventFeedTests {
    @Test(arguments: Engine.allCases) func eachChangeIsAnEventReadByCursor(engine: Engine) throws {
        // The real time: an account made on SQLite is told at the database's clock.
        let world = try SellerWorld(engine, clock: SteppingClock(start: Int64(Date().timeIntervalSince1970 * 1000)))
        let (seller, clock) = (world.seller, world.clock)
        let account = try seller.directory.create(now: 1).accountID
        let service = try world.open(account)
        try service.chooseStorefront("USA")
        let bought = try #require(try service.buy(StoreFixture.hints10, quantity: 1).purchasedTransaction)
        try seller.act(.grant(StoreFixture.animals, quantity: 1), on: account, reason: "prize", by: "cli:ops", requestKey: "g", service: service, now: 1)
        _ = try service.refund(bought.id)
        let later = clock.clock.now() + 2 * EventFeed.settle
        let all = try seller.events(after: nil, limit: 100, now: later)
        #expect(all.map(\.type) == ["account", "purchase", "grant", "refund"], "\(all)")
        #expect(all[1].transactionID == bought.id.number && all[1].amount == bought.price?.minorUnits && all[3].amount == bought.price?.minorUnits && all.allSatisfy { $0.account == account })
        // By pages: a cursor goes on where the last page ended.
        let first = try seller.events(after: nil, limit: 3, now: later)
        let rest = try seller.events(after: first.last?.cursor, limit: 3, now: later)
        #expect(first.map(\.type) + rest.map(\.type) == all.map(\.type))
        #expect(try seller.events(after: rest.last?.cursor, limit: 3, now: later).isEmpty)
        // A minute behind the clock: what just happened is not told yet.
        #expect(try seller.events(after: nil, limit: 100, now: clock.clock.now()).isEmpty)
        #expect(throws: ServiceError.self) { try seller.events(after: "nonsense", limit: 10, now: later) }
        // Past the retention, let go.
        #expect(try seller.events(after: nil, limit: 100, now: later + EventFeed.retention + 86_400_000).isEmpty)
    }
}
