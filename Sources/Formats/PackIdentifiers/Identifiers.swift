/// A product identifier in reverse-DNS form (`com.example.words.ios`); for a paid pack, the
/// non-consumable product that unlocks it.
public struct ProductID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Accepts 2 or more dot-separated labels of ASCII letters, digits, `-` and `_`, at most 255 bytes.
    public init?(rawValue: String) {
        // One pass over the bytes (a seller's page reads thousands of identifiers).
        var labels = 1, labelLength = 0, length = 0
        for byte in rawValue.utf8 {
            length += 1
            switch byte {
            case UInt8(ascii: "."):
                guard labelLength > 0 else { return nil }
                labels += 1
                labelLength = 0
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                labelLength += 1
            default:
                return nil
            }
        }
        guard length <= 255, labelLength > 0, labels >= 2 else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
    public static func < (lhs: ProductID, rhs: ProductID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A content version of dotted integers (`1`, `1.2`, `2.0.3`), compared numerically:
/// `1.10` is newer than `1.9`, and `1.0` equals `1`.
public struct ContentVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The numbers, as written.
    public let components: [Int]
    /// The text, as written.
    public let text: String

    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 8 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.count <= 9, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let number = Int(part)
            else { return nil }
            numbers.append(number)
        }
        components = numbers
        self.text = text
    }

    /// `1.0`: a new pack's first version.
    public static let initial = ContentVersion(checked: [1, 0], text: "1.0")

    private init(checked components: [Int], text: String) {
        self.components = components
        self.text = text
    }

    public var description: String { text }

    private var trimmed: ArraySlice<Int> {
        var end = components.count
        while end > 1 && components[end - 1] == 0 { end -= 1 }
        return components[..<end]
    }

    public static func == (lhs: ContentVersion, rhs: ContentVersion) -> Bool { lhs.trimmed == rhs.trimmed }
    public func hash(into hasher: inout Hasher) { hasher.combine(Array(trimmed)) }
    public static func < (lhs: ContentVersion, rhs: ContentVersion) -> Bool {
        lhs.trimmed.lexicographicallyPrecedes(rhs.trimmed)
    }
}

