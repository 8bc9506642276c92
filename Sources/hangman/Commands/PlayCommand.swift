import Device
import FoundationEssentials
import HangmanGame
import Messages
import PackServiceAPI
import WordPacks

/// `hangman play`
enum PlayCommand: Command {
    static let spec = CommandSpec(
        name: "hangman play",
        overview: "Play hangman: on the account's pack server when the home is bound to one (the word stays there), else with words from your installed packs. Hints come from your account.",
        usage: [
            "hangman play [--pack <PRODUCT_ID>]... [--category <NAME>] [--seed <N>] [--lives <N>] [--hard] [--plain] [--new] [--yes]",
            "hangman play --daily [--date <YYYY-MM-DD> | --hard] [--language <TAG>] [--plain] [--yes]",
            "hangman play --challenge <ID> [--plain] [--yes]",
        ],
        options: [
            .init(names: ["--pack"], value: "PRODUCT_ID", help: "Only words from this pack (repeatable; default: every installed, unlocked pack).", repeatable: true, kind: .product),
            .init(names: ["--category"], value: "NAME", help: "Only words from this category (a word list's name)."),
            .init(
                names: ["--seed"], value: "N",
                help: "Seed the random choices: the same seed, the same games (a pack server takes one only as a sandbox with test controls).",
                kind: .unsignedInteger),
            .init(names: ["--daily"], value: nil, help: "Today's word (UTC): the same word and six lives for every player of the service, once per account; on the embedded store, its own daily word, on no leaderboard."),
            .init(
                names: ["--date"], value: "YYYY-MM-DD",
                help: "With --daily, a past day's word from the archive ('hangman daily --archive' lists them): played once, on no leaderboard, in no streak."),
            .init(names: ["--language"], value: "TAG", help: "Words in one language (de, fr, pt-BR...): the packs installed in it, its free base pack installed first when none is; with --daily, the daily word's (default: yours when the service has a base pack in it, else English)."),
            .init(names: ["--challenge"], value: "ID", help: "A friend's challenge ('hangman challenges' lists them; the first 8 characters of its id do)."),
            .init(
                names: ["--hard"], value: nil,
                help: "Hard mode, on a pack server: it commits to no word and answers each guess so as to keep the most words alive; the score is doubled. With --daily, the day's hard word, on a board of its own."),
            .init(names: ["--lives"], value: "N", help: "Wrong guesses allowed (1 to 26; default 6).", kind: .integer(1...26)),
            .init(names: ["--plain"], value: nil, help: "One line per state, no colour: for scripts and screen readers."),
            .init(names: ["--new"], value: nil, help: "Start a new game even if one is saved (the saved one counts as abandoned)."),
            .init(names: ["--yes", "-y"], value: nil, help: "Buy hints in the game without asking (through a pipe, buy needs it or buy!)."),
        ] + HomeContext.options,
        discussion: """
            On a terminal each key plays at once: a letter guesses it; ! or Enter opens a line to type
            the whole word (Enter guesses it, Esc goes back); ? spends a hint; $ buys hints; Tab shows
            the keys; Esc or Ctrl-D saves and quits. Arrow keys do nothing. The game has a screen of its
            own (the alternate screen): the shell's screen is as it was when the game ends.
            Ctrl-Z suspends it; fg brings it back.

            Through a pipe, with --plain, or on a TERM=dumb terminal, a move is a line: a letter, the
            whole word, ? or hint, buy, help, quit. A word that is also a command is guessed with a
            leading =: =quit guesses the word "quit". buy asks before it charges, on a terminal
            (plain too: an ASK line, then y); through a pipe nothing asks, so only buy! or --yes buys.

            On a home bound to a pack server, the server picks the word and answers every move: the
            word is never on this device before the game ends, and the game lives on the account, so
            'hangman play' on another device of it resumes it. One game is played at a time (and the
            day's word beside it): --new gives the live one up (it counts as lost). When the server
            cannot be reached, the game plays from the packs installed here and says so; such a game
            never counts on a leaderboard. --daily plays the day's word (see 'hangman daily').

            --hard plays "evil hangman": the server keeps every word of the drawn word's shape that
            fits its answers so far, and answers each guess (a letter or a whole word) so as to keep the
            most of them alive. A hint commits it to one of them, then shows a letter of it. The game
            ends as any other; its score is doubled. Only a pack server can play it: a device would
            hold the words. --daily --hard is the day's word in hard mode: the same start and the same
            answers for every player of the day, beside the day's word, once a day, on a board of its
            own ('hangman leaderboard --hard'), in no streak; its share line says hard mode.

            Ctrl-C, Ctrl-D and quit save the game: 'hangman play' resumes it. When --pack, --category or
            --lives differ from the saved game, a terminal asks whether to start a new game with them
            (Enter: yes; n resumes the saved one); --plain and
            a pipe start one and say so on standard error. A saved game is played by one 'hangman play'
            at a time: a second one, in another terminal, starts its own. Colour is off when NO_COLOR
            is set, TERM is dumb, or the output is not a terminal; TERM=dumb gets no escape sequence.

            \(GameScreen.plainFormat)
            """)

