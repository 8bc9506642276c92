import CivilCalendar
import Dispatch
import Foundation
import Seller
import Synchronization
import Testing
import TestSupport

/// The store's clock, moved by test controls: every move counts, however many come at once (12
/// concurrent moves of a month moved it 10 or 11: each set the time it had computed outside the
/// account's lock).
@Suite struct StoreClockTests {
    @Test(arguments: Engine.allCases) func concurrentMovesAllCount(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let start = try account.service().storeClock()
        let open = account.opener()
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<12 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    _ = try open().moveClock(by: StoreClockStep(StoreDuration(1, .month)))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        group.wait()
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let (before, after) = (UTCDateTime(millisecondsSince1970: start), UTCDateTime(millisecondsSince1970: try account.service().storeClock()))
        #expect((after.year * 12 + after.month) - (before.year * 12 + before.month) == 12, "\(before.dateText) to \(after.dateText)")
    }
}
