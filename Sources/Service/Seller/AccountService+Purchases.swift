import FoundationEssentials
import Messages

extension AccountService {

    public func recoverUnfinished() throws(ServiceError) -> [StoreTransaction] {
        var recovered: [StoreTransaction] = []
        for transaction in try ledger.unfinished() where isRecoverable(transaction) {
            if transaction.state == .purchasing {
                // Never charged: the process died before payment. Nothing was taken, nothing is owed.
                _ = try ledger.move(transaction.id, from: [.purchasing], to: .failed, reason: "interrupted before payment", now: clock.now())
            } else {
                try complete(transaction.id)
            }
            if let updated = try ledger.transaction(transaction.id) { recovered.append(updated) }
        }
        return recovered
    }

    /// How many purchases `recoverUnfinished()` would complete now: what a client is told on
    /// every answer, so that it asks for recovery only when there is some.
    public func unfinishedCount() throws(ServiceError) -> Int {
        try ledger.unfinished().count { isRecoverable($0) }
    }

    /// Whether recovery completes `transaction` now: charged and not finished, or never charged and
    /// older than the payment window (a younger one may be another process's purchase in flight:
    /// it is left to that process).
    private func isRecoverable(_ transaction: StoreTransaction) -> Bool {
        switch transaction.state {
        case .purchasing: clock.now() - transaction.updatedDate >= Self.paymentWindow
        case .purchased, .delivered: true
        default: false
        }
    }

    public func buy(_ productID: ProductID, quantity: Int) throws(ServiceError) -> PurchaseOutcome {
        try buy(productID, quantity: quantity, requestKey: nil)
    }

    public func buy(_ productID: ProductID, quantity: Int, options: PurchaseOptions) throws(ServiceError) -> PurchaseOutcome {
        try buy(productID, quantity: quantity, requestKey: nil, options: options)
    }

    /// Buys, once per `requestKey`: a retry with the same key (a client that lost the answer)
    /// gets the outcome of the transaction the key made, and nothing is charged again.
    ///
    /// `installs`: the kinds of pack the buyer's client can install; a pack of another kind (a
    /// theme, for a client from before themes) is not sold to it, and nothing is charged.
    /// `options.appAccountToken` is recorded on the purchase before it is charged (``AppAccountToken``).
    public func buy(
        _ productID: ProductID, quantity: Int, requestKey: String?, installs: Set<PackKind> = Set(PackKind.allCases), options: PurchaseOptions = PurchaseOptions(),
        introductoryOffer: IntroductoryOfferDecision? = nil, promotionalOffer: PromotionalOfferDecision? = nil
    ) throws(ServiceError) -> PurchaseOutcome {
        try purchase(
            productID, quantity: quantity, requestKey: requestKey, installs: installs, options: options, introductoryOffer: introductoryOffer,
            promotionalOffer: promotionalOffer)
    }

