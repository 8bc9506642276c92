/// Idempotency keys a client makes for a request that moves money or hints: the same key sent
/// again never does the work twice, and a key is 1 to 200 bytes (the seller's rule).
public enum IdempotencyKey {
    /// A new key of this process: 128 random bits in hexadecimal, `prefix` first when given.
    public static func new(prefix: String = "") -> String {
        var random = SystemRandomNumberGenerator()
        return prefix + (0..<2).map { _ in String(random.next(), radix: 16) }.joined(separator: "-")
    }
}
