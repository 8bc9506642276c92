/// The service's record across accounts that leaderboards read: each account's ended daily word,
/// and the names players appear under. Kept where the servers' accounts are (beside them in
/// SQLite, or in the PostgreSQL database they share); an account's service writes its own rows.
public protocol DailyBoard: Sendable {
    /// Records an account's ended daily game; the same game again changes nothing.
    func record(_ score: DailyScore) throws(StoreError)
    /// The scores of `days` in `language`.
    func scores(days: [String], language: String) throws(StoreError) -> [DailyScore]
    /// The display names of the accounts that have one.
    func names(of accounts: [String]) throws(StoreError) -> [String: String]
    /// Sets the account's name; `false` when another account holds it (compared `folded`).
    func setName(account: String, name: String, folded: String, now: Int64) throws(StoreError) -> Bool
}

/// One account's ended daily word, as a leaderboard reads it.
public struct DailyScore: Sendable, Equatable {
    public var day: String
    public var language: String
    public var account: String
    public var gameID: String
    public var score: Int
    public var hints: Int
    public var won: Bool
    public var finished: Int64

    public init(day: String, language: String, account: String, gameID: String, score: Int, hints: Int, won: Bool, finished: Int64) {
        self.day = day
        self.language = language
        self.account = account
        self.gameID = gameID
        self.score = score
        self.hints = hints
        self.won = won
        self.finished = finished
    }
}
