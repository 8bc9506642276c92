/// The switches of the store's test environment, kept with the account.
public struct StoreControls: Sendable, Equatable, Codable {
    /// Every purchase fails.
    public var failPurchases = false
    /// Every purchase waits for approval.
    public var askToBuy = false
    /// Every purchase is interrupted until resolved.
    public var interruptPurchases = false
    /// Every renewal of an auto-renewable subscription fails: grace period, then billing retry.
    public var failRenewals = false

    /// The switches, each off unless asked.
    public init(failPurchases: Bool = false, askToBuy: Bool = false, interruptPurchases: Bool = false, failRenewals: Bool = false) {
        self.failPurchases = failPurchases
        self.askToBuy = askToBuy
        self.interruptPurchases = interruptPurchases
        self.failRenewals = failRenewals
    }

    private enum CodingKeys: String, CodingKey {
        case failPurchases, askToBuy, interruptPurchases, failRenewals
    }

    /// `failRenewals` may be absent (a document written before it existed): off.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        failPurchases = try container.decode(Bool.self, forKey: .failPurchases)
        askToBuy = try container.decode(Bool.self, forKey: .askToBuy)
        interruptPurchases = try container.decode(Bool.self, forKey: .interruptPurchases)
        failRenewals = try container.decodeIfPresent(Bool.self, forKey: .failRenewals) ?? false
    }
}

/// Where the store's time was moved to, and the renewals charged as it passed their dates.
public struct StoreClockMove: Sendable, Equatable, Codable {
    /// The store's time after the move (milliseconds since 1970).
    public var now: Int64
    /// The renewals charged on the way.
    public var renewals: Int

    /// A move to `now`, with the `renewals` it charged.
    public init(now: Int64, renewals: Int) {
        self.now = now
        self.renewals = renewals
    }
}
