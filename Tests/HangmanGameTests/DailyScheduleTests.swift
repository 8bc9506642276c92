import HangmanGame
import Testing

/// The daily word's order: no word twice within a year, the same answer however it is walked, and
/// no fixed order that repeats.
@Suite struct DailyScheduleTests {
    /// A keyed draw as a service's would be: a hash of (key, day, attempt).
    static func draw(key: UInt64) -> DailySchedule.Draw {
        { day, attempt in
            var generator = SeededGenerator(seed: key ^ UInt64(bitPattern: day &* 1_000_003) ^ UInt64(attempt) &* 0x9E37_79B9)
            return generator.next()
        }
    }

    @Test(arguments: [800, 1538, 5000])
    func noWordComesBackWithinAYear(count: Int) {
        let schedule = DailySchedule(count: count)
        #expect(schedule.window == 365)
        var cursor = DailySchedule.Cursor(schedule: schedule)
        let draw = Self.draw(key: 42)
        let days = (DailySchedule.anchorDay...(DailySchedule.anchorDay + 3 * 366)).map { cursor.index(day: $0, draw: draw) ?? -1 }
        #expect(days.allSatisfy { (0..<count).contains($0) })
        for start in stride(from: 0, to: days.count - 366, by: 37) {
            #expect(Set(days[start..<(start + 366)]).count == 366, "days \(start) to \(start + 365)")
        }
        // Not one fixed order: the word of day d is not the word of day d + count.
        if days.count > count + 100 {
            #expect((0..<100).contains { days[$0] != days[$0 + count] })
        }
    }

    @Test func aShortListWaitsHalfItsLength() {
        let schedule = DailySchedule(count: 10)
        #expect(schedule.window == 5)
        var cursor = DailySchedule.Cursor(schedule: schedule)
        let days = (0..<200).map { cursor.index(day: DailySchedule.anchorDay + Int64($0), draw: Self.draw(key: 7)) ?? -1 }
        for start in 0..<(days.count - 6) { #expect(Set(days[start..<(start + 6)]).count == 6) }
        #expect(Set(days).count == 10, "every word has its days")
    }

    @Test func aDayHasOneWordHoweverTheScheduleIsWalked() {
        let schedule = DailySchedule(count: 900)
        let draw = Self.draw(key: 99)
        var forward = DailySchedule.Cursor(schedule: schedule)
        let walked = (0..<400).map { forward.index(day: DailySchedule.anchorDay + Int64($0), draw: draw) }
        // Asked out of order (an earlier day restarts the walk), or alone: the same words.
        var jumping = DailySchedule.Cursor(schedule: schedule)
        for day in [399, 5, 250, 250, 0, 398] {
            #expect(jumping.index(day: DailySchedule.anchorDay + Int64(day), draw: draw) == walked[day])
            #expect(schedule.index(day: DailySchedule.anchorDay + Int64(day), draw: draw) == walked[day])
        }
        // Another key, another order.
        let other = (0..<400).map { schedule.index(day: DailySchedule.anchorDay + Int64($0), draw: Self.draw(key: 100)) }
        #expect(other != walked)
    }

    @Test func anEmptyListHasNoWordAndADayBeforeTheAnchorHasOne() {
        #expect(DailySchedule(count: 0).index(day: DailySchedule.anchorDay, draw: Self.draw(key: 1)) == nil)
        let before = DailySchedule(count: 50).index(day: 100, draw: Self.draw(key: 1))
        #expect(before.map { (0..<50).contains($0) } == true)
        #expect(DailySchedule.lives == 6)
    }
}
