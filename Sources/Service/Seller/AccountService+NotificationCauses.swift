import CivilCalendar

/// `hangman store notify TYPE [SUBTYPE]`: each notification Apple's server sends, caused on demand
/// by the state change it tells of, so that a developer's backend can be tested against every one.
/// Each change is made through the account's own rules (a purchase, the store's clock, auto-renew,
/// the refund cycle), exactly as the player or the App Store would make it; a change the account's
/// state does not allow is refused with what allows it, and nothing is changed.
extension AccountService {
    /// Causes the notification `type` (`subtype`) by the change it tells of; what changed.
    public func causeNotification(_ type: String, subtype: String?) throws(ServiceError) -> NotificationCause {
        let type = type.uppercased()
        let subtype = subtype?.uppercased()
        let name = subtype.map { type + "/" + $0 } ?? type
        if let elsewhere = NotificationCause.causedElsewhere[name] ?? NotificationCause.causedElsewhere[type] {
            throw ServiceError(.wrongState, "\(name) is not caused by 'store notify': \(elsewhere)")
        }
        let named = NotificationCause.causes.map(\.name)
        guard named.contains(name) || (subtype == nil && type == "SUBSCRIBED") else {
            throw ServiceError(.invalidRequest, "'\(name.prefix(80))' is no notification 'store notify' causes: \(named.map { $0.split(separator: "/").joined(separator: " ") }.joined(separator: ", ")) ('hangman store notify' lists them)")
        }
        func told(_ change: String, _ transaction: TransactionID?) -> NotificationCause {
            NotificationCause(type: type, subtype: subtype, change: change, transactionID: transaction)
        }
        switch name {
        case "ONE_TIME_CHARGE":
            let storefront = try storefront()
            guard let hints = catalog.products.first(where: { $0.hintCount != nil && $0.isForSale && $0.price(in: storefront) != nil }) else {
                throw ServiceError(.productUnavailable, "the catalog sells no consumable in the \(storefront) storefront")
            }
            let bought = try causedPurchase(hints.id)
            return told("bought \(hints.displayName)", bought.id)
        case "SUBSCRIBED", "SUBSCRIBED/INITIAL_BUY", "SUBSCRIBED/RESUBSCRIBE":
            let storefront = try storefront()
            guard let plan = catalog.products.first(where: { $0.autoRenewable != nil && $0.isForSale && $0.price(in: storefront) != nil }),
                let terms = plan.autoRenewable
            else { throw ServiceError(.productUnavailable, "the catalog sells no auto-renewable subscription in the \(storefront) storefront") }
            let now = try settleSubscriptions()
            if try subscriptionChange(to: plan.id, now: now).current != nil {
                throw ServiceError(.wrongState, "the account has a subscription in group '\(terms.group)' live: SUBSCRIBED needs none ('store notify EXPIRED VOLUNTARY' ends it)")
            }
            let had = try !ledger.trialHistory().rows.filter { $0.group == terms.group }.isEmpty
            if let subtype, subtype != (had ? "RESUBSCRIBE" : "INITIAL_BUY") {
                throw ServiceError(
                    .wrongState,
                    had ? "the account had a subscription in group '\(terms.group)': it can be told SUBSCRIBED RESUBSCRIBE" : "the account never had group '\(terms.group)': it can be told SUBSCRIBED INITIAL_BUY")
            }
            let bought = try causedPurchase(plan.id)
            return NotificationCause(type: type, subtype: had ? "RESUBSCRIBE" : "INITIAL_BUY", change: "subscribed to \(plan.displayName)", transactionID: bought.id)
        case "DID_RENEW":
            let live = try liveSubscription(for: name, renewing: true)
            guard try !ledger.controls().failRenewals else { throw ServiceError(.wrongState, "fail-renewals is on: DID_RENEW BILLING_RECOVERY is what a renewal tells now") }
            try moveClock(past: live.expiresDate)
            return told("renewed \(live.productID) at \(Self.said(live.expiresDate))", try newestPeriod(of: live))
        case "DID_RENEW/BILLING_RECOVERY":
            let live = try liveSubscription(for: name, renewing: true)
            guard [.gracePeriod, .billingRetry].contains(live.state) else {
                throw ServiceError(.wrongState, "the subscription renews as it should: 'store notify DID_FAIL_TO_RENEW GRACE_PERIOD' makes its renewal fail first")
            }
            var controls = try ledger.controls()
            controls.failRenewals = false
            try ledger.setControls(controls)
            _ = try settleSubscriptions()
            return told("turned fail-renewals off: \(live.productID) renewed", try newestPeriod(of: live))
        case "DID_FAIL_TO_RENEW/GRACE_PERIOD", "EXPIRED/BILLING_RETRY":
            let live = try liveSubscription(for: name, renewing: true)
            if name == "DID_FAIL_TO_RENEW/GRACE_PERIOD", live.state != .active && live.state != .trial {
                throw ServiceError(.wrongState, "the subscription's renewal is failing already (\(live.state.rawValue))")
            }
            var controls = try ledger.controls()
            controls.failRenewals = true
            try ledger.setControls(controls)
            let end = name == "EXPIRED/BILLING_RETRY" ? AutoRenewableTerms.billingRetryLimit.added(to: live.expiresDate) : live.expiresDate
            try moveClock(past: end)
            let also = name == "EXPIRED/BILLING_RETRY" && live.state != .gracePeriod && live.state != .billingRetry ? "; DID_FAIL_TO_RENEW GRACE_PERIOD was told before it" : ""
            return told("turned fail-renewals on and moved the clock to \(Self.said(end))\(also); 'hangman store fail-renewals off' turns it off", live.originalTransactionID)
        case "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED":
            let on = subtype == "AUTO_RENEW_ENABLED"
            let live = try liveSubscription(for: name, renewing: nil)
            guard live.willAutoRenew != on else { throw ServiceError(.wrongState, "auto-renew of \(live.productID) is \(on ? "on" : "off") already") }
            _ = try setAutoRenew(live.productID, on: on)
            return told("turned auto-renew of \(live.productID) \(on ? "on" : "off")", live.originalTransactionID)
        case "DID_CHANGE_RENEWAL_PREF/UPGRADE", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE":
            let live = try liveSubscription(for: name, renewing: nil)
            let up = subtype == "UPGRADE"
            let storefront = try storefront()
            guard let group = catalog.product(live.productID)?.autoRenewable?.group,
                let index = catalog.subscriptionGroup(group).firstIndex(where: { $0.id == live.productID })
            else { throw ServiceError(.wrongState, "\(live.productID) is no longer in the catalog") }
            // Highest level first: an upgrade is the one before, a downgrade the one after.
            let levels = catalog.subscriptionGroup(group)
            let others = up ? Array(levels[..<index].reversed()) : Array(levels[(index + 1)...])
            guard let other = others.first(where: { $0.isForSale && $0.price(in: storefront) != nil }) else {
                throw ServiceError(.wrongState, "group '\(group)' has no level \(up ? "above" : "below") \(live.productID) for sale in \(storefront)")
            }
            switch try purchase(other.id, quantity: 1, requestKey: nil) {
            case .purchased(let transaction): return told("upgraded to \(other.displayName)", transaction.id)
            case .changeScheduled: return told("chose \(other.displayName) for the renewal on \(Self.said(live.expiresDate))", live.originalTransactionID)
            default: throw ServiceError(.wrongState, "the change to \(other.id) was not made: see 'hangman subscriptions'")
            }
        case "EXPIRED/VOLUNTARY":
            let live = try liveSubscription(for: name, renewing: nil)
            if live.willAutoRenew { _ = try setAutoRenew(live.productID, on: false) }
            try moveClock(past: live.accessEnds)
            return told("turned auto-renew off and moved the clock past \(Self.said(live.accessEnds))"
                + (live.willAutoRenew ? "; DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED was told before it" : ""), live.originalTransactionID)
        case "RENEWAL_EXTENDED":
            let live = try liveSubscription(for: name, renewing: nil)
            switch try extendRenewal(live.originalTransactionID, days: 1) {
            case .success(let extended): return told("extended \(live.productID) by a day, to \(Self.said(extended.expiresDate))", live.originalTransactionID)
            case .failure(.tooMany): throw ServiceError(.wrongState, "the subscription was extended twice in the last 365 days, as many as Apple allows")
            case .failure(.ineligible(let why)): throw ServiceError(.wrongState, "the subscription cannot be extended: \(why)")
            }
        case "CONSUMPTION_REQUEST", "REFUND_DECLINED", "REFUND_REVERSED":
            var newest: StoreTransaction?
            for transaction in try ledger.transactions().reversed() where transaction.isPaid && transaction.state != .purchased {
                if try refundCase(transaction.id) == nil {
                    newest = transaction
                    break
                }
            }
            guard let newest else {
                throw ServiceError(.wrongState, "the account has no delivered purchase without a refund request: 'store notify ONE_TIME_CHARGE' makes one")
            }
            _ = try requestRefund(newest.id, reason: .other)
            if name == "REFUND_DECLINED" { _ = try decideRefund(newest.id, .decline) }
            if name == "REFUND_REVERSED" {
                _ = try decideRefund(newest.id, .grant)
                _ = try decideRefund(newest.id, .reverse)
            }
            let also = ["CONSUMPTION_REQUEST": "", "REFUND_DECLINED": "; CONSUMPTION_REQUEST was told before it", "REFUND_REVERSED": "; CONSUMPTION_REQUEST and REFUND were told before it"][name] ?? ""
            return told("asked for a refund of \(newest.productID)\(name == "REFUND_DECLINED" ? ", declined" : name == "REFUND_REVERSED" ? ", granted and reversed" : "")\(also)", newest.id)
        case "REFUND":
            guard let newest = try ledger.transactions().last(where: { $0.isPaid && $0.state != .purchased }) else {
                throw ServiceError(.wrongState, "the account has no paid purchase to refund: 'store notify ONE_TIME_CHARGE' makes one")
            }
            _ = try refund(newest.id)
            return told("refunded \(newest.productID)", newest.id)
        default:
            return told("sent Apple's test notification \(try requestTestNotification())", nil)
        }
    }

