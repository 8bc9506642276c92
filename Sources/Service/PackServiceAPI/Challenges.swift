/// `POST /v1/challenges`: a word for a friend to play. The server's choice (from a pack both
/// accounts may play, which the challenger plays too), or the challenger's own word (checked as a
/// pack's words are, in a language of the service; the challenger waits for the friend's result).
public struct ChallengeRequest: Sendable, Equatable, Codable {
    /// The friend, by the name the friends list shows.
    public var friend: String
    /// Only words of this pack (the server's choice); both accounts must be allowed to play it.
    public var pack: ProductID?
    /// Hard mode for both (the server's choice only).
    public var hard: Bool
    /// The challenger's own word instead of the server's choice.
    public var word: String?
    /// The own word's language (BCP 47); `nil`: English.
    public var language: String?

    public init(friend: String, pack: ProductID? = nil, hard: Bool = false, word: String? = nil, language: String? = nil) {
        self.friend = friend
        self.pack = pack
        self.hard = hard
        self.word = word
        self.language = language
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        friend = try container.decode(String.self, forKey: .friend)
        pack = try container.decodeIfPresent(ProductID.self, forKey: .pack)
        hard = try container.decodeIfPresent(Bool.self, forKey: .hard) ?? false
        word = try container.decodeIfPresent(String.self, forKey: .word)
        language = try container.decodeIfPresent(String.self, forKey: .language)
    }
}

/// A challenge as one of its two players sees it (`GET /v1/challenges`): who set it for whom,
/// the word's pack and length (never the word before the asker's game ends), and each side's
/// result: the other's only once the asker has played too (or set the word).
public struct Challenge: Sendable, Equatable, Codable {
    /// Where a challenge stands for the asker.
    public enum State: String, Sendable, Codable {
        /// The asker has a game to play (or to finish).
        case toPlay = "to-play"
        /// The asker has played (or set the word); the other has not yet.
        case waiting
        /// Both results are in.
        case done
    }

    /// 32 hex digits: `hangman play --challenge ID`.
    public var id: String
    /// The challenger's name, and the friend's.
    public var from: String
    public var to: String
    /// The asker set it (`true`) or was challenged.
    public var sent: Bool
    public var pack: ProductID
    public var packName: String
    public var category: String
    public var language: String
    /// Letters in the word.
    public var letters: Int
    public var lives: Int
    /// Hard mode for both.
    public var hard: Bool?
    /// The challenger's own word: only the friend plays it.
    public var ownWord: Bool?
    public var state: State
    public var createdDate: Int64
    /// A week after it was set: then it is gone.
    public var expiresDate: Int64
    /// The asker's result, once the asker's game has ended.
    public var you: ChallengeResult?
    /// The other's result, once both have played (or, for the setter of an own word, once the friend has).
    public var them: ChallengeResult?
    /// The word, once the asker's game has ended (or to the setter of an own word).
    public var word: String?

    public init(
        id: String, from: String, to: String, sent: Bool, pack: ProductID, packName: String, category: String, language: String, letters: Int,
        lives: Int, hard: Bool?, ownWord: Bool?, state: State, createdDate: Int64, expiresDate: Int64, you: ChallengeResult?,
        them: ChallengeResult?, word: String?
    ) {
        self.id = id
        self.from = from
        self.to = to
        self.sent = sent
        self.pack = pack
        self.packName = packName
        self.category = category
        self.language = language
        self.letters = letters
        self.lives = lives
        self.hard = hard
        self.ownWord = ownWord
        self.state = state
        self.createdDate = createdDate
        self.expiresDate = expiresDate
        self.you = you
        self.them = them
        self.word = word
    }

    /// How long a challenge stands: a week.
    public static let lifetime: Int64 = 7 * 86_400_000
    /// Challenges an account may have set and not expired at once.
    public static let maxOpen = 20
}

/// One side's result of a challenge: how its game ended.
public struct ChallengeResult: Sendable, Equatable, Codable {
    public var state: ServedGame.State
    public var score: Int
    public var misses: Int
    public var hints: Int

    public init(state: ServedGame.State, score: Int, misses: Int, hints: Int) {
        self.state = state
        self.score = score
        self.misses = misses
        self.hints = hints
    }
}
