import Messages
import WordPacks

/// One account's records: its transactions, entitlements, append-only hint ledger and test
/// controls, and the rules that change them (deliver once, refund, spend once per key), written
/// once over a ``LedgerEngine``. Two engines keep the records, with the same named migrations and
/// the same rules in SQL (balance never below zero, the hint ledger append-only, one live
/// purchase per pack, unique idempotency keys): ``SQLiteLedgerStatements`` (a file per account,
/// the default) and ``PostgreSQLLedgerEngine`` (one database shared by several servers).
///
/// Every method is one database transaction: a process killed at any moment leaves the state
/// before or the state after. Writes of one account are serialized by the engine (SQLite's
/// `BEGIN IMMEDIATE`, PostgreSQL's row lock on the account), also across processes.
final class AccountLedger {
    let engine: any LedgerEngine
    /// Whether changes to purchases are written to the outbox (a server with `--notification-url`):
    /// then every such change runs over the statements, never a one-call function, so its
    /// notification is written in its transaction.
    var notifies = false

    init(_ engine: any LedgerEngine) {
        self.engine = engine
    }

    // MARK: - Transactions

    /// The transaction a purchase request key made, if any.
    func transaction(requestKey: String) throws(ServiceError) -> StoreTransaction? {
        try engine.read { statements in try statements.transaction(requestKey: requestKey) }
    }

    func transaction(_ id: TransactionID) throws(ServiceError) -> StoreTransaction? {
        try engine.read { statements in try statements.transaction(id) }
    }

    /// Every transaction, oldest first.
    func activity() throws(ServiceError) -> [PlayerActivity] {
        try engine.read { statements in try statements.activity() }
    }

    func transactions() throws(ServiceError) -> [StoreTransaction] {
        try engine.read { statements in try statements.transactions() }
    }

    /// Transactions that a crash left between two steps.
    func unfinished() throws(ServiceError) -> [StoreTransaction] {
        try engine.read { statements in try statements.unfinished() }
    }

    // MARK: - Storefront

    /// The account's storefront; `nil` until one is chosen (the default storefront is used then).
    func storefront() throws(ServiceError) -> String? {
        try engine.read { statements in try statements.storefront() }
    }

    /// Moves the account's storefront at `now` (future purchases and renewals are priced in it),
    /// under the account's lock with what `allowed` checks: what a move must wait for, given when
    /// the last one was; a refusal is thrown from it and nothing moves.
    func moveStorefront(_ code: String, now: Int64, allowed: (_ lastMove: Int64?) throws(ServiceError) -> Void) throws(ServiceError) {
        try engine.write { statements in
            guard try statements.storefront() != code else { return }
            try allowed(try statements.storefrontMovedDate())
            try statements.moveStorefront(code, now: now)
        }
    }

    /// Chooses the account's storefront unless it has one (read first: once chosen, this writes
    /// nothing).
    func chooseStorefrontIfNone(_ code: String) throws(ServiceError) {
        guard try storefront() == nil else { return }
        try engine.write { statements in
            if try statements.storefront() == nil { try statements.setStorefront(code) }
        }
    }

    /// Records a new purchase in state `purchasing`; returns `false` if the id is taken.
    /// Throws `purchaseInProgress` when the product is a pack with a live purchase already, or the
    /// request key made another transaction meanwhile.
    /// An auto-renewable subscription is refused the same way while its group has a live
    /// subscription (but the one it upgrades, `upgrading`) or a purchase in flight
    /// (`groupProducts`: the group's products).
    /// Records that `id` is a grant, once.
    func recordGrant(_ id: TransactionID, reason: String, by: String, now: Int64) throws(ServiceError) {
        try engine.write { statements in try statements.insertGrant(id, reason: reason, by: by, now: now) }
    }

    /// The grant `id` is, if it is one.
    func grant(_ id: TransactionID) throws(ServiceError) -> GrantRecord? {
        try engine.read { statements in try statements.grant(id) }
    }

