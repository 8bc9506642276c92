import CivilCalendar
import LetterFolding
import Messages

/// Served games: a service that plays the game with the account, the word kept on its side (a
/// pack server). The embedded store serves its own daily word only (``PackService/dailyWords``):
/// its other games are played on the device.
public protocol GameService: Sendable {
    /// Starts a game (the daily word with `request.daily`), or resumes the account's live one.
    func startGame(_ request: GameRequest) async throws(ServiceError) -> ServedGame
    /// The live game (not the daily word), if any.
    func currentGame() async throws(ServiceError) -> ServedGame?
    /// The account's game `id`, whatever its state.
    func game(_ id: String) async throws(ServiceError) -> ServedGame
    /// A letter or the whole word.
    func guess(game id: String, _ text: String) async throws(ServiceError) -> ServedGame
    /// One hint paid and one letter revealed; the same key again pays nothing.
    func hint(game id: String, idempotencyKey: String) async throws(ServiceError) -> ServedGame
    /// Gives the game up (it counts as lost).
    func abandonGame(_ id: String) async throws(ServiceError) -> ServedGame
    /// The account's games, on every device.
    func gameStatistics() async throws(ServiceError) -> GameStatistics
    /// Today's daily word in `language` (`nil`: English) and the account's daily record.
    func daily(language: String?) async throws(ServiceError) -> DailyStatus
    /// The daily words of the archive in `language` (`nil`: English): each day from `since`
    /// (`nil`: the 30 days before today) to yesterday, with the account's result.
    func dailyArchive(language: String?, since: String?) async throws(ServiceError) -> DailyArchive
    /// A code to give one person to become friends (single use, a week).
    func inviteFriend() async throws(ServiceError) -> FriendInvite
    /// Becomes friends with the account whose invitation `code` is.
    func addFriend(code: String) async throws(ServiceError) -> Friend
    /// The account's friends.
    func friends() async throws(ServiceError) -> [Friend]
    /// Ends the friendship with the friend named `name`; the friend that was.
    func removeFriend(named name: String) async throws(ServiceError) -> Friend
    /// ``leaderboard(date:language:week:hard:)`` of the account's friends and the account alone.
    func friendsLeaderboard(date: String?, language: String?, week: Bool, hard: Bool) async throws(ServiceError) -> Leaderboard
    /// The daily word's scores of `date` (`nil`: today), or the seven days to it summed; with
    /// `hard`, its hard mode's own board.
    func leaderboard(date: String?, language: String?, week: Bool, hard: Bool) async throws(ServiceError) -> Leaderboard
    /// Sets a friend a challenge: a word both play (or the friend alone, the challenger's own).
    func challenge(_ request: ChallengeRequest) async throws(ServiceError) -> Challenge
    /// The account's challenges, set and received, that have not expired; newest first.
    func challenges() async throws(ServiceError) -> [Challenge]
    /// The name the account appears under on leaderboards; the name as kept.
    func setDisplayName(_ name: String) async throws(ServiceError) -> String
}

extension GameService {
    /// The daily word's board (not its hard mode's).
    public func leaderboard(date: String?, language: String?, week: Bool) async throws(ServiceError) -> Leaderboard {
        try await leaderboard(date: date, language: language, week: week, hard: false)
    }

    /// The daily word's board of the account's friends (not its hard mode's).
    public func friendsLeaderboard(date: String?, language: String?, week: Bool) async throws(ServiceError) -> Leaderboard {
        try await friendsLeaderboard(date: date, language: language, week: week, hard: false)
    }
}

/// A friend as the account sees one: the name the friend appears under (never a secret, never
/// found by searching), and since when.
public struct Friend: Sendable, Equatable, Codable {
    public var name: String
    public var since: Int64

    public init(name: String, since: Int64) {
        self.name = name
        self.since = since
    }
}

/// `POST /v1/friends/invites`: a code to give one person, good once, until `expiresDate`.
public struct FriendInvite: Sendable, Equatable, Codable {
    public var code: String
    public var expiresDate: Int64

    public init(code: String, expiresDate: Int64) {
        self.code = code
        self.expiresDate = expiresDate
    }

    /// How long an invitation is good for: a week.
    public static let lifetime: Int64 = 7 * 86_400_000
}

