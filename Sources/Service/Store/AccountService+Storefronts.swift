import FoundationEssentials

extension AccountService {
    /// The account's storefront: the one chosen, else the catalog's default (`USA`).
    public func storefront() throws(StoreError) -> String {
        try ledger.storefront() ?? catalog.defaultStorefront
    }

    /// What the account's storefront sells it: each product on sale with a price there, and the free
    /// trial a subscription would start (``AccountLedger/freeTrial(_:history:)``).
    public func offers() throws(StoreError) -> Offers {
        let storefront = try storefront()
        _ = try settleSubscriptions()
        let history = try ledger.subscriptions()
        return Offers(storefront: storefront, offers: catalog.products.compactMap { product in
            product.salePrice(in: storefront).map { price in
                Offer(productID: product.id, price: price, freeTrial: product.autoRenewable.flatMap { AccountLedger.freeTrial($0, history: history) })
            }
        })
    }

    /// Moves the account to `code`: future purchases and renewals are priced there; what was
    /// bought stays as it was charged. A storefront the catalog does not list is refused.
    public func setStorefront(_ code: String) throws(StoreError) -> String {
        try Self.checkStorefront(code, in: catalog)
        try ledger.setStorefront(code)
        return code
    }

    /// Chooses the storefront of an account that has none yet (when it is made); one already
    /// chosen stays.
    public func chooseStorefront(_ code: String) throws(StoreError) {
        try Self.checkStorefront(code, in: catalog)
        try ledger.chooseStorefrontIfNone(code)
    }

    /// The storefront a new account gets: `required` when the player names one (refused when the
    /// catalog does not list it, before anything is made), else the player's region's
    /// (`preferred`) when the catalog sells there, else the catalog's default.
    public static func newAccountStorefront(required: String?, preferred: String?, in catalog: Catalog) throws(StoreError) -> String {
        if let required {
            try checkStorefront(required, in: catalog)
            return required
        }
        return catalog.storefront(preferring: preferred)
    }

    static func checkStorefront(_ code: String, in catalog: Catalog) throws(StoreError) {
        guard catalog.currency(of: code) != nil else {
            throw StoreError(
                .invalidRequest,
                "'\(code)' is not a storefront of this store: one of \(catalog.storefrontCodes.joined(separator: ", "))")
        }
    }
}
