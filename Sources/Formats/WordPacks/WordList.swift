import PropertyList

/// A word, with the clue shown after a game when it has one.
public struct PackWord: Sendable, Hashable {
    /// The word, as the list writes it (NFC).
    public var text: String
    /// A hint shown with the word after a game, when the list gives one.
    public var clue: String?

    /// The word `text`, with its `clue` when it has one.
    public init(_ text: String, clue: String? = nil) {
        self.text = text
        self.clue = clue
    }
}

/// One word-list file of a pack: a category of words.
public struct WordList: Sendable {
    /// Path of the file inside the pack.
    public var path: String
    /// The category shown in the game: the file's `name`, else the file name without `.plist`.
    public var name: String
    /// How the file was encoded.
    public var format: PropertyListFormat
    var contents: Contents

    /// How the words are held: packed in one buffer (what a verified pack's lists hold), or as values.
    enum Contents: Sendable {
        case packed(PackedWords)
        case values([PackWord])
    }

    /// A list at `path` (the category `name`) holding `words`, read from a property list in `format`.
    public init(path: String, name: String, format: PropertyListFormat, words: [PackWord]) {
        self.init(path: path, name: name, format: format, contents: .values(words))
    }

    init(path: String, name: String, format: PropertyListFormat, contents: Contents) {
        self.path = path
        self.name = name
        self.format = format
        self.contents = contents
    }

    /// The words, as values: made on demand for a packed list.
    public var words: [PackWord] {
        get {
            switch contents {
            case .values(let words): return words
            case .packed(let packed): return (0..<packed.count).map { PackWord(packed.word($0), clue: packed.clue($0)) }
            }
        }
        set { contents = .values(newValue) }
    }

    /// The number of words.
    public var wordCount: Int {
        switch contents {
        case .values(let words): words.count
        case .packed(let packed): packed.count
        }
    }

    /// The number of words with a clue.
    public var clueCount: Int {
        switch contents {
        case .values(let words): words.count { $0.clue != nil }
        case .packed(let packed): packed.clues.count
        }
    }

    /// Calls `body` with each word's UTF-8 (valid during the call) and its clue, in order, without
    /// making a `String` of the word: what an install needs to store a million words.
    public func forEachWord(_ body: (UnsafeBufferPointer<UInt8>, String?) throws -> Void) rethrows {
        switch contents {
        case .values(let words):
            for word in words {
                var text = word.text
                try text.withUTF8 { try body($0, word.clue) }
            }
        case .packed(let packed):
            var nextClue = 0
            try packed.bytes.withUnsafeBufferPointer { bytes in
                var start = 0
                for (index, end) in packed.ends.enumerated() {
                    var clue: String?
                    if nextClue < packed.clueIndices.count, packed.clueIndices[nextClue] == UInt32(truncatingIfNeeded: index) {
                        clue = packed.clues[nextClue]
                        nextClue += 1
                    }
                    try body(UnsafeBufferPointer(rebasing: bytes[start..<Int(end)]), clue)
                    start = Int(end)
                }
            }
        }
    }

