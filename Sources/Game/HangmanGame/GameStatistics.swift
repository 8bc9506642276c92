/// A player's games summed: played, won, streaks, and the misses of the games won.
public struct GameStatistics: Sendable, Equatable, Codable {
    /// Games finished, won or lost.
    public var played = 0
    /// Games won.
    public var won = 0
    /// Games won in a row, up to the last one.
    public var currentStreak = 0
    /// The longest run of games won in a row.
    public var bestStreak = 0
    /// Misses in won games -> how many games.
    public var missDistribution: [Int: Int] = [:]
    /// Percentage of games won, 0-100.
    public var winRate: Int { played == 0 ? 0 : won * 100 / played }

    /// No game yet.
    public init() {}

    /// The games' results, oldest first: whether each was won and its misses (`nil` when unknown).
    public init(results: some Sequence<(won: Bool, misses: Int?)>) {
        for result in results { add(won: result.won, misses: result.misses) }
    }

    /// Counts one more game, the newest: kept this way, the statistics never replay the games.
    public mutating func add(won: Bool, misses: Int?) {
        played += 1
        guard won else {
            currentStreak = 0
            return
        }
        self.won += 1
        currentStreak += 1
        bestStreak = max(bestStreak, currentStreak)
        if let misses { missDistribution[misses, default: 0] += 1 }
    }

    private enum CodingKeys: String, CodingKey {
        case played, won, winRate, currentStreak, bestStreak, missDistribution
    }

    /// `missDistribution` as an object keyed by the number of misses (`{"0": 3, "2": 1}`), and the win rate.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(played, forKey: .played)
        try container.encode(won, forKey: .won)
        try container.encode(winRate, forKey: .winRate)
        try container.encode(currentStreak, forKey: .currentStreak)
        try container.encode(bestStreak, forKey: .bestStreak)
        try container.encode(Dictionary(uniqueKeysWithValues: missDistribution.map { (String($0.key), $0.value) }), forKey: .missDistribution)
    }

    /// Reads statistics as a service wrote them; a key left out counts as none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        played = try container.decode(Int.self, forKey: .played)
        won = try container.decode(Int.self, forKey: .won)
        currentStreak = try container.decode(Int.self, forKey: .currentStreak)
        bestStreak = try container.decode(Int.self, forKey: .bestStreak)
        var distribution: [Int: Int] = [:]
        for (key, count) in try container.decode([String: Int].self, forKey: .missDistribution) {
            guard let misses = Int(key), misses >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .missDistribution, in: container, debugDescription: "'\(key)' is not a number of misses")
            }
            distribution[misses] = count
        }
        missDistribution = distribution
    }
}

/// A player's daily words in one language summed, one day at a time: played, won, the run of days
/// won in a row and the longest, and the lives left in the games won.
public struct DailyRecord: Sendable, Equatable, Codable {
    /// Daily words played to their end.
    public var played = 0
    /// Daily words won.
    public var won = 0
    /// The days won in a row, up to `lastWonDay`.
    public var run = 0
    /// The last day won (days since 1970), while the run lasts.
    public var lastWonDay: Int64?
    /// The longest run of days won in a row.
    public var longestStreak = 0
    /// Lives left in won games -> how many games.
    public var livesLeftDistribution: [String: Int] = [:]

    /// No daily word yet.
    public init() {}

    /// Counts the daily word of `day`, ended after the days already counted.
    public mutating func add(day: Int64, won: Bool, livesLeft: Int) {
        played += 1
        guard won else {
            run = 0
            lastWonDay = nil
            return
        }
        self.won += 1
        run = lastWonDay == day - 1 ? run + 1 : 1
        lastWonDay = day
        longestStreak = max(longestStreak, run)
        livesLeftDistribution[String(livesLeft), default: 0] += 1
    }

    /// The days won in a row seen from `today`: the run lives while today's word, or yesterday's,
    /// was won, or while the days missed since are no more than the `freezes` held (each covers
    /// one, spent when the next word is won).
    public func currentStreak(today: Int64, freezes: Int = 0) -> Int {
        lastWonDay.map { $0 >= today - 1 - Int64(max(0, freezes)) ? run : 0 } ?? 0
    }

    /// The days missed (not played) between the run's last day and `day`; `nil` when none, or no run.
    public func missedDays(before day: Int64) -> ClosedRange<Int64>? {
        guard let last = lastWonDay, day - last > 1 else { return nil }
        return (last + 1)...(day - 1)
    }

    /// A missed day a streak freeze covered: the run goes on over it, without growing.
    public mutating func cover(day: Int64) {
        if lastWonDay == day - 1 { lastWonDay = day }
    }
}