    struct Options {
        var packs: [ProductName]
        var category: String?
        var seed: UInt64?
        var lives: Int?
        var plain: Bool
        var new: Bool
        var yes: Bool
        var daily: Bool
        var date: String?
        var language: String?
        var hard: Bool
        var challenge: String?
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) -> Options {
        Options(
            packs: parsed.productNames("--pack"), category: parsed.value("--category"), seed: parsed.unsigned("--seed"),
            lives: parsed.integer("--lives"), plain: parsed.has("--plain"), new: parsed.has("--new"), yes: parsed.has("--yes"), daily: parsed.has("--daily"),
            date: parsed.value("--date"), language: parsed.value("--language"), hard: parsed.has("--hard"),
            challenge: parsed.value("--challenge"), store: HomeOptions(parsed))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        if options.daily, !options.packs.isEmpty || options.category != nil || options.seed != nil || options.lives != nil || options.new {
            throw CommandFailure.usage(
                L10n.text("--daily is the same word with %s lives for every player, so that scores compare: it takes no --pack, --category, --seed, --lives or --new", DailySchedule.lives))
        }
        if options.challenge != nil,
            options.daily || options.hard || !options.packs.isEmpty || options.category != nil || options.seed != nil || options.lives != nil || options.new
        {
            throw CommandFailure.usage(L10n.text("a challenge's word and lives are set: --challenge takes no --daily, --hard, --pack, --category, --seed, --lives or --new"))
        }
        if options.date != nil, !options.daily {
            throw CommandFailure.usage(L10n.text("--date names a past day's daily word: it goes with --daily ('%s')", "hangman play --daily --date 2026-11-30"))
        }
        if options.language != nil, !options.daily, !options.packs.isEmpty {
            throw CommandFailure.usage(L10n.text("--language picks the packs of a language: it takes no --pack"))
        }
        var generator = SeededGenerator(seed: options.seed ?? context.randomSeed())
        // Offline, the game says so on its own screen, not before it opens.
        let session = try await PlayerContext.open(options.store, context: context, quietOffline: true)
        var requested = try options.packs.map { try $0.resolve(in: session.catalog) }
        if let language = options.language, !options.daily {
            requested = try await Self.packs(inLanguage: language, session: session, context: context)
        }
        let (packs, playable) = try await session.player.gamePacks(requested)
        let environment = context.environment
        let terminal = context.inputIsTerminal && context.outputIsTerminal
        let dumb = environment["TERM"] == "dumb"
        let style: GameScreen.Style =
            options.plain || !terminal ? .plain
            : dumb ? .text
            : .fullScreen(colour: (environment["NO_COLOR"] ?? "").isEmpty)
        let input: PlayLoop.Input = style.takesKeys ? .keys(KeyReader(context.input)) : .lines(LineReader(context.input))
        let loop = PlayLoop(
            playerContext: session, screen: GameScreen(context: context, style: style), input: input,
            packs: packs, category: options.category, lives: options.lives ?? Game.defaultLives)
        loop.requestedPacks = requested
        loop.requestedLives = options.lives
        loop.playable = playable
        loop.buysWithoutAsking = options.yes
        loop.daily = options.daily
        loop.dailyDate = options.date
        loop.language = options.language
        loop.seed = options.seed
        loop.hard = options.hard
        if let challenge = options.challenge { loop.challenge = try await Self.challengeID(challenge, session: session) }
        return try await loop.run(fresh: options.new, generator: &generator)
    }
}

