import CivilCalendar
import HangmanGame
import Messages
import PackServiceAPI
import PackServiceWire

/// Served games' rules over the ledger's statements, each one transaction under the account's
/// lock: a move is applied to the game replayed from its recorded moves, so two moves sent at
/// once (through two servers) are applied in turn, the second seeing the first. A hint's debit
/// and its letter are written in the same transaction.
extension AccountLedger {
    /// A game as the rules see it: its row, and the pure game replayed from its moves.
    struct PlayedGame {
        var row: GameRow
        var game: Game
        var moves: [GameMoveRow]
    }

    static func replay(_ row: GameRow, _ moves: [GameMoveRow]) -> Game {
        var game = Game(word: row.word, clue: row.clue, language: row.language, lives: row.lives)
        game.replay(moves.map { $0.kind == .hint ? .hint($0.value) : .guess($0.value) })
        return game
    }

    private static func played(_ statements: any LedgerStatements, _ row: GameRow) throws -> PlayedGame {
        let moves = try statements.gameMoves(row.id)
        return PlayedGame(row: row, game: replay(row, moves), moves: moves)
    }

    /// The account's game `id`, being played: 404 for another account's or an unknown id, 409
    /// once it has ended.
    private static func playing(_ statements: any LedgerStatements, _ id: String) throws -> PlayedGame {
        guard let row = try statements.game(id) else { throw ServiceError(.notFound, L10n.text("no game '%s' on this account", id)) }
        guard row.state == .playing else {
            throw ServiceError(.wrongState, L10n.text("the game %s has ended (%s): start another with 'hangman play'", id, row.state.rawValue))
        }
        return try played(statements, row)
    }

    /// The game being played, if any.
    func liveGame() throws(ServiceError) -> PlayedGame? {
        try engine.read { statements in try statements.liveGame().map { row in try Self.played(statements, row) } }
    }

    /// The game `id`, whatever its state.
    func game(_ id: String) throws(ServiceError) -> PlayedGame? {
        try engine.read { statements in try statements.game(id).map { row in try Self.played(statements, row) } }
    }

    /// The account's game of the daily word of `date` in `language` (in hard mode with `hard`), if it was started.
    func dailyGame(date: String, language: String, hard: Bool = false) throws(ServiceError) -> PlayedGame? {
        try engine.read { statements in
            try statements.dailyGame(date: date, language: language, hard: hard).map { row in try Self.played(statements, row) }
        }
    }

    /// The account's daily words in `language`, on the day or from the archive, by day.
    func dailyGames(language: String) throws(ServiceError) -> [GameRow] {
        try engine.read { statements in try statements.dailyGames(language: language) }
    }

    /// The account's game of the challenge `id`, if it was started.
    func challengeGame(_ id: String) throws(ServiceError) -> PlayedGame? {
        try engine.read { statements in try statements.challengeGame(id).map { row in try Self.played(statements, row) } }
    }

    /// Starts `row`, a daily word or a challenge's game, unless the account has it already: that
    /// one is answered instead (being played: resumed; ended: as it ended). One a day and
    /// language, one a challenge.
    func startOnce(_ row: GameRow) throws(ServiceError) -> (game: PlayedGame, resumed: Bool) {
        try engine.write { statements in
            if let day = row.daily, let started = try statements.dailyGame(date: day, language: row.language, hard: row.hard != nil) {
                return (try Self.played(statements, started), true)
            }
            if let challenge = row.challenge, let started = try statements.challengeGame(challenge) {
                return (try Self.played(statements, started), true)
            }
            try Self.insert(statements, row)
            return (PlayedGame(row: row, game: Self.replay(row, []), moves: []), false)
        }
    }

    /// What each recorded move did, in order: a square each on a daily word's share line.
    static func moveKinds(_ row: GameRow, _ moves: [GameMoveRow]) -> [ServedMove.Kind] {
        var game = Game(word: row.word, clue: row.clue, language: row.language, lives: row.lives)
        return moves.compactMap { move in
            if move.kind == .hint {
                game.replay([.hint(move.value)])
                return .hint
            }
            switch game.guess(move.value) {
            case .hit: return .hit
            case .miss: return .miss
            case .solved: return .solved
            case .wrongWord: return .wrongWord
            case .repeated, .invalid, .gameOver: return nil
            }
        }
    }

