import Messages
import WordPacks

/// The subscription rules, once for both engines: a period starts when its transaction is
/// delivered, a renewal is made once per period (a unique index on the original transaction and
/// the period's number) and credits its hints once (its ledger key), failed renewals go through
/// the grace period and billing retry, and the store clock only moves forward.
extension AccountLedger {
    /// What one look at the due subscriptions did.
    enum RenewalStep: Equatable {
        /// Nothing is due (or only billing retries that wait).
        case none
        /// A subscription changed (ended, started failing): look again.
        case changed
        /// This renewal is charged and waits to be delivered (made now, or left by a crash).
        case renew(TransactionID)
        /// The id given for a renewal is one of the ledger's already: look again with another.
        case idTaken
    }

    /// Starts the period a subscription transaction paid for (inside `deliver`'s transaction):
    /// - the first of an auto-renewable: a free trial when the account never had a subscription
    ///   in the group, else a paid period with its hints; the subscription's row is made;
    /// - a renewal: its hints, and the row moves to its period;
    /// - a non-renewing pass: access from the end of the access already bought (or now).
    static func deliverSubscription(
        _ transaction: StoreTransaction, product: Product, lookup: (ProductID) -> Product?, statements: any LedgerStatements, now: Int64
    ) throws {
        var hints = 0
        if let terms = product.autoRenewable {
            let rows = try statements.subscriptions()
            if transaction.originalTransactionID == transaction.id {
                // An upgrade: the group's live subscription ends now, and the unused part of its
                // period is refunded (nothing for a trial or a period whose renewal failed).
                if var live = rows.first(where: { $0.group == terms.group && $0.isLive }) {
                    if let upgrade = try upgradeRefund(live, lookup: lookup, statements: statements, now: now) {
                        try statements.setUpgradeRefund(upgrade.refund.minorUnits, for: upgrade.period, now: now)
                        if upgrade.hintsBack > 0 {
                            try appendHints(
                                statements, key: "upgrade:\(upgrade.period)", amount: -upgrade.hintsBack, reason: .refund, transaction: upgrade.period, now: now)
                        }
                    }
                    live.endDate = now
                    live.endReason = "upgraded"
                    try statements.saveSubscription(live, now: now)
                }
                // A promotional offer the developer's server signed: its first period, in place of
                // any introductory offer (a free one is a trial; one paid up front covers all of its periods).
                let promotion = try statements.purchaseOffer(transaction.id)
                var trial = Self.freeTrial(
                    terms, history: rows, withheld: try statements.freeTrialsWithheld(), signed: try statements.introductoryOfferAllowed(transaction.id))
                var firstPeriod = terms.period
                var periodsPaid = 1
                if let promotion {
                    try statements.markOffer(promotion.identifier, on: transaction.id)
                    trial = promotion.kind == .freeTrial ? promotion.duration(of: terms.period) : nil
                    if promotion.kind == .payUpFront {
                        firstPeriod = promotion.duration(of: terms.period)
                        periodsPaid = promotion.periods
                    }
                }
                let expires = (trial ?? firstPeriod).added(to: now)
                try statements.setSubscriptionDates(transaction.id, purchaseDate: now, expiresDate: expires, isTrial: trial != nil)
                try statements.saveSubscription(
                    SubscriptionRow(
                        originalTransactionID: transaction.id, group: terms.group, productID: product.id, period: 0, inTrial: trial != nil,
                        periodStart: now, expiresDate: expires, willAutoRenew: true, renewsTo: nil, billingRetrySince: nil, endDate: nil, endReason: nil),
                    now: now)
                // The plan's price now is the one its subscriber agreed to (an offer's is the offer's).
                if let plan = product.price(in: transaction.storefront ?? Storefront.defaultCode) {
                    try statements.savePriceAgreement(PriceAgreement(originalTransactionID: transaction.id, productID: product.id, agreed: plan))
                }
                hints = trial == nil ? terms.hintsPerPeriod * periodsPaid : 0
            } else if let original = transaction.originalTransactionID, var row = rows.first(where: { $0.originalTransactionID == original }) {
                row.productID = product.id
                row.period += 1
                row.inTrial = false
                row.periodStart = transaction.purchaseDate
                row.expiresDate = transaction.expiresDate ?? terms.period.added(to: now)
                row.billingRetrySince = nil
                if row.renewsTo == product.id { row.renewsTo = nil }
                try statements.saveSubscription(row, now: now)
                hints = try statements.hintsOwed(transaction.id)
            }
        } else if let terms = product.nonRenewing {
            let bought = try statements.transactions().filter {
                $0.productID == product.id && $0.id != transaction.id && $0.isPaid && $0.originalTransactionID != nil
            }
            let start = max(now, bought.compactMap(\.expiresDate).max() ?? now)
            try statements.setSubscriptionDates(transaction.id, purchaseDate: now, expiresDate: terms.duration.added(to: start), isTrial: false)
        }
        if hints > 0 {
            try appendHints(statements, key: "credit:\(transaction.id)", amount: hints, reason: .purchase, transaction: transaction.id, now: now)
        }
        try statements.setHintsCredited(hints, for: transaction.id)
    }