    /// Gives the purchase `original` (a subscription's renewals with it) an app account token:
    /// one it has is kept unless `replacing` (Apple's Set App Account Token replaces it).
    func setAppAccountToken(original: TransactionID, token: String, replacing: Bool) throws(ServiceError) {
        try engine.write { statements in try statements.setAppAccountToken(original: original, token: token, replacing: replacing) }
    }

    /// The account's app transaction, if it was made.
    func appTransaction() throws(ServiceError) -> AppTransactionRecord? {
        try engine.read { statements in try statements.appTransaction() }
    }

    /// Records `record` as the account's app transaction unless it has one; the one it has.
    func makeAppTransaction(_ record: AppTransactionRecord) throws(ServiceError) -> AppTransactionRecord {
        try engine.write { statements in
            try statements.insertAppTransaction(record)
            return try statements.appTransaction() ?? record
        }
    }

    func insertPurchasing(
        _ id: TransactionID, product: Product, quantity: Int, charge: Charge, requestKey: String?, groupProducts: [ProductID] = [],
        upgrading: TransactionID? = nil, offer: OfferUse? = nil, now: Int64
    ) throws(ServiceError) -> Bool {
        var owed = 0
        if case .consumable(let each) = product.kind { owed = each * quantity }
        // A subscription's dates and hints are fixed when it is delivered (its period starts then).
        var subscription: SubscriptionFields?
        if let terms = product.autoRenewable {
            subscription = SubscriptionFields(originalTransactionID: id, period: 0, expiresDate: terms.period.added(to: now), isTrial: false)
        } else if let terms = product.nonRenewing {
            subscription = SubscriptionFields(originalTransactionID: id, period: nil, expiresDate: terms.duration.added(to: now), isTrial: false)
        }
        if subscription == nil, offer == nil, let made = try engine.insertPurchasingInOneCall(
            id, product: product.id, isConsumable: product.isConsumable, quantity: quantity, hintsOwed: owed, requestKey: requestKey, charge: charge,
            now: now)
        {
            return try Self.inserted(made, product: product)
        }
        return try engine.write { statements in
            if let terms = product.autoRenewable {
                let live = try statements.subscriptions().contains { $0.group == terms.group && $0.isLive && $0.originalTransactionID != upgrading }
                let inFlight = try statements.unfinished().contains { groupProducts.contains($0.productID) }
                    || statements.transactions().contains { groupProducts.contains($0.productID) && [.deferred, .interrupted].contains($0.state) }
                if live || inFlight {
                    throw ServiceError(
                        .purchaseInProgress,
                        L10n.text("the account has a subscription in group '%s' already, or one being bought: see 'hangman subscriptions'", terms.group))
                }
            }
            let inserted = try statements.insertPurchasing(
                id, product: product.id, isConsumable: product.isConsumable, quantity: quantity, hintsOwed: owed, requestKey: requestKey,
                subscription: subscription, charge: charge, now: now)
            // The offer it is made with, in the same transaction: it belongs to this purchase alone.
            if case .inserted = inserted, let offer, try !statements.useOffer(offer, for: id, now: now) {
                if offer.audience == OfferUse.offerCodeAudience { throw ServiceError(.wrongState, L10n.text("the offer code was redeemed already: each code is redeemed once")) }
                throw ServiceError(.invalidRequest, L10n.text("invalidOfferSignature: this signature was used already (its nonce): sign each purchase anew"))
            }
            return try Self.inserted(inserted, product: product)
        }
    }

    private static func inserted(_ insert: TransactionInsert, product: Product) throws(ServiceError) -> Bool {
        switch insert {
        case .inserted: return true
        case .idTaken: return false
        case .duplicate:
            throw ServiceError(.purchaseInProgress, L10n.text("a purchase of %s is already in progress or waiting for approval: try again later, or see 'hangman transactions'", product.id))
        }
    }

