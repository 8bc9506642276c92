import Synchronization

/// Token buckets per group of client addresses (`AddressGroup`: a /24, a /64):
/// `burst` requests at once, then one more each `1 / perSecond` seconds. Groups whose bucket is
/// full again are forgotten when the table grows past `maxAddresses`, so memory stays bounded
/// whatever the number of addresses.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Int64
    }

    private let buckets = Mutex<[AddressGroup.Block: Bucket]>([:])
    let burst: Double
    let perSecond: Double
    let maxAddresses: Int

    let groups: AddressGroup

    private init(burst: Int, perSecond: Double, groups: AddressGroup, maxAddresses: Int) {
        self.burst = Double(max(1, burst))
        self.perSecond = perSecond
        self.groups = groups
        self.maxAddresses = maxAddresses
    }

    /// `burst` at once, then `perMinute` a minute.
    convenience init(burst: Int, perMinute: Int, groups: AddressGroup = AddressGroup(), maxAddresses: Int = 100_000) {
        self.init(burst: burst, perSecond: Double(max(1, perMinute)) / 60, groups: groups, maxAddresses: maxAddresses)
    }

    /// `burst` at once, then `perDay` a day (spread evenly).
    convenience init(burst: Int, perDay: Int, groups: AddressGroup = AddressGroup(), maxAddresses: Int = 100_000) {
        self.init(burst: burst, perSecond: Double(max(1, perDay)) / 86_400, groups: groups, maxAddresses: maxAddresses)
    }

    /// Takes a token for `address`'s group at `now` (milliseconds): `nil` when the request may go
    /// on, otherwise the whole seconds until a token is back (for `Retry-After`).
    func take(_ address: String, now: Int64) -> Int? {
        let block = groups.key(address)
        return buckets.withLock { buckets in
            var bucket = buckets[block] ?? Bucket(tokens: burst, updated: now)
            let elapsed = Double(max(0, now - bucket.updated)) / 1000
            bucket.tokens = min(burst, bucket.tokens + elapsed * perSecond)
            bucket.updated = now
            defer {
                buckets[block] = bucket
                if buckets.count > maxAddresses { prune(&buckets, now: now) }
            }
            guard bucket.tokens >= 1 else { return Int(((1 - bucket.tokens) / perSecond).rounded(.up)) }
            bucket.tokens -= 1
            return nil
        }
    }

    private func prune(_ buckets: inout [AddressGroup.Block: Bucket], now: Int64) {
        buckets = buckets.filter { _, bucket in bucket.tokens + Double(max(0, now - bucket.updated)) / 1000 * perSecond < burst }
    }
}
