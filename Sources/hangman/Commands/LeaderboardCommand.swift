import CivilCalendar
import Messages

import Device
import PackServiceAPI
import TerminalText

/// `hangman leaderboard`
enum LeaderboardCommand: Command {
    static let spec = CommandSpec(
        name: "hangman leaderboard",
        overview: "The daily word's scores: the top 10 and your rank, for a day or the last seven days.",
        usage: ["hangman leaderboard [--daily] [<DATE>] [--week] [--friends] [--hard] [--language <TAG>] [--json]"],
        arguments: [.init(name: "<DATE>", help: "The day, YYYY-MM-DD (UTC; default: today).", arity: .optional)],
        options: [
            .init(names: ["--daily"], value: nil, help: "The daily word's board (the one there is; the default)."),
            .init(names: ["--week"], value: nil, help: "The seven days to the day, summed."),
            .init(names: ["--friends"], value: nil, help: "Your friends and you only ('hangman friends')."),
            .init(names: ["--hard"], value: nil, help: "The daily word's hard mode's own board ('hangman play --daily --hard')."),
            .init(names: ["--language"], value: "TAG", help: "The daily word's language (default: yours when the service has a base pack in it, else English)."),
            .init(names: ["--json"], value: nil, help: "Print one JSON document: the same rows."),
        ] + HomeContext.options,
        discussion: """
            Best first: the score, then fewer hints, then fewer misses; equal games share a rank,
            whenever they ended (every player has six lives). Only games the pack server played count (a game played offline never does). Players appear under the name
            they chose ('hangman account name NAME'), else Player and the last 4 characters of their
            account id. Exit status: 0 shown, 64 a date or language the service does not know, 69 the
            pack server cannot be reached (or the home plays on the embedded store, whose daily word is
            on no board).
            """)

