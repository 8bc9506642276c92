import HangmanGame
import LetterFolding
import Messages
import WordPacks

/// A challenge's games on this account: the word drawn (or the account's own, checked), and the
/// game played once per challenge, beside the live game and the daily word. What spans the two
/// accounts (who may play, the results side by side) is ``SellerService``'s.
extension AccountService {
    /// The packs this account may play now: what a challenge's word may be drawn from.
    public func playablePackIDs() throws(ServiceError) -> Set<ProductID> {
        Set(try playablePacks([]).map(\.productID))
    }

    /// A challenge's word, not kept yet (its ids and dates are the seller's to fill): the server's
    /// choice from the packs both this account and the friend (`friendPacks`) may play, or this
    /// account's own word, checked as a pack's words are and against the letters of its language.
    public func challengeWord(_ request: ChallengeRequest, friendPacks: Set<ProductID>) throws(ServiceError) -> ChallengeRow {
        let now = clock.now()
        if let own = request.word {
            guard request.pack == nil, !request.hard else {
                throw ServiceError(.invalidRequest, L10n.text("your own word takes no pack and no hard mode: hard mode is the server's choice of words"))
            }
            return try ownChallengeWord(own, language: request.language, now: now)
        }
        let mine = try playablePackIDs()
        var packs: [ProductID]
        if let pack = request.pack {
            guard mine.contains(pack) else { throw ServiceError(.notEntitled, L10n.text("you may not play %s now: 'hangman packs' lists the ones you may", pack)) }
            guard friendPacks.contains(pack) else {
                throw ServiceError(.notEntitled, L10n.text("your friend may not play %s: a challenge is a word you both may play (leave --pack out for one)", pack))
            }
            packs = [pack]
        } else {
            packs = (catalog.basePacks.map(\.productID) + catalog.products.map(\.id)).filter { mine.contains($0) && friendPacks.contains($0) }
            if let language = request.language {
                var inLanguage: [ProductID] = []
                for id in packs where LanguageTag.sameLanguage(try packWords.pack(packArchiveFile(id)).language, language) { inLanguage.append(id) }
                packs = inLanguage
            }
        }
        guard !packs.isEmpty else { throw ServiceError(.notEntitled, L10n.text("you and your friend have no pack you both may play in that language")) }
        var row = try drawWord(GameRequest(packs: packs, hard: request.hard), lives: Game.defaultLives, now: now, using: &random)
        row.id = Game.newID(using: &random)
        return ChallengeRow(
            id: row.id, challenger: "", friend: "", productID: row.productID, packName: row.packName, category: row.category, word: row.word,
            clue: row.clue, language: row.language, lives: row.lives, hard: row.hard, candidates: row.candidates, ownWord: false, createdDate: now,
            expiresDate: now + Challenge.lifetime)
    }

    /// The account's own word for a friend: a word by the packs' rules (``WordRules``), in a
    /// language the service has a base pack in, every letter one that pack's words use.
    private func ownChallengeWord(_ text: String, language: String?, now: Int64) throws(ServiceError) -> ChallengeRow {
        let word = Game.trimmed(text).lowercased()
        if let problem = WordRules.problem(with: word) { throw ServiceError(.invalidRequest, "'\(word.prefix(40))' \(problem)") }
        let base: (file: PackArchiveFile, pack: ServedPackWords.Pack, language: String)
        do {
            base = try dailyPack(language)
        } catch where error.kind == .notFound {
            throw ServiceError(.notFound, L10n.text("no words in '%s' here: a word of your own is in a language the service has a base pack in", language ?? "en"))
        }
        let folding = LetterFolding(language: base.language)
        var letters: Set<String> = []
        for list in base.pack.lists { for packWord in list.words { for character in packWord.text { if let key = folding.key(character) { letters.insert(key) } } } }
        for character in word {
            guard let key = folding.key(character) else { continue }
            guard letters.contains(key) else {
                throw ServiceError(.invalidRequest, L10n.text("'%s' is not a letter of %s words: choose a word in %s, or say its language", character, base.language, base.language))
            }
        }
        return ChallengeRow(
            id: Game.newID(using: &random), challenger: "", friend: "", productID: base.file.productID, packName: base.file.displayName,
            category: "Own word", word: word, clue: nil, language: base.language, lives: Game.defaultLives, hard: nil, candidates: nil, ownWord: true,
            createdDate: now, expiresDate: now + Challenge.lifetime)
    }

    /// Starts the account's game of `challenge`, or answers the one it started (resumed, or as it ended).
    public func startChallenge(_ challenge: ChallengeRow) throws(ServiceError) -> ServedGame {
        var row = GameRow(
            id: Game.newID(using: &random), productID: challenge.productID, packName: challenge.packName, category: challenge.category,
            word: challenge.word, clue: challenge.clue, language: challenge.language, lives: challenge.lives, state: .playing, score: 0,
            startedDate: clock.now(), endedDate: nil)
        row.challenge = challenge.id
        row.hard = challenge.hard
        row.candidates = challenge.candidates
        let started = try ledger.startOnce(row)
        return try view(started.game, resumed: started.resumed, hints: ledger.balance())
    }

    /// The account's game of the challenge `id`, if it started one (kept while its games are).
    public func challengeGame(_ id: String) throws(ServiceError) -> ServedGame? {
        try ledger.challengeGame(id).map { view($0) }
    }
}
