internal import CSodium

/// SHA-256 of a whole message at once (libsodium's `crypto_hash_sha256`).
///
/// ```swift
/// let digest = SHA256.hash(archiveBytes)
/// if digest != expected { throw ... }
/// ```
public enum SHA256 {
    /// The digest of `bytes` (`crypto_hash_sha256`): `[UInt8]`, `ArraySlice`, `string.utf8`, any sequence of bytes.
    public static func hash(_ bytes: some Sequence<UInt8>) -> SHA256Digest {
        if let digest = bytes.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of the bytes in `buffer` (`crypto_hash_sha256`).
    public static func hash(_ buffer: UnsafeRawBufferPointer) -> SHA256Digest {
        Sodium.initialize()
        var digest = [UInt8](repeating: 0, count: SHA256Digest.byteCount)
        withNonNullBytes(buffer) { input, length in
            _ = crypto_hash_sha256(&digest, input, UInt64(length))
        }
        return SHA256Digest(unchecked: digest)
    }
}

/// SHA-256 of a message fed in pieces (`crypto_hash_sha256_init`, `_update`, `_final`).
///
/// A value: copying a hasher forks the computation, and ``finalize()`` leaves it unchanged, so
/// more bytes can still be added afterwards.
public struct SHA256Hasher: Sendable {
    private var state = crypto_hash_sha256_state()

    /// A hasher with no input yet (`crypto_hash_sha256_init`).
    public init() {
        Sodium.initialize()
        crypto_hash_sha256_init(&state)
    }

    /// Adds the bytes in `buffer` (`crypto_hash_sha256_update`).
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        withNonNullBytes(buffer) { input, length in
            _ = crypto_hash_sha256_update(&state, input, UInt64(length))
        }
    }

    /// Adds `bytes` (`crypto_hash_sha256_update`); a non-contiguous sequence is fed in 64 KiB chunks.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        guard done == nil else { return }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(65_536)
        for byte in bytes {
            chunk.append(byte)
            if chunk.count == 65_536 {
                chunk.withUnsafeBytes { update($0) }
                chunk.removeAll(keepingCapacity: true)
            }
        }
        chunk.withUnsafeBytes { update($0) }
    }

    /// The digest of everything added so far (`crypto_hash_sha256_final` on a copy of the state).
    public func finalize() -> SHA256Digest {
        var copy = state
        var digest = [UInt8](repeating: 0, count: SHA256Digest.byteCount)
        _ = crypto_hash_sha256_final(&copy, &digest)
        return SHA256Digest(unchecked: digest)
    }
}
