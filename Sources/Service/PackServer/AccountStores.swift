import Seller
import Synchronization

/// Each account's store, opened once and lent to one request at a time: a SQLite connection is
/// never used by two threads at once, and a request does not pay for opening it.
final class AccountStores: Sendable {
    private final class Slot: @unchecked Sendable {
        let lock = Mutex(())
        /// Used only under `lock`.
        var service: AccountService?
        /// Used only under the table's lock.
        var lastUse = 0
    }

    private struct Table {
        var slots: [String: Slot] = [:]
        var tick = 0
    }

    private let table = Mutex(Table())
    /// Accounts kept open at most: the least recently used is closed to make room (each holds a
    /// database connection, a few descriptors).
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many accounts are open now.
    var openCount: Int { table.withLock { $0.slots.count } }

    /// Forgets every open store: each is closed once the requests holding it end, and opened
    /// again (on the catalog served then) by its account's next request.
    func closeAll() {
        table.withLock { $0.slots.removeAll() }
    }

    /// `body` with the account's store when it is open, `nil` when it is not (nothing is opened).
    func withOpen<T>(_ account: String, _ body: (AccountService) throws(ServiceError) -> T) throws(ServiceError) -> T? {
        let slot: Slot? = table.withLock { table in
            guard let slot = table.slots[account] else { return nil }
            table.tick += 1
            slot.lastUse = table.tick
            return slot
        }
        guard let slot else { return nil }
        return try slot.lock.withLock { _ throws(ServiceError) -> T? in
            guard let service = slot.service else { return nil }
            return try body(service)
        }
    }

    func with<T>(
        _ account: String, open: () throws(ServiceError) -> AccountService, _ body: (AccountService) throws(ServiceError) -> T
    ) throws(ServiceError) -> T {
        let slot = table.withLock { table in
            table.tick += 1
            if let slot = table.slots[account] {
                slot.lastUse = table.tick
                return slot
            }
            if table.slots.count >= capacity, let oldest = table.slots.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                // Closed once the requests holding it end; a new request for it opens it again
                // (two connections to one ledger take turns, as two servers do).
                table.slots[oldest] = nil
            }
            let slot = Slot()
            slot.lastUse = table.tick
            table.slots[account] = slot
            return slot
        }
        return try slot.lock.withLock { _ throws(ServiceError) in
            let service: AccountService
            if let open = slot.service {
                service = open
            } else {
                service = try open()
                slot.service = service
            }
            return try body(service)
        }
    }
}
