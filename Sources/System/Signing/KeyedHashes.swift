internal import CNettle

/// MD5, for what checks it and nothing else: nginx's `secure_link_md5`, which a download link's
/// token must match. Never a digest of content (that is SHA-256).
public enum MD5 {
    /// The 16-byte digest of `bytes` (`md5_init`, `md5_update`, `md5_digest`).
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var state = md5_ctx()
        nettle_md5_init(&state)
        bytes.withUnsafeBufferPointer { nettle_md5_update(&state, $0.count, $0.baseAddress) }
        var digest = [UInt8](repeating: 0, count: 16)
        nettle_md5_digest(&state, 16, &digest)
        return digest
    }
}

/// HMAC-SHA256 (RFC 2104), Nettle's `hmac_sha256`.
///
/// ```swift
/// let tag = HMACSHA256.authenticate(Array("download 1234".utf8), key: secret)
/// ```
public enum HMACSHA256 {
    /// The 32-byte tag of `message` under `key`.
    public static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var state = hmac_sha256_ctx()
        key.withUnsafeBufferPointer { nettle_hmac_sha256_set_key(&state, $0.count, $0.baseAddress) }
        message.withUnsafeBufferPointer { nettle_hmac_sha256_update(&state, $0.count, $0.baseAddress) }
        var tag = [UInt8](repeating: 0, count: 32)
        nettle_hmac_sha256_digest(&state, 32, &tag)
        return tag
    }
}
