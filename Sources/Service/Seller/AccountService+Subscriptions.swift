import FoundationEssentials
import Messages

extension AccountService {

    /// The store's time: the real clock plus the lead the test controls gave it.
    func storeNow() throws(ServiceError) -> Int64 {
        clock.now() + (try ledger.storeClock().offset)
    }

    /// Processes, in order, every renewal and end that fell due by the store's time; returns that
    /// time. Whichever command or request first sees one due does it, under the account's lock;
    /// a renewal is charged once per period and credited once, whatever crashes meanwhile.
    @discardableResult
    func settleSubscriptions() throws(ServiceError) -> Int64 {
        try settle().now
    }

    /// Renewal steps one call settles at most: a thousand renewals take about a second here.
    static let settlementSteps = 1_000

    /// ``settleSubscriptions()``, with the number of renewals it charged.
    func settle() throws(ServiceError) -> (now: Int64, renewals: Int) {
        let (offset, nextDue) = try ledger.storeClock()
        let now = clock.now() + offset
        guard let nextDue, nextDue <= now else { return (now, 0) }
        let failRenewals = try ledger.controls().failRenewals
        var renewals = 0
        // The id the next renewal gets, claimed before the ledger's write (never while it holds
        // a connection of its own) and kept until a renewal takes it; one left at the end of the
        // call is claimed by nobody's transaction, and harms nothing.
        var renewal: TransactionID?
        // Bounded work per call: a clock moved far ahead catches up over the next requests
        // (each settles what it can), never holding the account's lock for minutes.
        for _ in 0..<Self.settlementSteps {
            let next: TransactionID
            if let kept = renewal { next = kept } else { next = try newTransactionID() }
            renewal = next
            switch try ledger.nextRenewalStep(now: now, failRenewals: failRenewals, renewal: next, product: { catalog.product($0) }) {
            case .none: return (now, renewals)
            case .changed: continue
            case .idTaken: renewal = nil
            case .renew(let id):
                if id == next { renewal = nil }
                crash(.afterRenewalCharge)
                try complete(id)
                renewals += 1
            }
        }
        return (now, renewals)
    }

    /// Every subscription the account ever had: its auto-renewable ones, and one row per
    /// non-renewing pass it bought (its purchases together).
    public func subscriptions() throws(ServiceError) -> [SubscriptionStatus] {
        try subscriptions(now: settleSubscriptions(), withPrices: true)
    }

    /// The statuses at `now`; `withPrices`: with what a raised price means for each
    /// (``SubscriptionStatus/priceIncrease``, and an end for want of consent said as such), which
    /// costs a read of the agreements and the storefront: asked where a status is answered, not
    /// where only access counts (entitlements, on every statement).
    func subscriptions(now: Int64, withPrices: Bool = false) throws(ServiceError) -> [SubscriptionStatus] {
        let rows = withPrices ? try ledger.subscriptionsWithAgreements() : try ledger.subscriptions().map { (row: $0, agreement: PriceAgreement?.none) }
        let storefront = withPrices && rows.contains { $0.row.isLive } ? try storefront() : Storefront.defaultCode
        var statuses = rows.map { row, agreement in
            let (state, graceEnds) = row.state(now: now, catalog: catalog)
            var status = SubscriptionStatus(
                productID: row.productID, state: state, expiresDate: row.endDate ?? row.expiresDate, willAutoRenew: row.isLive && row.willAutoRenew,
                renewsToProductID: row.renewsTo, originalTransactionID: row.originalTransactionID, gracePeriodExpiresDate: graceEnds,
                endReason: row.endReason, isAutoRenewable: true, periodStartDate: row.periodStart)
            // Ended for want of consent to a higher price (the row says expired).
            if row.endReason == "expired", agreement?.endedDate == row.endDate { status.endReason = "price-increase" }
            if row.isLive, let agreement, agreement.productID == row.renewsTo ?? row.productID,
                let price = catalog.product(agreement.productID)?.price(in: storefront), price.currency == agreement.agreed.currency
            {
                if price.minorUnits > agreement.agreed.minorUnits {
                    status.priceIncrease = PriceIncrease(price: price, consented: false, told: (agreement.told?.minorUnits ?? 0) >= price.minorUnits)
                } else if agreement.consentedDate != nil, price == agreement.agreed {
                    status.priceIncrease = PriceIncrease(price: price, consented: true, told: true)
                }
            }
            return status
        }
        var passes: [ProductID: [StoreTransaction]] = [:]
        for transaction in try ledger.transactions()
        where transaction.originalTransactionID != nil && catalog.product(transaction.productID)?.nonRenewing != nil
            && [.delivered, .finished].contains(transaction.state)
        {
            passes[transaction.productID, default: []].append(transaction)
        }
        for (product, bought) in passes.sorted(by: { $0.value[0].purchaseDate < $1.value[0].purchaseDate }) {
            let paid = bought.filter(\.isPaid)
            let ends = paid.compactMap(\.expiresDate).max() ?? bought.compactMap(\.revocationDate).max() ?? bought[0].purchaseDate
            let state: SubscriptionState = paid.isEmpty ? .revoked : now < ends ? .active : .expired
            statuses.append(SubscriptionStatus(
                productID: product, state: state, expiresDate: ends, willAutoRenew: false, renewsToProductID: nil,
                originalTransactionID: bought[0].id, gracePeriodExpiresDate: nil, endReason: paid.isEmpty ? "refunded" : state == .expired ? "expired" : nil,
                isAutoRenewable: false))
        }
        return statuses
    }

