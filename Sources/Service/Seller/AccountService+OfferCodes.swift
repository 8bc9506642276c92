import CivilCalendar
import Messages

extension AccountService {
    /// Redeems an offer code (StoreKit's `presentOfferCodeRedeemSheet`): a purchase of its
    /// batch's product, free for a product bought once or a consumable, under the batch's offer
    /// for a subscription (Apple's `offerType` 3 in its signed transaction; `OFFER_REDEEMED` for a
    /// subscription). The code is claimed across the service first, then the purchase recorded
    /// with it in one transaction; a retry of the same code on the same account (a lost answer, a
    /// process killed between the two) answers the purchase it made, never a second one.
    ///
    /// Refused before the code is claimed, so that it stays good: a code that is none
    /// (`invalid-request`), not the seller's (`not-found`), expired, for a pack the account owns or
    /// a subscription group it has live (`wrong-state`). Another account's code is `wrong-state`.
    public func redeem(offerCode text: String) throws(ServiceError) -> PurchaseOutcome {
        guard let code = OfferCodes.normalized(text) else {
            throw ServiceError(.invalidRequest, L10n.text("not an offer code: a code is %s letters and digits, as the seller gave it", OfferCodes.length))
        }
        let digest = OfferCodes.digest(code)
        // The code's purchase; one that failed before it was charged (its process died before
        // payment, a payment refused in the sandbox, a parent declined) leaves the code to a
        // new attempt, up to ``offerCodeAttempts``.
        var attempt = 0
        var requestKey = "offer-code:" + digest
        while let made = try ledger.transaction(requestKey: requestKey) {
            guard made.state == .failed else { return try outcome(of: made, for: made.productID, quantity: made.quantity) }
            attempt += 1
            guard attempt < Self.offerCodeAttempts else {
                throw ServiceError(.wrongState, "the offer code's purchase failed \(attempt) times (\(made.failureReason ?? "refused")): it is used up")
            }
            requestKey = "offer-code:\(attempt):" + digest
        }
        guard let batch = try OfferCodes.batch(of: digest, folder: packsFolder) else {
            throw ServiceError(.notFound, L10n.text("invalidOfferCode: no offer code %s at this store: check it as the seller gave it", code))
        }
        let now = try settleSubscriptions()
        guard now < batch.expires else {
            throw ServiceError(.wrongState, L10n.text("the offer code expired on %s", UTCDateTime(millisecondsSince1970: batch.expires).dateText))
        }
        guard let product = catalog.product(batch.productID), product.isForSale, product.unavailableReason == nil else {
            throw ServiceError(.productUnavailable, L10n.text("the offer code is for %s, which is no longer sold: it stays unused", batch.productID))
        }
        let storefront = try storefront()
        var charge = Money(minorUnits: 0, currency: product.price(in: storefront)?.currency ?? Catalog.defaultCurrency)
        var offer: PromotionalOffer?
        if let terms = product.autoRenewable {
            guard let identifier = batch.offer, let declared = terms.promotionalOffer(identifier), declared.winBack == nil else {
                throw ServiceError(.productUnavailable, "the offer code's offer '\(batch.offer ?? "")' is no longer in \(product.id)'s PromotionalOffers: it stays unused")
            }
            guard let first = product.price(in: storefront).flatMap({ declared.firstCharge(in: storefront, plan: $0) }) else {
                throw ServiceError(.productUnavailable, L10n.text("invalidOfferPrice: the offer '%s' has no price in the %s storefront: the code stays unused", identifier, storefront))
            }
            if try subscriptionChange(to: product.id, now: now).current != nil {
                throw ServiceError(
                    .wrongState, L10n.text("ineligibleForOffer: this account has a subscription in group '%s' live: the code stays unused until it ends", terms.group))
            }
            (charge, offer) = (first, declared)
        } else if !product.isConsumable, let owned = Ownership(try ledger.entitlements()).activeEntitlement(for: product.id) {
            throw ServiceError(.wrongState, L10n.text("this account owns %s already (transaction %s): the code stays unused", product.displayName, owned.transactionID.number))
        }
        guard try claimOfferCode?(digest, now) ?? true else {
            throw ServiceError(.wrongState, L10n.text("the offer code %s was redeemed already: each code is redeemed once", code))
        }
        crash(.afterOfferCodeClaim)
        // The ledger keeps the code's use once (its nonce is the code's digest): on the embedded
        // store that is the claim itself.
        let nonceDigest = attempt == 0 ? digest : OfferCodes.digest("\(attempt):" + digest)
        let use = OfferUse(nonce: Self.nonce(ofDigest: nonceDigest), audience: OfferUse.offerCodeAudience, offer: offer, offerCodeBatch: batch.name)
        return try purchase(product.id, quantity: 1, requestKey: requestKey, offerCode: (charge, use))
    }

    /// How many purchases one offer code may make, all but the last failed before any charge.
    static let offerCodeAttempts = 8

    /// A digest's first 32 hex digits as a UUID's form: the nonce column's.
    static func nonce(ofDigest digest: String) -> String {
        let hex = Array(digest.prefix(32))
        return [hex[0..<8], hex[8..<12], hex[12..<16], hex[16..<20], hex[20..<32]].map { String($0) }.joined(separator: "-")
    }
}