/// `GET /v1/daily/archive`: past days' daily words in a language, newest first, each with the
/// account's result; a past day is played with `POST /v1/games {"daily": true, "date": ...}`.
public struct DailyArchive: Sendable, Equatable, Codable {
    /// One past day.
    public struct Day: Sendable, Equatable, Codable {
        /// What the account did with the day's word.
        public enum Result: String, Sendable, Codable {
            case notPlayed = "not-played", playing, won, lost
        }
        public var date: String
        public var result: Result
        /// Played from the archive rather than on the day.
        public var archive: Bool
        /// A won game's score.
        public var score: Int?

        public init(date: String, result: Result, archive: Bool, score: Int?) {
            self.date = date
            self.result = result
            self.archive = archive
            self.score = score
        }
    }

    public var language: String
    /// The archive's first day (the daily word's first, 2026-01-01).
    public var firstDate: String
    public var days: [Day]

    public init(language: String, firstDate: String, days: [Day]) {
        self.language = language
        self.firstDate = firstDate
        self.days = days
    }
}

/// `GET /v1/daily`: the day's word for a language, as far as the account has played it, and the
/// account's record of daily words.
public struct DailyStatus: Sendable, Equatable, Codable {
    /// `2026-12-02` (UTC, the service's clock).
    public var date: String
    /// The language whose word it is (BCP 47).
    public var language: String
    /// The account's game of the day's word: `nil` before it is started.
    public var game: ServedGame?
    /// Daily words played (ended) and won.
    public var played: Int
    /// Daily words won.
    public var won: Int
    /// Days in a row won, up to today (or yesterday, when today's is not played yet).
    public var currentStreak: Int
    /// The longest run of days won in a row.
    public var longestStreak: Int
    /// Lives left in won daily games -> how many games.
    public var livesLeftDistribution: [String: Int]
    /// Streak freezes held: each covers one missed day, spent when the next word is won (the
    /// streak counts on over the days they can cover).
    public var streakFreezes: Int?
    /// The days freezes covered in this language, newest first (the last 30).
    public var coveredDays: [String]?

    /// A status of the day's word and the account's record.
    public init(
        date: String, language: String, game: ServedGame?, played: Int, won: Int, currentStreak: Int, longestStreak: Int,
        livesLeftDistribution: [String: Int]
    ) {
        self.date = date
        self.language = language
        self.game = game
        self.played = played
        self.won = won
        self.currentStreak = currentStreak
        self.longestStreak = longestStreak
        self.livesLeftDistribution = livesLeftDistribution
    }
}

/// `GET /v1/leaderboards/daily/{date}`: the daily word's scores, best first (score, then fewer
/// hints, then fewer misses; equal games share a rank); only served games count.
public struct Leaderboard: Sendable, Equatable, Codable {
    /// The day (`--week`: the last of the seven days).
    public var date: String
    /// The language of the board's word (BCP 47).
    public var language: String
    /// The seven days to `date` summed.
    public var week: Bool
    /// Players with a finished daily game on the day (or the week).
    public var players: Int
    /// The top 10.
    public var top: [LeaderboardRow]
    /// The asking account's row, when it played (also when it is in the top 10).
    public var you: LeaderboardRow?
    /// Ranks the asker's friends and the asker only (`true`); `nil`: every player.
    public var friends: Bool?
    /// The daily word's hard mode's own board (`true`); `nil`: the daily word's.
    public var hard: Bool?

    /// A board of `date` (or the seven days to it), its best rows and the asker's.
    public init(date: String, language: String, week: Bool, players: Int, top: [LeaderboardRow], you: LeaderboardRow?) {
        self.date = date
        self.language = language
        self.week = week
        self.players = players
        self.top = top
        self.you = you
    }

    /// How many rows a leaderboard shows.
    public static let size = 10
}

/// One row of a leaderboard: a player, their rank and their game (or week).
public struct LeaderboardRow: Sendable, Equatable, Codable {
    /// 1 for the best: the higher score, then fewer hints, then fewer misses. Equal rows share a
    /// rank; the time of day a game ended never counts.
    public var rank: Int
    /// The display name, or `Player` and the last 4 characters of the account id.
    public var name: String
    /// The points of the day (summed over the week's days).
    public var score: Int
    /// Hints spent (summed over the week's days).
    public var hints: Int
    /// Wrong guesses (summed over the week's days).
    public var misses: Int
    /// Daily words won (1 or 0 for a day).
    public var won: Int

