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

    @Test(arguments: [
        (Int64(0), [1970, 1, 1, 0, 0, 0]),
        (Int64(1_764_460_502_999), [2025, 11, 29, 23, 55, 2]),
        (Int64(951_782_400_000), [2000, 2, 29, 0, 0, 0]),
        (Int64(-1), [1969, 12, 31, 23, 59, 59]),
    ])
    func momentsReadAsUTCFields(milliseconds: Int64, fields: [Int]) throws {
        let time = try #require(UTCDateTime(millisecondsSince1970: milliseconds))
        #expect([time.year, time.month, time.day, time.hour, time.minute, time.second] == fields)
    }

    @Test func theLastMillisecondStillHasAYear() throws {
        #expect(try #require(UTCDateTime(millisecondsSince1970: .max)).year == 292_278_994)
    }
}
