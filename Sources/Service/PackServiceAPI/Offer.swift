/// A product as the account may buy it now, as the seller decides: sold in the account's
/// storefront (a product without a price there is not), at that price, with the free trial the
/// account would start (once per subscription group).
public struct Offer: Sendable, Equatable, Codable {
    public var productID: ProductID
    /// In the storefront's currency.
    public var price: Money
    /// The free trial buying it would start: `nil` when it has none, or the account had a
    /// subscription in its group.
    public var freeTrial: StoreDuration?

    public init(productID: ProductID, price: Money, freeTrial: StoreDuration? = nil) {
        self.productID = productID
        self.price = price
        self.freeTrial = freeTrial
    }
}

/// What the account's storefront sells, in the catalog's order.
public struct Offers: Sendable, Equatable, Codable {
    public var storefront: String
    public var offers: [Offer]

    public init(storefront: String, offers: [Offer]) {
        self.storefront = storefront
        self.offers = offers
    }

    public func offer(_ id: ProductID) -> Offer? { offers.first { $0.productID == id } }
}
