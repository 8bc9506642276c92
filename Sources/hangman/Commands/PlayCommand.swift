import Device
import FoundationEssentials
import HangmanGame
import Store
import WordPacks

/// `hangman play`
enum PlayCommand: Command {
    static let spec = CommandSpec(
        name: "hangman play",
        overview: "Play hangman with words from your installed packs. Hints come from your account.",
        usage: ["hangman play [--pack <PRODUCT_ID>]... [--category <NAME>] [--seed <N>] [--lives <N>] [--plain] [--new]"],
        options: [
            .init(names: ["--pack"], value: "PRODUCT_ID", help: "Only words from this pack (repeatable; default: every installed, unlocked pack).", repeatable: true),
            .init(names: ["--category"], value: "NAME", help: "Only words from this category (a word list's name)."),
            .init(names: ["--seed"], value: "N", help: "Seed the random choices: the same seed, the same games."),
            .init(names: ["--lives"], value: "N", help: "Wrong guesses allowed (1 to 26; default 6)."),
            .init(names: ["--plain"], value: nil, help: "One line per state, no colour: for scripts and screen readers."),
            .init(names: ["--new"], value: nil, help: "Start a new game even if one is saved (the saved one counts as abandoned)."),
        ] + StoreContext.options,
        discussion: """
            At the prompt: a letter, the whole word, ? or hint (spends one hint), buy (buys 10 hints),
            help, quit. Ctrl-C, Ctrl-D and quit save the game: 'hangman play' resumes it.
            Colour is off when NO_COLOR is set, TERM is dumb, or the output is not a terminal.

            \(GameScreen.plainFormat)
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals.isEmpty else { throw CommandFailure.usage("'play' takes no arguments; see 'hangman play --help'") }
        var lives = Game.defaultLives
        if let text = arguments.value("--lives") {
            guard let number = Int(text), (1...26).contains(number) else { throw CommandFailure.usage("--lives takes a number from 1 to 26, not '\(text)'") }
            lives = number
        }
        var generator = SeededGenerator(seed: context.randomSeed())
        if let text = arguments.value("--seed") {
            guard let seed = UInt64(text) else { throw CommandFailure.usage("--seed takes a non-negative number, not '\(text)'") }
            generator = SeededGenerator(seed: seed)
        }
        let session = try DeviceContext.open(arguments, context: context)
        let packs = try choosePacks(arguments.values["--pack"] ?? [], session: session)
        let environment = context.environment
        let terminal = context.inputIsTerminal && context.outputIsTerminal
        let plain = arguments.has("--plain") || !terminal
        let colour = !plain && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        let loop = PlayLoop(
            deviceContext: session, screen: GameScreen(context: context, plain: plain, colour: colour), reader: LineReader(context.input),
            packs: packs, category: arguments.value("--category"), lives: lives)
        return try loop.run(fresh: arguments.has("--new"), generator: &generator)
    }

    /// The packs to draw words from: installed and unlocked, narrowed by `--pack`.
    static func choosePacks(_ requested: [String], session: DeviceContext) throws -> [InstalledPack] {
        var ids: [ProductID] = []
        for text in requested {
            guard let id = ProductID(rawValue: text) else { throw CommandFailure.usage("'\(text)' is not a pack identifier: see 'hangman packs'") }
            ids.append(id)
        }
        return try session.player.playablePacks(ids)
    }
}
