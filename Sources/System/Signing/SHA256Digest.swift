/// A SHA-256 digest: 32 bytes, shown as 64 lowercase hex digits.
public struct SHA256Digest: Hashable, Sendable, CustomStringConvertible {
    /// The number of bytes in a digest.
    public static let byteCount = 32

    /// The 32 bytes.
    public let bytes: [UInt8]

    /// A digest from its 32 bytes; `nil` for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == SHA256Digest.byteCount else { return nil }
        self.bytes = bytes
    }

    /// A digest from 64 hex digits (either case); `nil` for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 2 * SHA256Digest.byteCount else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(SHA256Digest.byteCount)
        var index = 0
        while index < digits.count {
            guard let high = SHA256Digest.nibble(digits[index]), let low = SHA256Digest.nibble(digits[index + 1])
            else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.bytes = bytes
    }

    init(unchecked bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The digest as 64 lowercase hex digits.
    public var hex: String { Hex.encode(bytes) }

    /// The digest as 64 lowercase hex digits.
    public var description: String { hex }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Lowercase hex, for digests, key IDs and the ids and secrets made from random bytes.
public enum Hex {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