    /// What upgrading from `live` at `now` gives back, the one rule: the unused share of the
    /// current period's time is refunded (in the currency it was charged in), and the same share
    /// of the hints that period credited is taken back, as far as the balance allows; each of
    /// those hints the balance cannot give back (spent) is taken off the refund at the period's
    /// price per hint. So a refund never pays for hints that are kept. Nothing for a trial, a
    /// period whose renewal failed, or one refunded. A period charged before storefronts is taken
    /// at the catalog's price in the default storefront.
    static func upgradeRefund(
        _ live: SubscriptionRow, lookup: (ProductID) -> Product?, statements: any LedgerStatements, now: Int64
    ) throws -> (period: TransactionID, refund: Money, hintsBack: Int)? {
        guard let current = try statements.transaction(original: live.originalTransactionID, period: live.period) else { return nil }
        guard let charged = current.price ?? lookup(live.productID)?.price(in: Storefront.defaultCode) else { return nil }
        let nothing = Money(minorUnits: 0, currency: charged.currency)
        let paid = !current.isTrial && live.billingRetrySince == nil && current.revocationDate == nil
        guard paid, let share = ProRata.refund(of: charged, start: current.purchaseDate, end: live.expiresDate, now: now) else {
            return (current.id, nothing, 0)
        }
        let credited = Int64(current.hintsCredited)
        guard credited > 0 else { return (current.id, share, 0) }
        // The period's hints in its unused share, rounded half up as the refund is.
        let length = live.expiresDate - current.purchaseDate
        let unused = min(max(live.expiresDate - now, 0), length)
        let owed = (credited * unused * 2 + length) / (length * 2)
        let back = min(owed, Int64(max(0, try statements.balance())))
        // Each owed hint kept is worth the period's price over its hints (a cent up).
        let deduction = (charged.minorUnits * (owed - back) + credited - 1) / credited
        return (current.id, Money(minorUnits: max(0, share.minorUnits - deduction), currency: charged.currency), Int(back))
    }

    /// Lays a non-renewing product's unrefunded passes end to end again after one was refunded:
    /// a pass that has started keeps its dates; one that has not starts when the pass before it
    /// now ends (or now, or when it was bought, whichever is later) and lasts `duration`. Two
    /// 30-day passes, the first refunded at once: access runs 30 days, not 60.
    static func restackPasses(_ product: ProductID, duration: StoreDuration, statements: any LedgerStatements, now: Int64) throws {
        let passes = try statements.transactions()
            .filter { $0.productID == product && $0.originalTransactionID != nil && [.delivered, .finished].contains($0.state) && $0.expiresDate != nil }
            .sorted { ($0.purchaseDate, $0.id.rawValue) < ($1.purchaseDate, $1.id.rawValue) }
        var originalEnd: Int64?
        var newEnd: Int64?
        for pass in passes {
            guard let expires = pass.expiresDate else { continue }
            // Where it began when it was stacked: after the passes bought before it, refunded or not.
            let originalStart = max(pass.purchaseDate, originalEnd ?? pass.purchaseDate)
            originalEnd = max(originalEnd ?? expires, expires)
            guard pass.revocationDate == nil else { continue }
            var end = expires
            if originalStart > now {
                end = duration.added(to: max(now, pass.purchaseDate, newEnd ?? now))
                if end != expires { try statements.setSubscriptionDates(pass.id, purchaseDate: pass.purchaseDate, expiresDate: end, isTrial: false) }
            }
            newEnd = max(newEnd ?? end, end)
        }
    }

    /// The refund upgrading the group's live subscription at `now` would give; `nil` when there
    /// is no live subscription in the group.
    func upgradeRefund(group: String, lookup: (ProductID) -> Product?, now: Int64) throws(ServiceError) -> (refund: Money, hintsBack: Int)? {
        try engine.read { statements in
            guard let live = try statements.subscriptions().first(where: { $0.group == group && $0.isLive }) else { return nil }
            return try Self.upgradeRefund(live, lookup: lookup, statements: statements, now: now).map { ($0.refund, $0.hintsBack) }
        }
    }

