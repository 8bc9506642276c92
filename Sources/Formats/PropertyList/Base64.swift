/// Standard base64 (RFC 4648 alphabet, `=` padding), as plist `<data>` uses it.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 255 marks a byte outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes with padding, on one line.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining > 0 {
            let chunk = UInt32(bytes[index]) << 16 | (remaining == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(remaining == 2 ? alphabet[Int(chunk >> 6 & 63)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return output
    }

    /// Decodes base64, skipping ASCII whitespace; nil on any other stray byte or bad padding.
    /// A final group without padding is accepted.
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var chunk: UInt32 = 0
        var pending = 0
        var padding = 0
        var finished = false
        for byte in text {
            if byte == .space || byte == .tab || byte == .newline || byte == .carriageReturn { continue }
            guard !finished else { return nil }
            if byte == UInt8(ascii: "=") {
                guard pending >= 2 else { return nil }
                padding += 1
                chunk <<= 6
            } else {
                let value = values[Int(byte)]
                guard value != 255, padding == 0 else { return nil }
                chunk = chunk << 6 | UInt32(value)
            }
            pending += 1
            if pending == 4 {
                output.append(UInt8(truncatingIfNeeded: chunk >> 16))
                if padding < 2 { output.append(UInt8(truncatingIfNeeded: chunk >> 8)) }
                if padding < 1 { output.append(UInt8(truncatingIfNeeded: chunk)) }
                finished = padding > 0
                chunk = 0
                pending = 0
                padding = 0
            }
        }
        guard padding == 0 else { return nil }
        switch pending {
        case 0:
            break
        case 2:
            output.append(UInt8(truncatingIfNeeded: chunk >> 4))
        case 3:
            output.append(UInt8(truncatingIfNeeded: chunk >> 10))
            output.append(UInt8(truncatingIfNeeded: chunk >> 2))
        default:
            return nil
        }
        return output
    }
}
