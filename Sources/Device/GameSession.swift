import HangmanGame
import PackServiceAPI
import SQLite
import SystemCalls
import WordPacks

/// A game being played on this device: the pure `Game`, saved after every move, with hints spent
/// through the pack service's ledger.
///
/// Each hint is spent under the key `<game id>-hint-<n>`, so a crash between paying and revealing
/// never pays twice: the retry finds the key spent and reveals without charging.
public final class GameSession {
    public private(set) var game: Game
    public let gameID: String
    public let word: DeviceWord
    /// The game was saved earlier and is resumed.
    public let isResumed: Bool
    let device: DeviceStore
    let service: any PackService
    let clock: Clock

    /// What asking for a hint did.
    public enum HintOutcome: Sendable, Equatable {
        /// One letter revealed; the balance after paying.
        case revealed(letter: String, balance: Int)
        /// No hint left: buy some.
        case noHints
        /// Nothing to reveal (one letter left, or the game is over).
        case notNow
    }

    init(game: Game, gameID: String, word: DeviceWord, isResumed: Bool, device: DeviceStore, service: any PackService, clock: Clock) {
        self.game = game
        self.gameID = gameID
        self.word = word
        self.isResumed = isResumed
        self.device = device
        self.service = service
        self.clock = clock
    }

    /// Resumes the saved game, or starts a new one with a word from `packs` (optionally one category).
    /// With `fresh`, a saved game is recorded as abandoned first.
    public static func start<G: RandomNumberGenerator>(
        device: DeviceStore, service: any PackService, packs: [InstalledPack], category: String?, lives: Int,
        fresh: Bool, clock: Clock = .system, using generator: inout G
    ) throws(DeviceError) -> GameSession? {
        if let saved = try device.savedGame() {
            var game = Game(word: saved.word.word, clue: saved.word.clue, language: saved.word.language, lives: saved.lives)
            game.replay(saved.moves)
            let session = GameSession(game: game, gameID: saved.gameID, word: saved.word, isResumed: true, device: device, service: service, clock: clock)
            if !fresh { return session }
            try device.finishGame(saved.gameID, game: game, result: "abandoned", now: clock.now())
        }
        guard let word = try device.randomWord(from: packs, category: category, using: &generator) else { return nil }
        let gameID = String(generator.next(), radix: 16)
        let game = Game(word: word.word, clue: word.clue, language: word.language, lives: lives)
        try device.saveNewGame(gameID, word: word, lives: game.lives, now: clock.now())
        return GameSession(game: game, gameID: gameID, word: word, isResumed: false, device: device, service: service, clock: clock)
    }

    /// Plays a letter or a word; saves the move, and the result when the game ends.
    public func guess(_ text: String) throws(DeviceError) -> Game.Outcome {
        let outcome = game.guess(text)
        switch outcome {
        case .repeated, .invalid, .gameOver:
            return outcome
        default:
            try device.saveMove(kind: "guess", value: text)
            try finishIfOver()
            return outcome
        }
    }

    /// Spends one hint from the account and reveals one hidden letter.
    public func hint<G: RandomNumberGenerator>(using generator: inout G) async throws(DeviceError) -> HintOutcome {
        guard game.canHint else { return .notNow }
        let key = "\(gameID)-hint-\(game.hinted.count + 1)"
        let spend: HintSpend
        do {
            spend = try await service.spendHint(idempotencyKey: key)
        } catch {
            if error.kind == .notEnoughHints { return .noHints }
            throw DeviceError(.storage, error.message)
        }
        guard let letter = game.revealHint(using: &generator) else { return .notNow }
        try device.saveMove(kind: "hint", value: letter)
        return .revealed(letter: letter, balance: spend.balance)
    }

    /// Records the game as abandoned (it will not be resumed).
    public func abandon() throws(DeviceError) {
        try device.finishGame(gameID, game: game, result: "abandoned", now: clock.now())
    }

    private func finishIfOver() throws(DeviceError) {
        guard game.status != .playing else { return }
        try device.finishGame(gameID, game: game, result: game.status.rawValue, now: clock.now())
    }
}

