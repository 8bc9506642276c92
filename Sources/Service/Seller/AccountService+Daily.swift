import CivilCalendar
import Confusables
import HangmanGame
import LetterFolding
import Messages
import Signing
import Synchronization
import WordPacks

/// What an account's service needs for the daily word: the secret that draws each language's
/// words and the schedules walked so far; on a server, also the board its scores go to and
/// leaderboards are read from (``DailyBoards``).
public struct DailyWords: Sendable {
    /// 32 bytes derived from the service's signing key: the same on every server of the service.
    public var secret: [UInt8]
    /// The schedules walked so far, shared by every account of the server.
    public var schedules: DailySchedules
    /// Where scores go and boards are read; `nil`: a daily word on no board (the embedded store's).
    public var boards: DailyBoards?

    /// A server's daily word: its scores on `board`, as `account`'s.
    public init(secret: [UInt8], board: any DailyBoard, account: String, schedules: DailySchedules, boards: LeaderboardCache) {
        self.secret = secret
        self.schedules = schedules
        self.boards = DailyBoards(board: board, account: account, cache: boards)
    }

    /// A daily word on no board: the embedded store's own.
    public init(secret: [UInt8], schedules: DailySchedules) {
        self.secret = secret
        self.schedules = schedules
    }

    /// The purpose the secret is derived for (``SigningKey/derivedSecret(for:)``).
    public static let purpose = "hangman-packs daily word v1"
}

/// A server's daily board: where each account's ended daily game is recorded and leaderboards are
/// read, and the boards read lately, shared by every account of the server.
public struct DailyBoards: Sendable {
    public var board: any DailyBoard
    /// The account these scores are.
    public var account: String
    public var cache: LeaderboardCache
}

/// Each language's daily schedule as far as it was walked (``DailySchedule/Cursor``), so that a
/// day's word costs one step, not a walk from the anchor. Keyed by the list (its pack's digest and
/// size): a republished pack starts a new walk.
public final class DailySchedules: Sendable {
    private let cursors = Mutex<[String: DailySchedule.Cursor]>([:])

    public init() {}

    /// The past days' words walked so far, by list as ``cursors``: the index of each day's word
    /// from the anchor on, so that the archive's days cost a lookup and never move the walk of today's.
    private let archive = Mutex<[String: (cursor: DailySchedule.Cursor, indices: [Int])]>([:])

    /// A walk's key: the language, and the list by its pack's digest and its size.
    private static func key(count: Int, list: String, language: String) -> String { "\(language.lowercased()) \(list) \(count)" }

    /// The draws keyed by `secret` for `language` (``DailySchedule/Draw``).
    private static func draw(language: String, secret: [UInt8]) -> DailySchedule.Draw {
        let prefix = secret + Array("/\(language.lowercased())/".utf8)
        return { day, attempt in
            SHA256.hash(prefix + Array("\(day)/\(attempt)".utf8)).bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
    }

    /// The index of a past `day`'s word (on or after ``DailySchedule/anchorDay``), as
    /// ``index(day:count:list:language:secret:)`` gave it on the day.
    func archivedIndex(day: Int64, count: Int, list: String, language: String, secret: [UInt8]) -> Int {
        let draw = Self.draw(language: language, secret: secret)
        let key = Self.key(count: count, list: list, language: language)
        let offset = Int(max(0, day - DailySchedule.anchorDay))
        return archive.withLock { memo in
            var walked = memo[key] ?? (DailySchedule.Cursor(schedule: DailySchedule(count: count)), [])
            while walked.indices.count <= offset {
                walked.indices.append(walked.cursor.index(day: DailySchedule.anchorDay + Int64(walked.indices.count), draw: draw) ?? 0)
            }
            memo[key] = walked
            return walked.indices[offset]
        }
    }

    /// The index of `day`'s word in a list of `count` words of the pack `list` in `language`, the
    /// draws keyed by `secret`.
    func index(day: Int64, count: Int, list: String, language: String, secret: [UInt8]) -> Int {
        let draw = Self.draw(language: language, secret: secret)
        let key = Self.key(count: count, list: list, language: language)
        return cursors.withLock { cursors in
            var cursor = cursors[key] ?? DailySchedule.Cursor(schedule: DailySchedule(count: count))
            let index = cursor.index(day: day, draw: draw) ?? 0
            cursors[key] = cursor
            return index
        }
    }
}

/// The daily word, the account's statistics and leaderboards: every rule of them here, the server
/// only a transport.
extension AccountService {
    private func dailyWordsOrRefuse() throws(ServiceError) -> DailyWords {
        if let dailyWords { return dailyWords }
        // A store that is its own seller (the embedded one) draws its own daily word by the same
        // rule, from a secret of its own key, and keeps it on no board.
        guard drawsOwnDailyWord else {
            throw ServiceError(.invalidRequest, L10n.text("the daily word is played on a pack server: this store plays its games on the device"))
        }
        let own = DailyWords(secret: try signer().key.derivedSecret(for: DailyWords.purpose), schedules: DailySchedules())
        dailyWords = own
        return own
    }

