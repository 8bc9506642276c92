import PackServiceAPI
import SystemCalls
import Synchronization

/// The service's record across accounts that leaderboards read: each account's ended daily word,
/// each account's sum over the seven days to each day (the week's board), how many players stand
/// at each score, and the names players appear under. Kept where the servers' accounts are (beside
/// them in SQLite, or in the PostgreSQL database they share); an account's service writes its own
/// rows, and every aggregate is written in the same transaction as the row it counts.
///
/// A board is read from its indexes: its best rows by `ORDER BY ... LIMIT`, a player's rank from
/// the counts per score (``BoardBucket``), so a read does not grow with the number of players.
public protocol DailyBoard: Sendable {
    /// Records an account's ended daily game, its week's sums and the counts, in one transaction;
    /// the same game again changes nothing.
    func record(_ score: DailyScore) throws(ServiceError)
    /// The best `limit` entries of `board`, best first (``BoardEntry/ranksBefore(_:)``).
    func top(_ board: BoardKey, limit: Int) throws(ServiceError) -> [BoardEntry]
    /// How many players stand at each score, hints and misses of `board`.
    func buckets(_ board: BoardKey) throws(ServiceError) -> [BoardBucket]
    /// The account's entry on `board`, if it played.
    func entry(_ board: BoardKey, account: String) throws(ServiceError) -> BoardEntry?
    /// The display names of the accounts that have one.
    func names(of accounts: [String]) throws(ServiceError) -> [String: String]
    /// Sets the account's name; `false` when another account holds it or one like it (compared
    /// `folded`, and by its `skeleton`).
    func setName(account: String, name: String, folded: String, skeleton: String, now: Int64) throws(ServiceError) -> Bool
    /// Gives each name made before skeletons were kept its own (`skeleton` of its folded form); a
    /// name whose skeleton another holds keeps none. How many were given one.
    func fillSkeletons(_ skeleton: (String) -> String) throws(ServiceError) -> Int
}

/// One account's ended daily word, as a leaderboard reads it.
public struct DailyScore: Sendable, Equatable {
    public var day: String
    public var language: String
    public var account: String
    public var gameID: String
    public var score: Int
    public var hints: Int
    public var misses: Int
    public var won: Bool
    public var finished: Int64

    public init(day: String, language: String, account: String, gameID: String, score: Int, hints: Int, misses: Int, won: Bool, finished: Int64) {
        self.day = day
        self.language = language
        self.account = account
        self.gameID = gameID
        self.score = score
        self.hints = hints
        self.misses = misses
        self.won = won
        self.finished = finished
    }
}

/// A board: one day's, or the week (seven days) to a day, in one language.
public struct BoardKey: Sendable, Hashable {
    /// The (last) day, `YYYY-MM-DD`.
    public var day: String
    public var language: String
    public var week: Bool

    public init(day: String, language: String, week: Bool) {
        self.day = day
        self.language = language
        self.week = week
    }

    /// The kind as the counts table names it.
    var kind: String { week ? "w" : "d" }

    /// The language a board is kept under: the daily word's (`en`), or, for its hard mode's own
    /// board, that language with a private-use subtag (`en-x-hard`). Never on the wire.
    public static func language(_ tag: String, hard: Bool) -> String { hard ? tag + "-x-hard" : tag }
}

/// An account's standing on a board: its score (summed over the week's days), hints and misses,
/// and daily words won.
public struct BoardEntry: Sendable, Equatable {
    public var account: String
    public var score: Int
    public var hints: Int
    public var misses: Int
    public var won: Int

    public init(account: String, score: Int, hints: Int, misses: Int, won: Int) {
        self.account = account
        self.score = score
        self.hints = hints
        self.misses = misses
        self.won = won
    }

    /// The board's order: the higher score first, then fewer hints, then fewer misses. Never the
    /// time of the finish: a second account that learns the word cannot rank its first by waking
    /// at 00:00. Equal entries share a rank (listed by account id, which tells nothing).
    public func ranksBefore(_ other: BoardEntry) -> Bool {
        Self.ranksBefore((score, hints, misses), (other.score, other.hints, other.misses))
    }

    /// The board's order on (score, hints, misses), for entries and the counts alike.
    static func ranksBefore(_ a: (score: Int, hints: Int, misses: Int), _ b: (score: Int, hints: Int, misses: Int)) -> Bool {
        if a.score != b.score { return a.score > b.score }
        if a.hints != b.hints { return a.hints < b.hints }
        return a.misses < b.misses
    }
}