    /// Moves a transaction from one of `from` to `to`; `false` when it was in another state.
    func move(_ id: TransactionID, from: [TransactionState], to: TransactionState, reason: String? = nil, now: Int64) throws(ServiceError) -> Bool {
        if let moved = try engine.moveInOneCall(id, from: from, to: to, reason: reason, now: now) { return moved }
        return try engine.write { statements in try statements.updateState(id, from: from, to: to, reason: reason, now: now) }
    }

    /// Delivers a charged transaction exactly once: credits the hints it owes or grants the pack,
    /// and marks it delivered, in one database transaction. `false` when it was not waiting for delivery.
    /// `legacyHints` is credited for a row written before `hints_owed` existed (it owes 0 there).
    /// A subscription's transaction (`product` says which kind) starts its period here: see
    /// ``deliverSubscription(_:product:statements:now:)``.
    /// `streakFreezes` is what a purchase of streak freezes credits (their own ledger, which the
    /// one-call delivery of hints does not know); `nil` for any other product.
    func deliver(
        _ id: TransactionID, legacyHints: Int, streakFreezes: Int? = nil, lookup: (ProductID) -> Product? = { _ in nil }, now: Int64
    ) throws(ServiceError) -> Bool {
        if !notifies, streakFreezes == nil, case .done(let delivered)? = try engine.deliverInOneCall(id, legacyHints: legacyHints, now: now) {
            return delivered
        }
        return try engine.write { statements in
            guard let transaction = try statements.transaction(id), transaction.state == .purchased else { return false }
            if notifies { try notifyDelivery(transaction, product: lookup(transaction.productID), statements: statements, now: now) }
            if transaction.originalTransactionID != nil {
                // A subscription's period (one the catalog no longer sells is delivered with nothing).
                if let product = lookup(transaction.productID) {
                    try Self.deliverSubscription(transaction, product: product, lookup: lookup, statements: statements, now: now)
                }
            } else if transaction.isConsumable, let streakFreezes {
                _ = try statements.appendStreakFreezes(
                    key: "credit:\(id)", amount: streakFreezes, reason: "purchase", transaction: id, language: nil, coveredDay: nil, now: now)
                try statements.setHintsCredited(0, for: id)
            } else if transaction.isConsumable {
                let owed = try statements.hintsOwed(id)
                let hints = owed > 0 ? owed : legacyHints
                if hints > 0 {
                    try Self.appendHints(statements, key: "credit:\(id)", amount: hints, reason: .purchase, transaction: id, now: now)
                }
                try statements.setHintsCredited(hints, for: id)
            } else {
                try statements.grant(transaction.productID, by: id, now: now)
            }
            _ = try statements.updateState(id, from: [.purchased], to: .delivered, reason: nil, now: now)
            return true
        }
    }

    /// Refunds a paid transaction: revokes the pack, or takes back the hints it credited as far as
    /// the balance allows; a non-renewing pass (`passDuration`, its catalog duration) leaves its
    /// place in the stack, so the passes bought after it end earlier. Returns the hints taken back.
    func refund(_ id: TransactionID, now: Int64, passDuration: StoreDuration? = nil) throws(ServiceError) -> Int {
        // Over the statements on both engines (PostgreSQL's ledger_refund function is no longer
        // called): a refund is rare, and it has a case to record and a reversal to respect.
        try engine.write { statements in
            guard let transaction = try statements.transaction(id) else { throw Self.noTransaction(id) }
            let taken = try applyRefund(transaction, passDuration: passDuration, statements: statements, now: now)
            try Self.recordDirectRefund(id, statements: statements, now: now)
            return taken
        }
    }