    /// Starts `row` as the live game; the live one is resumed instead unless `replacing`, when it
    /// is abandoned (counted as lost) in the same transaction.
    func startGame(_ row: GameRow, replacing: Bool, now: Int64) throws(ServiceError) -> (game: PlayedGame, resumed: Bool) {
        try engine.write { statements in
            if let live = try statements.liveGame() {
                if !replacing { return (try Self.played(statements, live), true) }
                var abandoned = try Self.played(statements, live)
                try Self.end(statements, &abandoned, state: .abandoned, score: 0, now: now)
            }
            try Self.insert(statements, row)
            return (PlayedGame(row: row, game: Self.replay(row, []), moves: []), false)
        }
    }

    /// Plays a letter or a word: a move that changes nothing (repeated) is not recorded, one the
    /// game refuses is 400 with its sentence.
    func guess(_ id: String, _ text: String, now: Int64) throws(ServiceError) -> (game: PlayedGame, outcome: Game.Outcome, balance: Int) {
        try engine.write { statements in
            var played = try Self.playing(statements, id)
            try Self.answerHard(statements, &played, guess: text)
            let outcome = played.game.guess(text)
            switch outcome {
            case .invalid(let why): throw ServiceError(.invalidRequest, why)
            case .gameOver: throw ServiceError(.wrongState, L10n.text("the game %s has ended", id))
            case .repeated: return (played, outcome, try statements.balance())
            case .hit, .miss, .solved, .wrongWord:
                let move = GameMoveRow(kind: .guess, value: text, requestKey: nil)
                try statements.appendGameMove(id, seq: played.moves.count + 1, move, now: now)
                played.moves.append(move)
                try Self.endIfOver(statements, &played, now: now)
                return (played, outcome, try statements.balance())
            }
        }
    }

    /// One hint: debits one and reveals one letter in one transaction. The same `key` again
    /// answers the same letter and debits nothing.
    func hint<G: RandomNumberGenerator>(
        _ id: String, key: String, now: Int64, using generator: inout G
    ) throws(ServiceError) -> (game: PlayedGame, letter: String, balance: Int) {
        try engine.write { statements in
            guard let row = try statements.game(id) else { throw ServiceError(.notFound, L10n.text("no game '%s' on this account", id)) }
            var played = try Self.played(statements, row)
            if let earlier = played.moves.first(where: { $0.kind == .hint && $0.requestKey == key }) {
                return (played, earlier.value, try statements.balance())
            }
            guard row.state == .playing else { throw ServiceError(.wrongState, L10n.text("the game %s has ended (%s)", id, row.state.rawValue)) }
            guard played.game.canHint else { throw ServiceError(.wrongState, L10n.text("no hint now: only one blank is left to fill")) }
            let balance = try statements.balance()
            guard balance >= 1 else { throw ServiceError.noHintsLeft }
            // A hard game commits to the word standing for its candidates before a letter of it is told.
            if let candidates = played.row.candidates, candidates.count > 1 {
                try Self.narrow(statements, &played, to: candidates.filter { $0.word == played.row.word })
            }
            guard let letter = played.game.revealHint(using: &generator) else {
                throw ServiceError(.wrongState, L10n.text("no hint now: only one blank is left to fill"))
            }
            guard try statements.appendHints(
                key: "game-hint:\(id):\(key)", amount: -1, reason: .spend, transaction: nil, balanceAfter: balance - 1, now: now)
            else { throw ServiceError(.wrongState, L10n.text("the hint key '%s' was spent on another move of this game", key)) }
            let move = GameMoveRow(kind: .hint, value: letter, requestKey: key)
            try statements.appendGameMove(id, seq: played.moves.count + 1, move, now: now)
            played.moves.append(move)
            // A hint that found the last letter (its blanks were all one letter) wins the game.
            try Self.endIfOver(statements, &played, now: now)
            return (played, letter, balance - 1)
        }
    }

