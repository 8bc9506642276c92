import HangmanGame
import PackServiceWire

/// One served game as the `games` table keeps it: the word stays in the ledger.
struct GameRow: Equatable {
    var id: String
    var productID: ProductID
    var packName: String
    var category: String
    var word: String
    var clue: String?
    var language: String
    var lives: Int
    /// `playing`, `won`, `lost`, `abandoned` (``ServedGame/State``).
    var state: ServedGame.State
    var score: Int
    var startedDate: Int64
    var endedDate: Int64?
    /// A daily word's day (`2026-12-02`), `nil` for any other game.
    var daily: String? = nil
    /// Wrong guesses and hints, recorded when the game ends (`nil` before, and for games ended
    /// before migration 11).
    var misses: Int? = nil
    var hints: Int? = nil
    /// A past day's daily word played from the archive: on no board, in no streak.
    var archive = false
    /// A hard game's key (``HardMode``'s ties): `nil` for a normal game.
    var hard: UInt64? = nil
    /// A hard game's words still consistent with every answer (`word` is their representative);
    /// one once a hint or the end committed the game to it.
    var candidates: [HardMode.Candidate]? = nil
    /// The challenge the game plays (``Challenge/id``), `nil` for any other game.
    var challenge: String? = nil

    /// The columns both engines select, in this order.
    static let columns =
        "id, product_id, pack_name, category, word, clue, language, lives, state, score, started_date, ended_date, daily, misses, hints, archive, hard, candidates, challenge"

    /// Makes the game a hard one with `key` and its starting `candidates`: the board stands for
    /// every candidate from the start, so the word kept is their representative, not the one drawn.
    mutating func makeHard(key: UInt64, candidates: [HardMode.Candidate]) {
        hard = key
        self.candidates = candidates
        guard let chosen = HardMode.representative(of: candidates, key: key) else { return }
        word = chosen.word
        clue = chosen.clue
    }

    /// `hard` as kept: 16 hex digits.
    var hardText: String? { hard.map { String($0, radix: 16) } }

    /// `candidates` as kept: JSON.
    var candidatesText: String? {
        get throws { try candidates.map { String(decoding: try Wire.encode($0), as: UTF8.self) } }
    }

    /// A row read as text (each engine's values as their text, `nil` for NULL): one decoding for both.
    init(columns row: [String?]) throws(ServiceError) {
        guard row.count == 19, let id = row[0], let product = row[1].flatMap(ProductID.init(rawValue:)), let packName = row[2],
            let category = row[3], let word = row[4], let language = row[6], let lives = row[7].flatMap(Int.init),
            let state = row[8].flatMap(ServedGame.State.init(rawValue:)), let score = row[9].flatMap(Int.init),
            let started = row[10].flatMap(Int64.init)
        else { throw ServiceError(.storage, "the ledger database holds a malformed game row") }
        self.init(
            id: id, productID: product, packName: packName, category: category, word: word, clue: row[5], language: language, lives: lives,
            state: state, score: score, startedDate: started, endedDate: row[11].flatMap(Int64.init))
        daily = row[12]
        misses = row[13].flatMap(Int.init)
        hints = row[14].flatMap(Int.init)
        archive = row[15] == "1"
        if let text = row[16] {
            guard let key = UInt64(text, radix: 16) else { throw ServiceError(.storage, "the ledger database holds a malformed hard game") }
            hard = key
        }
        if let text = row[17] {
            do {
                candidates = try Wire.decode([HardMode.Candidate].self, from: Array(text.utf8))
            } catch {
                throw ServiceError(.storage, "the ledger database holds a malformed hard game's words")
            }
        }
        challenge = row[18]
    }

    init(
        id: String, productID: ProductID, packName: String, category: String, word: String, clue: String?, language: String, lives: Int,
        state: ServedGame.State, score: Int, startedDate: Int64, endedDate: Int64?
    ) {
        self.id = id
        self.productID = productID
        self.packName = packName
        self.category = category
        self.word = word
        self.clue = clue
        self.language = language
        self.lives = lives
        self.state = state
        self.score = score
        self.startedDate = startedDate
        self.endedDate = endedDate
    }
}

/// One move of a served game, as `game_moves` keeps it.
struct GameMoveRow: Equatable {
    enum Kind: String {
        case guess, hint
    }

    var kind: Kind
    /// The letter or word as typed; the letter (key) a hint revealed.
    var value: String
    /// A hint's `Idempotency-Key`.
    var requestKey: String?

    static let columns = "kind, value, request_key"

    init(kind: Kind, value: String, requestKey: String?) {
        self.kind = kind
        self.value = value
        self.requestKey = requestKey
    }

    init(columns row: [String?]) throws(ServiceError) {
        guard row.count == 3, let kind = row[0].flatMap(Kind.init(rawValue:)), let value = row[1] else {
            throw ServiceError(.storage, "the ledger database holds a malformed game move")
        }
        self.init(kind: kind, value: value, requestKey: row[2])
    }
}