    /// The store clock's lead, and when a subscription may next be due.
    func storeClock() throws(ServiceError) -> (offset: Int64, nextDue: Int64?) {
        try engine.read { statements in try statements.storeClock() }
    }

    /// Moves the store clock `duration` further, from where it is when the account's lock is held
    /// (two moves at once both count, one after the other); the store's time after it, or `nil`
    /// when that is past ``StoreDuration/latestDate`` (nothing moved).
    func advanceClock(by duration: StoreClockStep, realNow: Int64) throws(ServiceError) -> Int64? {
        try engine.write { statements in
            let current = try statements.storeClock().offset
            guard let target = duration.adding(to: realNow + current) else { return nil }
            try statements.setClockOffset(max(current, target - realNow))
            return target
        }
    }

    /// The free trial a new subscription of `terms` starts with: its offer, once per group (not
    /// for an account that ever had a subscription in the group), and none for an account the
    /// server made without one (`withheld`: its address block had its trials for the day). The
    /// one rule, for the trial that starts and for the one offered before buying.
    static func freeTrial(_ terms: AutoRenewableTerms, history rows: [SubscriptionRow], withheld: Bool, signed: Bool? = nil) -> StoreDuration? {
        // The developer's server's signed word (introductoryOfferEligibility) decides in place of
        // the group's history; a trial withheld from the account's address block stays withheld.
        if withheld { return nil }
        if let signed { return signed ? terms.freeTrial : nil }
        return rows.contains { $0.group == terms.group } ? nil : terms.freeTrial
    }

    /// How the account's subscriptions in `group` ended, for a win-back offer: when the last one
    /// lapsed, and the days they were paid for (their trials not counted); `nil` when the account
    /// never had one, or has one live.
    func lapse(group: String) throws(ServiceError) -> (lapsed: Int64, paidDays: Int)? {
        try engine.read { statements in
            let rows = try statements.subscriptions().filter { $0.group == group }
            guard !rows.isEmpty, !rows.contains(where: \.isLive) else { return nil }
            var lapsed = Int64.min
            var paid: Int64 = 0
            for row in rows {
                let end = row.endDate ?? row.expiresDate
                lapsed = max(lapsed, end)
                guard let first = try statements.transaction(row.originalTransactionID) else { continue }
                let start = first.isTrial ? (first.expiresDate ?? first.purchaseDate) : first.purchaseDate
                paid += max(0, end - start)
            }
            return (lapsed, Int(paid / 86_400_000))
        }
    }

    /// The account's subscriptions and whether free trials are withheld from it, read together.
    func trialHistory() throws(ServiceError) -> (rows: [SubscriptionRow], withheld: Bool) {
        try engine.read { statements in (try statements.subscriptions(), try statements.freeTrialsWithheld()) }
    }

    /// No free trial for this account, ever (an account made past its address block's trials).
    func withholdFreeTrials() throws(ServiceError) {
        try engine.write { statements in try statements.withholdFreeTrials() }
    }

    func subscriptions() throws(ServiceError) -> [SubscriptionRow] {
        try engine.read { statements in try statements.subscriptions() }
    }

    /// The account's subscriptions with the price agreement of each that has one, read together.
    func subscriptionsWithAgreements() throws(ServiceError) -> [(row: SubscriptionRow, agreement: PriceAgreement?)] {
        try engine.read { statements in
            let agreements = Dictionary(try statements.priceAgreements().map { ($0.originalTransactionID, $0) }) { first, _ in first }
            return try statements.subscriptions().map { ($0, agreements[$0.originalTransactionID]) }
        }
    }

