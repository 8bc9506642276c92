/// A product as the account may buy it now, as the seller decides: sold in the account's
/// storefront (a product without a price there is not), at that price, with the free trial the
/// account would start (once per subscription group).
public struct Offer: Sendable, Equatable, Codable {
    /// What is offered.
    public var productID: ProductID
    /// In the storefront's currency.
    public var price: Money
    /// The free trial buying it would start: `nil` when it has none, or the account had a
    /// subscription in its group.
    public var freeTrial: StoreDuration?
    /// A win-back offer of the subscription the account may take now (its identifier in the
    /// catalog's `WinBackOffers`): `nil` when none.
    public var winBackOffer: String?

    /// `productID` at `price`, with its free trial when buying it would start one.
    public init(productID: ProductID, price: Money, freeTrial: StoreDuration? = nil, winBackOffer: String? = nil) {
        self.productID = productID
        self.price = price
        self.freeTrial = freeTrial
        self.winBackOffer = winBackOffer
    }
}

/// What the account's storefront sells, in the catalog's order.
public struct Offers: Sendable, Equatable, Codable {
    /// The account's storefront, whose prices these are.
    public var storefront: String
    /// Every product the storefront sells the account.
    public var offers: [Offer]

    /// The offers of `storefront`.
    public init(storefront: String, offers: [Offer]) {
        self.storefront = storefront
        self.offers = offers
    }

    /// The offer of `id`, when the storefront sells it.
    public func offer(_ id: ProductID) -> Offer? { offers.first { $0.productID == id } }
}
