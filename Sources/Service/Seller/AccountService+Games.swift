import HangmanGame
import LetterFolding
import Messages
import SystemCalls

/// Served games: the service picks the word from what the account may play, keeps it, and answers
/// every move; hints are paid from the account's balance in the move's own transaction.
extension AccountService {
    /// Starts a game, or resumes the live one (`request.new` abandons it, counted as lost, and
    /// starts another). `seed` makes the choice reproducible; the caller allows it (a sandbox
    /// server with test controls).
    public func startGame(_ request: GameRequest, seed: UInt64? = nil) throws(ServiceError) -> ServedGame {
        if request.daily {
            guard request.packs.isEmpty, request.category == nil, seed == nil, !request.new else {
                throw ServiceError(.invalidRequest, L10n.text("the daily word is the same for every player: it takes no pack, category, seed or new"))
            }
            return try startDaily(language: request.language, lives: request.lives, date: request.date, hard: request.hard)
        }
        if request.date != nil { throw ServiceError(.invalidRequest, L10n.text("a date goes with the daily word: {\"daily\": true, \"date\": \"2026-11-30\"}")) }
        let lives = request.lives ?? Game.defaultLives
        guard (1...GameRequest.maxLives).contains(lives) else {
            throw ServiceError(.invalidRequest, L10n.text("a game has 1 to %s lives, not %s", GameRequest.maxLives, lives))
        }
        if !request.new, let live = try ledger.liveGame() { return try view(live, resumed: true, hints: ledger.balance()) }
        let now = clock.now()
        var row: GameRow
        if let seed {
            var generator = SeededGenerator(seed: seed)
            row = try drawWord(request, lives: lives, now: now, using: &generator)
        } else {
            row = try drawWord(request, lives: lives, now: now, using: &random)
        }
        row.id = Game.newID(using: &random)
        let started = try ledger.startGame(row, replacing: request.new, now: now)
        return try view(started.game, resumed: started.resumed, hints: ledger.balance())
    }

    /// The game being played, if any.
    public func currentGame() throws(ServiceError) -> ServedGame? {
        guard let live = try ledger.liveGame() else { return nil }
        return try view(live, resumed: true, hints: ledger.balance())
    }

    /// The account's game `id`, whatever its state.
    public func game(_ id: String) throws(ServiceError) -> ServedGame {
        try Self.checkGameID(id)
        guard let played = try ledger.game(id) else { throw ServiceError(.notFound, L10n.text("no game '%s' on this account", id)) }
        return view(played)
    }

    /// A letter or the whole word.
    public func guess(_ id: String, _ text: String) throws(ServiceError) -> ServedGame {
        try Self.checkGameID(id)
        guard !text.isEmpty, text.utf8.count <= 200 else { throw ServiceError(.invalidRequest, L10n.text("a guess is a letter or the whole word")) }
        let (played, outcome, balance) = try ledger.guess(id, text, now: clock.now())
        recordDaily(played)
        let move: ServedMove? =
            switch outcome {
            case .hit(let letter, let count): ServedMove(kind: .hit, text: letter, count: count)
            case .miss(let letter): ServedMove(kind: .miss, text: letter)
            case .solved: ServedMove(kind: .solved, text: text)
            case .wrongWord(let word): ServedMove(kind: .wrongWord, text: word)
            case .repeated(let guess): ServedMove(kind: .repeated, text: guess)
            case .invalid, .gameOver: nil
            }
        var answer = view(played, hints: balance)
        answer.move = move
        return answer
    }

    /// One hint paid and one letter revealed, in one transaction; the same `key` again answers the
    /// same letter and pays nothing.
    public func hint(_ id: String, key: String) throws(ServiceError) -> ServedGame {
        try Self.checkGameID(id)
        try Self.checkIdempotencyKey(key)
        _ = try settleSubscriptions()
        do {
            let (played, letter, balance) = try ledger.hint(id, key: key, now: clock.now(), using: &random)
            recordDaily(played)
            var answer = view(played, hints: balance)
            answer.move = ServedMove(kind: .hint, text: letter)
            return answer
        } catch where error.kind == .notEnoughHints {
            throw noHintsLeft
        }
    }

    /// Gives the game up: it counts as lost, and the answer carries the word.
    public func abandonGame(_ id: String) throws(ServiceError) -> ServedGame {
        try Self.checkGameID(id)
        let played = try ledger.abandon(id, now: clock.now())
        recordDaily(played)
        return try view(played, hints: ledger.balance())
    }

