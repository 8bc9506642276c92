import Messages
import PackServiceAPI
import PackServiceClient

extension Player {
    /// What buying a product would do, decided before anything is charged.
    public enum Offer: Sendable, Equatable {
        /// Not owned: buying charges the product's price; a person is asked first.
        case charge(Product)
        /// Owned already (a pack or a feature): buying charges nothing.
        case owned
        /// A product the catalog lists but sells through another path (a base pack), or not in the
        /// account's storefront (the purchase says so): nothing to ask.
        case nothingToAsk
        /// An auto-renewable: a new subscription (with its trial, if the account may have one), or
        /// a change of the group's live one: an upgrade (charged now, with a refund for the unused
        /// part) or a downgrade (at the next renewal).
        case change(Product, SubscriptionChange)
    }

    /// Whether the session plays from what the pack server last signed, the server out of reach:
    /// nothing can be bought or spent then.
    public var isOffline: Bool { service.offlineReason != nil }

    /// Whether buying `id` would charge, after checking that this device may buy at all (the
    /// `buy` command's question, and the game's `$`, ask only when it would).
    public func offer(_ id: ProductID) async throws(PlayerError) -> Offer {
        if isOffline { throw .store(ServiceError(.unavailable, L10n.text("buying needs the pack server, which cannot be reached now"))) }
        try checkPaymentsAllowed()
        guard let product = catalog.product(id) else { return .nothingToAsk }
        if product.autoRenewable != nil {
            let change: SubscriptionChange
            do { change = try await service.subscriptionChange(to: id) } catch { throw .store(error) }
            switch change.kind {
            case .same: return .owned
            case .new, .upgrade, .downgrade: return .change(product, change)
            }
        }
        if !product.isConsumable, !product.isSubscription, try await ownedProducts().contains(id) { return .owned }
        // Not sold in the account's storefront: the purchase says so, with nothing to ask first.
        guard product.salePrice(in: try await storefront()) != nil else { return .nothingToAsk }
        return .charge(product)
    }

    /// What a subscription's purchase started, as the account's records tell it: the
    /// subscription's status now, and for an upgrade what came back for the unused part of the
    /// plan it replaced (the period the upgrade revoked at its purchase).
    public func subscriptionStarted(by transaction: StoreTransaction) async throws(PlayerError) -> (status: SubscriptionStatus?, replacedRefund: Money?) {
        guard catalog.product(transaction.productID)?.isSubscription == true else { return (nil, nil) }
        let statuses = try await store { () async throws(ServiceError) in try await service.subscriptions() }
        let original = transaction.originalTransactionID ?? transaction.id
        let status = statuses.first { $0.originalTransactionID == original } ?? statuses.last { $0.productID == transaction.productID }
        guard catalog.product(transaction.productID)?.autoRenewable != nil else { return (status, nil) }
        let history = try await store { () async throws(ServiceError) in try await service.transactions() }
        let replaced = history.last { $0.refundAmount != nil && $0.revocationDate == transaction.purchaseDate && $0.id != transaction.id }
        return (status, replaced?.refund)
    }

    /// The languages a game without `--pack` draws from, once a pack brought a language that
    /// such games did not draw from (`newLanguage(arrivingWith:)`): with `mixIn`, the new one is
    /// added; without, the ones played so far are kept (and set, so the new pack waits for
    /// `--pack`). The languages chosen now.
    @discardableResult
    public func settleLanguages(after arrival: (language: String, previous: [String]), mixIn: Bool) throws(PlayerError) -> [String] {
        var settings = try settings()
        settings.gameLanguages = mixIn ? arrival.previous + [arrival.language] : arrival.previous
        try save(settings)
        return settings.gameLanguages ?? []
    }

    /// The free tier's suggestion after a game: a pack for sale that the account does not own
    /// (the suggestions take turns, by `game`), and the feature that ends them; `nil` when the
    /// account owns that feature, every pack, or the store cannot be asked (a game never fails
    /// for a suggestion).
    public func suggestion(afterGame game: Int) async -> (pack: Product, removeAds: Product?)? {
        guard let owned = try? await ownedProducts() else { return nil }
        let removeAds = catalog.products.first { $0.feature == Product.removeAdsFeature }
        if let removeAds, owned.contains(removeAds.id) { return nil }
        let forSale = catalog.products.filter { $0.packFile != nil && !$0.isTheme && $0.isAvailable && $0.isForSale && !owned.contains($0.id) }
        guard !forSale.isEmpty else { return nil }
        return (forSale[((game % forSale.count) + forSale.count) % forSale.count], removeAds)
    }
}
