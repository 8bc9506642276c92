internal import SystemCalls

/// Calls `body` with a non-null pointer to `buffer`'s bytes: an empty buffer may have no address, and C wants one.
func withNonNullBytes<R>(_ buffer: UnsafeRawBufferPointer, _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
    if let base = buffer.baseAddress, !buffer.isEmpty {
        return body(base.assumingMemoryBound(to: UInt8.self), buffer.count)
    }
    var placeholder: UInt8 = 0
    return withUnsafePointer(to: &placeholder) { body($0, 0) }
}

/// Calls `body` with the bytes of `bytes`, contiguous: directly when they are, else from a copy.
func withContiguousBytes<R>(_ bytes: some Sequence<UInt8>, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    if let result = bytes.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
        return result
    }
    return Array(bytes).withUnsafeBytes(body)
}

/// Overwrites `bytes` with zeros in a way the compiler cannot skip (`SecretMemory.wipe`).
func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { buffer in
        if let base = buffer.baseAddress { SecretMemory.wipe(base, count: buffer.count) }
    }
}
