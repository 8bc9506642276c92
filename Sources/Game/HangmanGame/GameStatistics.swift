/// A player's games summed: played, won, streaks, and the misses of the games won.
public struct GameStatistics: Sendable, Equatable, Codable {
    public var played = 0
    public var won = 0
    public var currentStreak = 0
    public var bestStreak = 0
    /// Misses in won games -> how many games.
    public var missDistribution: [Int: Int] = [:]
    /// Percentage of games won, 0-100.
    public var winRate: Int { played == 0 ? 0 : won * 100 / played }

    public init() {}

    /// The games' results, oldest first: whether each was won and its misses (`nil` when unknown).
    public init(results: some Sequence<(won: Bool, misses: Int?)>) {
        var streak = 0
        for result in results {
            played += 1
            guard result.won else {
                streak = 0
                continue
            }
            won += 1
            streak += 1
            bestStreak = max(bestStreak, streak)
            if let misses = result.misses { missDistribution[misses, default: 0] += 1 }
        }
        currentStreak = streak
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
