import SystemCalls

/// The block of addresses a rate limit counts together: an IPv4 address's /24, an IPv6 address's
/// /64 (each settable), an IPv4-mapped IPv6 address and `::1` as their IPv4 ones (`::1` is
/// 127.0.0.1: one machine's two loopbacks are one client). Ten addresses of one /24 share one
/// budget, and an IPv6 customer has one, not 2^64.
public struct AddressGroup: Sendable {
    public var ipv4Prefix: Int
    public var ipv6Prefix: Int

    public init(ipv4Prefix: Int = 24, ipv6Prefix: Int = 64) {
        self.ipv4Prefix = min(32, max(0, ipv4Prefix))
        self.ipv6Prefix = min(128, max(0, ipv6Prefix))
    }

    /// A block: its address with the bits past the prefix cleared, and the prefix. Kept as bytes
    /// (a bucket's key on every request): the text is written only when asked for.
    public struct Block: Hashable, Sendable, CustomStringConvertible {
        let masked: [UInt8]
        let prefix: Int
        /// An address that could not be read counts alone, by its text.
        let unread: String?

        /// `203.0.113.0/24`, `2001:db8::/64`.
        public var description: String { unread ?? ((IPAddress.text(masked) ?? "?") + "/\(prefix)") }
    }

    /// The block `address` (as the server saw it: `203.0.113.7`, `2001:db8::1`) counts in.
    public func key(_ address: String) -> Block {
        guard var bytes = IPAddress.bytes(address) else { return Block(masked: [], prefix: 0, unread: address) }
        if bytes.count == 16 {
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                bytes = Array(bytes[12..<16])
            } else if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 {
                bytes = [127, 0, 0, 1]
            }
        }
        let prefix = bytes.count == 4 ? ipv4Prefix : ipv6Prefix
        for index in bytes.indices {
            let kept = min(8, max(0, prefix - index * 8))
            bytes[index] &= kept == 8 ? 0xFF : ~(0xFF >> UInt8(kept))
        }
        return Block(masked: bytes, prefix: prefix, unread: nil)
    }
}
