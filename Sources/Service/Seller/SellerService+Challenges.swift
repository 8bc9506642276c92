import HangmanGame
import Messages
import PackServiceAPI
import PackServiceWire

/// Challenges between friends, across the two accounts: who may set one for whom, who may play
/// it, and both results side by side. Each account's game is its own service's
/// (``AccountService/startChallenge(_:)``).
extension SellerService {
    /// The account id of `account`'s friend named `name` (as ``friends(of:)`` names them).
    public func friendID(of account: String, named name: String) throws(ServiceError) -> String {
        try friend(of: account, named: name).account
    }

    /// Keeps `word` (``AccountService/challengeWord(_:friendPacks:)``) as a challenge from
    /// `account` to `friend`; the challenge as its challenger sees it.
    public func createChallenge(_ word: ChallengeRow, from account: String, to friend: String, now: Int64) throws(ServiceError) -> Challenge {
        var row = word
        row.challenger = account
        row.friend = friend
        guard try directory.insertChallenge(row, now: now) else {
            throw ServiceError(.wrongState, L10n.text("you have %s challenges out already: wait for one to be played or to expire (a week)", Challenge.maxOpen))
        }
        return try view([row], for: account)[0]
    }

    /// The challenge `id` for `account` to play: one of its two players' (404 for anyone else),
    /// not expired, and not the challenger's own word (its setter knows it).
    public func challengeToPlay(_ id: String, account: String, now: Int64) throws(ServiceError) -> ChallengeRow {
        guard id.utf8.count == 32, let row = try directory.challenge(id), row.challenger == account || row.friend == account else {
            throw ServiceError(.notFound, L10n.text("no challenge '%s' of yours: 'hangman challenges' lists them", id.prefix(40)))
        }
        guard row.expiresDate > now else { throw ServiceError(.wrongState, L10n.text("that challenge expired on %s", DailyDate.text(day: row.expiresDate / 86_400_000))) }
        if row.ownWord, row.challenger == account {
            throw ServiceError(.wrongState, L10n.text("you set that word: your friend plays it, and 'hangman challenges' shows how they did"))
        }
        return row
    }

    /// Records how `account`'s game of a challenge ended (the first result stands).
    public func recordChallengeResult(_ game: ServedGame, account: String) throws(ServiceError) {
        guard let id = game.challenge, game.isOver, let row = try directory.challenge(id) else { return }
        let result = ChallengeResult(state: game.state, score: game.score ?? 0, misses: game.lives - game.livesLeft, hints: game.hinted.count)
        try directory.recordChallengeResult(id, challenger: row.isChallenger(account), result: String(decoding: try Wire.encode(result), as: UTF8.self))
    }

    /// The challenges `account` set or received and that have not expired, newest first; a result
    /// missing for a game that ended (a server stopped between the two writes) is read from
    /// `game` (the account's game of a challenge) and recorded first.
    public func challenges(of account: String, now: Int64, game: (String) throws(ServiceError) -> ServedGame?) throws(ServiceError) -> [Challenge] {
        var rows = try directory.challenges(of: account, now: now)
        for index in rows.indices {
            let mine = rows[index].isChallenger(account) ? rows[index].challengerResult : rows[index].friendResult
            guard mine == nil, !(rows[index].ownWord && rows[index].isChallenger(account)), let played = try game(rows[index].id), played.isOver else { continue }
            try recordChallengeResult(played, account: account)
            if let kept = try directory.challenge(rows[index].id) { rows[index] = kept }
        }
        return try view(rows, for: account)
    }

    /// Challenges as `account` sees them: the other side's result only once the account has played
    /// (or set the word), the word only once the account's game has ended (or to its setter).
    private func view(_ rows: [ChallengeRow], for account: String) throws(ServiceError) -> [Challenge] {
        let names = try directory.names(of: Array(Set(rows.flatMap { [$0.challenger, $0.friend] })))
        func name(_ id: String) -> String { names[id] ?? DisplayName.placeholder(account: id) }
        return rows.map { row in
            let sent = row.isChallenger(account)
            let setter = sent && row.ownWord
            let you = sent ? row.challengerResult : row.friendResult
            let theirs = sent ? row.friendResult : row.challengerResult
            let state: Challenge.State =
                setter ? (theirs == nil ? .waiting : .done) : you == nil ? .toPlay : (theirs == nil && !row.ownWord) ? .waiting : .done
            return Challenge(
                id: row.id, from: name(row.challenger), to: name(row.friend), sent: sent, pack: row.productID, packName: row.packName,
                category: row.category, language: row.language, letters: Game(word: row.word, language: row.language).letterCount, lives: row.lives,
                hard: row.hard == nil ? nil : true, ownWord: row.ownWord ? true : nil, state: state, createdDate: row.createdDate,
                expiresDate: row.expiresDate, you: you, them: (you != nil || setter) ? theirs : nil,
                // A hard challenge has no one word: each game ends on its own, its word in its answer.
                word: row.hard == nil && (you != nil || setter) ? row.word : nil)
        }
    }
}
