import Device
import PackServiceAPI
import TerminalText

/// `hangman daily`
enum DailyCommand: Command {
    static let spec = CommandSpec(
        name: "hangman daily",
        overview: "Today's word (UTC): how you did, your streaks and games, and a spoiler-free line to share.",
        usage: ["hangman daily [--language <TAG>] [--json] [--plain] [--share]", "hangman daily --archive [--since <YYYY-MM-DD>] [--language <TAG>] [--json]"],
        options: [
            .init(names: ["--archive"], value: nil, help: "The past days' words, newest first, with how you did: 'hangman play --daily --date DAY' plays one you have not."),
            .init(names: ["--since"], value: "YYYY-MM-DD", help: "With --archive, the days from this one (default: the 30 days before today; the archive starts on 2026-01-01)."),
            .init(names: ["--language"], value: "TAG", help: "The daily word's language (default: yours when the service has a base pack in it, else English)."),
            .init(names: ["--json"], value: nil, help: "Print one JSON document (the share line in it as \"share\")."),
            .init(names: ["--plain"], value: nil, help: "Letters instead of emoji in the share line."),
            .init(names: ["--share"], value: nil, help: "Print only the share line, in words a screen reader reads well: 'won with 4 of 6 lives, 1 hint: 6 hits, 2 misses'."),
        ] + HomeContext.options,
        discussion: """
            The daily word is the same for every player of the service in a language, and each
            account plays it once: 'hangman play --daily'. It is chosen by the service with a secret
            of its own, so no one can work out tomorrow's from the pack. The share line gives one
            square per move in order, green a hit, black a miss, a light bulb a hint; with NO_COLOR
            set, TERM=dumb or --plain, the letters H, M and R (revealed by a hint). It never shows a
            letter of the word.
            On the embedded store ('make play'), the store draws a daily word of its own by the same
            rule, played on this device and ranked on no leaderboard.
            A past day's word is played from the archive once, like today's: it counts in no streak
            and is on no leaderboard (a past day's board is of those who played on the day), and its
            share line says "archive".
            Exit status: 0 shown, 64 a language the service has no base pack in or a day that is
            not one (a future day, or one before the archive), 69 the pack server cannot be reached.
            """)

    struct Options {
        var language: String?
        var json: Bool
        var plain: Bool
        var archive: Bool
        var since: String?
        var share: Bool
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        if parsed.value("--since") != nil, !parsed.has("--archive") { throw CommandFailure.usage("--since goes with --archive: 'hangman daily --archive --since 2026-11-01'") }
        return Options(
            language: parsed.value("--language"), json: parsed.has("--json"), plain: parsed.has("--plain"), archive: parsed.has("--archive"),
            since: parsed.value("--since"), share: parsed.has("--share"), store: HomeOptions(parsed))
    }

