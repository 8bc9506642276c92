/// A game the service plays with the account: the server picks the word, keeps it, and answers
/// every move. What a client sees of it: never the word, or anything that encodes its letters,
/// before the game ends (`word` and `clue` are `nil` while it is `playing`).
public struct ServedGame: Sendable, Equatable, Codable {
    /// Where a served game stands.
    public enum State: String, Sendable, Codable {
        /// The game goes on.
        case playing
        /// Every letter found, or the word guessed.
        case won
        /// No life left.
        case lost
        /// Given up (`abandon`, or `play --new`): counts as lost.
        case abandoned
    }

    /// 32 hex digits.
    public var id: String
    /// The pack the word is from.
    public var pack: ProductID
    /// That pack's name.
    public var packName: String
    /// The word list (category) the word is from.
    public var category: String
    /// The pack's language (BCP 47): how letters compare.
    public var language: String
    /// The lives the game started with.
    public var lives: Int
    /// The lives still left.
    public var livesLeft: Int
    /// The word with hidden letters as `_`, graphemes separated by spaces.
    public var masked: String
    /// Letters in the word (what `masked` shows as `_` or a letter).
    public var letters: Int
    /// Letters guessed, in order (as the game compares them).
    public var guessed: [String]
    /// Letters guessed that are not in the word, in order.
    public var wrongLetters: [String]
    /// Whole words guessed wrong, in order.
    public var wrongWords: [String]
    /// Letters revealed by hints, in order: as many as hints paid.
    public var hinted: [String]
    /// Playing, won, lost or abandoned.
    public var state: State
    /// Whether a hint can reveal a letter now (the last hidden letter is never given).
    public var canHint: Bool
    /// The word, once the game has ended.
    public var word: String?
    /// The word's clue, once the game has ended.
    public var clue: String?
    /// Points, once the game has ended (0 unless won).
    public var score: Int?
    /// What the request that answered this did, when it made a move.
    public var move: ServedMove?
    /// The account's hints after a hint was paid for.
    public var hints: Int?
    /// When it started (milliseconds since 1970).
    public var startedDate: Int64
    /// When it ended, once it has.
    public var endedDate: Int64?
    /// A daily word's day (`2026-12-02`, UTC); `nil` for any other game.
    public var daily: String?
    /// A past day's daily word played from the archive (`true`): on no board, in no streak.
    public var archive: Bool?
    /// The moves in order, one per square of the daily word's share line (`nil` for other games).
    public var moveKinds: [ServedMove.Kind]?
    /// The answer to a start is the account's live game, resumed (started earlier, on any device).
    public var resumed: Bool?
    /// The challenge this game plays (`hangman play --challenge ID`); `nil` for any other game.
    public var challenge: String?
    /// Hard mode (`true`): the service committed to no word until a hint or the end, and answered
    /// each guess so as to keep the most words alive; the score is doubled. `nil`: a normal game.
    public var hard: Bool?

    /// A game as the service answers it.
    public init(
        id: String, pack: ProductID, packName: String, category: String, language: String, lives: Int, livesLeft: Int, masked: String,
        guessed: [String], wrongLetters: [String], wrongWords: [String], hinted: [String], state: State, canHint: Bool, word: String?,
        clue: String?, score: Int?, move: ServedMove? = nil, hints: Int? = nil, startedDate: Int64, endedDate: Int64?, resumed: Bool? = nil
    ) {
        self.resumed = resumed
        self.letters = masked.split(separator: " ").count { $0 != "-" && $0 != "'" && $0 != "\u{2019}" }
        self.id = id
        self.pack = pack
        self.packName = packName
        self.category = category
        self.language = language
        self.lives = lives
        self.livesLeft = livesLeft
        self.masked = masked
        self.guessed = guessed
        self.wrongLetters = wrongLetters
        self.wrongWords = wrongWords
        self.hinted = hinted
        self.state = state
        self.canHint = canHint
        self.word = word
        self.clue = clue
        self.score = score
        self.move = move
        self.hints = hints
        self.startedDate = startedDate
        self.endedDate = endedDate
    }

    /// Won, lost or abandoned.
    public var isOver: Bool { state != .playing }
}

/// What one move did.
public struct ServedMove: Sendable, Equatable, Codable {
    /// What a move did.
    public enum Kind: String, Sendable, Codable {
        /// The letter is in the word, `count` times.
        case hit
        /// The letter is not: one life lost.
        case miss
        /// The whole word, right.
        case solved
        /// A whole word, wrong: one life lost.
        case wrongWord = "wrong-word"
        /// Guessed before: nothing happened.
        case repeated
        /// A hint revealed `letter`.
        case hint
    }

