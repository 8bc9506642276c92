import HangmanGame
import PackServiceAPI
import PackServiceWire

/// One challenge as the accounts database keeps it: the word stays there, each side's result is
/// written once, when its game ends.
public struct ChallengeRow: Sendable, Equatable {
    public var id: String
    public var challenger: String
    public var friend: String
    public var productID: ProductID
    public var packName: String
    public var category: String
    public var word: String
    public var clue: String?
    public var language: String
    public var lives: Int
    /// Hard mode's key, and the candidates both games start from.
    public var hard: UInt64?
    public var candidates: [HardMode.Candidate]?
    /// The challenger's own word: only the friend plays it.
    public var ownWord: Bool
    public var createdDate: Int64
    public var expiresDate: Int64
    public var challengerResult: ChallengeResult?
    public var friendResult: ChallengeResult?

    static let columns =
        "id, challenger_id, friend_id, product_id, pack_name, category, word, clue, language, lives, hard, candidates, own_word, created_date, expires_date, challenger_result, friend_result"

    /// The row's values as text, in ``columns``' order (`nil` for NULL).
    var texts: [String?] {
        get throws(ServiceError) {
            func json(_ value: (some Encodable)?) throws(ServiceError) -> String? {
                guard let value else { return nil }
                return String(decoding: try Wire.encode(value), as: UTF8.self)
            }
            return [
                id, challenger, friend, productID.rawValue, packName, category, word, clue, language, String(lives), hard.map { String($0, radix: 16) },
                try json(candidates), ownWord ? "1" : "0", String(createdDate), String(expiresDate), try json(challengerResult), try json(friendResult),
            ]
        }
    }

    init(
        id: String, challenger: String, friend: String, productID: ProductID, packName: String, category: String, word: String, clue: String?,
        language: String, lives: Int, hard: UInt64?, candidates: [HardMode.Candidate]?, ownWord: Bool, createdDate: Int64, expiresDate: Int64
    ) {
        self.id = id
        self.challenger = challenger
        self.friend = friend
        self.productID = productID
        self.packName = packName
        self.category = category
        self.word = word
        self.clue = clue
        self.language = language
        self.lives = lives
        self.hard = hard
        self.candidates = candidates
        self.ownWord = ownWord
        self.createdDate = createdDate
        self.expiresDate = expiresDate
    }

    /// A row read as text (each engine's values as their text): one decoding for both.
    init(columns row: [String?]) throws(ServiceError) {
        let malformed = ServiceError(.storage, "the accounts database holds a malformed challenge")
        guard row.count == 17, let id = row[0], let challenger = row[1], let friend = row[2], let product = row[3].flatMap(ProductID.init(rawValue:)),
            let packName = row[4], let category = row[5], let word = row[6], let language = row[8], let lives = row[9].flatMap(Int.init),
            let created = row[13].flatMap(Int64.init), let expires = row[14].flatMap(Int64.init)
        else { throw malformed }
        var hard: UInt64?
        if let text = row[10] {
            guard let key = UInt64(text, radix: 16) else { throw malformed }
            hard = key
        }
        func decoded<T: Decodable>(_ text: String?, as type: T.Type) throws(ServiceError) -> T? {
            guard let text else { return nil }
            do { return try Wire.decode(type, from: Array(text.utf8)) } catch { throw malformed }
        }
        self.init(
            id: id, challenger: challenger, friend: friend, productID: product, packName: packName, category: category, word: word, clue: row[7],
            language: language, lives: lives, hard: hard, candidates: try decoded(row[11], as: [HardMode.Candidate].self), ownWord: row[12] == "1",
            createdDate: created, expiresDate: expires)
        challengerResult = try decoded(row[15], as: ChallengeResult.self)
        friendResult = try decoded(row[16], as: ChallengeResult.self)
    }

    /// The side `account` plays: `true` for the challenger.
    func isChallenger(_ account: String) -> Bool { account == challenger }
}