    /// The board of the daily word, or a refusal: the embedded store's daily word is on none.
    private func boardsOrRefuse() throws(ServiceError) -> DailyBoards {
        guard let boards = try dailyWordsOrRefuse().boards else {
            throw ServiceError(
                .unavailable,
                L10n.text("leaderboards and names are a pack server's: this store's daily word is played on this device and ranked on no board ('hangman account login' joins a server)"))
        }
        return boards
    }

    /// Today (UTC, the store's clock), as days since 1970.
    var today: Int64 { UTCDateTime.day(ofMilliseconds: clock.now()) }

    /// The base pack of `language` (`nil`: English): its archive, its words (read once per
    /// archive for the server), its language tag. A board or a status asks only the tag.
    func dailyPack(_ language: String?) throws(ServiceError) -> (file: PackArchiveFile, pack: ServedPackWords.Pack, language: String) {
        let wanted = (language ?? "en").lowercased()
        guard !wanted.isEmpty, wanted.utf8.count <= 35, wanted.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) })
        else { throw ServiceError(.invalidRequest, L10n.text("'%s' is not a language tag (like en, es, pt-BR)", wanted.prefix(40))) }
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
            throw ServiceError(
                .notFound,
                languages.isEmpty
                    ? L10n.text("no daily word in '%s': the service has no base pack", wanted)
                    : L10n.text("no daily word in '%s': the service has base packs in %s", wanted, languages.joined(separator: ", ")),
                reason: .noDailyWord)
        }
        return (file, pack, pack.language)
    }

    /// The words a daily word is drawn from: the pack's daily list when it has one (its everyday
    /// words), else every word of it.
    static func dailyChoices(_ pack: ServedPackWords.Pack) throws(ServiceError) -> [PackWordChoice] {
        let words = pack.daily.map { daily in daily.words.map { PackWordChoice(word: $0, category: daily.name) } }
            ?? pack.lists.flatMap { list in list.words.map { PackWordChoice(word: $0, category: list.name) } }
        guard !words.isEmpty else { throw ServiceError(.notFound, L10n.text("the base pack in '%s' has no words", pack.language)) }
        return words
    }

    /// Starts today's daily word in `language`, or resumes it; once it has ended, 409. Every
    /// player has ``DailySchedule/lives`` lives: `lives` may only say so. With a past `date`, that
    /// day's word from the archive (``archiveDay(_:)``): played once, on no board and in no streak.
    public func startDaily(language: String?, lives: Int?, date: String? = nil, hard: Bool = false) throws(ServiceError) -> ServedGame {
        let daily = try dailyWordsOrRefuse()
        if let asked = lives, asked != DailySchedule.lives {
            throw ServiceError(
                .invalidRequest, L10n.text("the daily word is played with %s lives by every player, so that its scores compare: it takes no lives (%s asked)", DailySchedule.lives, asked))
        }
        let lives = DailySchedule.lives
        let (file, pack, tag) = try dailyPack(language)
        let words = try Self.dailyChoices(pack)
        let day = try date.map { text throws(ServiceError) in try archiveDay(text) } ?? today
        let archive = day != today
        if hard, archive { throw ServiceError(.invalidRequest, L10n.text("the daily word's hard mode is played on its day: the archive has the words as they were")) }
        let date = DailyDate.text(day: day)
        // The schedule's rule: no word twice within a year, drawn by the service's secret.
        let index =
            archive
            ? daily.schedules.archivedIndex(day: day, count: words.count, list: file.sha256, language: tag, secret: daily.secret)
            : daily.schedules.index(day: day, count: words.count, list: file.sha256, language: tag, secret: daily.secret)
        let choice = words[index]
        let now = clock.now()
        var row = GameRow(
            id: Game.newID(using: &random), productID: file.productID, packName: file.displayName, category: choice.category, word: choice.word.text,
            clue: choice.word.clue, language: tag, lives: lives, state: .playing, score: 0, startedDate: now, endedDate: nil)
        row.daily = date
        row.archive = archive
        if hard {
            // One key for every player of the day and language (drawn by the service's secret), so
            // that the same guesses get the same answers and the hard board compares.
            let key = HardMode.keyedHash("hard/\(date)/\(tag)", key: daily.secret.prefix(8).reduce(0) { $0 << 8 | UInt64($1) })
            // The candidates of the list the word was drawn from, by its index of shapes.
            let list = pack.daily.flatMap { $0.name == choice.category ? $0 : nil } ?? pack.lists.first { $0.name == choice.category }
            let drawn = HardMode.Candidate(word: choice.word.text, clue: choice.word.clue)
            row.makeHard(key: key, candidates: list?.hardCandidates(drawn: choice.word, folding: LetterFolding(language: tag), key: key) ?? [drawn])
        }
        let started = try ledger.startOnce(row)
        guard started.game.row.state == .playing else {
            recordDaily(started.game)
            let row = started.game.row
            let next = archive ? L10n.text("'hangman daily --archive' lists the days you have not played") : L10n.text("the next comes at 00:00 UTC; 'hangman daily' shows your record")
            let result =
                switch row.state {
                case .won: L10n.plural("won, %d point", "won, %d points", row.score)
                case .abandoned: L10n.text("abandoned")
                default: L10n.text("lost")
                }
            throw ServiceError(.wrongState, L10n.text("you played the daily word of %s already (%s): %s", date, result, next))
        }
        return try view(started.game, resumed: started.resumed, hints: ledger.balance())
    }

    /// The day a daily word's `date` names: today, or a past day of the archive (from
    /// ``DailySchedule/anchorDay``); 400 for anything else.
    func archiveDay(_ date: String) throws(ServiceError) -> Int64 {
        guard date != "today" else { return today }
        guard let day = DailyDate.day(parsing: date) else { throw ServiceError(.invalidRequest, L10n.text("'%s' is not a day (YYYY-MM-DD)", date.prefix(40))) }
        guard day <= today else {
            throw ServiceError(.invalidRequest, L10n.text("%s is after today (%s, UTC): its daily word is not played yet", date, DailyDate.text(day: today)))
        }
        guard day >= DailySchedule.anchorDay else {
            throw ServiceError(.invalidRequest, L10n.text("the daily word's archive starts on %s: there is no word of %s", DailyDate.text(day: DailySchedule.anchorDay), date))
        }
        return day
    }

    /// The archive's days in `language` from `since` (`nil`: the 30 days before today) to
    /// yesterday, newest first, each with the account's result: one read of its daily games.
    public func dailyArchive(language: String?, since: String?) throws(ServiceError) -> DailyArchive {
        _ = try dailyWordsOrRefuse()
        let tag = try dailyPack(language).language
        let yesterday = today - 1
        let first = try since.map { text throws(ServiceError) in try archiveDay(text) } ?? max(DailySchedule.anchorDay, yesterday - 29)
        guard first <= yesterday else { return DailyArchive(language: tag, firstDate: DailyDate.text(day: DailySchedule.anchorDay), days: []) }
        let games = Dictionary(try ledger.dailyGames(language: tag).compactMap { row in row.daily.map { ($0, row) } }) { kept, _ in kept }
        let days = stride(from: yesterday, through: first, by: -1).map { day -> DailyArchive.Day in
            let date = DailyDate.text(day: day)
            guard let row = games[date] else { return DailyArchive.Day(date: date, result: .notPlayed, archive: false, score: nil) }
            let result: DailyArchive.Day.Result =
                switch row.state {
                case .playing: .playing
                case .won: .won
                case .lost, .abandoned: .lost
                }
            return DailyArchive.Day(date: date, result: result, archive: row.archive, score: row.state == .won ? row.score : nil)
        }
        return DailyArchive(language: tag, firstDate: DailyDate.text(day: DailySchedule.anchorDay), days: days)
    }

    /// Today's daily word in `language` as far as the account has played it, and its record.
    public func dailyStatus(language: String?) throws(ServiceError) -> DailyStatus {
        _ = try dailyWordsOrRefuse()
        let (_, _, tag) = try dailyPack(language)
        let day = today
        let date = DailyDate.text(day: day)
        let game = try ledger.dailyGame(date: date, language: tag)
        if let game, game.row.state != .playing { recordDaily(game) }
        let record = try ledger.dailyRecord(language: tag)
        let freezes = try ledger.streakFreezes(language: tag)
        var status = DailyStatus(
            date: date, language: tag, game: try game.map { played throws(ServiceError) in try view(played, hints: ledger.balance()) },
            played: record.played, won: record.won, currentStreak: record.currentStreak(today: day, freezes: freezes.held),
            longestStreak: record.longestStreak, livesLeftDistribution: record.livesLeftDistribution)
        status.streakFreezes = freezes.held
        status.coveredDays = freezes.covered
        return status
    }

    /// The account's ended daily game, copied to the board leaderboards read. The move that ended
    /// it is already answered: a board that cannot be written now is written on the next read of
    /// the day (``dailyStatus(language:)``, or a second start).
    func recordDaily(_ played: AccountLedger.PlayedGame) {
        let row = played.row
        // An archive play is on no board: a past day's board is of those who played on the day.
        guard let daily = dailyWords?.boards, let day = row.daily, !row.archive, row.state != .playing, let ended = row.endedDate else { return }
        do {
            try daily.board.record(
                DailyScore(
                    day: day, language: BoardKey.language(row.language, hard: row.hard != nil), account: daily.account, gameID: row.id, score: row.score, hints: played.game.hinted.count,
                    misses: played.game.misses, won: row.state == .won, finished: ended))
            daily.cache.outdate(day: day, language: BoardKey.language(row.language, hard: row.hard != nil))
        } catch {
            // Written again on the next read of the day.
        }
    }

    /// The account's served games, on every device: played, won, streaks, misses in games won.
    public func statistics() throws(ServiceError) -> GameStatistics {
        try ledger.statistics()
    }

    /// The daily word's board of `date` (`nil`: today) in `language`, or with `week` the seven
    /// days to it summed: its best rows and the asker's, ranked by ``BoardEntry/ranksBefore(_:)``.
    /// Read from the board's indexes and kept a few seconds for every player (``LeaderboardCache``).
    public func leaderboard(date: String?, language: String?, week: Bool, hard: Bool = false) throws(ServiceError) -> Leaderboard {
        try leaderboard(date: date, language: language, week: week, hard: hard, among: nil)
    }

    /// ``leaderboard(date:language:week:)`` of the accounts `among` and the asker only (its
    /// friends, ``SellerService/friendIDs(of:)``): each one's entry read, at most
    /// ``FriendLimits/friends`` and the asker.
    public func leaderboard(date: String?, language: String?, week: Bool, hard: Bool = false, among: [String]?) throws(ServiceError) -> Leaderboard {
        let daily = try boardsOrRefuse()
        let day: Int64
        if let date, date != "today" {
            guard let parsed = DailyDate.day(parsing: date) else { throw ServiceError(.invalidRequest, L10n.text("'%s' is not a day (YYYY-MM-DD)", date.prefix(40))) }
            guard parsed <= today else {
                throw ServiceError(.invalidRequest, L10n.text("%s is after today (%s, UTC): its daily word is not played yet", date, DailyDate.text(day: today)))
            }
            day = parsed
        } else {
            day = today
        }
        let tag = try dailyPack(language).language
        let key = BoardKey(day: DailyDate.text(day: day), language: BoardKey.language(tag, hard: hard), week: week)
        if let among {
            var entries: [BoardEntry] = []
            for account in Set(among.prefix(FriendLimits.friends) + [daily.account]) {
                if let entry = try daily.board.entry(key, account: account) { entries.append(entry) }
            }
            entries.sort { $0.ranksBefore($1) || (!$1.ranksBefore($0) && $0.account < $1.account) }
            let rows = Self.ranked(entries, names: try daily.board.names(of: entries.map(\.account)))
            let you = zip(entries, rows).first { $0.0.account == daily.account }?.1
            var board = Leaderboard(date: key.day, language: tag, week: week, players: entries.count, top: Array(rows.prefix(Leaderboard.size)), you: you)
            board.friends = true
            if hard { board.hard = true }
            return board
        }
        let board = try daily.cache.board(key, from: daily.board, size: Leaderboard.size)
        // How many stand before an entry: the counts of every better score (a few hundred at most).
        func ahead(_ entry: BoardEntry) -> Int {
            board.buckets.reduce(0) { sum, bucket in
                sum + (BoardEntry.ranksBefore((bucket.score, bucket.hints, bucket.misses), (entry.score, entry.hints, entry.misses)) ? bucket.players : 0)
            }
        }
        let top = Self.ranked(board.top, names: board.names)
        var you: LeaderboardRow?
        if let mine = try daily.board.entry(key, account: daily.account) {
            var name = board.names[mine.account]
            if name == nil { name = try daily.board.names(of: [mine.account])[mine.account] }
            you = LeaderboardRow(mine, rank: ahead(mine) + 1, name: name)
        }
        let players = max(board.players, you.map { $0.rank } ?? 0)
        var answer = Leaderboard(date: key.day, language: tag, week: week, players: players, top: top, you: you)
        if hard { answer.hard = true }
        return answer
    }

    /// `entries`, best first, as rows: equal entries share a rank, the next takes its place in line.
    static func ranked(_ entries: [BoardEntry], names: [String: String]) -> [LeaderboardRow] {
        var rows: [LeaderboardRow] = []
        for (index, entry) in entries.enumerated() {
            let rank = index > 0 && !entries[index - 1].ranksBefore(entry) ? rows[index - 1].rank : index + 1
            rows.append(LeaderboardRow(entry, rank: rank, name: names[entry.account]))
        }
        return rows
    }

    /// The name the account appears under; 409 when another account has it, or one like it.
    public func setDisplayName(_ name: String) throws(ServiceError) -> String {
        let daily = try boardsOrRefuse()
        let kept = try DisplayNames.check(name)
        guard try daily.board.setName(account: daily.account, name: kept, folded: DisplayName.folded(kept), skeleton: DisplayNames.skeleton(kept), now: clock.now())
        else {
            throw ServiceError(.wrongState, L10n.text("the name '%s' is taken on this service, or one that looks like it: choose another", kept))
        }
        return kept
    }
}

