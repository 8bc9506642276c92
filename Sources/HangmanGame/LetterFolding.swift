/// How a language compares letters: which letters are the same letter in a game.
///
/// Case never matters. In English, French, Italian, Portuguese and Dutch, accents do not make a
/// new letter (`e` finds `é`, `è`, `ê`, `ë`; `c` finds `ç`). In Spanish they do not either, except
/// `ñ`, a letter of its own. In German, `ä`, `ö`, `ü` and `ß` are letters of their own. Other
/// languages compare letters exactly, case aside.
public struct LetterFolding: Sendable, Equatable {
    /// The primary language subtag this folding follows (`en`, `es`, ...).
    public let language: String
    private let stripsAccents: Bool
    private let keeps: Set<Character>

    public init(language: String) {
        let primary = language.split(separator: "-").first.map { $0.lowercased() } ?? "en"
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
        guard character.isLetter else { return nil }
        // Lower case that keeps one grapheme one grapheme (`İ` lowercases to two in Swift).
        let lowered = String(character).lowercased()
        let lower = lowered.count == 1 ? Character(lowered) : character
        if !stripsAccents || keeps.contains(lower) { return String(lower) }
        if let base = Self.latinBase[lower] { return String(base) }
        return String(lower)
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