    /// Looks at the live subscription whose period ended first, at `now` (the store's time), and
    /// takes one step: a renewal charged (in state `purchased`, to be delivered by the caller),
    /// an end, or a failed renewal recorded. `product` names the catalog's terms; `renewal` is the
    /// id a new renewal gets.
    func nextRenewalStep(
        now: Int64, failRenewals: Bool, renewal: TransactionID, product: (ProductID) -> Product?
    ) throws(ServiceError) -> RenewalStep {
        try engine.write { statements in
            let due = try statements.subscriptions().filter { $0.isLive && $0.expiresDate <= now }.sorted { $0.expiresDate < $1.expiresDate }
            for var row in due {
                // A renewal a crash left charged and not delivered: deliver it first.
                if let pending = try statements.transaction(original: row.originalTransactionID, period: row.period + 1),
                    [.purchased, .delivered].contains(pending.state)
                {
                    return .renew(pending.id)
                }
                guard row.willAutoRenew, let next = product(row.renewsTo ?? row.productID), let terms = next.autoRenewable else {
                    row.endDate = row.expiresDate
                    row.endReason = "expired"
                    try statements.saveSubscription(row, now: now)
                    try notify(.expired, row.willAutoRenew ? "PRODUCT_NOT_FOR_SALE" : "VOLUNTARY", row, statements: statements, now: now)
                    return .changed
                }
                if failRenewals {
                    guard let since = row.billingRetrySince else {
                        row.billingRetrySince = row.expiresDate
                        try statements.saveSubscription(row, now: now)
                        try notify(.didFailToRenew, "GRACE_PERIOD", row, statements: statements, now: now)
                        return .changed
                    }
                    let limit = AutoRenewableTerms.billingRetryLimit.added(to: since)
                    if now >= limit {
                        row.endDate = limit
                        row.endReason = "billing"
                        try statements.saveSubscription(row, now: now)
                        try notify(.expired, "BILLING_RETRY", row, statements: statements, now: now)
                        return .changed
                    }
                    continue  // the store keeps trying
                }
                // A renewal is charged in the account's storefront as it is now; a subscription
                // whose product is not sold there ends with its period.
                let storefront = try statements.storefront() ?? Storefront.defaultCode
                // A pay-as-you-go promotional offer charges its price for the periods it covers
                // (the same plan renewing; a change of plan ends it).
                var promotion: PromotionalOffer?
                if next.id == row.productID, let identifier = try statements.transaction(row.originalTransactionID)?.promotionalOffer,
                    let offer = terms.promotionalOffer(identifier), offer.kind == .payAsYouGo, row.period + 1 < offer.periods
                {
                    promotion = offer
                }
                guard var price = promotion?.prices[storefront] ?? next.price(in: storefront) else {
                    row.endDate = row.expiresDate
                    row.endReason = "expired"
                    try statements.saveSubscription(row, now: now)
                    try notify(.expired, "PRODUCT_NOT_FOR_SALE", row, statements: statements, now: now)
                    return .changed
                }
                if promotion == nil {
                    // No more than the subscriber agreed to, unless told and consenting.
                    guard let agreed = try renewalPrice(row, plan: next.id, price: price, statements: statements, now: now) else { return .changed }
                    price = agreed
                }
                // Renewed: at the period's end, or, recovering from billing retry, now.
                let start = row.billingRetrySince == nil ? row.expiresDate : now
                let fields = SubscriptionFields(
                    originalTransactionID: row.originalTransactionID, period: row.period + 1, expiresDate: terms.period.added(to: start), isTrial: false)
                if try statements.insertRenewal(
                    renewal, product: next.id, fields: fields, start: start, hintsOwed: terms.hintsPerPeriod,
                    charge: Charge(amount: price, storefront: storefront), now: now)
                {
                    // Marked when charged at its price (not when the storefront has none, and the plan's was).
                    if let promotion, promotion.prices[storefront] != nil { try statements.markOffer(promotion.identifier, on: renewal) }
                    return .renew(renewal)
                }
                return .idTaken
            }
            return .none
        }
    }

