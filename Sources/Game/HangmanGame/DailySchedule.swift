/// The daily word's rules that do not depend on who plays: which word of a list is the word of a
/// day, and the lives every player has. Pure: the keyed randomness is passed in.
///
/// The word of a day is drawn from the words not drawn on the ``window`` days before it (365 when
/// the list has 730 words or more), uniformly, by a draw keyed by the service's secret and the day.
/// So no word comes back within a year, and every day has the same number of candidates: the
/// choice does not narrow as the year goes on, and no day is a fixed position in one order of the
/// list. The schedule is a chain from ``anchorDay``: a day's word depends on the days before it,
/// so ``Cursor`` walks it forward and keeps where it is.
public struct DailySchedule: Sendable {
    /// Every player of the daily word has these lives: its scores compare.
    public static let lives = Game.defaultLives
    /// The chain's first day: 2026-01-01 (days since 1970). An earlier day starts a chain of its own.
    public static let anchorDay: Int64 = 20_454
    /// The most days a word must wait before it may come back: a year.
    public static let yearWindow = 365

    /// How many words the list has.
    public let count: Int

    /// The schedule of a list of `count` words: which of them a day may draw.
    public init(count: Int) {
        self.count = max(0, count)
    }

    /// How many days before a word may come back: a year, or half the list when it is shorter than
    /// two years of words (so that a day always has as many candidates as it excludes, or more).
    public var window: Int { Swift.min(Self.yearWindow, count / 2) }

    /// A keyed draw: 64 random bits for (`day`, `attempt`), the same for the same arguments.
    public typealias Draw = (_ day: Int64, _ attempt: Int) -> UInt64

    /// The index of the word of `day` in a list of ``count`` words (nil for an empty list).
    /// Walks the chain from ``anchorDay``: use a ``Cursor`` to keep the walk between days.
    public func index(day: Int64, draw: Draw) -> Int? {
        var cursor = Cursor(schedule: self)
        return cursor.index(day: day, draw: draw)
    }

    /// A walk along the chain that remembers the last day it reached: asking the next day (or the
    /// same) costs one step, an earlier day starts again from the anchor.
    public struct Cursor: Sendable {
        /// The schedule it walks.
        public let schedule: DailySchedule
        /// The last day walked to, and its word's index.
        public private(set) var day: Int64?
        /// The index of the word of ``day``, once walked there.
        public private(set) var current: Int?
        /// The last `window` indices, oldest first in ring order, and which indices are among them.
        private var recent: [Int] = []
        private var next = 0
        private var isRecent: [Bool]

        /// A cursor at the schedule's anchor, no day walked yet.
        public init(schedule: DailySchedule) {
            self.schedule = schedule
            isRecent = Array(repeating: false, count: schedule.count)
        }

        /// The index of `day`'s word.
        public mutating func index(day wanted: Int64, draw: Draw) -> Int? {
            guard schedule.count > 0 else { return nil }
            if wanted < DailySchedule.anchorDay {
                // Before the chain: a day of its own, with nothing before it.
                return Int(draw(wanted, 0) % UInt64(schedule.count))
            }
            if let day, let current, day == wanted { return current }
            if let day, day > wanted { reset() }
            var at = day.map { $0 + 1 } ?? DailySchedule.anchorDay
            while at <= wanted {
                step(day: at, draw: draw)
                at += 1
            }
            return current
        }

        private mutating func reset() {
            day = nil
            current = nil
            recent = []
            next = 0
            isRecent = Array(repeating: false, count: schedule.count)
        }

        /// Draws `day`'s word among those not in the window, then slides the window.
        private mutating func step(day: Int64, draw: Draw) {
            let count = schedule.count
            var attempt = 0
            var chosen = Int(draw(day, attempt) % UInt64(count))
            // At least half the list is a candidate: about two draws on average. Past 64 misses
            // (a chance below 2^-64), the first candidate after the last draw is taken.
            while isRecent[chosen] {
                attempt += 1
                if attempt > 64 {
                    while isRecent[chosen] { chosen = (chosen + 1) % count }
                    break
                }
                chosen = Int(draw(day, attempt) % UInt64(count))
            }
            let window = schedule.window
            if window > 0 {
                if recent.count < window {
                    recent.append(chosen)
                } else {
                    isRecent[recent[next]] = false
                    recent[next] = chosen
                    next = (next + 1) % window
                }
                isRecent[chosen] = true
            }
            self.day = day
            current = chosen
        }
    }
}