    /// `hangman daily --archive`: the past days, newest first.
    static func archive(_ options: Options, games: any GameService, context: CommandContext) async throws -> ExitCode {
        let archive = try await DailyLanguage.choose(options.language) { (tag: String?) async throws(ServiceError) -> DailyArchive in
            try await games.dailyArchive(language: tag, since: options.since)
        }
        if options.json {
            context.out(JSONText.encode(archive))
            return .ok
        }
        context.out("Hangman Packs daily archive · \(archive.language)")
        guard let last = archive.days.last else {
            context.outWrapped("No past day yet: the archive starts on \(archive.firstDate).")
            return .ok
        }
        for day in archive.days {
            let said: String =
                switch day.result {
                case .notPlayed: "not played"
                case .playing: "being played"
                case .won: "won, \(day.score ?? 0) points"
                case .lost: "lost"
                }
            context.out("\(day.date)  \(said)\(day.archive ? " (archive)" : "")")
        }
        let language = options.language.map { " --language " + TerminalText.escaped($0) } ?? ""
        context.outWrapped("'hangman play --daily --date DAY\(language)' plays a day you have not; the archive starts on \(archive.firstDate)"
            + (last.date > archive.firstDate ? " ('--since \(archive.firstDate)' lists every day)." : "."))
        return .ok
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let store = try await HomeContext.open(options.store, context: context, quietOffline: true)
        let games = try store.games(for: "the daily word")
        if options.archive { return try await archive(options, games: games, context: context) }
        let status = try await DailyLanguage.choose(options.language) { (tag: String?) async throws(ServiceError) -> DailyStatus in
            try await games.daily(language: tag)
        }
        if options.share {
            guard let game = status.game, let words = DailyShare.words(game) else {
                context.outWrapped("Today's word (\(status.date)) is not played to its end yet: nothing to share.")
                return .ok
            }
            context.out(TerminalText(escaping: words))
            return .ok
        }
        let letters = options.plain || options.json || !(context.environment["NO_COLOR"] ?? "").isEmpty || context.environment["TERM"] == "dumb"
        let palette = (try? Home(folder: store.home).openDevice().settings().palette) ?? .standard
        let share = status.game.flatMap { DailyShare.lines($0, letters: letters, palette: palette) }
        if options.json {
            context.out(JSONText.encode(DailyJSON(status, share: share?.joined(separator: "\n"))))
            return .ok
        }
        context.out("Hangman Packs daily \(status.date) · \(status.language)")
        // The command that plays it, with the language asked for.
        let play = "'hangman play --daily" + (options.language.map { " --language " + TerminalText.escaped($0) } ?? "") + "'"
        switch status.game {
        case nil:
            context.outWrapped("Today: not played yet: \(play) plays it.")
        case let game? where !game.isOver:
            context.outWrapped("Today: being played (\(game.livesLeft)/\(game.lives) lives): \(play) resumes it.")
        case let game?:
            let hints = game.hinted.count
            let verdict = game.state == .won ? "won, \(game.livesLeft)/\(game.lives) lives, \(game.score ?? 0) points" : "lost"
            context.outWrapped("Today: \(verdict)\(hints > 0 ? ", \(hints) hint\(hints == 1 ? "" : "s")" : ""). The word was \(TerminalText.escaped(game.word ?? "")).")
        }
        let rate = status.played == 0 ? 0 : status.won * 100 / status.played
        context.outWrapped("Played \(status.played) · Won \(status.won) (\(rate)%) · Streak \(status.currentStreak) · Longest \(status.longestStreak)")
        if let held = status.streakFreezes, held > 0 || !(status.coveredDays ?? []).isEmpty {
            let covered = (status.coveredDays ?? []).prefix(5)
            context.outWrapped(
                "Streak freezes: \(held) held" + (covered.isEmpty ? "" : " · covered \(covered.joined(separator: ", "))")
                    + (held > 0 ? " (each keeps the streak over a missed day)" : ""))
        }
        let distribution = Dictionary(uniqueKeysWithValues: status.livesLeftDistribution.compactMap { key, count in Int(key).map { ($0, count) } })
        if !distribution.isEmpty {
            context.out("Lives left in won daily words:")
            for line in Histogram.lines(distribution) { context.out(TerminalText(trusted: line)) }
        }
        if let share {
            context.out("")
            context.out("Share:")
            for line in share { context.out(TerminalText(escaping: line)) }
        }
        return .ok
    }
}

/// The spoiler-free lines to share a daily word: `Hangman Packs daily 2026-12-02 · 4/6 lives ·
/// 1 hint`, then a square per move in order (or a letter: H hit, M miss, R revealed by a hint).
enum DailyShare {
    static func lines(_ game: ServedGame, letters: Bool, palette: DeviceSettings.Palette = .standard) -> [String]? {
        guard game.isOver, let date = game.daily, let kinds = game.moveKinds else { return nil }
        let hints = game.hinted.count
        let result = game.state == .won ? "\(game.livesLeft)/\(game.lives) lives" : "X/\(game.lives) lives"
        let head = "Hangman Packs daily \(date)\(game.archive == true ? " (archive)" : "") · \(result) · \(hints) hint\(hints == 1 ? "" : "s")"
        let squares = kinds.map { kind -> String in
            switch kind {
            case .hit, .solved: letters ? "H" : palette.hitSquare
            case .miss, .wrongWord: letters ? "M" : palette.missSquare
            case .hint: letters ? "R" : "💡"
            case .repeated: ""
            }
        }
        return [head, squares.joined()]
    }

    /// The same in words, for a screen reader (an emoji grid reads aloud square by square):
    /// `Hangman Packs daily 2026-12-02: won with 4 of 6 lives, 1 hint: 6 hits, 2 misses.`
    static func words(_ game: ServedGame) -> String? {
        guard game.isOver, let date = game.daily, let kinds = game.moveKinds else { return nil }
        func count(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
        let hits = kinds.count { $0 == .hit || $0 == .solved }
        let misses = kinds.count { $0 == .miss || $0 == .wrongWord }
        let hints = kinds.count { $0 == .hint }
        let result = game.state == .won ? "won with \(game.livesLeft) of \(game.lives) lives" : "lost, all \(game.lives) lives spent"
        return "Hangman Packs daily \(date)\(game.archive == true ? " (archive)" : ""): \(result), \(count(hints, "hint", "hints")): "
            + "\(count(hits, "hit", "hits")), \(count(misses, "miss", "misses"))."
    }
}