    /// What renewing `row` charges when its plan's price is `price`, as its subscriber agreed
    /// (``PriceAgreement``): the price when it is no rise (a fall is agreed at once, as Apple
    /// applies one); the agreed price the first time a rise is met, the subscriber told of it
    /// (`PRICE_INCREASE` `PENDING`; consent with ``AccountService/consentToPriceIncrease(_:)``);
    /// `nil` when the subscriber was told at an earlier renewal and did not consent: the
    /// subscription ends with its period (`EXPIRED` `PRICE_INCREASE`).
    private func renewalPrice(_ row: SubscriptionRow, plan: ProductID, price: Money, statements: any LedgerStatements, now: Int64) throws -> Money? {
        var agreement: PriceAgreement
        if let kept = try statements.priceAgreement(row.originalTransactionID), kept.productID == plan, kept.agreed.currency == price.currency {
            agreement = kept
        } else {
            // None for this plan yet: a subscription from before agreements were kept agreed to
            // what its current period was charged, when that was the plan's own price (not a
            // trial's or an offer's); a plan changed to (a downgrade chosen at its price) or a
            // storefront moved to agrees to the price now.
            var agreed = price
            if plan == row.productID, let current = try statements.transaction(original: row.originalTransactionID, period: row.period),
                current.productID == plan, !current.isTrial, current.promotionalOffer == nil, current.offerCode == nil,
                let paid = current.price, paid.currency == price.currency, paid.minorUnits > 0
            {
                agreed = paid
            }
            agreement = PriceAgreement(originalTransactionID: row.originalTransactionID, productID: plan, agreed: agreed)
            try statements.savePriceAgreement(agreement)
        }
        guard price.minorUnits > agreement.agreed.minorUnits else {
            // No rise (a fall is agreed at once): what was told or consented to is over.
            if price.minorUnits < agreement.agreed.minorUnits || agreement.told != nil || agreement.consentedDate != nil {
                try statements.savePriceAgreement(PriceAgreement(originalTransactionID: row.originalTransactionID, productID: plan, agreed: price))
            }
            return price
        }
        // Told at an earlier renewal (its date is the renewal's), of this price or a higher one: ends.
        if let told = agreement.told, told.minorUnits >= price.minorUnits, let toldAt = agreement.toldDate, toldAt < row.expiresDate {
            var ended = row
            ended.endDate = row.expiresDate
            ended.endReason = "expired"
            try statements.saveSubscription(ended, now: now)
            agreement.endedDate = row.expiresDate
            try statements.savePriceAgreement(agreement)
            try notify(.expired, "PRICE_INCREASE", ended, statements: statements, now: now)
            return nil
        }
        if agreement.told?.minorUnits != price.minorUnits {
            agreement.told = price
            agreement.toldDate = row.expiresDate
            try statements.savePriceAgreement(agreement)
            try notify(.priceIncrease, "PENDING", row, statements: statements, now: now)
        }
        return agreement.agreed
    }

    /// The subscriber of the group's live subscription consents to its plan's higher `price`
    /// (`PRICE_INCREASE` `ACCEPTED`); throws when its plan's price is no rise on what it agreed.
    func consentToPriceIncrease(group: String, price: (ProductID) -> Money?, now: Int64) throws(ServiceError) -> SubscriptionRow {
        try engine.write { statements in
            guard let row = try statements.subscriptions().first(where: { $0.group == group && $0.isLive }) else {
                throw ServiceError(.invalidRequest, L10n.text("the account has no live subscription in group '%s': see 'hangman subscriptions'", group))
            }
            let plan = row.renewsTo ?? row.productID
            guard let asked = price(plan), var agreement = try statements.priceAgreement(row.originalTransactionID), agreement.productID == plan,
                agreement.agreed.currency == asked.currency, asked.minorUnits > agreement.agreed.minorUnits
            else {
                throw ServiceError(.wrongState, L10n.text("%s renews at the price this subscription agreed to: there is no price increase to consent to", plan))
            }
            agreement.agreed = asked
            agreement.told = asked
            agreement.toldDate = agreement.toldDate ?? now
            agreement.consentedDate = now
            try statements.savePriceAgreement(agreement)
            try notify(.priceIncrease, "ACCEPTED", row, statements: statements, now: now)
            return row
        }
    }

    /// Makes the group's live subscription renew to `product` (a downgrade, at the next renewal),
    /// or to itself again (`nil`).
    func scheduleRenewal(group: String, to product: ProductID?, now: Int64) throws(ServiceError) -> SubscriptionRow {
        try engine.write { statements in
            guard var row = try statements.subscriptions().first(where: { $0.group == group && $0.isLive }) else {
                throw ServiceError(.invalidRequest, L10n.text("the account has no live subscription in group '%s': see 'hangman subscriptions'", group))
            }
            let before = row
            row.renewsTo = product == row.productID ? nil : product
            row.willAutoRenew = true
            try statements.saveSubscription(row, now: now)
            if before.renewsTo != row.renewsTo {
                try notify(.didChangeRenewalPref, row.renewsTo == nil ? nil : "DOWNGRADE", row, statements: statements, now: now)
            }
            if !before.willAutoRenew { try notify(.didChangeRenewalStatus, "AUTO_RENEW_ENABLED", row, statements: statements, now: now) }
            return row
        }
    }

    /// Turns auto-renew of the group's live subscription on or off; throws when there is none.
    func setAutoRenew(group: String, on: Bool, now: Int64) throws(ServiceError) -> SubscriptionRow {
        try engine.write { statements in
            guard var row = try statements.subscriptions().first(where: { $0.group == group && $0.isLive }) else {
                throw ServiceError(.invalidRequest, L10n.text("the account has no live subscription in group '%s': see 'hangman subscriptions'", group))
            }
            let changed = row.willAutoRenew != on
            row.willAutoRenew = on
            try statements.saveSubscription(row, now: now)
            if changed {
                try notify(.didChangeRenewalStatus, on ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED", row, statements: statements, now: now)
            }
            return row
        }
    }
}
