import Device
import Messages
import PackServiceAPI
import TerminalText

/// `hangman stats`
enum StatsCommand: Command {
    static let spec = CommandSpec(
        name: "hangman stats",
        overview: "Games played and won, win rate, streaks, and misses per won game: the account's on every device when the home is bound to a pack server, else this device's.",
        usage: ["hangman stats [--json]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document.")] + HomeContext.options,
        discussion: """
            On a pack server the games counted are those it served the account, on every device;
            when it cannot be reached, this device's games are shown and a line on standard error
            says so. On the embedded store, this device's games.
            """)

    static func options(_ parsed: ParsedArguments) -> ListingOptions { ListingOptions(parsed) }

    static func run(_ options: ListingOptions, context: CommandContext) async throws -> ExitCode {
        let store = try await HomeContext.open(options.store, context: context, quietOffline: true)
        let stats: GameStatistics
        if let games = store.service.servedGames {
            stats = try await games.gameStatistics()
        } else {
            if let offline = store.offline {
                context.error(TerminalText(escaping: L10n.text("note: this device's games only: the pack server, which counts the account's, cannot be reached (%s).", offline.message)))
            }
            stats = try Home(folder: store.home).openDevice().statistics()
        }
        if options.json {
            context.out(JSONText.encode(stats))
            return .ok
        }
        let labels = [L10n.text("Played"), L10n.text("Won"), L10n.text("Current streak"), L10n.text("Best streak")]
        let width = labels.map(\.count).max() ?? 0
        let values = ["\(stats.played)", "\(stats.won) (\(stats.winRate)%)", "\(stats.currentStreak)", "\(stats.bestStreak)"]
        for (label, value) in zip(labels, values) {
            context.out(TerminalText(escaping: label + String(repeating: " ", count: width - label.count + 2) + value))
        }
        if !stats.missDistribution.isEmpty {
            context.out(TerminalText(escaping: L10n.text("Misses in won games:")))
            for line in Histogram.lines(stats.missDistribution) { context.out(TerminalText(trusted: line)) }
        }
        return .ok
    }
}

/// `  2  ###### 3`: a count per key, the bars scaled to the largest (30 characters).
enum Histogram {
    static func lines(_ counts: [Int: Int]) -> [String] {
        let most = counts.values.max() ?? 1
        let width = String(counts.keys.max() ?? 0).count
        return counts.keys.sorted().map { key in
            let count = counts[key] ?? 0
            let label = String(repeating: " ", count: width - String(key).count) + String(key)
            return "  \(label)  \(String(repeating: "#", count: max(1, count * 30 / max(1, most)))) \(count)"
        }
    }
}
