/// The rules a word must meet. Which words are the same word is `LetterFolding`'s to say.
///
/// A word is valid when it is in Unicode NFC and has 2 to 40 letters of any script, with
/// single inner spaces, hyphens or apostrophes (`'` or `’`; an apostrophe may touch a space or a hyphen,
/// as in "rock 'n' roll" and "jack-o'-lantern"), which the game shows and never asks for.
public enum WordRules {
    /// Fewest letters in a word.
    public static let minimumLetters = 2
    /// Most letters in a word.
    public static let maximumLetters = 40
    /// Characters shown from the start of a game and never guessed.
    public static let separators: Set<Character> = [" ", "-", "'", "\u{2019}"]

    /// Why `word` is not a valid word, or `nil` when it is.
    public static func problem(with word: String) -> String? {
        if word.isEmpty { return "is empty" }
        if let valid = asciiVerdict(word), valid { return nil }
        var letters = 0
        var previousSeparator: Character?
        var previousWasSeparator = true  // so that a leading separator is refused
        for character in word {
            if separators.contains(character) {
                if letters == 0 { return "starts with '\(character)': spaces, hyphens and apostrophes must be inside the word" }
                if let previous = previousSeparator, previous == character || !(isApostrophe(previous) || isApostrophe(character)) {
                    return "has '\(previous)' and '\(character)' in a row (spaces and hyphens are single; an apostrophe may touch one, as in rock 'n' roll)"
                }
                previousWasSeparator = true
                previousSeparator = character
            } else if isLetter(character) {
                letters += 1
                previousWasSeparator = false
                previousSeparator = nil
            } else {
                return "contains \(describe(character)), which is not a letter, space, hyphen or apostrophe"
            }
        }
        if previousWasSeparator { return "ends with a space, hyphen or apostrophe" }
        if letters < minimumLetters { return "has \(letters) letter\(letters == 1 ? "" : "s"); a word has at least \(minimumLetters)" }
        if letters > maximumLetters { return "has \(letters) letters; a word has at most \(maximumLetters)" }
        if !isNFC(word) { return "is not in Unicode NFC form (compose its accents: U+00E9 rather than e + U+0301)" }
        return nil
    }

    /// `true` for a valid all-ASCII word, checked byte by byte (the common case, and 20x faster
    /// than walking grapheme clusters); `false` for anything else, which the full rules then explain.
    static func asciiVerdict(_ word: String) -> Bool? {
        word.utf8.withContiguousStorageIfAvailable { isValidASCIIWord($0) }
    }

    /// `true` when `bytes` are a valid all-ASCII word; `false` for anything else (which may still
    /// be a valid word in another script: the full rules decide).
    static func isValidASCIIWord(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.count >= minimumLetters && bytes.count <= maximumLetters && isAllASCIILetters(bytes) { return true }
        var letters = 0
        var previous: UInt8 = 0  // the previous separator, 0 after a letter
        var atStart = true
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                letters += 1
                previous = 0
                atStart = false
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "'"):
                if atStart { return false }
                if previous != 0 && (previous == byte || (previous != UInt8(ascii: "'") && byte != UInt8(ascii: "'"))) { return false }
                previous = byte
            default:
                return false
            }
        }
        return previous == 0 && letters >= minimumLetters && letters <= maximumLetters
    }

    /// Whether every byte is an ASCII letter, eight bytes at a time: most words of most packs.
    @inline(__always)
    private static func isAllASCIILetters(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// All eight bytes of `group` are letters: below 0x80, and in a...z once 0x20 is set.
        func letters(_ group: UInt64) -> Bool {
            let lower = group | (ones &* 0x20)
            // The top bit of each byte of lower + (0x80 - 'a') is set when the byte is >= 'a',
            // and that of lower + (0x80 - 'z' - 1) when it is > 'z'.
            let atLeastA = lower &+ ones &* 0x1F
            let beyondZ = lower &+ ones &* 0x05
            return group & highs == 0 && (atLeastA & ~beyondZ & highs) == highs
        }
        var offset = 0
        while offset + 8 <= bytes.count {
            if !letters(UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)) { return false }
            offset += 8
        }
        if offset < bytes.count {
            // The last bytes, padded with 'a'.
            var group = ones &* UInt64(UInt8(ascii: "a"))
            for index in offset..<bytes.count {
                let shift = UInt64(8 * (index - offset))
                group = group & ~(0xFF << shift) | UInt64(bytes[index]) << shift
            }
            if !letters(group) { return false }
        }
        return true
    }

    /// Whether `word` is already in Unicode Normalization Form C.
    public static func isNFC(_ word: String) -> Bool {
        if word.utf8.allSatisfy({ $0 < 0x80 }) { return true }
        return word._nfcCodeUnits.elementsEqual(word.utf8)
    }

    /// `word` in Unicode Normalization Form C.
    public static func nfc(_ word: String) -> String {
        if isNFC(word) { return word }
        return String(decoding: word._nfcCodeUnits, as: UTF8.self)
    }

    private static func isApostrophe(_ character: Character) -> Bool {
        character == "'" || character == "\u{2019}"
    }

    /// A letter of any script, with any combining marks it carries.
    public static func isLetter(_ character: Character) -> Bool {
        var scalars = character.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return false }
        switch first.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            break
        default:
            return false
        }
        while let next = scalars.next() {
            switch next.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: return false
            }
        }
        return true
    }

    private static func describe(_ character: Character) -> String {
        let codes = character.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }.joined(separator: " ")
        let printable = character.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .unassigned, .surrogate, .privateUse: false
            default: true
            }
        }
        return printable ? "'\(character)' (\(codes))" : codes
    }
}