    /// ``buy(_:quantity:requestKey:installs:options:introductoryOffer:promotionalOffer:)``, or an
    /// offer code's purchase at its `charge` (``redeem(offerCode:)`` checked and claimed it).
    func purchase(
        _ productID: ProductID, quantity: Int, requestKey: String?, installs: Set<PackKind> = Set(PackKind.allCases), options: PurchaseOptions = PurchaseOptions(),
        introductoryOffer: IntroductoryOfferDecision? = nil, promotionalOffer: PromotionalOfferDecision? = nil, offerCode: (charge: Money, use: OfferUse)? = nil,
        grant: (reason: String, by: String)? = nil
    ) throws(ServiceError) -> PurchaseOutcome {
        var token: String?
        if let given = options.appAccountToken {
            guard let parsed = AppAccountToken.parse(given) else { throw ServiceError(.invalidRequest, AppAccountToken.problem) }
            token = parsed
        }
        if let requestKey {
            try Self.checkIdempotencyKey(requestKey)
            if let made = try ledger.transaction(requestKey: requestKey) {
                // A grant cut short between its transaction and its record: recorded now, once.
                if let grant { try ledger.recordGrant(made.id, reason: grant.reason, by: grant.by, now: clock.now()) }
                // A retry after a crash between the record and its token: the token, once.
                if let token { try ledger.setAppAccountToken(original: made.originalTransactionID ?? made.id, token: token, replacing: false) }
                return try outcome(of: made, for: productID, quantity: quantity)
            }
        }
        guard let product = catalog.product(productID) else {
            throw ServiceError(.unknownProduct, L10n.text("no product '%s' in the catalog: see 'hangman products'", productID))
        }
        if let reason = product.unavailableReason {
            throw Self.unavailable(product, reason, buying: true)
        }
        if let kind = product.packFile.map({ _ in product.packKind ?? .words }), !installs.contains(kind) {
            throw ServiceError(
                .productUnavailable,
                L10n.text("%s (%s) is a %s pack, which this client cannot install: update hangman to buy it (nothing was charged)", product.displayName, productID, kind.rawValue.lowercased()))
        }
        guard product.isForSale else {
            let owned = product.isConsumable ? nil : Ownership(try ledger.entitlements()).activeEntitlement(for: productID)
            throw ServiceError(
                .productUnavailable,
                owned == nil
                    ? L10n.text("%s (%s) is no longer sold: see 'hangman products' for what is", product.displayName, productID)
                    : L10n.text("%s (%s) is no longer sold; this account owns it: 'hangman restore' brings it back", product.displayName, productID))
        }
        // Priced in the account's storefront; a product without a price there is not sold there.
        let storefront = try storefront()
        guard let price = product.price(in: storefront) else {
            throw ServiceError(
                .productUnavailable,
                L10n.text("%s (%s) is not sold in the %s storefront: see 'hangman products' for what is", product.displayName, productID, storefront))
        }
        guard var total = price.times(quantity) else { throw ServiceError(.invalidRequest, L10n.text("quantity %s is too large", quantity)) }
        var now = clock.now()
        var groupProducts: [ProductID] = []
        var upgrading: TransactionID?
        if product.isSubscription {
            guard quantity == 1 else { throw ServiceError(.invalidRequest, L10n.text("%s is a subscription: --quantity must be 1", productID)) }
            now = try settleSubscriptions()
            if let terms = product.autoRenewable {
                groupProducts = catalog.subscriptionGroup(terms.group).map(\.id)
                let change = try subscriptionChange(to: productID, now: now)
                switch (change.kind, change.current) {
                case (.same, let live?):
                    // The current plan chosen again: a downgrade waiting for the renewal is dropped.
                    guard live.renewsToProductID == nil else {
                        _ = try ledger.scheduleRenewal(group: terms.group, to: nil, now: now)
                        return .alreadySubscribed(try status(of: live.originalTransactionID, now: now))
                    }
                    return .alreadySubscribed(live)
                case (.downgrade, let live?):
                    _ = try ledger.scheduleRenewal(group: terms.group, to: productID, now: now)
                    return .changeScheduled(try status(of: live.originalTransactionID, now: now))
                case (.upgrade, let live?):
                    upgrading = live.originalTransactionID
                default:
                    break
                }
            }
        } else if product.isConsumable {
            guard (1...10).contains(quantity) else { throw ServiceError(.invalidRequest, L10n.text("quantity must be 1 to 10, not %s", quantity)) }
        } else {
            guard quantity == 1 else { throw ServiceError(.invalidRequest, L10n.text("%s is bought once and kept: --quantity must be 1", productID)) }
            if let owned = Ownership(try ledger.entitlements()).activeEntitlement(for: productID) {
                return .alreadyOwned(owned)
            }
            try checkDeliverable(product)
        }
        let offersAsked = [options.promotionalOffer != nil || promotionalOffer != nil, options.introductoryOfferEligibility != nil || introductoryOffer != nil,
            options.winBackOffer != nil].filter { $0 }.count
        if offersAsked > 1 {
            throw ServiceError(.invalidRequest, L10n.text("a purchase takes one offer: a promotional offer, a win-back offer or an introductory offer's eligibility"))
        }
        // The offer the purchase is made with, recorded in its own transaction (``AccountLedger/insertPurchasing``).
        var offer: OfferUse?
        if grant != nil {
            // Given, not sold: nothing charged, never revenue.
            total = Money(minorUnits: 0, currency: total.currency)
        }
        if let offerCode {
            // Checked and claimed by ``redeem(offerCode:)``.
            (total, offer) = offerCode
        }
        if let identifier = options.winBackOffer {
            // Unsigned: the App Store offers it to whom it is for.
            (total, offer) = try winBackCharge(identifier, product: product, storefront: storefront, upgrading: upgrading, now: now)
        }
        if options.promotionalOffer != nil || promotionalOffer != nil {
            (total, offer) = try promotionalCharge(promotionalOffer, product: product, storefront: storefront, upgrading: upgrading)
        }
        if options.introductoryOfferEligibility != nil || introductoryOffer != nil {
            // The developer's server's word on the trial, checked by a pack server with its keys.
            guard let introductoryOffer else {
                throw ServiceError(
                    .invalidRequest,
                    L10n.text("invalidOfferSignature: an introductory offer's eligibility is checked by a pack server with the developer's keys ('serve --api-issuer ... --api-key ...'); this store has none"))
            }
            offer = OfferUse(nonce: introductoryOffer.nonce, audience: IntroductoryOfferDecision.audience, allowIntroductoryOffer: introductoryOffer.allowed)
        }
        var id = try newTransactionID()
        do {
            while try !ledger.insertPurchasing(
                id, product: product, quantity: quantity, charge: Charge(amount: total, storefront: storefront), requestKey: requestKey,
                groupProducts: groupProducts, upgrading: upgrading, offer: offer, now: now)
            {
                id = try newTransactionID()
            }
        } catch {
            // Two requests with one key at once: the other one made the transaction.
            if let requestKey, let made = try ledger.transaction(requestKey: requestKey) { return try outcome(of: made, for: productID, quantity: quantity) }
            throw error
        }
        // Recorded before the charge, so that what the charge tells (a notification) carries it.
        if let token { try ledger.setAppAccountToken(original: id, token: token, replacing: false) }
        if let grant { try ledger.recordGrant(id, reason: grant.reason, by: grant.by, now: now) }
        return try charge(id)
    }

