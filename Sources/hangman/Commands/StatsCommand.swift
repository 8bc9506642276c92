import Device

/// `hangman stats`
enum StatsCommand: Command {
    static let spec = CommandSpec(
        name: "hangman stats",
        overview: "Games played and won on this device, win rate, streaks, and misses per won game.",
        usage: ["hangman stats [--json]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document.")] + HomeContext.options)

    struct Document: Encodable {
        var played: Int
        var won: Int
        var winRate: Int
        var currentStreak: Int
        var bestStreak: Int
        var missDistribution: [String: Int]
    }

    static func options(_ parsed: ParsedArguments) -> ListingOptions { ListingOptions(parsed) }

    static func run(_ options: ListingOptions, context: CommandContext) async throws -> ExitCode {
        let session = try await PlayerContext.open(options.store, context: context)
        let stats = try session.device.statistics()
        if options.json {
            context.out(JSONText.encode(Document(
                played: stats.played, won: stats.won, winRate: stats.winRate, currentStreak: stats.currentStreak, bestStreak: stats.bestStreak,
                missDistribution: Dictionary(uniqueKeysWithValues: stats.missDistribution.map { (String($0.key), $0.value) }))))
            return .ok
        }
        context.out("Played          \(stats.played)")
        context.out("Won             \(stats.won) (\(stats.winRate)%)")
        context.out("Current streak  \(stats.currentStreak)")
        context.out("Best streak     \(stats.bestStreak)")
        if !stats.missDistribution.isEmpty {
            context.out("Misses in won games:")
            let most = stats.missDistribution.values.max() ?? 1
            for misses in stats.missDistribution.keys.sorted() {
                let count = stats.missDistribution[misses] ?? 0
                context.out("  \(misses)  \(String(repeating: "#", count: max(1, count * 30 / most))) \(count)")
            }
        }
        return .ok
    }
}
