/// Base64 (RFC 4648): the standard alphabet with `=` padding for key files, signed payloads and
/// plist `<data>`; the URL alphabet without padding for tokens.
///
/// Encoding writes straight into the result's storage. Decoding skips spaces, tabs and line
/// breaks; how much else it forgives is the caller's choice (`Strictness`).
public enum Base64 {
    /// Which 64 symbols a text uses, and whether it is padded to a multiple of four.
    public enum Alphabet: Sendable {
        /// `A-Z a-z 0-9 + /`, padded with `=` (RFC 4648 §4).
        case standard
        /// `A-Z a-z 0-9 - _`, unpadded (RFC 4648 §5): safe in URLs, headers and file names.
        case url

        var symbols: StaticString {
            switch self {
            case .standard: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
            case .url: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
            }
        }
    }

    /// What a decoder of the standard alphabet accepts besides canonical text.
    public enum Strictness: Sendable {
        /// Canonical text only, one text per byte string: the padding is required and the bits
        /// it stands for are zero.
        case canonical
        /// As property lists are read: the padding of the last group may be left off, and the
        /// bits it stands for are ignored.
        case lenient
    }

    // MARK: - Encoding

    /// The base64 text of `bytes`, on one line.
    public static func encode(_ bytes: [UInt8], alphabet: Alphabet = .standard) -> String {
        bytes.withUnsafeBytes { encode($0, alphabet: alphabet) }
    }

    /// The base64 text of the bytes in `buffer`, on one line.
    public static func encode(_ buffer: UnsafeRawBufferPointer, alphabet: Alphabet = .standard) -> String {
        String(unsafeUninitializedCapacity: encodedCount(buffer.count, alphabet: alphabet)) { text in
            encode(buffer, alphabet: alphabet, into: text)
        }
    }

    /// The base64 text of `bytes` as ASCII bytes, for writers that build bytes.
    public static func encodedBytes(_ bytes: [UInt8], alphabet: Alphabet = .standard) -> [UInt8] {
        bytes.withUnsafeBytes { buffer in
            [UInt8](unsafeUninitializedCapacity: encodedCount(buffer.count, alphabet: alphabet)) { text, count in
                count = encode(buffer, alphabet: alphabet, into: text)
            }
        }
    }

    /// How many symbols (padding included) encode `count` bytes.
    public static func encodedCount(_ count: Int, alphabet: Alphabet = .standard) -> Int {
        switch alphabet {
        case .standard: (count + 2) / 3 * 4
        case .url: (count * 4 + 2) / 3
        }
    }

    /// Writes the text of `input` to `output`, which has room for `encodedCount`; the count written.
    private static func encode(_ input: UnsafeRawBufferPointer, alphabet: Alphabet, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        alphabet.symbols.withUTF8Buffer { symbols in
            var out = 0
            var index = 0
            while index + 3 <= input.count {
                let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                output[out] = symbols[Int(chunk >> 18)]
                output[out + 1] = symbols[Int(chunk >> 12 & 63)]
                output[out + 2] = symbols[Int(chunk >> 6 & 63)]
                output[out + 3] = symbols[Int(chunk & 63)]
                out += 4
                index += 3
            }
            let remaining = input.count - index
            guard remaining > 0 else { return out }
            let chunk = UInt32(input[index]) << 16 | (remaining == 2 ? UInt32(input[index + 1]) << 8 : 0)
            output[out] = symbols[Int(chunk >> 18)]
            output[out + 1] = symbols[Int(chunk >> 12 & 63)]
            out += 2
            if remaining == 2 {
                output[out] = symbols[Int(chunk >> 6 & 63)]
                out += 1
            }
            if case .standard = alphabet {
                while out % 4 != 0 {
                    output[out] = UInt8(ascii: "=")
                    out += 1
                }
            }
            return out
        }
    }

    // MARK: - Decoding

