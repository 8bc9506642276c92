import PackIdentifiers

/// How a language compares letters: which letters are the same letter in a game.
///
/// Case never matters. In English, French, Italian, Portuguese and Dutch, accents do not make a
/// new letter (`e` finds `é`, `è`, `ê`, `ë`; `c` finds `ç`). In Spanish they do not either, except
/// `ñ`, a letter of its own. In German, `ä`, `ö`, `ü` and `ß` are letters of their own. Other
/// languages compare letters exactly, case aside.
///
/// The game compares guesses with ``key(_:)``; a pack's duplicate-word check compares whole words
/// with ``foldedWord(_:)``, which is built from the same keys, so both agree on what is "the same".
///
/// ```swift
/// let english = LetterFolding(language: "en")
/// english.foldedWord("Café") == english.foldedWord("cafe")   // true
/// let spanish = LetterFolding(language: "es")
/// spanish.foldedWord("niño") == spanish.foldedWord("nino")   // false
/// ```
public struct LetterFolding: Sendable, Equatable {
    /// The primary language subtag this folding follows (`en`, `es`, ...).
    public let language: String
    private let stripsAccents: Bool
    private let keeps: Set<Character>

    /// The folding of a BCP 47 language tag; only its primary subtag counts (`es-MX` folds as `es`).
    public init(language: String) {
        let tag = LanguageTag.primary(language)
        let primary = tag.isEmpty ? "en" : tag
        self.language = primary
        switch primary {
        case "en", "fr", "it", "pt", "nl", "ca":
            stripsAccents = true
            keeps = []
        case "es":
            stripsAccents = true
            keeps = ["ñ"]
        case "de":
            stripsAccents = true
            keeps = ["ä", "ö", "ü", "ß"]
        default:
            stripsAccents = false
            keeps = []
        }
    }

    /// The comparison key of one letter (a grapheme), or `nil` for a separator or a non-letter.
    public func key(_ character: Character) -> String? {
        // ASCII first, without Unicode's tables: A-Z and a-z are their own lower case in every
        // language, and no other ASCII character is a letter.
        if let ascii = character.asciiValue {
            switch ascii {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): return String(character)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): return String(Character(Unicode.Scalar(ascii + 32)))
            default: return nil
            }
        }
        guard character.isLetter else { return nil }
        // Lower case that keeps one grapheme one grapheme (`İ` lowercases to two in Swift).
        let lowered = String(character).lowercased()
        let lower = lowered.count == 1 ? Character(lowered) : character
        if !stripsAccents || keeps.contains(lower) { return String(lower) }
        if let base = Self.latinBase[lower] { return String(base) }
        return String(lower)
    }

    /// The key under which two words are the same word in a game: every letter replaced by its
    /// ``key(_:)``, every other character (space, hyphen, apostrophe) kept as the game shows it,
    /// in Unicode NFC so that equal keys have equal bytes.
    ///
    /// Two words have the same folded form exactly when a game of one looks and plays like a game of
    /// the other: the same separators in the same places and the same letter keys everywhere else.
    public func foldedWord(_ word: String) -> String {
        var folded = ""
        folded.reserveCapacity(word.utf8.count)
        var isASCII = true
        for character in word {
            if character.utf8.count == 1, let byte = character.utf8.first, byte < 0x80 {
                // What `key(_:)` gives an ASCII letter, without building strings.
                folded.unicodeScalars.append(Unicode.Scalar(byte &- 0x41 < 26 ? byte | 0x20 : byte))
            } else {
                isASCII = false
                if let key = key(character) { folded += key } else { folded.append(character) }
            }
        }
        return isASCII ? folded : Self.nfc(folded)
    }

    /// `text` in Unicode Normalization Form C.
    static func nfc(_ text: String) -> String {
        let composed = text._nfcCodeUnits
        return composed.elementsEqual(text.utf8) ? text : String(decoding: composed, as: UTF8.self)
    }

    /// Accented Latin letters and their base letters.
    static let latinBase: [Character: Character] = {
        let pairs: [(String, Character)] = [
            ("àáâãäåāăą", "a"), ("çćĉċč", "c"), ("ďđ", "d"), ("èéêëēĕėęě", "e"), ("ĝğġģ", "g"), ("ĥħ", "h"),
            ("ìíîïĩīĭįı", "i"), ("ĵ", "j"), ("ķ", "k"), ("ĺļľŀł", "l"), ("ñńņňŉ", "n"), ("òóôõöøōŏő", "o"),
            ("ŕŗř", "r"), ("śŝşš", "s"), ("ţťŧ", "t"), ("ùúûüũūŭůűų", "u"), ("ŵ", "w"), ("ýÿŷ", "y"), ("źżž", "z"),
        ]
        var table: [Character: Character] = [:]
        for (accented, base) in pairs {
            for character in accented { table[character] = base }
        }
        return table
    }()
}