    // MARK: - The word

    /// The packs a game may draw from: those asked for (each must be playable: 403 when locked),
    /// else every pack the account may play now (the base packs, owned ones, those a pass opens).
    func playablePacks(_ requested: [ProductID]) throws(ServiceError) -> [PackArchiveFile] {
        // What the account owns, read once for every pack (not once a pack: a long purchase
        // history made each start slower).
        let ownership = Ownership(try entitlements())
        if !requested.isEmpty { return try requested.map { id throws(ServiceError) in try packArchiveFile(id, ownership: ownership) } }
        var files: [PackArchiveFile] = []
        for id in catalog.basePacks.map(\.productID) + catalog.products.compactMap({ $0.packFile == nil ? nil : $0.id }) {
            do {
                files.append(try packArchiveFile(id, ownership: ownership))
            } catch where [.notEntitled, .productUnavailable].contains(error.kind) {
                continue
            }
        }
        return files
    }

    func drawWord<G: RandomNumberGenerator>(_ request: GameRequest, lives: Int, now: Int64, using generator: inout G) throws(ServiceError) -> GameRow {
        var candidates: [(file: PackArchiveFile, language: String, list: ServedPackWords.List)] = []
        for file in try playablePacks(request.packs) {
            let pack = try packWords.pack(file)
            for list in pack.lists where !list.words.isEmpty {
                if let category = request.category, list.name.lowercased() != category.lowercased() { continue }
                candidates.append((file, pack.language, list))
            }
        }
        let total = candidates.reduce(0) { $0 + $1.list.words.count }
        guard total > 0 else {
            if let category = request.category {
                throw ServiceError(.invalidRequest, L10n.text("no words in category '%s' in the packs this account may play", category))
            }
            throw ServiceError(.notEntitled, L10n.text("this account may play no pack: the catalog has no base pack"))
        }
        var index = Int.random(in: 0..<total, using: &generator)
        for candidate in candidates {
            if index < candidate.list.words.count {
                let word = candidate.list.words[index]
                var row = GameRow(
                    id: "", productID: candidate.file.productID, packName: candidate.file.displayName, category: candidate.list.name,
                    word: word.text, clue: word.clue, language: candidate.language, lives: lives, state: .playing, score: 0, startedDate: now,
                    endedDate: nil)
                if request.hard {
                    // The key is drawn after the word, from the same generator: a seed gives the same game.
                    let key = generator.next()
                    let folding = LetterFolding(language: candidate.language)
                    row.makeHard(key: key, candidates: candidate.list.hardCandidates(drawn: word, folding: folding, key: key))
                }
                return row
            }
            index -= candidate.list.words.count
        }
        throw ServiceError(.storage, "no word was drawn from \(total) words")
    }

    /// A game id is 32 hex digits: anything else is no game of anyone's (404).
    static func checkGameID(_ id: String) throws(ServiceError) {
        guard id.utf8.count == 32, id.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw ServiceError(.notFound, L10n.text("no game '%s' on this account", id.prefix(40)))
        }
    }

    // MARK: - What the player sees

    /// The game as its player sees it: the word and its clue only once it has ended.
    func view(_ played: AccountLedger.PlayedGame, resumed: Bool = false, hints: Int? = nil) -> ServedGame {
        let game = played.game
        let row = played.row
        let over = row.state != .playing
        var served = ServedGame(
            id: row.id, pack: row.productID, packName: row.packName, category: row.category, language: row.language, lives: row.lives,
            livesLeft: game.livesLeft, masked: game.masked, guessed: game.guesses, wrongLetters: game.wrongLetters, wrongWords: game.wrongWords,
            hinted: game.hinted, state: row.state, canHint: !over && game.canHint, word: over ? row.word : nil, clue: over ? row.clue : nil,
            score: over ? row.score : nil, hints: hints, startedDate: row.startedDate, endedDate: row.endedDate, resumed: resumed ? true : nil)
        served.daily = row.daily
        if row.archive { served.archive = true }
        if row.hard != nil { served.hard = true }
        served.challenge = row.challenge
        if row.daily != nil { served.moveKinds = AccountLedger.moveKinds(row, played.moves) }
        return served
    }
}
