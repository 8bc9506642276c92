#if canImport(Glibc)
import Glibc
#endif

/// IP addresses in and out of their text (`inet_pton(3)`, `inet_ntop(3)`).
public enum IPAddress {
    /// The address's bytes: 4 for IPv4 (`203.0.113.7`), 16 for IPv6 (`2001:db8::1`); `nil` for
    /// text that is neither.
    public static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }

    /// The text of 4 or 16 address bytes, as the system writes it (`2001:db8::`); `nil` for
    /// another count.
    public static func text(_ bytes: [UInt8]) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written: UnsafePointer<CChar>?
        switch bytes.count {
        case 4:
            var address = in_addr()
            withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
            written = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
        case 16:
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
            written = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
        default:
            return nil
        }
        // The text inet_ntop wrote, up to its terminating zero.
        return written == nil ? nil : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
