import HangmanGame
import PackServiceAPI
import SQLite
import SystemCalls
import WordPacks

/// A game being played on this device: the pure `Game`, saved after every move, with hints spent
/// through the pack service's ledger.
///
/// Each hint is spent under the key `<game id>-hint-<n>`, so a crash between paying and revealing
/// never pays twice: the retry finds the key spent and reveals without charging. A game's id is
/// 128 random bits from the system, never from the seeded generator that picks its word, so no
/// two games share keys whatever the seeds; and a game is played only by the process holding its
/// ``GameSeat``, so two terminals never reveal two letters for one payment.
public final class GameSession {
    public private(set) var game: Game
    public let gameID: String
    /// The slot this game is saved in, held by this process.
    public let seat: GameSeat
    public let word: DeviceWord
    /// The game was saved earlier and is resumed.
    public let isResumed: Bool
    let device: DeviceDatabase
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
        /// The pack service cannot be reached: nothing was spent, the game goes on.
        case serviceUnavailable(ServiceError)
        /// The service no longer knows this device (token revoked, account closed): nothing was spent.
        case signedOut(ServiceError)
    }

    init(
        game: Game, gameID: String, seat: GameSeat, word: DeviceWord, isResumed: Bool, device: DeviceDatabase, service: any PackService, clock: Clock
    ) {
        self.game = game
        self.gameID = gameID
        self.seat = seat
        self.word = word
        self.isResumed = isResumed
        self.device = device
        self.service = service
        self.clock = clock
    }

    /// Resumes the game saved in `seat`'s slot, or starts a new one there with a word from `packs`
    /// (optionally one category). With `fresh`, the saved game is recorded as abandoned first.
    public static func start<G: RandomNumberGenerator>(
        device: DeviceDatabase, service: any PackService, seat: GameSeat, packs: [InstalledPack], category: String?, lives: Int,
        fresh: Bool, clock: Clock = .system, using generator: inout G
    ) throws(DeviceError) -> GameSession? {
        var abandoned: (gameID: String, game: Game)?
        if let saved = try device.savedGame(slot: seat.slot) {
            var game = Game(word: saved.word.word, clue: saved.word.clue, language: saved.word.language, lives: saved.lives)
            game.replay(saved.moves)
            let session = GameSession(
                game: game, gameID: saved.gameID, seat: seat, word: saved.word, isResumed: true, device: device, service: service, clock: clock)
            if !fresh { return session }
            abandoned = (saved.gameID, game)
        }
        guard let word = try device.randomWord(from: packs, category: category, using: &generator) else {
            if let abandoned { try device.finishGame(abandoned.gameID, game: abandoned.game, result: "abandoned", now: clock.now()) }
            return nil
        }
        var system = SystemRandomNumberGenerator()
        let gameID = Game.newID(using: &system)
        let game = Game(word: word.word, clue: word.clue, language: word.language, lives: lives)
        // The saved game's end and the new game's start in one transaction: one commit, one sync.
        try device.saveNewGame(gameID, slot: seat.slot, word: word, lives: game.lives, now: clock.now(), abandoning: abandoned)
        return GameSession(game: game, gameID: gameID, seat: seat, word: word, isResumed: false, device: device, service: service, clock: clock)
    }

    /// How a game asked for differs from the one saved in `seat`'s slot, which `start` would
    /// resume: one line per option, e.g. `--lives 8 (the saved game has 6)`; empty when nothing
    /// differs or nothing is saved. `nil` options were not given.
    public static func savedGameConflicts(
        device: DeviceDatabase, seat: GameSeat, packs: [ProductID], category: String?, lives: Int?
    ) throws(DeviceError) -> [String] {
        guard let saved = try device.savedGame(slot: seat.slot) else { return [] }
        return conflicts(pack: saved.word.pack, category: saved.word.category, lives: saved.lives, packs: packs, category: category, lives: lives)
    }

    /// How the options given differ from a game kept (saved here, or the account's live served
    /// game): one line per option, e.g. `--lives 8 (the saved game has 6)`.
    public static func conflicts(
        pack: ProductID, category savedCategory: String, lives savedLives: Int, packs: [ProductID], category: String?, lives: Int?
    ) -> [String] {
        var conflicts: [String] = []
        if !packs.isEmpty && !packs.contains(pack) {
            conflicts.append("--pack \(packs.map(\.rawValue).joined(separator: ", ")) (the saved game is from \(pack))")
        }
        if let category, category.lowercased() != savedCategory.lowercased() {
            conflicts.append("--category \(category) (the saved game's is \(savedCategory))")
        }
        if let lives, lives != savedLives {
            conflicts.append("--lives \(lives) (the saved game has \(savedLives))")
        }
        return conflicts
    }

    /// Plays a letter or a word; saves the move, and the result when the game ends.
    public func guess(_ text: String) throws(DeviceError) -> Game.Outcome {
        let outcome = game.guess(text)
        switch outcome {
        case .repeated, .invalid, .gameOver:
            return outcome
        default:
            try device.saveMove(gameID, kind: "guess", value: text)
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
            if error.kind == .unavailable { return .serviceUnavailable(error) }
            if error.kind == .unauthorized { return .signedOut(error) }
            throw DeviceError(.storage, error.message)
        }
        guard let letter = game.revealHint(using: &generator) else { return .notNow }
        try device.saveMove(gameID, kind: "hint", value: letter)
        // A hint that found the last letter (its blanks were all one letter) wins the game.
        try finishIfOver()
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

extension DeviceDatabase {
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

    /// The game saved in `slot`, if any.
    func savedGame(slot: Int) throws(DeviceError) -> SavedGame? {
        do {
            return try db.transaction(.deferred) { db -> SavedGame? in
                guard let row = try db.query(
                    "SELECT game_id, word, clue, pack, pack_name, category, language, lives FROM saved_games WHERE slot = ?", .integer(Int64(slot))
                ).first,
                    let pack = ProductID(rawValue: try row.string(3))
                else { return nil }
                let gameID = try row.string(0)
                let word = DeviceWord(
                    word: try row.string(1), clue: try row[2].stringValue, pack: pack,
                    packName: try row.string(4), category: try row.string(5), language: try row.string(6))
                let moves = try db.query("SELECT kind, value FROM saved_moves WHERE game_id = ? ORDER BY seq", .text(gameID)).map { move -> Game.Move in
                    try move.string(0) == "hint" ? .hint(try move.string(1)) : .guess(try move.string(1))
                }
                return SavedGame(gameID: gameID, word: word, lives: try row.int(7), moves: moves)
            }
        } catch {
            throw Self.failure(error, path: db.path)
        }
    }

    /// The slots holding a saved game, with its pack, the most recently started first.
    func savedSlots() throws(DeviceError) -> [(slot: Int, pack: ProductID, packName: String)] {
        try run(.deferred) { db in
            try db.query("SELECT slot, pack, pack_name FROM saved_games ORDER BY started_date DESC, slot").compactMap { row in
                guard let pack = ProductID(rawValue: try row.string(1)) else { return nil }
                return (try row.int(0), pack, try row.string(2))
            }
        }
    }

    /// Saves a new game in `slot`; with `abandoning`, records that saved game as abandoned in the same transaction.
    func saveNewGame(
        _ gameID: String, slot: Int, word: DeviceWord, lives: Int, now: Int64, abandoning saved: (gameID: String, game: Game)? = nil
    ) throws(DeviceError) {
        try write { db in
            if let saved { try Self.recordFinished(db, saved.gameID, game: saved.game, result: "abandoned", now: now) }
            try db.execute("DELETE FROM saved_games WHERE slot = ?", .integer(Int64(slot)))
            try db.execute(
                "INSERT INTO saved_games (game_id, slot, word, clue, pack, pack_name, category, language, lives, started_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                .text(gameID), .integer(Int64(slot)), .text(word.word), word.clue.map(SQLValue.text) ?? .null, .text(word.pack.rawValue),
                .text(word.packName), .text(word.category), .text(word.language), .integer(Int64(lives)), .integer(now))
        }
    }

    func saveMove(_ gameID: String, kind: String, value: String) throws(DeviceError) {
        try write { db in
            try db.execute(
                "INSERT INTO saved_moves (game_id, seq, kind, value) VALUES (?, (SELECT coalesce(max(seq), 0) + 1 FROM saved_moves WHERE game_id = ?), ?, ?)",
                .text(gameID), .text(gameID), .text(kind), .text(value))
        }
    }

    func finishGame(_ gameID: String, game: Game, result: String, now: Int64) throws(DeviceError) {
        try write { db in try Self.recordFinished(db, gameID, game: game, result: result, now: now) }
    }

    /// Moves a saved game to the finished games.
    private static func recordFinished(_ db: Database, _ gameID: String, game: Game, result: String, now: Int64) throws {
        let pack = try db.string("SELECT pack FROM saved_games WHERE game_id = ?", .text(gameID)) ?? ""
        let category = try db.string("SELECT category FROM saved_games WHERE game_id = ?", .text(gameID)) ?? ""
        try db.execute(
            "INSERT INTO games (id, pack, category, word, result, misses, hints, score, finished_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING",
            .text(gameID), .text(pack), .text(category), .text(game.word), .text(result), .integer(Int64(game.misses)),
            .integer(Int64(game.hinted.count)), .integer(Int64(game.score)), .integer(now))
        try db.execute("DELETE FROM saved_games WHERE game_id = ?", .text(gameID))
    }

    /// Played, won, streaks and the distribution of misses in won games.
    public func statistics() throws(DeviceError) -> GameStatistics {
        do {
            return try db.transaction(.deferred) { db in
                GameStatistics(results: try db.query("SELECT result, misses FROM games ORDER BY finished_date, rowid").map { row in
                    (won: try row.string(0) == "won", misses: Optional(try row.int(1)))
                })
            }
        } catch {
            throw Self.failure(error, path: db.path)
        }
    }
}
