import LetterFolding

/// One game of hangman: pure rules over values, no I/O; randomness is passed in.
///
/// ```swift
/// var game = Game(word: "mañana", language: "es")
/// game.guess("a")      // .hit(letter: "a", count: 3)
/// game.masked          // "_ a _ a _ a"
/// ```
public struct Game: Sendable, Equatable {
    /// What a guess did.
    public enum Outcome: Sendable, Equatable {
        /// The letter is in the word, `count` times.
        case hit(letter: String, count: Int)
        /// The letter is not in the word: one life lost.
        case miss(letter: String)
        /// The whole word, guessed right.
        case solved
        /// A whole word, guessed wrong: one life lost.
        case wrongWord(String)
        /// Already guessed: costs nothing.
        case repeated(String)
        /// Not a letter or a word of the right length: costs nothing.
        case invalid(String)
        /// The game is over: nothing happens.
        case gameOver
    }

    /// Where a game stands: being played, or over, won or lost.
    public enum Status: String, Sendable, Equatable {
        /// The game goes on.
        case playing
        /// Every letter found, or the word guessed.
        case won
        /// No life left.
        case lost
    }

    /// The word as shown at the end (NFC as installed).
    public let word: String
    /// The pack's clue for the word, shown with the word after the game when it has one.
    public let clue: String?
    /// How the language compares letters (a French `é` is found by `e`; a German `ä` is a letter of its own).
    public let folding: LetterFolding
    /// Wrong guesses the game allows before it is lost.
    public let lives: Int
    /// The word's graphemes, and the key each one is compared by (`nil` for spaces, hyphens, apostrophes).
    private let characters: [Character]
    private let keys: [String?]
    /// Letters guessed, by key, in order.
    public private(set) var guesses: [String] = []
    /// Letters revealed by hints, by key.
    public private(set) var hinted: [String] = []
    /// Wrong guesses so far: letters not in the word, and wrong words.
    public private(set) var misses = 0
    /// Whole words guessed wrong.
    public private(set) var wrongWords: [String] = []
    /// Playing, won or lost.
    public private(set) var status = Status.playing