    /// A row as a board shows it.
    public init(rank: Int, name: String, score: Int, hints: Int, misses: Int, won: Int) {
        self.rank = rank
        self.name = name
        self.score = score
        self.hints = hints
        self.misses = misses
        self.won = won
    }

    /// `misses` may be left out (an earlier server's row): 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rank = try container.decode(Int.self, forKey: .rank)
        name = try container.decode(String.self, forKey: .name)
        score = try container.decode(Int.self, forKey: .score)
        hints = try container.decode(Int.self, forKey: .hints)
        misses = try container.decodeIfPresent(Int.self, forKey: .misses) ?? 0
        won = try container.decode(Int.self, forKey: .won)
    }
}

/// `PUT /v1/account/name`.
public struct DisplayNameRequest: Sendable, Equatable, Codable {
    /// The name asked for; the answer's, the name as kept.
    public var name: String
    /// A request for `name`.
    public init(name: String) { self.name = name }
}

/// A display name: 1 to 24 characters, letters, digits, spaces and `-_.`, no control or format
/// characters; compared folded (case and accents), so that `Ana` and `ANA` are one name.
public enum DisplayName {
    /// The longest name, in characters (and in code points).
    public static let maxLength = 24

    /// The name as kept (spaces at the ends trimmed), or a sentence saying why it is refused.
    public static func check(_ name: String) -> Result<String, ServiceError> {
        let trimmed = String(name.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        guard !trimmed.isEmpty else { return .failure(ServiceError(.invalidRequest, L10n.text("a name has 1 to %s characters, not none", maxLength))) }
        // Counted as a person sees them (grapheme clusters) and as the database keeps them (code
        // points: an accent written apart counts): a pile of marks on one letter is refused here,
        // with a sentence, not by the database.
        let scalars = trimmed.unicodeScalars.count
        guard trimmed.count <= maxLength, scalars <= maxLength else {
            return .failure(ServiceError(
                .invalidRequest,
                L10n.text("a name has 1 to %s characters, accents written apart counted, not %s", maxLength, max(trimmed.count, scalars))))
        }
        for scalar in trimmed.unicodeScalars where scalar.properties.isDefaultIgnorableCodePoint {
            return .failure(ServiceError(
                .invalidRequest, L10n.text("a name has no invisible characters (U+%s): it would look like another", String(scalar.value, radix: 16, uppercase: true))))
        }
        if isPlaceholderShaped(trimmed) {
            return .failure(ServiceError(.invalidRequest, L10n.text("'%s' is how the boards show a player without a name: choose another", trimmed)))
        }
        for scalar in trimmed.unicodeScalars {
            let allowed = scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal || " -_.".unicodeScalars.contains(scalar)
                || [.nonspacingMark, .spacingMark].contains(scalar.properties.generalCategory)
            guard allowed else {
                let shown = scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                    ? "U+" + String(scalar.value, radix: 16, uppercase: true) : "'\(scalar)'"
                return .failure(ServiceError(.invalidRequest, L10n.text("a name has letters, digits, spaces and - _ . only, not %s", shown)))
            }
        }
        return .success(trimmed)
    }

    /// The name as names are compared: case and accents folded, runs of spaces as one.
    public static func folded(_ name: String) -> String {
        var out = ""
        for character in LetterFolding(language: "en").foldedWord(name) {
            if character == " ", out.last == " " { continue }
            out.append(character)
        }
        return out
    }

    /// Whether `name` reads as a placeholder (`Player 1a2b`, in any case and spacing).
    static func isPlaceholderShaped(_ name: String) -> Bool {
        let words = folded(name).split(separator: " ")
        return words.count == 2 && words[0] == "player" && words[1].count == 4 && words[1].allSatisfy(\.isHexDigit)
    }

    /// The name shown for an account without one: `Player` and the last 4 characters of its id.
    public static func placeholder(account: String) -> String { "Player " + account.suffix(4) }
}

/// `2026-12-02`: a day as the daily word and its leaderboards name it (UTC).
public enum DailyDate {
    /// Days since 1970-01-01 -> its text.
    public static func text(day: Int64) -> String {
        UTCDateTime(millisecondsSince1970: day * UTCDateTime.millisecondsPerDay).dateText
    }

    /// The day a `YYYY-MM-DD` text names, or `nil` for anything else (`2026-02-30` too).
    public static func day(parsing text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2]), (1...12).contains(month),
            (1...CivilDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return CivilDate.days(fromCivil: year, month, day)
    }
}