    /// Gives the game up: it counts as lost.
    func abandon(_ id: String, now: Int64) throws(ServiceError) -> PlayedGame {
        try engine.write { statements in
            var played = try Self.playing(statements, id)
            try Self.end(statements, &played, state: .abandoned, score: 0, now: now)
            return played
        }
    }

    /// A game the last move won or lost is recorded as such, with its score.
    private static func endIfOver(_ statements: any LedgerStatements, _ played: inout PlayedGame, now: Int64) throws {
        let state: ServedGame.State
        switch played.game.status {
        case .playing: return
        case .won: state = .won
        case .lost: state = .lost
        }
        try end(statements, &played, state: state, score: played.game.score * (played.row.hard == nil ? 1 : HardMode.scoreFactor), now: now)
    }

    // MARK: - Hard mode

    /// Before a hard game's guess is applied: the candidates the guess leaves (``HardMode``), and
    /// the game replayed over the word that stands for them, so that the guess is answered as the
    /// largest family would answer it. A guess the game would refuse or call repeated changes nothing.
    private static func answerHard(_ statements: any LedgerStatements, _ played: inout PlayedGame, guess text: String) throws {
        guard let key = played.row.hard, let candidates = played.row.candidates, candidates.count > 1 else { return }
        let kept = HardMode.candidates(after: text, in: played.game, among: candidates, key: key)
        guard kept != candidates else { return }
        try narrow(statements, &played, to: kept)
    }

    /// Keeps `candidates` as the hard game's, its word and clue the one that stands for them, and
    /// replays the game over that word (every candidate shows the same board).
    private static func narrow(_ statements: any LedgerStatements, _ played: inout PlayedGame, to candidates: [HardMode.Candidate]) throws {
        guard let key = played.row.hard, let chosen = HardMode.representative(of: candidates, key: key) else { return }
        played.row.candidates = candidates
        played.row.word = chosen.word
        played.row.clue = chosen.clue
        try statements.narrowHardGame(played.row)
        played.game = replay(played.row, played.moves)
    }

    // MARK: - What the account's games add up to

    /// How many ended games an account keeps besides its daily words (the newest): the older ones
    /// are in its totals, and let go, so that an account's games are bounded whatever it plays.
    static let keptEndedGames = 100

    /// Records a new game, and counts it among the day's games served (what the seller reads).
    private static func insert(_ statements: any LedgerStatements, _ row: GameRow) throws {
        try statements.insertGame(row)
        try statements.countServedGame(day: UTCDateTime.day(ofMilliseconds: row.startedDate), daily: row.daily != nil)
    }

    /// Ends the game, counts it in the account's totals in the same transaction, then lets go of
    /// the oldest ended games beyond ``keptEndedGames``.
    private static func end(_ statements: any LedgerStatements, _ played: inout PlayedGame, state: ServedGame.State, score: Int, now: Int64) throws {
        try statements.endGame(played.row.id, state: state, score: score, misses: played.game.misses, hints: played.game.hinted.count, now: now)
        played.row.state = state
        played.row.score = score
        played.row.endedDate = now
        played.row.misses = played.game.misses
        played.row.hints = played.game.hinted.count
        // Totals not kept yet (games ended before they were) are made from the games, this one
        // included; kept, the game is added to them.
        if var kept = try keptStatistics(statements) {
            kept.add(won: state == .won, misses: played.game.misses)
            try keep(statements, kept, kind: "all", language: "")
        } else {
            try keep(statements, try computedStatistics(statements), kind: "all", language: "")
        }
        // An archive play counts in the served games, not in the daily record; nor does a hard
        // daily word (it has its own board).
        if !played.row.archive, played.row.hard == nil, let day = played.row.daily.flatMap(DailyDate.day(parsing:)) {
            let language = played.row.language
            var record = try keptDailyRecord(statements, language: language) ?? computedDailyRecord(statements, language: language, before: played.row.id)
            // A word won after missed days: freezes held cover them all, one each, or none is spent.
            if state == .won, let missed = record.missedDays(before: day), missed.count <= (try statements.streakFreezes()) {
                for covered in missed {
                    let text = DailyDate.text(day: covered)
                    _ = try statements.appendStreakFreezes(
                        key: "cover:\(language):\(text)", amount: -1, reason: "cover", transaction: nil, language: language, coveredDay: text, now: now)
                    record.cover(day: covered)
                }
            }
            record.add(day: day, won: state == .won, livesLeft: played.row.lives - played.game.misses)
            try keep(statements, record, kind: "daily", language: language)
        }
        _ = try statements.letGoOfEndedGames(keeping: keptEndedGames)
    }

