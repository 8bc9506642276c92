import CivilCalendar
import PackServiceAPI

/// The `--json` documents of `daily` and `leaderboard`, in the one scheme every `--json` follows:
/// `gameID` and `productID`, counts ending in `Count`, dates ISO 8601 in UTC ending in `Date`.
struct ServedGameJSON: Encodable {
    var gameID: String
    var productID: ProductID
    var displayName: String
    var category: String
    var language: String
    var state: String
    var lives: Int
    var livesLeft: Int
    var masked: String
    var guessed: [String]
    var wrongLetters: [String]
    var wrongWords: [String]
    var hinted: [String]
    var canHint: Bool
    var word: String?
    var clue: String?
    var score: Int?
    var hintBalance: Int?
    var startedDate: String
    var endedDate: String?
    /// The daily word's day (`2026-12-05`), for the day's game.
    var day: String?
    /// hit, miss, hint... in order: what the share line is drawn from.
    var moveKinds: [String]?

    init(_ game: ServedGame) {
        gameID = game.id
        productID = game.pack
        displayName = game.packName
        category = game.category
        language = game.language
        state = game.state.rawValue
        lives = game.lives
        livesLeft = game.livesLeft
        masked = game.masked
        guessed = game.guessed
        wrongLetters = game.wrongLetters
        wrongWords = game.wrongWords
        hinted = game.hinted
        canHint = game.canHint
        word = game.word
        clue = game.clue
        score = game.score
        hintBalance = game.hints
        startedDate = ISO8601.string(game.startedDate)
        endedDate = game.endedDate.map { ISO8601.string($0) }
        day = game.daily
        moveKinds = game.moveKinds?.map(\.rawValue)
    }
}

/// `hangman daily --json`.
struct DailyJSON: Encodable {
    var day: String
    var language: String
    var game: ServedGameJSON?
    var playedCount: Int
    var wonCount: Int
    var currentStreak: Int
    var longestStreak: Int
    /// Lives left in won daily words -> how many.
    var livesLeftDistribution: [String: Int]
    /// The share line (emoji, or the letters H, M and R).
    var share: String?
    /// Streak freezes held, and the days they covered (newest first).
    var streakFreezeCount: Int
    var coveredDays: [String]

    init(_ status: DailyStatus, share: String?) {
        streakFreezeCount = status.streakFreezes ?? 0
        coveredDays = status.coveredDays ?? []
        day = status.date
        language = status.language
        game = status.game.map(ServedGameJSON.init)
        playedCount = status.played
        wonCount = status.won
        currentStreak = status.currentStreak
        longestStreak = status.longestStreak
        livesLeftDistribution = status.livesLeftDistribution
        self.share = share
    }
}

/// `hangman leaderboard --json`.
struct LeaderboardJSON: Encodable {
    struct Row: Encodable {
        var rank: Int
        var displayName: String
        var score: Int
        var hintCount: Int
        var missCount: Int
        var wonCount: Int

        init(_ row: LeaderboardRow) {
            rank = row.rank
            displayName = row.name
            score = row.score
            hintCount = row.hints
            missCount = row.misses
            wonCount = row.won
        }
    }

    /// The day (with `week`, the last of the seven).
    var day: String
    var language: String
    var week: Bool
    var playerCount: Int
    var top: [Row]
    var you: Row?

    init(_ board: Leaderboard) {
        day = board.date
        language = board.language
        week = board.week
        playerCount = board.players
        top = board.top.map(Row.init)
        you = board.you.map(Row.init)
    }
}