/// The seller's rule for a display name: the boundary's (``DisplayName/check(_:)``: length,
/// characters, no invisible or placeholder-shaped name), then Unicode TR39's through ICU: letters
/// of one script, digits of one system; and the key that finds a look-alike taken name.
enum DisplayNames {
    static func check(_ name: String) throws(ServiceError) -> String {
        let kept = try DisplayName.check(name).get()
        guard let problems = Confusables.problems(kept) else { return kept }
        if problems.contains(.mixedScripts) {
            throw ServiceError(.invalidRequest, L10n.text("a name has letters of one script (Latin, Cyrillic, Greek...), not several: '%s' mixes them", kept))
        }
        if problems.contains(.mixedNumbers) { throw ServiceError(.invalidRequest, L10n.text("a name has digits of one kind, not several")) }
        if problems.contains(.invisible) { throw ServiceError(.invalidRequest, L10n.text("a name has no invisible marks, nor one mark twice on a letter")) }
        return kept
    }

    /// What two names that look alike share: the TR39 skeleton of the name in NFKC with case and
    /// accents folded, so that `Ana`, `ANA`, fullwidth `Ａｎａ`, mathematical `𝐀𝐧𝐚` and `Аna` (with
    /// a Cyrillic A) are one, and `Sam` is `Sarn`.
    static func skeleton(_ name: String) -> String {
        let folded = DisplayName.folded(Confusables.compatibilityFolded(name) ?? name)
        return Confusables.skeleton(folded).map(DisplayName.folded) ?? folded
    }
}

/// A word of a pack with the list (category) it is in.
struct PackWordChoice {
    var word: PackWord
    var category: String
}

extension LeaderboardRow {
    init(_ entry: BoardEntry, rank: Int, name: String?) {
        self.init(
            rank: rank, name: name ?? DisplayName.placeholder(account: entry.account), score: entry.score, hints: entry.hints, misses: entry.misses,
            won: entry.won)
    }
}
