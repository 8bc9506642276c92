import HangmanGame
import LetterFolding
import Messages
import Synchronization
import WordPacks

/// The words of the packs a service plays games from: each archive read and verified once (by the
/// digest the catalog records) and kept while the catalog publishes it. Shared by every account
/// of a server.
public final class ServedPackWords: Sendable {
    /// One pack's words as a game draws them.
    struct Pack: Sendable {
        var language: String
        var lists: [List]
        /// The daily word's list (`DailyList`), when the pack has one.
        var daily: List?
    }

    struct List: Sendable {
        var name: String
        var words: [PackWord]
        /// The words of each shape (``HardMode/shape(of:folding:)``), by index: a hard game's
        /// candidates, found without reading the list. Made by the list's first hard game, so
        /// that loading a pack pays nothing for a mode few games use.
        private let shapes = Shapes()

        final class Shapes: Sendable {
            let index = Mutex<[String: [Int]]?>(nil)
        }

        init(name: String, words: [PackWord]) {
            self.name = name
            self.words = words
        }

        /// A hard game's starting candidates: `drawn` and words of its shape (``HardMode/startingSet(drawn:sameShape:key:word:)``).
        func hardCandidates(drawn: PackWord, folding: LetterFolding, key: UInt64) -> [HardMode.Candidate] {
            let indices = shapes.index.withLock { kept in
                if kept == nil {
                    var made: [String: [Int]] = [:]
                    for (index, word) in words.enumerated() { made[HardMode.shape(of: word.text, folding: folding), default: []].append(index) }
                    kept = made
                }
                return kept?[HardMode.shape(of: drawn.text, folding: folding)] ?? []
            }
            return HardMode.startingSet(drawn: HardMode.Candidate(word: drawn.text, clue: drawn.clue), sameShape: indices.count, key: key) { index in
                HardMode.Candidate(word: words[indices[index]].text, clue: words[indices[index]].clue)
            }
        }
    }

    private let packs = Mutex<[String: Pack]>([:])
    /// Archives kept at once; past it the shelf starts over (a catalog publishes a few dozen).
    private let capacity = 64

    public init() {}

    /// The words of the archive at `path`, which must be the one the catalog recorded (`sha256`).
    func pack(_ archive: PackArchiveFile) throws(ServiceError) -> Pack {
        if let kept = packs.withLock({ $0[archive.sha256] }) { return kept }
        let verification = PackVerifier().verify(fileAt: archive.path)
        guard verification.isValid, let pack = verification.pack else {
            throw ServiceError(
                .productUnavailable,
                L10n.text("%s (%s) cannot be played now: its pack archive does not verify", archive.displayName, archive.productID)
                    + (verification.problems.first.map { " (\($0))" } ?? ""))
        }
        if !archive.sha256.isEmpty, verification.archive?.sha256.hex != archive.sha256 {
            throw ServiceError(
                .productUnavailable, L10n.text("%s (%s) cannot be played now: its archive is not the one the catalog published", archive.displayName, archive.productID))
        }
        let words = Pack(
            language: pack.manifest.language, lists: pack.lists.map { List(name: $0.name, words: $0.words) },
            daily: pack.dailyList.map { List(name: $0.name, words: $0.words) })
        packs.withLock { kept in
            if kept.count >= capacity { kept.removeAll() }
            kept[archive.sha256] = words
        }
        return words
    }
}