    /// What a purchase under a promotional offer charges (its first transaction: the offer's price
    /// per period, its price for every period up front, or nothing for a free one), and the offer
    /// the purchase records with it (its nonce used once). StoreKit's errors: `invalidOfferSignature` (no
    /// server checked one), `invalidOfferIdentifier`, `invalidOfferPrice` (no price in the
    /// storefront), `ineligibleForOffer` (offers are for customers who had the group before, and
    /// start a subscription: not for a live one).
    private func promotionalCharge(
        _ decision: PromotionalOfferDecision?, product: Product, storefront: String, upgrading: TransactionID?
    ) throws(ServiceError) -> (Money, OfferUse) {
        guard let decision else {
            throw ServiceError(
                .invalidRequest,
                L10n.text("invalidOfferSignature: a promotional offer is checked by a pack server with the developer's keys ('serve --api-issuer ... --api-key ...'); this store has none"))
        }
        guard let terms = product.autoRenewable, let offer = terms.promotionalOffer(decision.identifier), offer.winBack == nil else {
            throw ServiceError(.invalidRequest, L10n.text("invalidOfferIdentifier: %s has no promotional offer '%s'", product.id, decision.identifier.prefix(64)))
        }
        guard let charged = product.price(in: storefront).flatMap({ offer.firstCharge(in: storefront, plan: $0) }) else {
            throw ServiceError(.invalidRequest, L10n.text("invalidOfferPrice: the offer '%s' has no price in the %s storefront", offer.identifier, storefront))
        }
        let history = try ledger.trialHistory().rows.filter { $0.group == terms.group }
        guard !history.isEmpty, upgrading == nil, !history.contains(where: \.isLive) else {
            throw ServiceError(
                .wrongState,
                L10n.text("ineligibleForOffer: a promotional offer is for a customer who had a subscription in group '%s' and has none live now", terms.group))
        }
        return (charged, OfferUse(nonce: decision.nonce, audience: PromotionalOfferDecision.audience, offer: offer))
    }

    /// What a purchase under a win-back offer charges (as a promotional offer's, ``promotionalCharge``),
    /// once the account is found eligible: StoreKit's `invalidOfferIdentifier` (no such win-back
    /// offer), `ineligibleForOffer` (the catalog's rule for it), `invalidOfferPrice`.
    private func winBackCharge(
        _ identifier: String, product: Product, storefront: String, upgrading: TransactionID?, now: Int64
    ) throws(ServiceError) -> (Money, OfferUse) {
        guard let terms = product.autoRenewable, let offer = terms.promotionalOffer(identifier), offer.winBack != nil else {
            throw ServiceError(.invalidRequest, L10n.text("invalidOfferIdentifier: %s has no win-back offer '%s'", product.id, identifier.prefix(64)))
        }
        guard upgrading == nil, try winBackOffers(for: product, storefront: storefront, now: now).contains(where: { $0.identifier == identifier }) else {
            throw ServiceError(
                .wrongState,
                L10n.text("ineligibleForOffer: the win-back offer '%s' is for a customer whose subscription in group '%s' lapsed at least %s days ago after %s paid days: see 'hangman products'", offer.identifier, terms.group, offer.winBack?.minimumDaysLapsed ?? 0, offer.winBack?.minimumDaysPaid ?? 0))
        }
        guard let charged = product.price(in: storefront).flatMap({ offer.firstCharge(in: storefront, plan: $0) }) else {
            throw ServiceError(.invalidRequest, L10n.text("invalidOfferPrice: the offer '%s' has no price in the %s storefront", offer.identifier, storefront))
        }
        return (charged, OfferUse(nonce: OutboxNotification.newUUID(), audience: "win-back-offer", offer: offer))
    }