    /// The bytes encoded by `text` in canonical, padded base64 (blank space ignored); `nil` for
    /// anything else: a missing or misplaced `=`, bits set in the padding, text after the
    /// padding, a byte outside the standard alphabet.
    public static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0, strictness: .canonical) }
    }

    /// The bytes encoded by `text` in the URL alphabet without padding, as JOSE (a JWT, a JWS)
    /// writes them; `nil` for anything else (`+`, `/` or `=` included).
    public static func decodeURL(_ text: some StringProtocol) -> [UInt8]? {
        guard !text.contains(where: { $0 == "+" || $0 == "/" || $0 == "=" }) else { return nil }
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return decode(standard)
    }

    /// The bytes encoded by the ASCII `text` (blank space ignored); `nil` when it is not base64
    /// as `strictness` reads it.
    public static func decode(_ text: UnsafeBufferPointer<UInt8>, strictness: Strictness) -> [UInt8]? {
        var valid = true
        let bytes = [UInt8](unsafeUninitializedCapacity: decodedCapacity(text.count)) { buffer, count in
            let written = decode(text, strictness: strictness, into: buffer)
            valid = written != nil
            count = written ?? 0
        }
        return valid ? bytes : nil
    }

    /// The most bytes that `count` bytes of text decode to: the room `decode(_:strictness:into:)` needs.
    public static func decodedCapacity(_ count: Int) -> Int {
        (count + 3) / 4 * 3
    }

    /// Writes the bytes encoded by `text` to the start of `output`, which has room for
    /// `decodedCapacity(text.count)`; their count, or `nil` when `text` is not base64 as
    /// `strictness` reads it. Memory the caller owns can then be wiped, whatever the outcome.
    public static func decode(_ text: UnsafeBufferPointer<UInt8>, strictness: Strictness, into output: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard output.count >= decodedCapacity(text.count) else { return nil }
        return symbolValues.withUnsafeBufferPointer { values in
            var out = 0
            var index = 0
            var chunk: UInt32 = 0
            var pending = 0
            var padding = 0
            var finished = false
            while index < text.count {
                // Four symbols in a row, the common case, make three bytes at once.
                if pending == 0, !finished, index + 4 <= text.count {
                    let a = values[Int(text[index])], b = values[Int(text[index + 1])]
                    let c = values[Int(text[index + 2])], d = values[Int(text[index + 3])]
                    if (a | b | c | d) < 64 {
                        let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                        output[out] = UInt8(truncatingIfNeeded: group >> 16)
                        output[out + 1] = UInt8(truncatingIfNeeded: group >> 8)
                        output[out + 2] = UInt8(truncatingIfNeeded: group)
                        out += 3
                        index += 4
                        continue
                    }
                }
                let value = values[Int(text[index])]
                index += 1
                if value == blank { continue }
                guard !finished else { return nil }
                if value == pad {
                    guard pending >= 2 else { return nil }
                    padding += 1
                    chunk <<= 6
                } else {
                    guard value < 64, padding == 0 else { return nil }
                    chunk = chunk << 6 | UInt32(value)
                }
                pending += 1
                guard pending == 4 else { continue }
                // The bits the padding stands for: zero in canonical text.
                let unused: UInt32 = padding == 2 ? 0xFFFF : padding == 1 ? 0xFF : 0
                guard strictness == .lenient || chunk & unused == 0 else { return nil }
                for shift in stride(from: 16, through: 8 * padding, by: -8) {
                    output[out] = UInt8(truncatingIfNeeded: chunk >> UInt32(shift))
                    out += 1
                }
                finished = padding > 0
                chunk = 0
                pending = 0
                padding = 0
            }
            guard padding == 0, pending == 0 || strictness == .lenient else { return nil }
            // A last group left unpadded: 2 symbols make one byte, 3 make two.
            switch pending {
            case 0:
                break
            case 2:
                output[out] = UInt8(truncatingIfNeeded: chunk >> 4)
                out += 1
            case 3:
                output[out] = UInt8(truncatingIfNeeded: chunk >> 10)
                output[out + 1] = UInt8(truncatingIfNeeded: chunk >> 2)
                out += 2
            default:
                return nil
            }
            return out
        }
    }

    private static let blank: UInt8 = 0xFE
    private static let pad: UInt8 = 0xFD

    /// The 6-bit value of each symbol of the standard alphabet; `blank` for spaces, tabs and line
    /// breaks, `pad` for `=`, 0xFF for anything else.
    private static let symbolValues: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        Alphabet.standard.symbols.withUTF8Buffer { symbols in
            for (value, symbol) in symbols.enumerated() { values[Int(symbol)] = UInt8(value) }
        }
        for byte in " \t\n\r".utf8 { values[Int(byte)] = blank }
        values[Int(UInt8(ascii: "="))] = pad
        return values
    }()
}