    struct Options {
        var date: String?
        var week: Bool
        var friends: Bool
        var hard: Bool
        var language: String?
        var json: Bool
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) -> Options {
        Options(
            date: parsed.value("<DATE>"), week: parsed.has("--week"), friends: parsed.has("--friends"), hard: parsed.has("--hard"), language: parsed.value("--language"), json: parsed.has("--json"),
            store: HomeOptions(parsed))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        if let date = options.date, DailyDate.day(parsing: date) == nil {
            throw CommandFailure.usage(L10n.text("'%s' is not a day: write it YYYY-MM-DD (2026-12-02)", date))
        }
        let store = try await HomeContext.open(options.store, context: context, quietOffline: true)
        let games = try store.games(for: L10n.text("the leaderboard"))
        let board = try await DailyLanguage.choose(options.language) { (tag: String?) async throws(ServiceError) -> Leaderboard in
            options.friends
                ? try await games.friendsLeaderboard(date: options.date, language: tag, week: options.week, hard: options.hard)
                : try await games.leaderboard(date: options.date, language: tag, week: options.week, hard: options.hard)
        }
        if options.json {
            context.out(JSONText.encode(LeaderboardJSON(board)))
            return .ok
        }
        let title = board.week ? L10n.text("the seven days to %s", board.date) : board.date
        context.outWrapped(
            (board.friends == true ? L10n.text("Daily word leaderboard of your friends") : L10n.text("Daily word leaderboard"))
                + (board.hard == true ? " · " + L10n.text("hard mode") : "") + ", \(title) · \(board.language) · "
                + L10n.plural("%d player", "%d players", board.players))
        guard !board.top.isEmpty else {
            let today = DailyDate.text(day: UTCDateTime.day(ofMilliseconds: context.clock.now()))
            if board.date < today && !board.week {
                context.outWrapped(L10n.text("Nobody finished the daily word of %s.", board.date))
            } else {
                let language = options.language.map { " --language " + TerminalText.escaped($0) } ?? ""
                context.outWrapped(L10n.text("Nobody has finished the daily word yet: '%s'.", "hangman play --daily\(language)"))
            }
            return .ok
        }
        // Equal games share a rank: the player's own row is the one with its rank and name.
        func isYours(_ row: LeaderboardRow) -> Bool { row.rank == board.you?.rank && row.name == board.you?.name }
        var rows = board.top
        let youBelow = board.you.flatMap { you in rows.contains(where: isYours) ? nil : you }
        if let youBelow { rows.append(youBelow) }
        let nameWidth = max(4, rows.map { TerminalText.escaped($0.name).count }.max() ?? 4)
        let width = context.outputWidth
        // The name is cut to fit: rank (4), score (5), hints (5), misses (6, left out on a narrow
        // terminal), two spaces each, and the mark beside the player's own row.
        let showsMisses = width >= 48
        let room = max(8, min(nameWidth, width - 4 - 5 - 5 - 6 - (showsMisses ? 8 : 0) - (board.week ? 6 : 0) - 7))
        func cell(_ text: String, _ width: Int, right: Bool = false) -> String {
            let text = text.count > width ? String(text.prefix(width - 1)) + "…" : text
            let pad = String(repeating: " ", count: max(0, width - text.count))
            return right ? pad + text : text + pad
        }
        context.out(TerminalText(trusted: cell("#", 4, right: true) + "  " + cell(L10n.text("Name"), room) + "  " + cell(L10n.text("Score"), 5, right: true) + "  " + cell(L10n.text("Hints"), 5, right: true) + (showsMisses ? "  " + cell(L10n.text("Misses"), 6, right: true) : "") + (board.week ? "  " + cell(L10n.text("Won"), 4, right: true) : "")))
        for row in rows {
            if let youBelow, row == youBelow, rows.count > 1 { context.out("   …") }
            let mark = isYours(row) ? "  ← " + L10n.text("you") : ""
            let line = cell(String(row.rank), 4, right: true) + "  " + cell(TerminalText.escaped(row.name), room) + "  " + cell(String(row.score), 5, right: true) + "  "
                + cell(String(row.hints), 5, right: true) + (showsMisses ? "  " + cell(String(row.misses), 6, right: true) : "") + (board.week ? "  " + cell(String(row.won), 4, right: true) : "")
            context.out(TerminalText(trusted: line + (line.count + mark.count <= width ? mark : "")))
        }
        if board.you == nil { context.outWrapped(L10n.text("You have no finished daily word there: '%s'.", "hangman play --daily")) }
        return .ok
    }
}

/// `hangman account name`
enum AccountNameCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account name",
        overview: "Choose the name you appear under on leaderboards.",
        usage: ["hangman account name <NAME> [--home <DIR>]"],
        arguments: [.init(name: "<NAME>", help: "1 to 24 characters: letters, digits, spaces and - _ . (quote a name with spaces).")],
        options: HomeContext.options,
        discussion: """
            A name is the account's, on every device, and unique on its service: names are compared
            without case or accents, so Ana and ANA are the same name. Without one, you appear as
            Player and the last 4 characters of your account id. Exit status: 0 set, 64 a name that
            is not allowed, 69 taken by another player, the pack server cannot be reached, or the
            home plays on the embedded store.
            """)

    struct Options {
        var name: String
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) -> Options { Options(name: parsed.value("<NAME>") ?? "", store: HomeOptions(parsed)) }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        if case .failure(let problem) = DisplayName.check(options.name) { throw CommandFailure.usage(problem.message) }
        let store = try await HomeContext.open(options.store, context: context, quietOffline: true)
        let games = try store.games(for: "a player's name")
        let name: String
        do {
            name = try await games.setDisplayName(options.name)
        } catch {
            let failure: ServiceError = error
            // Another player has it: the service's refusal (69), said as it says it.
            guard failure.kind == .wrongState else { throw failure }
            throw CommandFailure(code: .storeRefused, message: failure.message)
        }
        context.out(TerminalText(escaping: L10n.text("You appear on leaderboards as %s.", TerminalText(escaping: name))))
        return .ok
    }
}