    /// A new transaction's id, drawn at random and, on a server, claimed across the service
    /// (``claimTransactionID``) so that no other account has it: its number alone finds it.
    func newTransactionID() throws(ServiceError) -> TransactionID {
        for _ in 0..<8 {
            let id = TransactionID.random(using: &random)
            if try claimTransactionID?(id) ?? true { return id }
        }
        throw ServiceError(.storage, "eight transaction ids in a row were other accounts': the service's ids are drawn from too few numbers")
    }

    /// Takes a recorded purchase past payment (as the test controls say) and delivers it. Only one
    /// caller moves it out of `purchasing`; any other answers with what that one made of it.
    func charge(_ id: TransactionID) throws(ServiceError) -> PurchaseOutcome {
        let controls = try ledger.controls()
        // A grant charges nothing: no payment to fail, no one to ask.
        let granted = try ledger.grant(id) != nil
        let next: TransactionState =
            granted ? .purchased : controls.failPurchases ? .failed : controls.askToBuy ? .deferred : controls.interruptPurchases ? .interrupted : .purchased
        let reason = controls.failPurchases ? "the store refused the payment (fail-purchases is on)" : nil
        guard try ledger.move(id, from: [.purchasing], to: next, reason: reason, now: clock.now()) else {
            // Another process took it on (a retry with the same key), or its recovery judged it
            // abandoned (nothing was charged): answer with the transaction as it stands.
            return try settled(try recorded(id))
        }
        let transaction = try recorded(id)
        switch next {
        case .failed: return .failed(transaction)
        case .deferred: return .deferred(transaction)
        case .interrupted: return .interrupted(transaction)
        default: break
        }
        crash(.afterCharge)
        try complete(transaction)
        return .purchased(try recorded(id))
    }

    /// What a purchase request already made answers: the transaction as it stands now. One still
    /// `purchasing` (its request's process died before payment, or is paying now) is charged here,
    /// once: a retry of the same request is the same purchase.
    /// The same key with another request (another product or quantity) is refused, never
    /// answered with the first request's outcome as if it were this one's.
    func outcome(of transaction: StoreTransaction, for productID: ProductID, quantity: Int) throws(ServiceError) -> PurchaseOutcome {
        guard transaction.productID == productID, transaction.quantity == quantity else {
            throw ServiceError(
                .invalidRequest,
                L10n.text("the idempotency key was used for %s x%s, not %s x%s: a new purchase needs a new key", transaction.productID, transaction.quantity, productID, quantity))
        }
        if transaction.state == .purchasing { return try charge(transaction.id) }
        return try settled(transaction)
    }

    /// The outcome of a transaction past `purchasing`, completing a charged one first.
    func settled(_ transaction: StoreTransaction) throws(ServiceError) -> PurchaseOutcome {
        var current = transaction
        if current.state == .purchased || current.state == .delivered {
            try complete(current.id)
            current = try recorded(current.id)
        }
        switch current.state {
        case .failed, .purchasing: return .failed(current)
        case .deferred: return .deferred(current)
        case .interrupted: return .interrupted(current)
        case .purchased, .delivered, .finished: return .purchased(current)
        }
    }

    /// Delivers a charged transaction (once, whatever happened before) and finishes it. A
    /// subscription's period starts at the store's time.
    func complete(_ id: TransactionID) throws(ServiceError) {
        try complete(try recorded(id))
    }

    /// ``complete(_:)`` of a transaction just read.
    func complete(_ transaction: StoreTransaction) throws(ServiceError) {
        let id = transaction.id
        if transaction.state == .purchased {
            var legacyHints = 0
            var freezes: Int?
            switch catalog.product(transaction.productID)?.kind {
            case .consumable(let each)?: legacyHints = each * transaction.quantity
            case .streakFreezes(let each)?: freezes = each * transaction.quantity
            default: break
            }
            let now = transaction.originalTransactionID == nil ? clock.now() : try storeNow()
            if try ledger.deliver(id, legacyHints: legacyHints, streakFreezes: freezes, lookup: { catalog.product($0) }, now: now) {
                crash(.afterDeliver)
            }
        }
        _ = try ledger.move(id, from: [.delivered], to: .finished, now: clock.now())
    }

