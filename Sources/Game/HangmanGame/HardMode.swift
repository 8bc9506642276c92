import LetterFolding

/// Hard mode ("evil hangman"): the service commits to no word. It keeps the words still
/// consistent with every answer given, and answers each guess with the pattern that keeps the
/// most of them alive. Pure rules over values: the caller keeps the candidates between moves.
///
/// Every candidate shows the same board (the same letters where the guessed letters stand, none
/// of the missed ones), so a ``Game`` of any one of them (``representative(of:key:)``) draws the
/// board and scores the game; a hint, or the game's end, commits to that one.
///
/// Ties (two families as large) are broken by the game's `key`, so a game with the same key and
/// the same guesses is answered the same way on every machine.
public enum HardMode {
    /// A word and its clue, as a candidate.
    public struct Candidate: Sendable, Equatable, Codable {
        public var word: String
        public var clue: String?

        public init(word: String, clue: String? = nil) {
            self.word = word
            self.clue = clue
        }
    }

    /// The most candidates a game keeps from the start: the board's word and as many others of
    /// its shape, chosen by the key, so that a move's cost is bounded whatever the list holds.
    public static let maxCandidates = 256

    /// What a word looks like before any guess: its separators where they stand, `_` for each
    /// letter. Two words are candidates of one game when their shapes are equal.
    public static func shape(of word: String, folding: LetterFolding) -> String {
        String(word.map { character in folding.key(character) == nil ? character : "_" })
    }

    /// The candidates a game starts with: `drawn`, and up to ``maxCandidates`` - 1 other words of
    /// its shape (`count` of them, `drawn` may be among them, `word(at:)` reads one): a run of
    /// them from a place the key chooses, so that the start reads no more than it keeps.
    public static func startingSet(drawn: Candidate, sameShape count: Int, key: UInt64, word: (Int) -> Candidate) -> [Candidate] {
        var set = [drawn]
        guard count > 0 else { return set }
        let first = Int(key % UInt64(count))
        for step in 0..<count where set.count < maxCandidates {
            let candidate = word((first + step) % count)
            if candidate.word != drawn.word { set.append(candidate) }
        }
        return set
    }

    /// The candidates a guess leaves in `game` (a game of any one of `candidates`): a new letter's
    /// largest family, or every word but the one guessed; `candidates` as they are for a guess the
    /// game would refuse or call repeated.
    public static func candidates(after guess: String, in game: Game, among candidates: [Candidate], key: UInt64) -> [Candidate] {
        guard candidates.count > 1, game.status == .playing else { return candidates }
        let folding = game.folding
        let trimmed = Game.trimmed(guess)
        if trimmed.count == 1, let character = trimmed.first {
            guard let letter = folding.key(character), !game.guesses.contains(letter), !game.hinted.contains(letter) else { return candidates }
            return answer(letter: letter, among: candidates, folding: folding, key: key)
        }
        let folded = trimmed.compactMap(folding.key)
        guard folded.count == game.letterCount else { return candidates }
        return answer(word: folded.joined(), among: candidates, folding: folding)
    }

    /// The candidates kept after guessing the letter `letter` (a key, as `folding` compares
    /// letters): those of the largest family, where a family is the words with `letter` at the
    /// same places (none: a miss). Ties go to the family whose pattern hashes smallest under `key`.
    public static func answer(letter: String, among candidates: [Candidate], folding: LetterFolding, key: UInt64) -> [Candidate] {
        var families: [String: [Candidate]] = [:]
        var order: [String] = []
        for candidate in candidates {
            var pattern = ""
            for (index, character) in candidate.word.enumerated() where folding.key(character) == letter {
                pattern += "\(index),"
            }
            if families[pattern] == nil { order.append(pattern) }
            families[pattern, default: []].append(candidate)
        }
        let best = order.min { a, b in
            let (sizeA, sizeB) = (families[a]!.count, families[b]!.count)
            if sizeA != sizeB { return sizeA > sizeB }
            return keyedHash(a, key: key) < keyedHash(b, key: key)
        }
        return best.map { families[$0]! } ?? candidates
    }

    /// The candidates kept after guessing the whole word whose letters' keys are `folded`: every
    /// other one while another is left (the guess is wrong), else that one (it is right).
    public static func answer(word folded: String, among candidates: [Candidate], folding: LetterFolding) -> [Candidate] {
        let others = candidates.filter { candidate in candidate.word.compactMap(folding.key).joined() != folded }
        return others.isEmpty ? candidates : others
    }

    /// The one word the game stands for now: the candidate whose keyed hash is smallest. A hint
    /// commits the game to it; at the end, it is the word shown.
    public static func representative(of candidates: [Candidate], key: UInt64) -> Candidate? {
        candidates.min { keyedHash($0.word, key: key) < keyedHash($1.word, key: key) }
    }

    /// A hash of `text` under `key`, the same on every machine and run (FNV-1a, then SplitMix64's
    /// mixing): never Swift's `Hasher`, which is seeded per process.
    public static func keyedHash(_ text: String, key: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ key
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        var generator = SeededGenerator(seed: hash)
        return generator.next()
    }

    /// A hard game's score: twice a normal game's.
    public static let scoreFactor = 2
}
