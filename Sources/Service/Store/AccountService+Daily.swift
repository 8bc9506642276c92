import CivilCalendar
import HangmanGame
import Signing
import WordPacks

/// What a server gives each account's service for the daily word: the service's secret that
/// orders each language's words, the board leaderboards read, and which account this is.
public struct DailyWords: Sendable {
    /// 32 bytes derived from the service's signing key: the same on every server of the service.
    public var secret: [UInt8]
    public var board: any DailyBoard
    public var account: String

    public init(secret: [UInt8], board: any DailyBoard, account: String) {
        self.secret = secret
        self.board = board
        self.account = account
    }

    /// The purpose the secret is derived for (``SigningKey/derivedSecret(for:)``).
    public static let purpose = "hangman-packs daily word v1"
}

/// The daily word, the account's statistics and leaderboards: every rule of them here, the server
/// only a transport.
extension AccountService {
    private func dailyWordsOrRefuse() throws(StoreError) -> DailyWords {
        guard let dailyWords else {
            throw StoreError(.invalidRequest, "the daily word is played on a pack server: this store plays its games on the device")
        }
        return dailyWords
    }

    /// Today (UTC, the store's clock), as days since 1970.
    var today: Int64 { UTCDateTime.day(ofMilliseconds: clock.now()) }

