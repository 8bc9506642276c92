/// What `hangman pack inspect` shows of a pack: counts, lengths and scripts.
public struct PackInspection: Sendable {
    /// One word list's name, file and size.
    public struct ListSummary: Sendable {
        /// The list's name: the category players see.
        public var name: String
        /// Its file inside the pack.
        public var path: String
        /// Its property list format: `xml` or `binary`.
        public var format: String
        /// Its words.
        public var wordCount: Int
        /// Its words with a clue.
        public var clueCount: Int
    }

    /// Every word list, in the pack's order.
    public var lists: [ListSummary]
    /// Letters per word (spaces, hyphens and apostrophes not counted) -> number of words.
    public var lengthCounts: [Int: Int]
    /// Unicode scripts of the letters, most used first (`Latin`, `Cyrillic`, ...).
    public var scripts: [String]
    /// The words in every list.
    public var wordCount: Int
    /// Letters in the shortest word.
    public var shortest: Int
    /// Letters in the longest word.
    public var longest: Int
    /// Letters in the median word.
    public var medianLength: Int

    /// The counts of `pack`.
    public init(_ pack: WordPack) {
        lists = pack.lists.map { list in
            ListSummary(
                name: list.name, path: list.path, format: list.format.rawValue, wordCount: list.wordCount,
                clueCount: list.clueCount)
        }
        var lengths: [Int: Int] = [:]
        var scriptCounts: [String: Int] = [:]
        for list in pack.lists {
            for word in list.words {
                var letters = 0
                for character in word.text where WordRules.isLetter(character) {
                    letters += 1
                    if let scalar = character.unicodeScalars.first {
                        scriptCounts[Self.script(of: scalar), default: 0] += 1
                    }
                }
                lengths[letters, default: 0] += 1
            }
        }
        lengthCounts = lengths
        scripts = scriptCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        wordCount = pack.wordCount
        let sorted = lengths.keys.sorted()
        shortest = sorted.first ?? 0
        longest = sorted.last ?? 0
        var remaining = wordCount / 2
        var median = shortest
        for length in sorted {
            median = length
            remaining -= lengths[length] ?? 0
            if remaining < 0 { break }
        }
        medianLength = median
    }

    /// A coarse script name from the scalar's block; enough to tell a pack's alphabet.
    static func script(of scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x0000...0x024F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF: "Latin"
        case 0x0370...0x03FF, 0x1F00...0x1FFF: "Greek"
        case 0x0400...0x052F: "Cyrillic"
        case 0x0530...0x058F: "Armenian"
        case 0x0590...0x05FF: "Hebrew"
        case 0x0600...0x06FF, 0x0750...0x077F: "Arabic"
        case 0x0900...0x097F: "Devanagari"
        case 0x0E00...0x0E7F: "Thai"
        case 0x10A0...0x10FF: "Georgian"
        case 0x3040...0x309F: "Hiragana"
        case 0x30A0...0x30FF: "Katakana"
        case 0xAC00...0xD7AF, 0x1100...0x11FF: "Hangul"
        case 0x4E00...0x9FFF, 0x3400...0x4DBF: "Han"
        default: "Other"
        }
    }
}