    private static func keep(_ statements: any LedgerStatements, _ record: some Encodable, kind: String, language: String) throws {
        try statements.setGameTotals(kind: kind, language: language, record: String(decoding: try Wire.encode(record), as: UTF8.self))
    }

    private static func keptStatistics(_ statements: any LedgerStatements) throws -> GameStatistics? {
        try statements.gameTotals(kind: "all", language: "").map { text throws in try Wire.decode(GameStatistics.self, from: Array(text.utf8)) }
    }

    private static func keptDailyRecord(_ statements: any LedgerStatements, language: String) throws -> DailyRecord? {
        try statements.gameTotals(kind: "daily", language: language).map { text throws in try Wire.decode(DailyRecord.self, from: Array(text.utf8)) }
    }

    /// The totals from the games themselves: for an account whose games ended before totals were kept.
    private static func computedStatistics(_ statements: any LedgerStatements) throws -> GameStatistics {
        GameStatistics(results: try statements.endedGames().map { row in (won: row.state == .won, misses: row.misses) })
    }

    /// The daily record from the games themselves (those ended before `gameID`, when given), the
    /// days freezes covered counted as covered.
    private static func computedDailyRecord(_ statements: any LedgerStatements, language: String, before gameID: String? = nil) throws -> DailyRecord {
        var record = DailyRecord()
        let covered = Set(try statements.coveredDays(language: language, limit: 1_000).compactMap(DailyDate.day(parsing:)))
        for row in try statements.endedGames() where row.language == language && !row.archive && row.hard == nil {
            if row.id == gameID { break }
            guard let day = row.daily.flatMap(DailyDate.day(parsing:)) else { continue }
            if row.state == .won, let missed = record.missedDays(before: day), missed.allSatisfy(covered.contains) {
                for day in missed { record.cover(day: day) }
            }
            record.add(day: day, won: row.state == .won, livesLeft: row.lives - (row.misses ?? 0))
        }
        return record
    }

    /// The account's served games summed, from its totals (made once from its games when an
    /// account has none yet).
    func statistics() throws(ServiceError) -> GameStatistics {
        try totals(kind: "all", language: "", kept: Self.keptStatistics, computed: Self.computedStatistics)
    }

    /// The streak freezes held, and the days they covered in `language` (the newest 30).
    func streakFreezes(language: String) throws(ServiceError) -> (held: Int, covered: [String]) {
        try engine.read { statements in (try statements.streakFreezes(), try statements.coveredDays(language: language, limit: 30)) }
    }

    /// The account's daily words in `language` summed, as ``statistics()`` are.
    func dailyRecord(language: String) throws(ServiceError) -> DailyRecord {
        try totals(
            kind: "daily", language: language, kept: { statements in try Self.keptDailyRecord(statements, language: language) },
            computed: { statements in try Self.computedDailyRecord(statements, language: language) })
    }

    /// Totals as kept, read without a lock; made from the games once, under it, when none are.
    private func totals<T: Encodable>(
        kind: String, language: String, kept: (any LedgerStatements) throws -> T?, computed: (any LedgerStatements) throws -> T
    ) throws(ServiceError) -> T {
        if let found = try engine.read({ statements in try kept(statements) }) { return found }
        return try engine.write { statements in
            if let found = try kept(statements) { return found }
            let made = try computed(statements)
            try Self.keep(statements, made, kind: kind, language: language)
            return made
        }
    }
}