    /// The UTF-8 of word `index`, valid during the call.
    func withWord<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch contents {
        case .packed(let packed):
            return packed.withWord(index, body)
        case .values(let words):
            var text = words[index].text
            return text.withUTF8(body)
        }
    }

    /// Word `index` as a string.
    func word(_ index: Int) -> String {
        switch contents {
        case .packed(let packed): packed.word(index)
        case .values(let words): words[index].text
        }
    }

    /// The category name of a list file that has no `name`: the file name without `.plist`.
    static func defaultName(path: String) -> String {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        return fileName.lowercased().hasSuffix(".plist") ? String(fileName.dropLast(6)) : fileName
    }

    /// Longest clue accepted, in characters.
    public static let maximumClueLength = 500

    /// Reads a word list: an array of words, or a dictionary with a `words` array and an optional
    /// `name`; a word is a string or a dictionary with `word` and an optional `clue`.
    /// Every word is checked with `WordRules`; at most `maxProblems` word problems are reported
    /// one by one, the rest are counted in one last line.
    static func parse(
        _ value: PropertyList, format: PropertyListFormat, path: String, entry: String,
        maxProblems: Int, problems: inout [PackProblem]
    ) -> WordList? {
        var name = defaultName(path: path)
        let items: [PropertyList]
        switch value {
        case .array(let array):
            items = array
        case .dictionary(let dict):
            guard let words = dict["words"] else {
                problems.append(PackProblem(.wordListRoot, entry: entry, "dictionary has no 'words' array (a word list is an array of words, or a dictionary with 'words' and an optional 'name')"))
                return nil
            }
            guard case .array(let array) = words else {
                problems.append(PackProblem(.wordListRoot, entry: entry, "'words' is \(words.typeName), expected an array"))
                return nil
            }
            if let title = dict["name"] {
                guard case .string(let text) = title, !text.allSatisfy(\.isWhitespace) else {
                    problems.append(PackProblem(.wordListRoot, entry: entry, "'name' must be a non-empty string, found \(title.typeName)"))
                    return nil
                }
                name = text
            }
            items = array
        default:
            problems.append(PackProblem(.wordListRoot, entry: entry, "root is \(value.typeName); a word list is an array of words, or a dictionary with a 'words' array"))
            return nil
        }
        if items.isEmpty {
            problems.append(PackProblem(.emptyWordList, entry: entry, "word list '\(name)' is empty"))
            return nil
        }

        var words: [PackWord] = []
        words.reserveCapacity(items.count)
        var reported = 0
        var unreported = 0
        func report(_ kind: PackProblem.Kind, _ message: String) {
            if reported < maxProblems {
                problems.append(PackProblem(kind, entry: entry, message))
                reported += 1
            } else {
                unreported += 1
            }
        }
        for (index, item) in items.enumerated() {
            let number = index + 1
            let word: PackWord
            switch item {
            case .string(let text):
                word = PackWord(text)
            case .dictionary(let dict):
                guard case .string(let text)? = dict["word"] else {
                    report(.wordNotString, "word \(number): a word dictionary needs a string 'word', found \(dict["word"]?.typeName ?? "none")")
                    continue
                }
                var clue: String?
                if let value = dict["clue"] {
                    guard case .string(let text) = value else {
                        report(.wordNotString, "word \(number) '\(text)': 'clue' is \(value.typeName), expected a string")
                        continue
                    }
                    if text.count > maximumClueLength {
                        report(.invalidWord, "word \(number) '\(text)': clue has \(text.count) characters, at most \(maximumClueLength)")
                        continue
                    }
                    clue = text
                }
                word = PackWord(text, clue: clue)
            default:
                report(.wordNotString, "word \(number) is \(item.typeName), expected a string or a dictionary with 'word'")
                continue
            }
            if let problem = WordRules.problem(with: word.text) {
                report(WordRules.isNFC(word.text) ? .invalidWord : .wordNotNFC, "word \(number) '\(printable(word.text))' \(problem)")
                continue
            }
            words.append(word)
        }
        if unreported > 0 {
            problems.append(PackProblem(.invalidWord, entry: entry, "and \(unreported) more problems with words in this list"))
        }
        return WordList(path: path, name: name, format: format, words: words)
    }
}

extension WordList: Equatable {
    /// The same file, name, format and words (with their clues), however they are held.
    public static func == (lhs: WordList, rhs: WordList) -> Bool {
        guard lhs.path == rhs.path, lhs.name == rhs.name, lhs.format == rhs.format, lhs.wordCount == rhs.wordCount else {
            return false
        }
        if case .values(let left) = lhs.contents, case .values(let right) = rhs.contents { return left == right }
        return lhs.words == rhs.words
    }
}

/// A word as it can be printed safely: control characters escaped, long words cut.
func printable(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars.prefix(60) {
        if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
            out += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return text.unicodeScalars.count > 60 ? out + "…" : out
}
