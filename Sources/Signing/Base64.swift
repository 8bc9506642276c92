internal import CSodium

/// Standard base64 with padding (RFC 4648 §4; libsodium's `sodium_base64_VARIANT_ORIGINAL`), for key files.
public enum Base64 {
    private static let variant = Int32(sodium_base64_VARIANT_ORIGINAL)

    /// The base64 text of `bytes` (`sodium_bin2base64`).
    public static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { encode($0) }
    }

    /// The base64 text of the bytes in `buffer` (`sodium_bin2base64`), written straight into the string's storage.
    static func encode(_ buffer: UnsafeRawBufferPointer) -> String {
        Sodium.initialize()
        // The encoded length counts libsodium's terminating NUL, which the string does not keep.
        let capacity = sodium_base64_encoded_len(buffer.count, variant)
        return String(unsafeUninitializedCapacity: capacity) { text in
            guard let base = text.baseAddress else { return 0 }
            base.withMemoryRebound(to: CChar.self, capacity: capacity) { characters in
                withNonNullBytes(buffer) { input, length in
                    _ = sodium_bin2base64(characters, capacity, input, length, variant)
                }
            }
            return capacity - 1
        }
    }

    /// The bytes encoded by `text` (`sodium_base642bin`), ignoring spaces, tabs and line breaks;
    /// `nil` for anything else that is not canonical padded base64.
    public static func decode(_ text: String) -> [UInt8]? {
        Sodium.initialize()
        let textLength = text.utf8.count
        guard textLength > 0 else { return [] }
        // libsodium looks ignored characters up with strchr, which also finds the terminating NUL.
        guard !text.utf8.contains(0) else { return nil }
        let capacity = textLength / 4 * 3 + 3
        var bytes = [UInt8](repeating: 0, count: capacity)
        var length = 0
        // A nil end pointer makes libsodium refuse trailing garbage instead of stopping before it.
        let status = sodium_base642bin(&bytes, capacity, text, textLength, " \t\r\n", &length, nil, variant)
        guard status == 0 else {
            wipe(&bytes)
            return nil
        }
        bytes.removeLast(capacity - length)
        return bytes
    }
}
