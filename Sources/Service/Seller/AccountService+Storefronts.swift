import CivilCalendar
import FoundationEssentials
import Messages

extension AccountService {
    /// The account's storefront: the one chosen, else the catalog's default (`USA`).
    public func storefront() throws(ServiceError) -> String {
        try ledger.storefront() ?? catalog.defaultStorefront
    }

    /// What the account's storefront sells it: each product on sale with a price there, and the free
    /// trial a subscription would start (``AccountLedger/freeTrial(_:history:withheld:)``).
    public func offers() throws(ServiceError) -> Offers {
        let storefront = try storefront()
        let now = try settleSubscriptions()
        let history = try ledger.trialHistory()
        var offers: [Offer] = []
        for product in catalog.products {
            guard let price = product.salePrice(in: storefront) else { continue }
            offers.append(
                Offer(
                    productID: product.id, price: price,
                    freeTrial: product.autoRenewable.flatMap { AccountLedger.freeTrial($0, history: history.rows, withheld: history.withheld) },
                    winBackOffer: try winBackOffers(for: product, storefront: storefront, now: now).first?.identifier))
        }
        return Offers(storefront: storefront, offers: offers)
    }

    /// The win-back offers of `product` the account may take at `now` in `storefront`: its
    /// subscription in the group lapsed long enough ago after lasting long enough, and the offer
    /// is priced there.
    func winBackOffers(for product: Product, storefront: String, now: Int64) throws(ServiceError) -> [PromotionalOffer] {
        guard let terms = product.autoRenewable, let offers = terms.promotionalOffers, offers.contains(where: { $0.winBack != nil }),
            let lapse = try ledger.lapse(group: terms.group)
        else { return [] }
        return offers.filter { offer in
            guard let winBack = offer.winBack, winBack.admits(lapsed: lapse.lapsed, paidDays: lapse.paidDays, now: now) else { return false }
            return product.price(in: storefront).flatMap { offer.firstCharge(in: storefront, plan: $0) } != nil
        }
    }

    /// Moves the account to `code`: future purchases and renewals are priced there; what was
    /// bought stays as it was charged. A storefront the catalog does not list is refused.
    /// Moves the account to the storefront `code`, as the App Store allows it: not while an
    /// auto-renewable subscription lasts (its renewals are priced where it began; cancelled, it
    /// still lasts to its end), and not sooner than the catalog's `StorefrontMoveDays` after the
    /// last move, each refusal (`notYet`) saying when. Moving to where the account is moves nothing.
    public func setStorefront(_ code: String) throws(ServiceError) -> String {
        try Self.checkStorefront(code, in: catalog)
        let now = try settleSubscriptions()
        let live = try subscriptions(now: now).filter { $0.isAutoRenewable && $0.endReason == nil && [.trial, .active, .gracePeriod, .billingRetry].contains($0.state) }
        let wait = Int64(catalog.storefrontMoveDays ?? Catalog.defaultStorefrontMoveDays) * UTCDateTime.millisecondsPerDay
        try ledger.moveStorefront(code, now: now) { (lastMove) throws(ServiceError) in
            if let pass = live.first {
                let name = catalog.product(pass.productID)?.displayName ?? pass.productID.rawValue
                throw ServiceError(
                    .notYet,
                    L10n.text("the storefront stays while %s lasts (until %s): its renewals are priced where it began. Cancel it ('hangman subscriptions cancel'), and move once it has ended", name, ISO8601.string(pass.expiresDate)))
            }
            if let lastMove, now < lastMove + wait {
                throw ServiceError(
                    .notYet,
                    L10n.text("the storefront moved on %s; it may move again %s days after that, from %s", ISO8601.string(lastMove), wait / UTCDateTime.millisecondsPerDay, ISO8601.string(lastMove + wait)))
            }
        }
        return code
    }

    /// No free trial for this account: the server made it past its address block's trials.
    public func withholdFreeTrials() throws(ServiceError) { try ledger.withholdFreeTrials() }

    /// Chooses the storefront of an account that has none yet (when it is made); one already
    /// chosen stays.
    public func chooseStorefront(_ code: String) throws(ServiceError) {
        try Self.checkStorefront(code, in: catalog)
        try ledger.chooseStorefrontIfNone(code)
    }

    /// The storefront a new account gets: `required` when the player names one (refused when the
    /// catalog does not list it, before anything is made), else the player's region's
    /// (`preferred`) when the catalog sells there, else the catalog's default.
    public static func newAccountStorefront(required: String?, preferred: String?, in catalog: Catalog) throws(ServiceError) -> String {
        if let required {
            try checkStorefront(required, in: catalog)
            return required
        }
        return catalog.storefront(preferring: preferred)
    }

    static func checkStorefront(_ code: String, in catalog: Catalog) throws(ServiceError) {
        guard catalog.currency(of: code) != nil else {
            throw ServiceError(
                .invalidRequest,
                L10n.text("'%s' is not a storefront of this store: one of %s", code, catalog.storefrontCodes.joined(separator: ", ")))
        }
    }
}