/// The player's statistics.
public struct Statistics: Sendable, Equatable {
    public var played = 0
    public var won = 0
    public var currentStreak = 0
    public var bestStreak = 0
    /// Misses in won games -> how many games.
    public var missDistribution: [Int: Int] = [:]
    /// Percentage of games won, 0-100.
    public var winRate: Int { played == 0 ? 0 : won * 100 / played }
}

extension DeviceStore {
    struct SavedGame {
        var gameID: String
        var word: DeviceWord
        var lives: Int
        var moves: [Game.Move]
    }

    private func write(_ body: (Database) throws -> Void) throws(DeviceError) {
        do {
            try db.transaction(.immediate) { db in try body(db) }
        } catch {
            throw Self.failure(error, path: db.path)
        }
    }

    func savedGame() throws(DeviceError) -> SavedGame? {
        do {
            return try db.transaction(.deferred) { db -> SavedGame? in
                guard let row = try db.query("SELECT game_id, word, clue, pack, pack_name, category, language, lives FROM current_game WHERE id = 1").first,
                    let pack = ProductID(rawValue: try row.string(3))
                else { return nil }
                let word = DeviceWord(
                    word: try row.string(1), clue: try row[2].stringValue, pack: pack,
                    packName: try row.string(4), category: try row.string(5), language: try row.string(6))
                let moves = try db.query("SELECT kind, value FROM current_moves ORDER BY seq").map { move -> Game.Move in
                    try move.string(0) == "hint" ? .hint(try move.string(1)) : .guess(try move.string(1))
                }
                return SavedGame(gameID: try row.string(0), word: word, lives: try row.int(7), moves: moves)
            }
        } catch {
            throw Self.failure(error, path: db.path)
        }
    }

    func saveNewGame(_ gameID: String, word: DeviceWord, lives: Int, now: Int64) throws(DeviceError) {
        try write { db in
            try db.execute("DELETE FROM current_moves")
            try db.execute(
                "INSERT OR REPLACE INTO current_game (id, game_id, word, clue, pack, pack_name, category, language, lives, started_date) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                .text(gameID), .text(word.word), word.clue.map(SQLValue.text) ?? .null, .text(word.pack.rawValue), .text(word.packName),
                .text(word.category), .text(word.language), .integer(Int64(lives)), .integer(now))
        }
    }

    func saveMove(kind: String, value: String) throws(DeviceError) {
        try write { db in
            try db.execute("INSERT INTO current_moves (kind, value) VALUES (?, ?)", .text(kind), .text(value))
        }
    }

    func finishGame(_ gameID: String, game: Game, result: String, now: Int64) throws(DeviceError) {
        try write { db in
            let pack = try db.string("SELECT pack FROM current_game WHERE game_id = ?", .text(gameID)) ?? ""
            let category = try db.string("SELECT category FROM current_game WHERE game_id = ?", .text(gameID)) ?? ""
            try db.execute(
                "INSERT INTO games (id, pack, category, word, result, misses, hints, score, finished_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING",
                .text(gameID), .text(pack), .text(category), .text(game.word), .text(result), .integer(Int64(game.misses)),
                .integer(Int64(game.hinted.count)), .integer(Int64(game.score)), .integer(now))
            try db.execute("DELETE FROM current_game WHERE game_id = ?", .text(gameID))
            try db.execute("DELETE FROM current_moves")
        }
    }

    /// Played, won, streaks and the distribution of misses in won games.
    public func statistics() throws(DeviceError) -> Statistics {
        do {
            return try db.transaction(.deferred) { db in
                var stats = Statistics()
                var streak = 0
                for row in try db.query("SELECT result, misses FROM games ORDER BY finished_date, rowid") {
                    stats.played += 1
                    if try row.string(0) == "won" {
                        stats.won += 1
                        streak += 1
                        stats.bestStreak = max(stats.bestStreak, streak)
                        stats.missDistribution[try row.int(1), default: 0] += 1
                    } else {
                        streak = 0
                    }
                }
                stats.currentStreak = streak
                return stats
            }
        } catch {
            throw Self.failure(error, path: db.path)
        }
    }
}
