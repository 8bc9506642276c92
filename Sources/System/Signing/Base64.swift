/// Standard base64 with padding (RFC 4648 §4), for key files: canonical text only.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The 6-bit value of each byte; 0xFF for a byte outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// The base64 text of `bytes`, padded, on one line.
    public static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { encode($0) }
    }

    /// The base64 text of the bytes in `buffer`, written straight into the string's storage.
    static func encode(_ buffer: UnsafeRawBufferPointer) -> String {
        let capacity = (buffer.count + 2) / 3 * 4
        return String(unsafeUninitializedCapacity: capacity) { text in
            var out = 0
            func put(_ value: UInt32) {
                text[out] = alphabet[Int(value & 63)]
                out += 1
            }
            var index = 0
            while index + 3 <= buffer.count {
                let chunk = UInt32(buffer[index]) << 16 | UInt32(buffer[index + 1]) << 8 | UInt32(buffer[index + 2])
                put(chunk >> 18); put(chunk >> 12); put(chunk >> 6); put(chunk)
                index += 3
            }
            let remaining = buffer.count - index
            if remaining > 0 {
                let chunk = UInt32(buffer[index]) << 16 | (remaining == 2 ? UInt32(buffer[index + 1]) << 8 : 0)
                put(chunk >> 18); put(chunk >> 12)
                if remaining == 2 { put(chunk >> 6) } else { text[out] = UInt8(ascii: "="); out += 1 }
                text[out] = UInt8(ascii: "=")
                out += 1
            }
            return out
        }
    }

    /// The bytes encoded by `text`, ignoring spaces, tabs and line breaks; `nil` for anything else
    /// that is not canonical padded base64 (a missing or misplaced `=`, bits set in the padding,
    /// text after the padding, a byte outside the alphabet).
    public static func decode(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 4 * 3)
        var chunk: UInt32 = 0
        var pending = 0
        var padding = 0
        var finished = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                continue
            }
            var accepted = !finished
            if accepted && byte == UInt8(ascii: "=") {
                accepted = pending >= 2
                padding += 1
                chunk <<= 6
            } else if accepted {
                let value = values[Int(byte)]
                accepted = value != 0xFF && padding == 0
                chunk = chunk << 6 | UInt32(value & 63)
            }
            guard accepted else {
                wipe(&bytes)
                return nil
            }
            pending += 1
            if pending == 4 {
                // The bits the padding stands for must be zero: one text per byte string.
                let unused: UInt32 = padding == 2 ? 0xFFFF : padding == 1 ? 0xFF : 0
                guard chunk & unused == 0 else {
                    wipe(&bytes)
                    return nil
                }
                bytes.append(UInt8(truncatingIfNeeded: chunk >> 16))
                if padding < 2 { bytes.append(UInt8(truncatingIfNeeded: chunk >> 8)) }
                if padding < 1 { bytes.append(UInt8(truncatingIfNeeded: chunk)) }
                finished = padding > 0
                chunk = 0
                pending = 0
            }
        }
        guard pending == 0 else {
            wipe(&bytes)
            return nil
        }
        return bytes
    }
}