    /// The refund of `transaction`, in `statements`' transaction: what ``refund(_:now:passDuration:)``
    /// says, and `REFUND`. Returns the hints taken back.
    func applyRefund(_ transaction: StoreTransaction, passDuration: StoreDuration?, statements: any LedgerStatements, now: Int64) throws -> Int {
        let id = transaction.id
        guard transaction.revocationDate == nil else { throw Self.alreadyRefunded(id) }
        guard [.delivered, .finished].contains(transaction.state) else { throw Self.notRefundable(id, transaction.state) }
        if let reversed = try statements.refundCase(id), reversed.state == .reversed {
            throw ServiceError(.wrongState, L10n.text("transaction %s's refund was reversed: it is not refunded again", id.number))
        }
        try statements.setRevocationDate(now, for: id, now: now)
        try notify(.refund, nil, transaction: id, original: transaction.originalTransactionID, statements: statements, now: now)
        if let original = transaction.originalTransactionID {
            // A subscription's period: access ends now, and its hints go back as far as the balance allows.
            if var row = try statements.subscriptions().first(where: { $0.originalTransactionID == original }), row.isLive {
                row.endDate = now
                row.endReason = "refunded"
                try statements.saveSubscription(row, now: now)
            }
            if let passDuration { try Self.restackPasses(transaction.productID, duration: passDuration, statements: statements, now: now) }
            return try Self.takeBackHints(transaction, statements: statements, now: now)
        }
        if transaction.isConsumable {
            try Self.takeBackStreakFreezes(transaction, statements: statements, now: now)
            return try Self.takeBackHints(transaction, statements: statements, now: now)
        }
        try statements.revoke(transaction.productID, grantedBy: id, now: now)
        return 0
    }

    /// The hints `transaction` credited, taken back as far as the balance allows (the entry
    /// `refund:<id>`, which a reversal reads); how many.
    private static func takeBackHints(_ transaction: StoreTransaction, statements: any LedgerStatements, now: Int64) throws -> Int {
        let clawback = min(try statements.balance(), transaction.hintsCredited)
        if clawback > 0 {
            try appendHints(statements, key: "refund:\(transaction.id)", amount: -clawback, reason: .refund, transaction: transaction.id, now: now)
        }
        return clawback
    }

    /// The streak freezes `transaction` credited (its `credit:` row), taken back as far as the
    /// balance allows; those spent covering days stay spent.
    private static func takeBackStreakFreezes(_ transaction: StoreTransaction, statements: any LedgerStatements, now: Int64) throws {
        let credited = try statements.streakFreezeAmount(key: "credit:\(transaction.id)") ?? 0
        let clawback = min(try statements.streakFreezes(), credited)
        if clawback > 0 {
            _ = try statements.appendStreakFreezes(
                key: "refund:\(transaction.id)", amount: -clawback, reason: "refund", transaction: transaction.id, language: nil, coveredDay: nil, now: now)
        }
    }

    /// A refund made without a request (the store's test control) closes the purchase's case as
    /// granted, so that the decision that follows (a reversal) finds it.
    private static func recordDirectRefund(_ id: TransactionID, statements: any LedgerStatements, now: Int64) throws {
        var refundCase = try statements.refundCase(id) ?? RefundCase(transactionID: id, state: .granted, reason: nil, requestedDate: nil)
        refundCase.state = .granted
        refundCase.decidedDate = now
        try statements.saveRefundCase(refundCase)
    }

    static func noTransaction(_ id: TransactionID) -> ServiceError {
        ServiceError(.unknownTransaction, L10n.text("no transaction %s: see 'hangman transactions'", id.number))
    }

    static func alreadyRefunded(_ id: TransactionID) -> ServiceError {
        ServiceError(.wrongState, L10n.text("transaction %s is already refunded", id.number))
    }

    static func notRefundable(_ id: TransactionID, _ state: TransactionState) -> ServiceError {
        ServiceError(.wrongState, L10n.text("transaction %s is %s; only a delivered purchase can be refunded", id.number, state.rawValue))
    }

    // MARK: - Entitlements

    func entitlements() throws(ServiceError) -> [Entitlement] {
        try engine.read { statements in try statements.entitlements() }
    }

    // MARK: - Hints

    func balance() throws(ServiceError) -> Int {
        try engine.read { statements in try statements.balance() }
    }