/// How many players stand at one score, hints and misses on a board.
public struct BoardBucket: Sendable, Equatable {
    public var score: Int
    public var hints: Int
    public var misses: Int
    public var players: Int

    public init(score: Int, hints: Int, misses: Int, players: Int) {
        self.score = score
        self.hints = hints
        self.misses = misses
        self.players = players
    }
}

/// What recording one daily score changes on the boards, in the order to write it: the day's
/// count at the score, and for each of the seven weeks the day counts in (the weeks to it and to
/// each of the six days after it), the account's sums and the counts they leave and join. Each
/// engine writes these in the transaction that inserts the score.
enum BoardChange: Equatable {
    /// `by` more players (fewer, when negative: the bucket is there) at `entry`'s score, hints and misses on the board `kind` of `day`.
    case count(kind: String, day: String, entry: BoardEntry, by: Int)
    /// The account's sums for the week to `end`.
    case week(end: String, entry: BoardEntry)

    static func changes(recording score: DailyScore, weekEntry: (_ end: String) throws -> BoardEntry?) throws -> [BoardChange] {
        let added = BoardEntry(account: score.account, score: score.score, hints: score.hints, misses: score.misses, won: score.won ? 1 : 0)
        var changes: [BoardChange] = [.count(kind: "d", day: score.day, entry: added, by: 1)]
        guard let first = DailyDate.day(parsing: score.day) else { return changes }
        for day in first...(first + 6) {
            let end = DailyDate.text(day: day)
            var sum = added
            if let kept = try weekEntry(end) {
                changes.append(.count(kind: "w", day: end, entry: kept, by: -1))
                sum = BoardEntry(
                    account: score.account, score: kept.score + added.score, hints: kept.hints + added.hints, misses: kept.misses + added.misses,
                    won: kept.won + added.won)
            }
            changes.append(.week(end: end, entry: sum))
            changes.append(.count(kind: "w", day: end, entry: sum, by: 1))
        }
        return changes
    }
}

/// The boards every player of a server reads, kept in memory for a few seconds: the best rows,
/// their names and the counts per score, read once for everyone rather than once per request. A
/// board this server records a score on is read again at once; another server's score shows
/// within ``lifetime``.
public final class LeaderboardCache: Sendable {
    struct Board: Sendable {
        var top: [BoardEntry]
        var names: [String: String]
        var buckets: [BoardBucket]
        var players: Int
        var read: Int64
    }

    private struct State {
        var boards: [BoardKey: Board] = [:]
        /// The boards one request is reading now.
        var refreshing: Set<BoardKey> = []
    }

    private let state = Mutex(State())
    /// How long a board is kept, in milliseconds.
    public let lifetime: Int64

    public init(lifetime: Int64 = 5_000) {
        self.lifetime = lifetime
    }

    /// The board `key`, kept or read now through `board`. One request at a time reads a board
    /// that is out of date; the others are answered from the one kept meanwhile (a few seconds
    /// old), so that many readers of one board never queue behind its reading.
    func board(_ key: BoardKey, from board: any DailyBoard, size: Int) throws(ServiceError) -> Board {
        let now = MonotonicClock.milliseconds()
        enum Decision { case kept(Board), read }
        let decision: Decision = state.withLock { state in
            guard let kept = state.boards[key] else { return .read }
            if now - kept.read < lifetime || state.refreshing.contains(key) { return .kept(kept) }
            state.refreshing.insert(key)
            return .read
        }
        if case .kept(let kept) = decision { return kept }
        defer { _ = state.withLock { $0.refreshing.remove(key) } }
        let top = try board.top(key, limit: size)
        let buckets = try board.buckets(key)
        let read = Board(
            top: top, names: try board.names(of: top.map(\.account)), buckets: buckets, players: buckets.reduce(0) { $0 + $1.players }, read: now)
        state.withLock { state in
            // Boards of days long gone are dropped as new ones come: the map stays small.
            if state.boards.count > 256 { state.boards = state.boards.filter { now - $0.value.read < lifetime } }
            state.boards[key] = read
        }
        return read
    }

    /// Marks out of date the boards a score of `day` in `language` changes: that day's, and the weeks to it
    /// and to the six days after it.
    func outdate(day: String, language: String) {
        guard let first = DailyDate.day(parsing: day) else { return }
        // Marked out of date, not dropped: the next request reads it again while the others are
        // answered from it meanwhile.
        let keys = [BoardKey(day: day, language: language, week: false)]
            + (first...(first + 6)).map { BoardKey(day: DailyDate.text(day: $0), language: language, week: true) }
        state.withLock { state in
            for key in keys { state.boards[key]?.read = Int64.min / 2 }
        }
    }
}