    /// Apple's Finish Transaction: the developer's server has processed a charged purchase, so it is
    /// delivered (once, as ``complete(_:)`` delivers) and finished here, and no client delivers it
    /// again. `true` when it is finished (now or before); `false` for one that was never charged
    /// or was refunded.
    public func finishAsTheBackend(_ id: TransactionID) throws(ServiceError) -> Bool {
        let transaction = try recorded(id)
        guard transaction.revocationDate == nil else { return false }
        switch transaction.state {
        case .finished: return true
        case .purchased, .delivered:
            try complete(transaction)
            return try recorded(id).state == .finished
        case .purchasing, .failed, .deferred, .interrupted: return false
        }
    }

    /// One transaction of the account, if it has it.
    public func transaction(_ id: TransactionID) throws(ServiceError) -> StoreTransaction? {
        try ledger.transaction(id)
    }

    func recorded(_ id: TransactionID) throws(ServiceError) -> StoreTransaction {
        guard let transaction = try transaction(id) else {
            throw ServiceError(.unknownTransaction, L10n.text("no transaction %s: see 'hangman transactions'", id.number))
        }
        return transaction
    }

    /// Whether the account owns `productID` now: bought and not refunded, or opened by a live pass.
    public func owns(_ productID: ProductID) throws(ServiceError) -> Bool {
        Ownership(try entitlements()).owns(productID)
    }

    public func restore() throws(ServiceError) -> [Entitlement] {
        try entitlements().filter(\.isActive)
    }

    public func transactions() throws(ServiceError) -> [StoreTransaction] {
        _ = try settleSubscriptions()
        return try ledger.transactions()
    }

    /// The packs bought outright, and those a subscription opens (active while it lasts, revoked
    /// from its end once it is over) unless bought outright too.
    public func entitlements() throws(ServiceError) -> [Entitlement] {
        let owned = try ledger.entitlements()
        let ownedOutright = Ownership(owned)
        let now = try settleSubscriptions()
        var opened: [ProductID: Entitlement] = [:]
        for status in try subscriptions(now: now) {
            guard let product = catalog.product(status.productID) else { continue }
            for pack in catalog.packs(unlockedBy: product) where !ownedOutright.owns(pack) {
                let entitlement = Entitlement(
                    productID: pack, transactionID: status.originalTransactionID, grantedDate: 0,
                    revokedDate: status.state.hasAccess ? nil : status.expiresDate, subscriptionProductID: status.productID,
                    expiresDate: status.state.hasAccess ? status.accessEnds : status.expiresDate)
                // An open one wins over an ended one; of two, the one that lasts longer.
                if let seen = opened[pack], seen.isActive && !entitlement.isActive || (seen.isActive == entitlement.isActive
                    && (seen.expiresDate ?? 0) >= (entitlement.expiresDate ?? 0))
                {
                    continue
                }
                opened[pack] = entitlement
            }
        }
        let fromPasses = opened.values.filter { pass in !owned.contains { $0.productID == pass.productID } || pass.isActive }
        let openedByPasses = Ownership(fromPasses)
        return (owned.filter { !openedByPasses.owns($0.productID) } + fromPasses)
            .sorted { $0.productID.rawValue < $1.productID.rawValue }
    }
}

extension AccountService {
    /// Gives the customer `productID` (hints, a pack, Remove Ads, a non-renewing pass) at no
    /// charge, with `reason` and the giver `by` (an admin token's id, or the operator's command
    /// line) recorded with the transaction: a purchase at 0 in every other way (the player's
    /// devices see it as they see a purchase), never revenue. `requestKey` makes it once: the
    /// same key again answers the same grant. An auto-renewable subscription is not given (it
    /// would renew at its price): ``extendRenewal(_:days:)`` gives days of a live one.
    public func grant(_ productID: ProductID, quantity: Int, reason: String, by: String, requestKey: String) throws(ServiceError) -> PurchaseOutcome {
        let reason = try SupportAction.reason(reason)
        guard (1...100).contains(by.count) else { throw ServiceError(.invalidRequest, "a grant names who gave it") }
        if catalog.product(productID)?.autoRenewable != nil {
            throw ServiceError(.invalidRequest, "\(productID) renews at its price: give days of a live subscription instead (an extension)")
        }
        return try purchase(productID, quantity: quantity, requestKey: requestKey, grant: (reason, by))
    }

    /// The grant `id` is (why, by whom), if it is one.
    public func grantRecord(_ id: TransactionID) throws(ServiceError) -> GrantRecord? {
        try ledger.grant(id)
    }
}