    /// Spends one hint under `key`; a key already spent takes nothing again.
    ///
    /// Two statements in the usual case: the balance, read once, and an insert that does nothing
    /// when the key was spent before. Only with no hint left is the key looked up, to answer a retry.
    /// An engine that has the rule in one call runs it there; with `token`, that call checks the
    /// request's token too (only on an engine that ``LedgerEngine/checksTokensInOneCall``).
    func spend(key: String, now: Int64, checking token: PresentedToken? = nil) throws(ServiceError) -> HintSpend {
        let entryKey = "spend:\(key)"
        if token != nil, !engine.checksTokensInOneCall {
            throw ServiceError(.storage, "this ledger cannot check a token in the spend: look the token up first")
        }
        switch try engine.spendInOneCall(entryKey: entryKey, now: now, checking: token) {
        case .spent(let balance)?: return HintSpend(balance: balance, wasAlreadySpent: false)
        case .alreadySpent(let balance)?: return HintSpend(balance: balance, wasAlreadySpent: true)
        case .noHints?: throw ServiceError.noHintsLeft
        case .tokenNotLive?: throw ServiceError.tokenNotLive
        case nil: break
        }
        return try engine.write { statements in
            let balance = try statements.balance()
            if balance >= 1 {
                let appended = try statements.appendHints(
                    key: entryKey, amount: -1, reason: .spend, transaction: nil, balanceAfter: balance - 1, now: now)
                return appended ? HintSpend(balance: balance - 1, wasAlreadySpent: false) : HintSpend(balance: balance, wasAlreadySpent: true)
            }
            guard try statements.hasHintEntry(key: entryKey) else { throw ServiceError.noHintsLeft }
            return HintSpend(balance: balance, wasAlreadySpent: true)
        }
    }

    /// Appends a ledger row after the current balance; the running balance can never go below
    /// zero (a CHECK constraint), and a key already written adds nothing.
    static func appendHints(
        _ statements: any LedgerStatements, key: String, amount: Int, reason: HintReason, transaction: TransactionID, now: Int64
    ) throws {
        let after = try statements.balance() + amount
        _ = try statements.appendHints(key: key, amount: amount, reason: reason, transaction: transaction, balanceAfter: after, now: now)
    }

    // MARK: - Test controls

    func controls() throws(ServiceError) -> StoreControls {
        try engine.read { statements in
            var controls = StoreControls()
            for (name, enabled) in try statements.controls() { controls.set(name, enabled) }
            return controls
        }
    }

    func setControls(_ controls: StoreControls) throws(ServiceError) {
        try engine.write { statements in
            for (name, enabled) in controls.named { try statements.setControl(name, enabled) }
        }
    }

    /// Every switch off and the store's clock back at the real time, in one transaction.
    /// Subscriptions keep their dates (`clear` empties the history).
    func reset() throws(ServiceError) {
        try engine.write { statements in
            for (name, enabled) in StoreControls().named { try statements.setControl(name, enabled) }
            try statements.setClockOffset(0)
        }
    }

    /// An empty purchase history: no transactions, entitlements or hints.
    func clear() throws(ServiceError) {
        try engine.write { statements in try statements.deleteHistory() }
    }
}

extension StoreControls {
    /// The switches as (name, enabled) pairs, in the ledgers' `controls` table's names.
    var named: [(String, Bool)] {
        [("fail-purchases", failPurchases), ("ask-to-buy", askToBuy), ("interrupt-purchases", interruptPurchases), ("fail-renewals", failRenewals)]
    }

    mutating func set(_ name: String, _ enabled: Bool) {
        switch name {
        case "fail-purchases": failPurchases = enabled
        case "ask-to-buy": askToBuy = enabled
        case "interrupt-purchases": interruptPurchases = enabled
        case "fail-renewals": failRenewals = enabled
        default: break
        }
    }
}

extension ServiceError {
    /// A spend with a balance of 0 (the service adds what buys more).
    static var noHintsLeft: ServiceError { ServiceError(.notEnoughHints, L10n.text("no hints left")) }
}
