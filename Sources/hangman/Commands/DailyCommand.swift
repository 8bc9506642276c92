import Device
import Messages
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
        if parsed.value("--since") != nil, !parsed.has("--archive") { throw CommandFailure.usage(L10n.text("--since goes with --archive: '%s'", "hangman daily --archive --since 2026-11-01")) }
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
        context.out(TerminalText(escaping: L10n.text("Hangman Packs daily archive · %s", archive.language)))
        guard let last = archive.days.last else {
            context.outWrapped(L10n.text("No past day yet: the archive starts on %s.", archive.firstDate))
            return .ok
        }
        for day in archive.days {
            let said: String =
                switch day.result {
                case .notPlayed: L10n.text("not played")
                case .playing: L10n.text("being played")
                case .won: L10n.plural("won, %d point", "won, %d points", day.score ?? 0)
                case .lost: L10n.text("lost")
                }
            context.out(TerminalText(escaping: "\(day.date)  \(said)" + (day.archive ? " " + L10n.text("(archive)") : "")))
        }
        let language = options.language.map { " --language " + TerminalText.escaped($0) } ?? ""
        context.outWrapped(
            L10n.text("'%s' plays a day you have not; the archive starts on %s", "hangman play --daily --date DAY\(language)", archive.firstDate)
                + (last.date > archive.firstDate ? " " + L10n.text("('%s' lists every day).", "--since \(archive.firstDate)") : "."))
        return .ok
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let store = try await HomeContext.open(options.store, context: context, quietOffline: true)
        let games = try store.games(for: L10n.text("the daily word"))
        if options.archive { return try await archive(options, games: games, context: context) }
        let status = try await DailyLanguage.choose(options.language) { (tag: String?) async throws(ServiceError) -> DailyStatus in
            try await games.daily(language: tag)
        }
        if options.share {
            guard let game = status.game, let words = DailyShare.words(game) else {
                context.outWrapped(L10n.text("Today's word (%s) is not played to its end yet: nothing to share.", status.date))
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
        context.out(TerminalText(escaping: L10n.text("Hangman Packs daily %s · %s", status.date, status.language)))
        // The command that plays it, with the language asked for.
        let play = "'hangman play --daily" + (options.language.map { " --language " + TerminalText.escaped($0) } ?? "") + "'"
        switch status.game {
        case nil:
            context.outWrapped(L10n.text("Today: not played yet: %s plays it.", play))
        case let game? where !game.isOver:
            context.outWrapped(L10n.text("Today: being played (%d/%d lives): %s resumes it.", game.livesLeft, game.lives, play))
        case let game?:
            let hints = game.hinted.count
            let verdict =
                game.state == .won
                ? L10n.text("won, %d/%d lives", game.livesLeft, game.lives) + ", " + L10n.plural("%d point", "%d points", game.score ?? 0) : L10n.text("lost")
            context.outWrapped(
                L10n.text("Today: %s", verdict) + (hints > 0 ? ", " + L10n.plural("%d hint", "%d hints", hints) : "") + ". "
                    + L10n.text("The word was %s.", TerminalText.escaped(game.word ?? "")))
        }
        let rate = status.played == 0 ? 0 : status.won * 100 / status.played
        context.outWrapped(
            L10n.text("Played %d · Won %d (%d%%) · Streak %d · Longest %d", status.played, status.won, rate, status.currentStreak, status.longestStreak))
        if let held = status.streakFreezes, held > 0 || !(status.coveredDays ?? []).isEmpty {
            let covered = (status.coveredDays ?? []).prefix(5)
            context.outWrapped(
                L10n.text("Streak freezes: %d held", held) + (covered.isEmpty ? "" : " · " + L10n.text("covered %s", covered.joined(separator: ", ")))
                    + (held > 0 ? " " + L10n.text("(each keeps the streak over a missed day)") : ""))
        }
        let distribution = Dictionary(uniqueKeysWithValues: status.livesLeftDistribution.compactMap { key, count in Int(key).map { ($0, count) } })
        if !distribution.isEmpty {
            context.out(TerminalText(escaping: L10n.text("Lives left in won daily words:")))
            for line in Histogram.lines(distribution) { context.out(TerminalText(trusted: line)) }
        }
        if let share {
            context.out("")
            context.out(TerminalText(escaping: L10n.text("Share:")))
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
        let head = "Hangman Packs daily \(date)\(game.archive == true ? " (archive)" : "")\(game.hard == true ? " · hard mode" : "") · \(result) · \(hints) hint\(hints == 1 ? "" : "s")"
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
        let hits = kinds.count { $0 == .hit || $0 == .solved }
        let misses = kinds.count { $0 == .miss || $0 == .wrongWord }
        let hints = kinds.count { $0 == .hint }
        let result = game.state == .won ? L10n.text("won with %d of %d lives", game.livesLeft, game.lives) : L10n.text("lost, all %d lives spent", game.lives)
        return L10n.text("Hangman Packs daily %s", date) + (game.archive == true ? " " + L10n.text("(archive)") : "") + ": " + result + ", "
            + L10n.plural("%d hint", "%d hints", hints) + ": " + L10n.plural("%d hit", "%d hits", hits) + ", " + L10n.plural("%d miss", "%d misses", misses) + "."
    }
}