extension PlayCommand {
    /// A challenge's whole id from the first characters of it (8 or more), as 'hangman challenges' shows them.
    static func challengeID(_ given: String, session: PlayerContext) async throws -> String {
        let wanted = given.lowercased()
        guard wanted.count < 32 else { return wanted }
        guard wanted.count >= 8 else { throw CommandFailure.usage(L10n.text("a challenge's id has 32 characters; its first 8 do ('%s' shows them)", "hangman challenges")) }
        let games = try session.player.dailyWordService()
        let found = try await games.challenges().map(\.id).filter { $0.hasPrefix(wanted) }
        guard found.count == 1 else {
            throw CommandFailure.usage(
                found.isEmpty
                    ? L10n.text("no challenge '%s' of yours: 'hangman challenges' lists them", given)
                    : L10n.text("'%s' starts more than one challenge: give more of its id", given))
        }
        return found[0]
    }

    /// The playable packs in `language` (its primary subtag: `pt` finds `pt-BR`); none installed,
    /// the catalog's free base pack in it is installed first.
    static func packs(inLanguage language: String, session: PlayerContext, context: CommandContext) async throws -> [ProductID] {
        guard case .text(let tag) = try ValueKind.languageTag.convert(language, for: "--language") else { return [] }
        let primary = LanguageTag.primary
        let wanted = primary(tag)
        let playable = try await session.player.playablePacks()
        let found = playable.filter { primary($0.language) == wanted }.map(\.productID)
        if !found.isEmpty { return found }
        if let base = session.catalog.basePacks.first(where: { primary($0.language ?? "en") == wanted }) {
            let outcome = try await session.install(base.productID, context: context)
            context.error(session.describe(outcome, base.productID))
            return [base.productID]
        }
        // Words in that language the store sells: said with their price and the command.
        let names = ProductNames(session.catalog)
        let storefront = try? await session.player.storefront()
        let forSale = session.catalog.products.filter { $0.isForSale && $0.isAvailable && $0.language.map(primary) == wanted }.map { product in
            let name = ReaderLocale.current.name(of: product) + (product.wordCount.map { " (" + L10n.plural("%s word", "%s words", $0, shown: PackText.grouped($0)) + ")" } ?? "")
            let buy = "hangman buy " + names.shortName(of: product.id)
            guard let price = storefront.flatMap({ PriceText(environment: context.environment).format(product, storefront: $0) }) else {
                return L10n.text("%s is for sale: '%s'", name, buy)
            }
            return L10n.text("%s is for sale at %s: '%s'", name, price, buy)
        }
        if !forSale.isEmpty {
            throw CommandFailure(code: .notEntitled, message: L10n.text("no words in '%s' here: %s", tag, forSale.joined(separator: "; ")))
        }
        let languages = Set(playable.map(\.language) + session.catalog.basePacks.map { $0.language ?? "en" }).sorted()
        throw CommandFailure.missing(
            L10n.text("no words in '%s' here or in the store's free packs: there are words in %s", tag, languages.joined(separator: ", ")))
    }
}

extension GameScreen.Style {
    /// Whether moves are single keys (raw mode) rather than lines.
    var takesKeys: Bool {
        if case .fullScreen = self { return true }
        return false
    }
}
