import Foundation
import Testing
import SystemCalls

@Suite struct RealtimeClockTests {
    @Test func theClockAgreesWithFoundation() {
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        let now = RealtimeClock.millisecondsSince1970()
        let after = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(now >= before - 1 && now <= after + 1)
    }
}
