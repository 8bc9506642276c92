import HangmanGame
import PropertyList

/// Builds random property-list trees that every writer and reader must carry unchanged.
struct RandomPropertyLists {
    /// Samples that exercise escaping, multi-byte UTF-8, surrogate pairs and normalization forms.
    static let stringPieces = [
        "word", "hangman", "", " ", "a&b", "<tag>", "x > y", "\"quoted\"", "it's", "]]>", "&amp;",
        "ñ", "é", "e\u{301}", "ß", "Straße", "😀", "👩‍👩‍👧", "漢字", "かな", "한국어", "Ω", "\t", "\n",
        "line\nbreak", "0x10", "-5", "true", "<!-- no -->", "&#65;", "tab\there",
    ]

    var generator: SeededGenerator
    /// Reals and dates that XML carries exactly: whole-second dates and no NaN.
    var xmlSafe = true
    /// Keep to values Foundation carries exactly: dates in 1900-2100, no -0.0.
    var foundationSafe = true

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    mutating func tree(depth: Int = 0) -> PropertyList {
        let choice = Int.random(in: 0..<(depth >= 4 ? 7 : 10), using: &generator)
        switch choice {
        case 0: return .string(string())
        case 1: return .integer(integer())
        case 2: return .real(real())
        case 3: return .boolean(Bool.random(using: &generator))
        case 4: return .date(date())
        case 5: return .data((0..<Int.random(in: 0..<80, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        case 6: return .string(string())
        case 7, 8:
            return .array((0..<Int.random(in: 0..<6, using: &generator)).map { _ in tree(depth: depth + 1) })
        default:
            var entries: [String: PropertyList] = [:]
            for _ in 0..<Int.random(in: 0..<6, using: &generator) {
                entries[string()] = tree(depth: depth + 1)
            }
            return .dictionary(entries)
        }
    }

    mutating func string() -> String {
        (0..<Int.random(in: 0..<4, using: &generator))
            .map { _ in Self.stringPieces[Int.random(in: 0..<Self.stringPieces.count, using: &generator)] }
            .joined()
    }

    mutating func integer() -> Int64 {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return [Int64.min, Int64.max, 0, -1, 1, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296][Int.random(in: 0..<11, using: &generator)]
        case 1: return Int64.random(in: Int64.min...Int64.max, using: &generator)
        case 2: return Int64.random(in: -1_000...1_000, using: &generator)
        default: return Int64.random(in: 0...100_000, using: &generator)
        }
    }

    mutating func real() -> Double {
        let value = anyReal()
        // Foundation's XML writer drops the sign of -0.0.
        return foundationSafe && value == 0 ? 0 : value
    }

    private mutating func anyReal() -> Double {
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: return [0.0, -0.0, 0.1, 1.5, -2.25, 1e100, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity][Int.random(in: 0..<10, using: &generator)]
        case 1: return Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
        default: return Double.random(in: -1e6...1e6, using: &generator)
        }
    }

    mutating func date() -> Double {
        let range: ClosedRange<Double> = foundationSafe ? -3_155_673_600...3_155_760_000 : -60_000_000_000...250_000_000_000
        let seconds = Double.random(in: range, using: &generator)
        return xmlSafe ? seconds.rounded(.down) : seconds
    }
}

extension PropertyList {
    /// Equality that also tells NFC from NFD strings and keys, and -0.0 from 0.0.
    func isIdentical(to other: PropertyList) -> Bool {
        switch (self, other) {
        case let (.string(a), .string(b)): return a.utf8.elementsEqual(b.utf8)
        case let (.real(a), .real(b)): return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case let (.date(a), .date(b)): return a.bitPattern == b.bitPattern
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case let (.dictionary(a), .dictionary(b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { key, value in
                guard let index = b.index(forKey: key), b[index].key.utf8.elementsEqual(key.utf8) else { return false }
                return value.isIdentical(to: b[index].value)
            }
        default: return self == other
        }
    }
}
