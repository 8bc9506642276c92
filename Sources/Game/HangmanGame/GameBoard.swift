/// What a player sees of a game: the masked word, lives, the letters used; the word, its clue and
/// the score once it is over. A game played here (`Game.board`) and one a server plays (built from
/// its answer, which never holds the word before the end) are drawn from the same value.
public struct GameBoard: Sendable, Equatable {
    /// The word with hidden letters as `_`, graphemes separated by spaces.
    public var masked: String
    /// The lives the game started with.
    public var lives: Int
    /// The lives still left.
    public var livesLeft: Int
    /// Letters in the word (spaces, hyphens and apostrophes not counted).
    public var letterCount: Int
    /// Letters guessed, in order, as the game compares them.
    public var guesses: [String]
    /// Letters revealed by hints, in order: as many as hints paid.
    public var hinted: [String]
    /// Playing, won or lost.
    public var status: Game.Status
    /// Whether a hint can reveal a letter now (the last hidden letter is never given).
    public var canHint: Bool
    /// The word, once the game is over (`nil` while it is played, for a served game).
    public var word: String?
    /// The clue: a game played here shows its clue all along, a served game once it is over.
    public var clue: String?

    /// A board as a service answered it, or as a test draws it.
    public init(
        masked: String, lives: Int, livesLeft: Int, letterCount: Int, guesses: [String], hinted: [String], status: Game.Status, canHint: Bool,
        word: String?, clue: String?
    ) {
        self.masked = masked
        self.lives = lives
        self.livesLeft = livesLeft
        self.letterCount = letterCount
        self.guesses = guesses
        self.hinted = hinted
        self.status = status
        self.canHint = canHint
        self.word = word
        self.clue = clue
    }

    /// Wrong guesses so far.
    public var misses: Int { lives - livesLeft }

    /// What the score of a won game is made of.
    public var scoreParts: (letters: Int, livesLeft: Int, hints: Int) { (letterCount, livesLeft, hinted.count) }

    /// Points for a won game (``Game/score``'s rule); 0 otherwise.
    public var score: Int { status == .won ? Game.score(scoreParts) : 0 }

    /// The letters guessed and hinted, in alphabetical order (easier to scan than the order typed).
    public var usedLetters: [String] { (guesses + hinted).sorted() }
}

extension Game {
    /// The game as it is shown: the word only once it is over.
    public var board: GameBoard {
        GameBoard(
            masked: masked, lives: lives, livesLeft: livesLeft, letterCount: letterCount, guesses: guesses, hinted: hinted, status: status,
            canHint: canHint, word: status == .playing ? nil : word, clue: clue)
    }

    /// 10 per letter, 20 per life left, minus 15 per hint; never below 0.
    public static func score(_ parts: (letters: Int, livesLeft: Int, hints: Int)) -> Int {
        max(0, parts.letters * pointsPerLetter + parts.livesLeft * pointsPerLife - parts.hints * pointsPerHint)
    }
}
