/// What the account owns, read once from its entitlements: the one place that decides "owned".
/// A product is owned while one of its entitlements is not revoked (refunded); a refunded one
/// still tells that it was bought (a pack shows as revoked).
public struct Ownership: Sendable, Equatable {
    /// Every entitlement, refunded ones included.
    public let entitlements: [Entitlement]

    /// What `entitlements` give, active ones only.
    public init(_ entitlements: [Entitlement]) {
        self.entitlements = entitlements
    }

    /// Asks `service` for the account's entitlements.
    public static func read(from service: any PackService) async throws(ServiceError) -> Ownership {
        Ownership(try await service.entitlements())
    }

    /// The entitlements that count now: not refunded.
    public var active: [Entitlement] { entitlements.filter(\.isActive) }

    /// The products owned now.
    public var owned: Set<ProductID> { Set(active.map(\.productID)) }

    /// Whether the account may use `id` now: bought, or opened by a live subscription.
    public func owns(_ id: ProductID) -> Bool {
        activeEntitlement(for: id) != nil
    }

    /// The entitlement that makes `id` owned now, if one does.
    public func activeEntitlement(for id: ProductID) -> Entitlement? {
        entitlements.first { $0.productID == id && $0.isActive }
    }

    /// The entitlement that speaks for `id`: an active one before a refunded one; `nil` when it
    /// was never bought.
    public func entitlement(for id: ProductID) -> Entitlement? {
        activeEntitlement(for: id) ?? entitlements.first { $0.productID == id }
    }
}
