/// Compressed streams made by hand, for tests that must not trust the reader's own library.

/// A gzip member holding `payload` in stored (uncompressed) deflate blocks, written by hand from
/// RFC 1952 and RFC 1951 so that the test does not depend on the reader's own library.
public func storedGzip(_ payload: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]  // magic, deflate, no flags, no mtime, OS unknown
    var offset = 0
    repeat {
        let count = min(65_535, payload.count - offset)
        let final: UInt8 = offset + count == payload.count ? 1 : 0
        out.append(final)  // BFINAL, BTYPE 00 (stored), padded to the byte
        out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
        out += payload[offset..<offset + count]
        offset += count
    } while offset < payload.count
    out += littleEndian(crc32(payload)) + littleEndian(UInt32(truncatingIfNeeded: payload.count))
    return out
}

private func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

/// CRC-32 as gzip defines it (reflected, polynomial 0xEDB88320), one table lookup per byte.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }
    return ~crc
}

private let crcTable: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
    return value
}