    /// A game's identifier: 128 bits from `generator`, as 32 hex digits. The system's generator
    /// for a real game, never the seeded one that picks its word, so no two games share an id.
    public static func newID<G: RandomNumberGenerator>(using generator: inout G) -> String {
        [generator.next(), generator.next()].map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Six lives by default, as on paper.
    public static let defaultLives = 6

    /// A new game of `word` (its `clue`, when the pack has one), compared as `language` compares letters, with `lives` lives.
    public init(word: String, clue: String? = nil, language: String = "en", lives: Int = Game.defaultLives) {
        self.word = word
        self.clue = clue
        self.folding = LetterFolding(language: language)
        self.lives = max(1, lives)
        characters = Array(word)
        keys = characters.map(folding.key)
    }

    /// Letters in the word (spaces, hyphens and apostrophes not counted).
    public var letterCount: Int { keys.count { $0 != nil } }

    /// Lives left.
    public var livesLeft: Int { lives - misses }

    /// Keys of the letters still hidden, in the order they first appear.
    public var hiddenLetters: [String] {
        var seen: Set<String> = []
        return keys.compactMap { key in
            guard let key, !isRevealed(key), seen.insert(key).inserted else { return nil }
            return key
        }
    }

    private func isRevealed(_ key: String) -> Bool { guesses.contains(key) || hinted.contains(key) }

    /// Blanks the player sees: the positions of letters still hidden.
    public var hiddenPositions: Int { keys.count { $0.map { !isRevealed($0) } ?? false } }

    /// The word with hidden letters as `_`, graphemes separated by spaces; separators shown as they are.
    public var masked: String {
        zip(characters, keys).map { character, key in
            guard let key else { return character == " " ? " " : String(character) }
            return status != .playing || isRevealed(key) ? String(character) : "_"
        }.joined(separator: " ")
    }

    /// Letters guessed that are not in the word, in order.
    public var wrongLetters: [String] { guesses.filter { !keys.contains($0) } }

    /// Guesses a letter (one grapheme) or the whole word.
    @discardableResult
    public mutating func guess(_ input: String) -> Outcome {
        guard status == .playing else { return .gameOver }
        let trimmed = Self.trimmed(input)
        guard !trimmed.isEmpty else { return .invalid("type a letter or the whole word") }
        if trimmed.count == 1, let character = trimmed.first {
            guard let key = folding.key(character) else { return .invalid("'\(trimmed)' is not a letter") }
            if isRevealed(key) { return .repeated(key) }
            guesses.append(key)
            let count = keys.count { $0 == key }
            if count == 0 {
                misses += 1
                if misses >= lives { status = .lost }
                return .miss(letter: key)
            }
            if hiddenLetters.isEmpty { status = .won }
            return .hit(letter: key, count: count)
        }
        let attempt = trimmed.compactMap(folding.key)
        guard attempt.count == trimmed.filter({ !" -'\u{2019}".contains($0) }).count else {
            return .invalid("'\(trimmed)' has characters that are not letters")
        }
        let target = keys.compactMap { $0 }
        guard attempt.count == target.count else {
            return .invalid("the word has \(target.count) letters, '\(trimmed)' has \(attempt.count)")
        }
        let folded = attempt.joined()
        if wrongWords.contains(folded) { return .repeated(trimmed) }
        if attempt == target {
            status = .won
            return .solved
        }
        wrongWords.append(folded)
        misses += 1
        if misses >= lives { status = .lost }
        return .wrongWord(trimmed)
    }

    /// A guess as the game reads it: white space at the ends left out.
    public static func trimmed(_ input: String) -> String {
        String(input.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// Reveals every occurrence of one hidden letter, chosen with `generator`; `nil` when the game
    /// is over or one blank is left (``canHint``). A hint that reveals the last hidden letter (its
    /// blanks were all one letter) wins the game, its cost counted in the score.
    public mutating func revealHint<G: RandomNumberGenerator>(using generator: inout G) -> String? {
        guard canHint, let letter = hiddenLetters.randomElement(using: &generator) else { return nil }
        hinted.append(letter)
        if hiddenLetters.isEmpty { status = .won }
        return letter
    }

    /// Whether a hint can be given now: the game goes on and more than one blank is left. Read
    /// from what the player sees (the blanks), never from the word: that two blanks are one
    /// letter is not told by a hint refused.
    public var canHint: Bool { status == .playing && hiddenPositions > 1 }

    /// Points for each letter of a won word.
    public static let pointsPerLetter = 10
    /// Points for each life left when the word is won.
    public static let pointsPerLife = 20
    /// Points taken off a won game for each hint it spent.
    public static let pointsPerHint = 15

    /// Points for a won game: 10 per letter, 20 per life left, minus 15 per hint; 0 when lost.
    public var score: Int {
        status == .won ? Self.score(scoreParts) : 0
    }

    /// What the score of a won game is made of.
    public var scoreParts: (letters: Int, livesLeft: Int, hints: Int) { (letterCount, livesLeft, hinted.count) }

    /// A move, as recorded to resume a game.
    public enum Move: Sendable, Equatable {
        /// A letter or word, as typed.
        case guess(String)
        /// A letter revealed by a hint, by key.
        case hint(String)
    }

    /// Replays recorded moves, to resume a saved game exactly where it was.
    public mutating func replay(_ moves: [Move]) {
        for move in moves {
            switch move {
            case .guess(let text): guess(text)
            case .hint(let letter):
                if canHint && hiddenLetters.contains(letter) {
                    hinted.append(letter)
                    if hiddenLetters.isEmpty { status = .won }
                }
            }
        }
    }
}
