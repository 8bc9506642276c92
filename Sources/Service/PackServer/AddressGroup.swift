#if canImport(Glibc)
import Glibc
#endif

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

    /// The group `address` (as the server saw it: `203.0.113.7`, `2001:db8::1`) counts in:
    /// `203.0.113.0/24`, `2001:db8::/64`; an address it cannot read counts alone.
    public func key(_ address: String) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return Self.group(v4: v4, prefix: ipv4Prefix) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        var bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            var mapped = in_addr()
            withUnsafeMutableBytes(of: &mapped) { $0.copyBytes(from: bytes[12..<16]) }
            return Self.group(v4: mapped, prefix: ipv4Prefix)
        }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return key("127.0.0.1") }
        Self.mask(&bytes, prefix: ipv6Prefix)
        var masked = in6_addr()
        withUnsafeMutableBytes(of: &masked) { $0.copyBytes(from: bytes) }
        return Self.text(AF_INET6, &masked, length: Int(INET6_ADDRSTRLEN)) + "/\(ipv6Prefix)"
    }

    private static func group(v4: in_addr, prefix: Int) -> String {
        var bytes = withUnsafeBytes(of: v4) { Array($0) }
        mask(&bytes, prefix: prefix)
        var masked = in_addr()
        withUnsafeMutableBytes(of: &masked) { $0.copyBytes(from: bytes) }
        return text(AF_INET, &masked, length: Int(INET_ADDRSTRLEN)) + "/\(prefix)"
    }

    /// Clears every bit past the first `prefix`.
    private static func mask(_ bytes: inout [UInt8], prefix: Int) {
        for index in bytes.indices {
            let kept = min(8, max(0, prefix - index * 8))
            bytes[index] &= kept == 8 ? 0xFF : ~(0xFF >> UInt8(kept))
        }
    }

    private static func text<T>(_ family: Int32, _ address: inout T, length: Int) -> String {
        var buffer = [CChar](repeating: 0, count: length)
        guard inet_ntop(family, &address, &buffer, socklen_t(length)) != nil else { return "?" }
        return String(cString: buffer)
    }
}
