import Messages
import PackServiceAPI
import TerminalText

/// `hangman challenge NAME [--pack ID] [--hard] [--word WORD]`
enum ChallengeCommand: Command {
    static let spec = CommandSpec(
        name: "hangman challenge",
        overview: "Challenge a friend: a word the server chooses for you both, or one of your own for them.",
        usage: ["hangman challenge <NAME> [--pack <PRODUCT_ID>] [--hard] [--json]", "hangman challenge <NAME> --word <WORD> [--language <TAG>] [--json]"],
        arguments: [.init(name: "<NAME>", help: "The friend, by the name 'hangman friends' lists.")],
        options: [
            .init(names: ["--pack"], value: "PRODUCT_ID", help: "A word from this pack: both of you must be allowed to play it (default: any pack you both may play).", kind: .product),
            .init(names: ["--hard"], value: nil, help: "Hard mode for both of you (see 'hangman play --hard'); the score is doubled."),
            .init(names: ["--word"], value: "WORD", help: "Your own word instead: your friend plays it, you wait for their result."),
            .init(names: ["--language"], value: "TAG", help: "The language of the word: your own word's, or the server's choice's (default: English for your own).", kind: .languageTag),
            .init(names: ["--json"], value: nil, help: "Print the challenge as one JSON document."),
        ] + HomeContext.options,
        discussion: """
            The server chooses a word from a pack both of you may play, and you both play it with
            'hangman play --challenge ID': the same word (in hard mode, the same words to start from).
            With --word, the word is yours: checked as a pack's words are (2 to 40 letters, spaces,
            hyphens and apostrophes inside) and against the letters of its language; only your
            friend plays it. 'hangman challenges' shows both results side by side once both have
            played. A challenge expires after a week; at most 20 are out at once. Hints are paid as in
            any game. Exit status: 0 set; 64 no friend of that name, or a word that is none; 65 20
            challenges out already; 69 the pack server cannot be reached (or the home plays on the
            embedded store); 77 a pack one of you may not play.
            """)

    struct Options {
        var friend: String
        var pack: ProductName?
        var hard: Bool
        var word: String?
        var language: String?
        var json: Bool
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) -> Options {
        Options(
            friend: parsed.value("<NAME>") ?? "", pack: parsed.productName("--pack"), hard: parsed.has("--hard"), word: parsed.value("--word"),
            language: parsed.value("--language"), json: parsed.has("--json"), store: HomeOptions(parsed))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        if options.word != nil, options.pack != nil || options.hard {
            throw CommandFailure.usage(L10n.text("--word is your own word: it takes no --pack and no --hard (hard mode is the server's choice of words)"))
        }
        let store = try await HomeContext.open(options.store, context: context, quietOffline: true)
        let games = try store.games(for: L10n.text("a challenge"))
        let pack = try options.pack.map { try $0.resolve(in: store.catalog) }
        let challenge = try await games.challenge(
            ChallengeRequest(friend: options.friend, pack: pack, hard: options.hard, word: options.word, language: options.language))
        if options.json {
            context.out(JSONText.encode(challenge))
            return .ok
        }
        let what = L10n.plural("a word of %d letter from %s", "a word of %d letters from %s", challenge.letters, challenge.packName)
            + (challenge.hard == true ? ", " + L10n.text("hard mode") : "")
        if challenge.ownWord == true {
            context.outWrapped(
                L10n.text("%s has your word to play, %d letters.", challenge.to, challenge.letters) + " " + L10n.text("'%s' shows how they did.", "hangman challenges"))
        } else {
            context.outWrapped(
                L10n.text("Challenge set for %s: %s.", challenge.to, what) + " " + L10n.text("Play it yourself with '%s'.", "hangman play --challenge \(challenge.id)"))
        }
        context.outWrapped(L10n.text("It expires on %s.", StoreText.date(challenge.expiresDate)))
        return .ok
    }
}

/// `hangman challenges`
enum ChallengesCommand: Command {
    static let spec = CommandSpec(
        name: "hangman challenges",
        overview: "Your challenges, set and received: what is left to play, and the results side by side.",
        usage: ["hangman challenges [--json]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document.")] + HomeContext.options,
        discussion: """
            Newest first, those that have not expired (a week). A friend's result shows once you
            have played too (or, for your own word, once they have); the word, once your game has
            ended. Play one with 'hangman play --challenge ID' (the first 8 characters of its id do).
            Exit status: 0; 69 the pack server cannot be reached (or the home plays on the embedded store).
            """)

    struct Options {
        var json: Bool
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) -> Options { Options(json: parsed.has("--json"), store: HomeOptions(parsed)) }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let store = try await HomeContext.open(options.store, context: context, quietOffline: true)
        let list = try await store.games(for: L10n.text("challenges")).challenges()
        if options.json {
            context.out(JSONText.encode(list))
            return .ok
        }
        guard !list.isEmpty else {
            context.outWrapped(L10n.text("No challenges: '%s' sets one for a friend.", "hangman challenge NAME"))
            return .ok
        }
        for challenge in list {
            for line in lines(challenge) { context.outWrapped(line) }
        }
        return .ok
    }

    /// A challenge in a few lines: who, what, where it stands, and the two results.
    static func lines(_ challenge: Challenge) -> [String] {
        let who = challenge.sent ? L10n.text("You challenged %s", challenge.to) : L10n.text("%s challenged you", challenge.from)
        let what = challenge.ownWord == true ? L10n.text("their own word") : challenge.packName
        var lines = [
            "\(challenge.id.prefix(8))  \(who): " + L10n.plural("%d letter", "%d letters", challenge.letters) + ", \(what)"
                + (challenge.hard == true ? ", " + L10n.text("hard mode") : "")
        ]
        switch challenge.state {
        case .toPlay: lines.append("  " + L10n.text("To play: %s", "hangman play --challenge \(challenge.id.prefix(8))"))
        case .waiting: lines.append("  " + L10n.text("Waiting for %s to play.", challenge.sent ? challenge.to : challenge.from))
        case .done: break
        }
        if let you = challenge.you { lines.append("  " + L10n.text("You: %s", result(you))) }
        if let them = challenge.them { lines.append("  \(challenge.sent ? challenge.to : challenge.from): " + result(them)) }
        if let word = challenge.word { lines.append("  " + L10n.text("The word was %s.", word)) }
        return lines
    }

    static func result(_ result: ChallengeResult) -> String {
        let hints = result.hints == 0 ? "" : ", " + L10n.plural("%d hint", "%d hints", result.hints)
        switch result.state {
        case .won: return L10n.plural("won, %d point", "won, %d points", result.score) + ", " + L10n.plural("%d miss", "%d misses", result.misses) + hints
        case .lost, .abandoned, .playing: return (result.state == .abandoned ? L10n.text("gave up") : L10n.text("lost")) + hints
        }
    }
}