    /// What the move did.
    public var kind: Kind
    /// The letter (as the game compares it) or the word guessed; the letter a hint revealed.
    public var text: String
    /// How many times the letter is in the word, for a hit.
    public var count: Int?

    /// A move of `kind` about `text`.
    public init(kind: Kind, text: String, count: Int? = nil) {
        self.kind = kind
        self.text = text
        self.count = count
    }
}

/// `POST /v1/games`: start a game, or resume the account's live one.
public struct GameRequest: Sendable, Equatable, Codable {
    /// Packs to draw from; empty: every pack the account may play.
    public var packs: [ProductID]
    /// Only words of this list (`nil`: any).
    public var category: String?
    /// Lives; `nil`: six.
    public var lives: Int?
    /// Abandon the live game (it counts as lost) and start another.
    public var new: Bool
    /// Makes the choice reproducible: a sandbox server with test controls only.
    public var seed: UInt64?
    /// The day's word (UTC) instead: the same for every player of the service in `language`,
    /// played once per account (packs, category and seed do not apply).
    public var daily: Bool
    /// The daily word's language (BCP 47); `nil`: English.
    public var language: String?
    /// A past day's daily word (`2026-11-30`, UTC), from the archive; `nil`: today's.
    public var date: String?
    /// Hard mode: the service keeps every word of the drawn word's shape consistent with its
    /// answers and answers so as to keep the most alive (``ServedGame/hard``).
    public var hard: Bool
    /// A challenge's word instead (``Challenge/id``): started once, then resumed (packs,
    /// category, lives, seed and hard do not apply).
    public var challenge: String?

    /// A request; every field may be left out.
    public init(
        packs: [ProductID] = [], category: String? = nil, lives: Int? = nil, new: Bool = false, seed: UInt64? = nil, daily: Bool = false,
        language: String? = nil, date: String? = nil, hard: Bool = false, challenge: String? = nil
    ) {
        self.challenge = challenge
        self.hard = hard
        self.date = date
        self.daily = daily
        self.language = language
        self.packs = packs
        self.category = category
        self.lives = lives
        self.new = new
        self.seed = seed
    }

    /// The most lives a game may have.
    public static let maxLives = 26

    /// Every field may be left out (`{}`: any pack the account may play, six lives, resume).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        packs = try container.decodeIfPresent([ProductID].self, forKey: .packs) ?? []
        category = try container.decodeIfPresent(String.self, forKey: .category)
        lives = try container.decodeIfPresent(Int.self, forKey: .lives)
        new = try container.decodeIfPresent(Bool.self, forKey: .new) ?? false
        seed = try container.decodeIfPresent(UInt64.self, forKey: .seed)
        daily = try container.decodeIfPresent(Bool.self, forKey: .daily) ?? false
        language = try container.decodeIfPresent(String.self, forKey: .language)
        date = try container.decodeIfPresent(String.self, forKey: .date)
        hard = try container.decodeIfPresent(Bool.self, forKey: .hard) ?? false
        challenge = try container.decodeIfPresent(String.self, forKey: .challenge)
    }
}

/// `POST /v1/games/{id}/guesses`: a letter or the whole word.
public struct GuessRequest: Sendable, Equatable, Codable {
    /// A letter, or the whole word.
    public var guess: String

    /// A guess of `guess`.
    public init(guess: String) { self.guess = guess }
}

extension ServedGame {
    /// What the player sees: drawn as a game played here is (an abandoned game as lost).
    public var board: GameBoard {
        GameBoard(
            masked: masked, lives: lives, livesLeft: livesLeft, letterCount: letters, guesses: guessed, hinted: hinted,
            status: state == .playing ? .playing : state == .won ? .won : .lost, canHint: canHint, word: word, clue: clue)
    }

    /// The guess this answer made, as a game played here says it (`nil`: no guess, or a hint).
    public var outcome: Game.Outcome? {
        guard let move else { return nil }
        switch move.kind {
        case .hit: return .hit(letter: move.text, count: move.count ?? 1)
        case .miss: return .miss(letter: move.text)
        case .solved: return .solved
        case .wrongWord: return .wrongWord(move.text)
        case .repeated: return .repeated(move.text)
        case .hint: return nil
        }
    }
}
