import Device
import FoundationEssentials
import HangmanGame
import PackServiceAPI
import WordPacks

/// `hangman play`
enum PlayCommand: Command {
    static let spec = CommandSpec(
        name: "hangman play",
        overview: "Play hangman with words from your installed packs. Hints come from your account.",
        usage: ["hangman play [--pack <PRODUCT_ID>]... [--category <NAME>] [--seed <N>] [--lives <N>] [--plain] [--new]"],
        options: [
            .init(names: ["--pack"], value: "PRODUCT_ID", help: "Only words from this pack (repeatable; default: every installed, unlocked pack).", repeatable: true, kind: .product),
            .init(names: ["--category"], value: "NAME", help: "Only words from this category (a word list's name)."),
            .init(names: ["--seed"], value: "N", help: "Seed the random choices: the same seed, the same games.", kind: .unsignedInteger),
            .init(names: ["--lives"], value: "N", help: "Wrong guesses allowed (1 to 26; default 6).", kind: .integer(1...26)),
            .init(names: ["--plain"], value: nil, help: "One line per state, no colour: for scripts and screen readers."),
            .init(names: ["--new"], value: nil, help: "Start a new game even if one is saved (the saved one counts as abandoned)."),
        ] + StoreContext.options,
        discussion: """
            At the prompt: a letter, the whole word, ? or hint (spends one hint), buy (buys 10 hints),
            help, quit. Ctrl-C, Ctrl-D and quit save the game: 'hangman play' resumes it. A saved game
            is played by one 'hangman play' at a time: a second one, in another terminal, starts its own.
            Colour is off when NO_COLOR is set, TERM is dumb, or the output is not a terminal.

            \(GameScreen.plainFormat)
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        var generator = SeededGenerator(seed: arguments.unsigned("--seed") ?? context.randomSeed())
        let session = try await DeviceContext.open(arguments, context: context)
        let packs = try await session.player.playablePacks(arguments.products("--pack", in: session.catalog))
        let environment = context.environment
        let terminal = context.inputIsTerminal && context.outputIsTerminal
        let plain = arguments.has("--plain") || !terminal
        let colour = !plain && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        let loop = PlayLoop(
            deviceContext: session, screen: GameScreen(context: context, plain: plain, colour: colour), reader: LineReader(context.input),
            packs: packs, category: arguments.value("--category"), lives: arguments.integer("--lives") ?? Game.defaultLives)
        return try await loop.run(fresh: arguments.has("--new"), generator: &generator)
    }
}