    public func subscriptionChange(to product: ProductID) throws(ServiceError) -> SubscriptionChange {
        try subscriptionChange(to: product, now: settleSubscriptions())
    }

    func subscriptionChange(to productID: ProductID, now: Int64) throws(ServiceError) -> SubscriptionChange {
        guard let terms = catalog.product(productID)?.autoRenewable else {
            throw ServiceError(.invalidRequest, L10n.text("%s is not an auto-renewable subscription: see 'hangman products'", productID))
        }
        let group = try subscriptions(now: now).filter { status in
            status.isAutoRenewable && catalog.product(status.productID)?.autoRenewable?.group == terms.group
        }
        guard let live = group.first(where: { $0.endReason == nil }) else {
            let history = try ledger.trialHistory()
            return SubscriptionChange(kind: .new, current: nil, refund: nil, freeTrial: AccountLedger.freeTrial(terms, history: history.rows, withheld: history.withheld))
        }
        if live.productID == productID { return SubscriptionChange(kind: .same, current: live, refund: nil) }
        let liveLevel = catalog.product(live.productID)?.autoRenewable?.groupLevel ?? Int.max
        guard terms.groupLevel < liveLevel else { return SubscriptionChange(kind: .downgrade, current: live, refund: nil) }
        let upgrade = try ledger.upgradeRefund(group: terms.group, lookup: { catalog.product($0) }, now: now)
        var change = SubscriptionChange(kind: .upgrade, current: live, refund: upgrade?.refund)
        change.hintsTakenBack = upgrade?.hintsBack
        return change
    }

    func status(of original: TransactionID, now: Int64) throws(ServiceError) -> SubscriptionStatus {
        guard let status = try subscriptions(now: now, withPrices: true).first(where: { $0.originalTransactionID == original }) else {
            throw ServiceError(.storage, "the subscription \(original.number) vanished")
        }
        return status
    }

    /// Turns auto-renew off (`on: false`, access stays to the period's end) or back on, for the
    /// live subscription of the group `product` belongs to.
    public func setAutoRenew(_ product: ProductID, on: Bool) throws(ServiceError) -> SubscriptionStatus {
        guard let terms = catalog.product(product)?.autoRenewable else {
            throw ServiceError(.invalidRequest, L10n.text("%s is not an auto-renewable subscription: see 'hangman products'", product))
        }
        let now = try settleSubscriptions()
        let row = try ledger.setAutoRenew(group: terms.group, on: on, now: now)
        return try status(of: row.originalTransactionID, now: now)
    }

    /// The subscriber consents to the higher price of the plan its live subscription in
    /// `product`'s group renews to (Apple's price increase consent sheet): it renews at that price
    /// from its next renewal. `wrong-state` when there is no rise to consent to.
    public func consentToPriceIncrease(_ product: ProductID) throws(ServiceError) -> SubscriptionStatus {
        guard let terms = catalog.product(product)?.autoRenewable else {
            throw ServiceError(.invalidRequest, L10n.text("%s is not an auto-renewable subscription: see 'hangman products'", product))
        }
        let now = try settleSubscriptions()
        let storefront = try storefront()
        let catalog = catalog
        let row = try ledger.consentToPriceIncrease(group: terms.group, price: { catalog.product($0)?.price(in: storefront) }, now: now)
        return try status(of: row.originalTransactionID, now: now)
    }
}