/// A transaction's identifier: 16 lowercase hex digits, random, unique in the service (the
/// pack server claims each one across its accounts before a ledger records it).
///
/// People, receipts and Apple's shapes read it as ``number``, the same 64 bits in decimal, as
/// Apple's transaction ids are written: `2738163829101854` (16 digits for every id drawn since
/// numbers were shown; up to 20 for an older one). `rawValue` is how ledgers, signed receipts
/// and the pack service's own wire keep it.
public struct TransactionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Accepts 16 lowercase hex digits.
    public init?(rawValue: String) {
        guard rawValue.utf8.count == 16, rawValue.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            return nil
        }
        self.rawValue = rawValue
    }

    /// The transaction whose ``number`` is `number`: 1 to 20 decimal digits, at most 2^64 - 1.
    public init?(number: String) {
        guard (1...20).contains(number.utf8.count), number.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = UInt64(number) else {
            return nil
        }
        self.init(value: value)
    }

    private init(value: UInt64) {
        let hex = String(value, radix: 16)
        // Sixteen digits, zero-padded, are always a valid identifier.
        self.init(unchecked: String(repeating: "0", count: 16 - hex.count) + hex)
    }

    /// The id as people and Apple's shapes write it: the 64 bits in decimal, no leading zeros.
    public var number: String { String(UInt64(rawValue, radix: 16) ?? 0) }

    /// The number of an id kept as text (a signed receipt's), or the text itself when it is no id.
    public static func number(ofRawValue text: String) -> String {
        TransactionID(rawValue: text)?.number ?? text
    }

    /// The kept form of an id written as its number (Apple's shapes), or the text itself when it is no number.
    public static func rawValue(ofNumber text: String) -> String {
        TransactionID(number: text)?.rawValue ?? text
    }

    /// Numbers drawn for new transactions: 16 decimal digits, as Apple's are, and no more of
    /// them than ten characters of order id can name (36^10).
    package static let drawnNumbers: Range<UInt64> = 1_000_000_000_000_000..<(1_000_000_000_000_000 + 3_656_158_440_062_976)

    /// The order id, as Apple's emailed receipts show one (`MK5TTTVWJH`): ten characters, A to Z
    /// and 0 to 9, for every id drawn now (its number less the first drawn, in base 36); 13 for an
    /// id drawn before order ids (its whole number in base 36). Either way it names this one
    /// transaction, and ``init(orderID:)`` reads it back.
    public var orderID: String {
        let value = UInt64(rawValue, radix: 16) ?? 0
        if Self.drawnNumbers.contains(value) { return Self.base36(value - Self.drawnNumbers.lowerBound, width: 10) }
        return Self.base36(value, width: 13)
    }

    /// The transaction an order id names (any case); `nil` for text that is no order id.
    public init?(orderID: String) {
        let digits = Array(orderID.uppercased().utf8)
        guard digits.count == 10 || digits.count == 13 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            let place: UInt64
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): place = UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): place = UInt64(digit - UInt8(ascii: "A")) + 10
            default: return nil
            }
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 36)
            let (sum, overflowSum) = shifted.addingReportingOverflow(place)
            guard !overflowShift, !overflowSum else { return nil }
            value = sum
        }
        if digits.count == 10 {
            let (number, overflow) = value.addingReportingOverflow(Self.drawnNumbers.lowerBound)
            guard !overflow, Self.drawnNumbers.contains(number) else { return nil }
            self.init(value: number)
        } else {
            // The long form names only ids drawn outside the short form's numbers.
            guard !Self.drawnNumbers.contains(value) else { return nil }
            self.init(value: value)
        }
    }

    private static func base36(_ value: UInt64, width: Int) -> String {
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var text: [Character] = []
        var rest = value
        repeat {
            text.append(digits[Int(rest % 36)])
            rest /= 36
        } while rest > 0
        return String(repeating: "0", count: max(0, width - text.count)) + String(text.reversed())
    }

    /// A new random identifier, its ``number`` 16 digits long.
    package static func random<G: RandomNumberGenerator>(using generator: inout G) -> TransactionID {
        TransactionID(value: UInt64.random(in: drawnNumbers, using: &generator))
    }

    private init(unchecked: String) { rawValue = unchecked }

    public var description: String { rawValue }
    public static func < (lhs: TransactionID, rhs: TransactionID) -> Bool { lhs.rawValue < rhs.rawValue }
}

// Identifiers travel as their text (JSON strings), checked again when read: the standard
// library's Codable for a String-backed RawRepresentable does that for the first two.

extension ProductID: Codable {}

extension TransactionID: Codable {}

extension ContentVersion: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let version = ContentVersion(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a content version"))
        }
        self = version
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// What a pack holds, from its manifest's `Kind`: words to play (the default), or a theme (the
/// gallows drawn as art). Both share the pack format's manifest, verification and signing.
public enum PackKind: String, Sendable, Hashable, Codable, CaseIterable {
    case words = "Words"
    case theme = "Theme"

    /// The kind a manifest's `Kind` names (`nil`: words); `nil` for a kind this reader does not know.
    public init?(manifestValue: String?) {
        guard let manifestValue else { self = .words; return }
        self.init(rawValue: manifestValue)
    }
}

/// BCP 47 language tags as the packs use them.
public enum LanguageTag {
    /// The primary language subtag, lowercased: `pt-BR` and `pt_BR` -> `pt`, `de` -> `de`.
    public static func primary(_ tag: String) -> String {
        String(tag.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }

    /// Whether two tags name one language (`pt` and `pt-BR`, `es-MX` and `es`): what a player's
    /// choice of languages and a pack's language are compared by.
    public static func sameLanguage(_ first: String, _ second: String) -> Bool {
        primary(first) == primary(second)
    }
}
