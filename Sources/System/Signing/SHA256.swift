internal import CNettle

/// SHA-256 of a whole message at once (Nettle's `sha256_update`, which uses the CPU's SHA
/// instructions where there are any).
///
/// ```swift
/// let digest = SHA256.hash(archiveBytes)
/// if digest != expected { throw ... }
/// ```
public enum SHA256 {
    /// The digest of `bytes`: `[UInt8]`, `ArraySlice`, `string.utf8`, any sequence of bytes.
    public static func hash(_ bytes: some Sequence<UInt8>) -> SHA256Digest {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The digest of the bytes in `buffer`.
    public static func hash(_ buffer: UnsafeRawBufferPointer) -> SHA256Digest {
        var hasher = SHA256Hasher()
        hasher.update(buffer)
        return hasher.finalize()
    }
}

/// SHA-256 of a message fed in pieces (`sha256_init`, `sha256_update`, `sha256_digest`).
///
/// A value: copying a hasher forks the computation, and ``finalize()`` leaves it unchanged, so
/// more bytes can still be added afterwards.
public struct SHA256Hasher: Sendable {
    private var state = sha256_ctx()

    /// A hasher with no input yet (`sha256_init`).
    public init() {
        nettle_sha256_init(&state)
    }

    /// Adds the bytes in `buffer` (`sha256_update`).
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        nettle_sha256_update(&state, buffer.count, base.assumingMemoryBound(to: UInt8.self))
    }

    /// Adds `bytes` (`sha256_update`); a non-contiguous sequence is fed in 64 KiB chunks.
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

    /// The digest of everything added so far (`sha256_digest` on a copy of the state, since it
    /// resets the state it finishes).
    public func finalize() -> SHA256Digest {
        var copy = state
        var digest = [UInt8](repeating: 0, count: SHA256Digest.byteCount)
        nettle_sha256_digest(&copy, SHA256Digest.byteCount, &digest)
        return SHA256Digest(unchecked: digest)
    }
}

extension sha256_ctx: @retroactive @unchecked Sendable {}