    /// A purchase a test control makes: refused unless it was charged and delivered.
    private func causedPurchase(_ id: ProductID) throws(ServiceError) -> StoreTransaction {
        let outcome = try purchase(id, quantity: 1, requestKey: nil)
        guard case .purchased(let transaction) = outcome else {
            throw ServiceError(.wrongState, "the purchase of \(id) was not completed (\(outcome.name)): see 'hangman store status'")
        }
        return transaction
    }

    /// The account's live auto-renewable subscription (`renewing`: whose auto-renew is on, or off).
    private func liveSubscription(for name: String, renewing: Bool?) throws(ServiceError) -> SubscriptionStatus {
        guard let live = try subscriptions().first(where: { $0.isAutoRenewable && $0.endReason == nil }) else {
            throw ServiceError(.wrongState, "\(name) tells of a live subscription, and the account has none: 'store notify SUBSCRIBED' makes one")
        }
        if let renewing, live.willAutoRenew != renewing {
            throw ServiceError(.wrongState, "auto-renew of \(live.productID) is off: 'store notify DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_ENABLED' turns it on")
        }
        return live
    }

    /// Moves the store's clock to just past `date`, processing what falls due on the way.
    private func moveClock(past date: Int64) throws(ServiceError) {
        let now = try settleSubscriptions()
        guard date >= now else { return }
        let seconds = (date - now) / 1000 + 1
        guard let step = StoreClockStep(iso: "PT\(seconds)S") else { throw ServiceError(.invalidRequest, "the clock cannot move \(seconds) seconds in one step") }
        _ = try moveClock(by: step)
    }

    /// The newest period's transaction of the subscription.
    private func newestPeriod(of subscription: SubscriptionStatus) throws(ServiceError) -> TransactionID {
        try ledger.transactions().last { $0.originalTransactionID == subscription.originalTransactionID }?.id ?? subscription.originalTransactionID
    }

    /// A date in a sentence: `2026-12-12 23:07:34 UTC`.
    private static func said(_ milliseconds: Int64) -> String { UTCDateTime(millisecondsSince1970: milliseconds).dateTimeText + " UTC" }
}