    /// The base pack of `language` (`nil`: English): its archive, its daily words in order (its
    /// `DailyList`, else all its words), its language tag.
    func dailyPack(_ language: String?) throws(StoreError) -> (file: PackArchiveFile, words: [PackWordChoice], language: String) {
        let wanted = (language ?? "en").lowercased()
        guard !wanted.isEmpty, wanted.utf8.count <= 35, wanted.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) })
        else { throw StoreError(.invalidRequest, "'\(wanted.prefix(40))' is not a language tag (like en, es, pt-BR)") }
        var byPrimary: (PackArchiveFile, ServedPackWords.Pack)?
        var languages: [String] = []
        for base in catalog.basePacks {
            guard let file = try? packArchiveFile(base.productID), let pack = try? packWords.pack(file) else { continue }
            languages.append(pack.language)
            let tag = pack.language.lowercased()
            if tag == wanted { byPrimary = (file, pack); break }
            if byPrimary == nil, LanguageTag.sameLanguage(tag, wanted) { byPrimary = (file, pack) }
        }
        guard let (file, pack) = byPrimary else {
            throw StoreError(
                .notFound, "no daily word in '\(wanted)': the service has base packs in " + (languages.isEmpty ? "no language" : languages.joined(separator: ", ")))
        }
        // The pack's daily list when it has one (its everyday words), else every word of it.
        let words = pack.daily.map { daily in daily.words.map { PackWordChoice(word: $0, category: daily.name) } }
            ?? pack.lists.flatMap { list in list.words.map { PackWordChoice(word: $0, category: list.name) } }
        guard !words.isEmpty else { throw StoreError(.notFound, "the base pack in '\(pack.language)' has no words") }
        return (file, words, pack.language)
    }

    /// The word of `day`: the base pack's words in an order keyed by the service's secret and the
    /// language (so no one can work out tomorrow's from the pack), one a day: two days in a row
    /// never share a word, and a word comes back only after every other has had its day.
    static func dailyIndex(day: Int64, count: Int, secret: [UInt8], language: String) -> Int {
        let digest = SHA256.hash(secret + Array("/\(language.lowercased())".utf8)).bytes
        let seed = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var generator = SeededGenerator(seed: seed)
        let order = Array(0..<count).shuffled(using: &generator)
        return order[Int(((day % Int64(count)) + Int64(count)) % Int64(count))]
    }

    /// Starts today's daily word in `language`, or resumes it; once it has ended, 409.
    public func startDaily(language: String?, lives: Int?) throws(StoreError) -> ServedGame {
        let daily = try dailyWordsOrRefuse()
        let lives = lives ?? Game.defaultLives
        guard (1...GameRequest.maxLives).contains(lives) else {
            throw StoreError(.invalidRequest, "a game has 1 to \(GameRequest.maxLives) lives, not \(lives)")
        }
        let (file, words, tag) = try dailyPack(language)
        let day = today
        let date = DailyDate.text(day: day)
        let choice = words[Self.dailyIndex(day: day, count: words.count, secret: daily.secret, language: tag)]
        let now = clock.now()
        var row = GameRow(
            id: Game.newID(using: &random), productID: file.productID, packName: file.displayName, category: choice.category, word: choice.word.text,
            clue: choice.word.clue, language: tag, lives: lives, state: .playing, score: 0, startedDate: now, endedDate: nil)
        row.daily = date
        let started = try ledger.startDaily(row)
        guard started.game.row.state == .playing else {
            recordDaily(started.game)
            let row = started.game.row
            throw StoreError(
                .wrongState,
                "you played the daily word of \(date) already (\(row.state.rawValue)\(row.state == .won ? ", \(row.score) points" : "")): the next comes at 00:00 UTC; 'hangman daily' shows your record")
        }
        return try view(started.game, resumed: started.resumed, hints: ledger.balance())
    }

    /// Today's daily word in `language` as far as the account has played it, and its record.
    public func dailyStatus(language: String?) throws(StoreError) -> DailyStatus {
        _ = try dailyWordsOrRefuse()
        let (_, _, tag) = try dailyPack(language)
        let day = today
        let date = DailyDate.text(day: day)
        let game = try ledger.dailyGame(date: date, language: tag)
        if let game, game.row.state != .playing { recordDaily(game) }
        var played = 0, won = 0, longest = 0, run = 0
        var lastWon: Int64?
        var distribution: [String: Int] = [:]
        for row in try ledger.endedGames() where row.daily != nil && row.language == tag {
            guard let rowDay = row.daily.flatMap(DailyDate.day(parsing:)) else { continue }
            played += 1
            guard row.state == .won else {
                run = 0
                lastWon = nil
                continue
            }
            won += 1
            run = lastWon == rowDay - 1 ? run + 1 : 1
            lastWon = rowDay
            longest = max(longest, run)
            distribution[String(row.lives - (row.misses ?? 0)), default: 0] += 1
        }
        // A streak lives while today's word, or yesterday's, was won.
        let current = lastWon.map { $0 >= day - 1 ? run : 0 } ?? 0
        return DailyStatus(
            date: date, language: tag, game: try game.map { played throws(StoreError) in try view(played, hints: ledger.balance()) }, played: played,
            won: won, currentStreak: current, longestStreak: longest, livesLeftDistribution: distribution)
    }

    /// The account's ended daily game, copied to the board leaderboards read. The move that ended
    /// it is already answered: a board that cannot be written now is written on the next read of
    /// the day (``dailyStatus(language:)``, or a second start).
    func recordDaily(_ played: AccountLedger.PlayedGame) {
        let row = played.row
        guard let daily = dailyWords, let day = row.daily, row.state != .playing, let ended = row.endedDate else { return }
        try? daily.board.record(
            DailyScore(
                day: day, language: row.language, account: daily.account, gameID: row.id, score: row.score, hints: played.game.hinted.count,
                won: row.state == .won, finished: ended))
    }

    /// The account's served games, on every device: played, won, streaks, misses in games won.
    public func statistics() throws(StoreError) -> GameStatistics {
        GameStatistics(results: try ledger.endedGames().map { row in (won: row.state == .won, misses: row.misses) })
    }

    /// The daily word's scores of `date` (`nil`: today) in `language`, or with `week` the seven
    /// days to it summed: best first (score, then fewer hints, then the earlier finish).
    public func leaderboard(date: String?, language: String?, week: Bool) throws(StoreError) -> Leaderboard {
        let daily = try dailyWordsOrRefuse()
        let day: Int64
        if let date, date != "today" {
            guard let parsed = DailyDate.day(parsing: date) else { throw StoreError(.invalidRequest, "'\(date.prefix(40))' is not a day (YYYY-MM-DD)") }
            day = parsed
        } else {
            day = today
        }
        let tag = try dailyPack(language).language
        let days = (week ? (day - 6)...day : day...day).map(DailyDate.text(day:))
        var totals: [String: (score: Int, hints: Int, won: Int, finished: Int64)] = [:]
        for score in try daily.board.scores(days: days, language: tag) {
            let kept = totals[score.account] ?? (0, 0, 0, 0)
            totals[score.account] = (kept.score + score.score, kept.hints + score.hints, kept.won + (score.won ? 1 : 0), max(kept.finished, score.finished))
        }
        let ranked = totals.sorted { a, b in
            if a.value.score != b.value.score { return a.value.score > b.value.score }
            if a.value.hints != b.value.hints { return a.value.hints < b.value.hints }
            if a.value.finished != b.value.finished { return a.value.finished < b.value.finished }
            return a.key < b.key
        }
        let yours = ranked.firstIndex { $0.key == daily.account }
        let shown = Array(ranked.prefix(Leaderboard.size).map(\.key)) + (yours.map { [ranked[$0].key] } ?? [])
        let names = try daily.board.names(of: shown)
        func row(_ index: Int) -> LeaderboardRow {
            let (account, total) = ranked[index]
            return LeaderboardRow(
                rank: index + 1, name: names[account] ?? DisplayName.placeholder(account: account), score: total.score, hints: total.hints,
                won: total.won, finished: total.finished)
        }
        return Leaderboard(
            date: DailyDate.text(day: day), language: tag, week: week, players: ranked.count, top: ranked.indices.prefix(Leaderboard.size).map(row),
            you: yours.map(row))
    }

    /// The name the account appears under; 409 when another account has it (compared folded).
    public func setDisplayName(_ name: String) throws(StoreError) -> String {
        let daily = try dailyWordsOrRefuse()
        let kept = try DisplayName.check(name).get()
        guard try daily.board.setName(account: daily.account, name: kept, folded: DisplayName.folded(kept), now: clock.now()) else {
            throw StoreError(.wrongState, "the name '\(kept)' is taken on this service: choose another")
        }
        return kept
    }
}

/// A word of a pack with the list (category) it is in.
struct PackWordChoice {
    var word: PackWord
    var category: String
}
