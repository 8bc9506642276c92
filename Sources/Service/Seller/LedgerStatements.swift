import WordPacks

/// Opens one account's database transactions in one engine; the ``AccountLedger``'s rules run
/// inside them, over the ``LedgerStatements`` they are handed.
///
/// A failure of the engine becomes a `ServiceError` that names the database and says what to do;
/// a `ServiceError` thrown by `body` is rethrown as it is, after the transaction is rolled back.
protocol LedgerEngine: AnyObject {
    /// Runs `body` in one transaction that first locks the account (SQLite's `BEGIN IMMEDIATE`,
    /// PostgreSQL's row lock on the account): writes of one account take turns, across processes.
    func write<T>(_ body: (any LedgerStatements) throws -> T) throws(ServiceError) -> T
    /// Runs `body`, which writes nothing, with no write lock: in one transaction (SQLite's
    /// snapshot), or each statement on its own snapshot (PostgreSQL, as READ COMMITTED would).
    func read<T>(_ body: (any LedgerStatements) throws -> T) throws(ServiceError) -> T
    /// ``AccountLedger/spend(key:now:)``'s rule in one call to the database, when the engine
    /// has it (PostgreSQL's `ledger_spend_hint`: one round trip instead of five); `nil` when it
    /// does not, and the ledger runs the rule over the statements.
    ///
    /// With `token`, the call also checks that the request's token is live and the account's
    /// (`.tokenNotLive` when not, nothing read or written), for engines that
    /// ``checksTokensInOneCall``; the caller has not looked the token up.
    func spendInOneCall(entryKey: String, now: Int64, checking token: PresentedToken?) throws(ServiceError) -> SpendInOneCall?
    /// Whether ``spendInOneCall(entryKey:now:checking:)`` can check a token in the same call.
    var checksTokensInOneCall: Bool { get }

    /// ``AccountLedger``'s writes of a purchase in one call each, when the engine has them
    /// (PostgreSQL's functions, migration `8-writes-in-one-call`); `nil` when it does not, and
    /// the ledger runs the rule over the statements. The same statements in the same order.
    func moveInOneCall(_ id: TransactionID, from: [TransactionState], to: TransactionState, reason: String?, now: Int64) throws(ServiceError) -> Bool?
    /// For a product that is not a subscription.
    func insertPurchasingInOneCall(
        _ id: TransactionID, product: ProductID, isConsumable: Bool, quantity: Int, hintsOwed: Int, requestKey: String?, charge: Charge, now: Int64
    ) throws(ServiceError) -> TransactionInsert?
    func deliverInOneCall(_ id: TransactionID, legacyHints: Int, now: Int64) throws(ServiceError) -> WriteInOneCall<Bool>?
}

extension LedgerEngine {
    func spendInOneCall(entryKey: String, now: Int64, checking token: PresentedToken?) throws(ServiceError) -> SpendInOneCall? { nil }
    var checksTokensInOneCall: Bool { false }
    func moveInOneCall(_ id: TransactionID, from: [TransactionState], to: TransactionState, reason: String?, now: Int64) throws(ServiceError) -> Bool? { nil }
    func insertPurchasingInOneCall(
        _ id: TransactionID, product: ProductID, isConsumable: Bool, quantity: Int, hintsOwed: Int, requestKey: String?, charge: Charge, now: Int64
    ) throws(ServiceError) -> TransactionInsert? { nil }
    func deliverInOneCall(_ id: TransactionID, legacyHints: Int, now: Int64) throws(ServiceError) -> WriteInOneCall<Bool>? { nil }
}

/// What a write in one call did: `done` with its result, or nothing because the transaction is a
/// subscription's period, whose rules the ledger runs itself.
enum WriteInOneCall<Result> {
    case done(Result)
    case subscription
}

/// What a spend in one call did.
enum SpendInOneCall {
    /// One hint spent; the balance after it.
    case spent(balance: Int)
    /// The key was spent before: nothing taken again.
    case alreadySpent(balance: Int)
    /// No hint left, and the key was never spent.
    case noHints
    /// The token checked in the call is not live, or not the account's: nothing was done.
    case tokenNotLive
}

/// A request's bearer token as presented, before anyone looked it up: the account it names, its
/// id, and the SHA-256 of its secret (hex), which is all the server keeps of it.
public struct PresentedToken: Sendable, Equatable {
    public let account: String
    public let tokenID: String
    public let sha256: String

    public init(account: String, tokenID: String, sha256: String) {
        self.account = account
        self.tokenID = tokenID
        self.sha256 = sha256
    }
}

extension ServiceError {
    /// A token that is not live (never made, revoked, or its account closed): 401.
    public static var tokenNotLive: ServiceError {
        ServiceError(.unauthorized, "the token is not known to this service (revoked, or its account closed?)")
    }
}

/// The port of the ledger rules: one engine's primitive statements over one account's records,
/// run inside a transaction its ``LedgerEngine`` opened. Each is one SQL statement (or one
/// statement per table) and decodes its rows; none decides anything.
protocol LedgerStatements {
    /// The transaction `id`, if any.
    func transaction(_ id: TransactionID) throws -> StoreTransaction?
    /// The transaction a purchase request key made, if any.
    func transaction(requestKey: String) throws -> StoreTransaction?
    /// Every transaction, oldest first.
    func transactions() throws -> [StoreTransaction]
    /// The games served and the hints credited and spent, each once (the seller's players view).
    func activity() throws -> [PlayerActivity]
    /// The transactions in state `purchasing`, `purchased` or `delivered`, in the order they were made.
    func unfinished() throws -> [StoreTransaction]
    /// Inserts a transaction in state `purchasing`, doing nothing when the id is taken.
    func insertPurchasing(
        _ id: TransactionID, product: ProductID, isConsumable: Bool, quantity: Int, hintsOwed: Int, requestKey: String?,
        subscription: SubscriptionFields?, charge: Charge, now: Int64
    ) throws -> TransactionInsert
    /// Inserts a renewal, charged (state `purchased`), dated `fields`' start; `false` when the
    /// subscription's period has a transaction already (another process made it).
    func insertRenewal(
        _ id: TransactionID, product: ProductID, fields: SubscriptionFields, start: Int64, hintsOwed: Int, charge: Charge, now: Int64
    ) throws -> Bool
    /// The transaction of a subscription's period, if made.
    func transaction(original: TransactionID, period: Int) throws -> StoreTransaction?
    /// Records an upgraded period's refund for its unused part (in minor units of the row's
    /// currency), and ends the period now.
    func setUpgradeRefund(_ cents: Int64, for id: TransactionID, now: Int64) throws
    /// Dates a subscription transaction when it is delivered: its period starts then (a free
    /// trial's charges nothing).
    func setSubscriptionDates(_ id: TransactionID, purchaseDate: Int64, expiresDate: Int64, isTrial: Bool) throws
    /// Every auto-renewable subscription, oldest first.
    func subscriptions() throws -> [SubscriptionRow]
    /// Writes a subscription's row (inserting it the first time).
    func saveSubscription(_ row: SubscriptionRow, now: Int64) throws
    /// The store clock's lead over the real one, and the earliest end of a live subscription's
    /// period (when one may be due), in one statement.
    func storeClock() throws -> (offset: Int64, nextDue: Int64?)
    /// Sets the store clock's lead.
    func setClockOffset(_ offset: Int64) throws
    /// Sets the state (and the failure reason, when one is given) of `id` if it is in one of `from`;
    /// `false` when no row was changed.
    func updateState(_ id: TransactionID, from: [TransactionState], to: TransactionState, reason: String?, now: Int64) throws -> Bool
    /// The hints `id` owes its buyer, fixed when it was made (0 for a row older than that column).
    func hintsOwed(_ id: TransactionID) throws -> Int
    /// Records the hints credited for `id`.
    func setHintsCredited(_ hints: Int, for id: TransactionID) throws
    /// Records the refund date of `id`.
    func setRevocationDate(_ date: Int64?, for id: TransactionID, now: Int64) throws
    /// Grants `product` to the account through `transaction`, replacing an earlier (revoked) grant.
    func grant(_ product: ProductID, by transaction: TransactionID, now: Int64) throws
    /// Revokes `product` where `transaction` granted it.
    func revoke(_ product: ProductID, grantedBy transaction: TransactionID, now: Int64) throws
    /// Every entitlement, by product.
    func entitlements() throws -> [Entitlement]
    /// The balance after the last row of the hint ledger; 0 when it is empty.
    func balance() throws -> Int
    /// Appends a hint ledger row, doing nothing when `key` is taken; `true` when it was added.
    /// The schema refuses a negative `balanceAfter`.
    func appendHints(
        key: String, amount: Int, reason: HintReason, transaction: TransactionID?, balanceAfter: Int, now: Int64
    ) throws -> Bool
    /// Whether the hint ledger has a row under `key`.
    func hasHintEntry(key: String) throws -> Bool
    /// The test controls stored, as (name, enabled) pairs in the `controls` table's names.
    func controls() throws -> [(name: String, enabled: Bool)]
    /// Stores one test control.
    func setControl(_ name: String, _ enabled: Bool) throws
    /// The account's storefront, once chosen.
    func storefront() throws -> String?
    /// Sets the account's storefront (future purchases are priced in it).
    func setStorefront(_ code: String) throws
    /// Whether free trials are withheld from the account (`withholdFreeTrials`).
    func freeTrialsWithheld() throws -> Bool
    /// Withholds free trials from the account, for good.
    func withholdFreeTrials() throws
    /// When the storefront last moved (`moveStorefront`), store time; `nil` if never.
    func storefrontMovedDate() throws -> Int64?
    /// Moves the account's storefront at `now`, recording when.
    func moveStorefront(_ code: String, now: Int64) throws
    /// Deletes every hint ledger row, entitlement, transaction and game of the account.
    func deleteHistory() throws

    // MARK: Served games
    /// The game being played, if any (at most one: a unique index); never a daily word.
    func liveGame() throws -> GameRow?
    /// The account's game of the daily word of `date` in `language`, if it was started.
    func dailyGame(date: String, language: String, hard: Bool) throws -> GameRow?
    /// Every game that has ended, in the order they ended.
    func endedGames() throws -> [GameRow]
    /// The game `id`, if it is the account's.
    func game(_ id: String) throws -> GameRow?
    /// The game's moves, in order.
    func gameMoves(_ id: String) throws -> [GameMoveRow]
    /// The account's streak freezes held: the newest row's balance, 0 before any.
    func streakFreezes() throws -> Int
    /// Appends a row to the streak freezes' ledger (its balance after it computed from the
    /// newest); `false` when `key` is there already (the same credit or cover again).
    func appendStreakFreezes(key: String, amount: Int, reason: String, transaction: TransactionID?, language: String?, coveredDay: String?, now: Int64) throws -> Bool
    /// The amount of the streak freezes' row `key` (`credit:<id>`, `refund:<id>`), `nil` for none.
    func streakFreezeAmount(key: String) throws -> Int?
    /// The days freezes covered in `language`'s streak, newest first, at most `limit`.
    func coveredDays(language: String, limit: Int) throws -> [String]
    /// The account's game of the challenge `challenge`, if it was started.
    func challengeGame(_ challenge: String) throws -> GameRow?
    /// Records a new game, `playing`.
    func insertGame(_ row: GameRow) throws
    /// Keeps a hard game's candidates, and the word and clue that stand for them.
    func narrowHardGame(_ row: GameRow) throws
    /// Appends the game's move number `seq` (1 the first).
    func appendGameMove(_ id: String, seq: Int, _ move: GameMoveRow, now: Int64) throws
    /// Ends the game with `state`, its score, misses and hints.
    func endGame(_ id: String, state: ServedGame.State, score: Int, misses: Int, hints: Int, now: Int64) throws
    /// The record (JSON) of the account's games of `kind` (`all`, or `daily` in `language`), if kept.
    func gameTotals(kind: String, language: String) throws -> String?
    /// Keeps the record of the account's games of `kind` in `language`.
    func setGameTotals(kind: String, language: String, record: String) throws
    /// Counts a game served on `day` (days since 1970), a daily word or not.
    func countServedGame(day: Int64, daily: Bool) throws
    /// Lets go of the ended games (not daily words) but the `kept` that ended last, and their
    /// moves: they are in the totals already. How many went.
    func letGoOfEndedGames(keeping kept: Int) throws -> Int

    // MARK: Notifications (the outbox)
    /// Appends a notification to the outbox.
    func insertNotification(_ notification: OutboxNotification) throws
    /// Notifications due at `now` that no server holds, the earliest first.
    func dueNotifications(now: Int64, limit: Int) throws -> [OutboxNotification]
    /// Holds a due notification until `until` for the caller; `false` when another holds it or
    /// it is no longer due.
    func leaseNotification(_ uuid: String, until: Int64, now: Int64) throws -> Bool
    /// Records an attempt (appended), when the next is due (`nil`: no more), and releases it.
    func recordAttempt(_ uuid: String, _ attempt: NotificationAttempt, delivered: Bool, nextAttempt: Int64?, payload: String?) throws
    /// How many times the subscription `original` had its renewal date extended since `since`.
    func renewalExtensions(original: TransactionID, since: Int64) throws -> Int
    /// Records an extension of the subscription `original` by `days` at `now` (`request`: a
    /// mass extension's identifier; `false` when that request extended it already).
    func recordRenewalExtension(original: TransactionID, days: Int, now: Int64, request: String?, failed: Bool) throws -> Bool
    /// What the mass extension `request` did to the subscription `original`: `extended`,
    /// `failed`, or `nil` when it has not reached it.
    func massExtensionOutcome(original: TransactionID, request: String) throws -> String?
    /// A mass extension the service's ledger keeps.
    func massExtension(_ requestIdentifier: String) throws -> MassExtension?
    /// Keeps a new mass extension; `false` when one has its identifier already.
    func insertMassExtension(_ request: MassExtension) throws -> Bool
    /// The oldest incomplete mass extension no server holds, held until `until` for the caller.
    func claimMassExtension(now: Int64, until: Int64) throws -> MassExtension?
    /// Whether a mass extension is not complete yet, held or not.
    func hasIncompleteMassExtension() throws -> Bool
    /// Records how far a mass extension went, and lets go of it, if the caller still holds it
    /// (its hold ends at `heldUntil`); `false` when another server took it meanwhile.
    func saveMassExtension(_ request: MassExtension, heldUntil: Int64) throws -> Bool
    /// Gives the purchase `original` (and a subscription's renewals with it) the app account
    /// token `token`; one it has already is kept unless `replacing`.
    /// Records that `id` is a grant (why, by whom), once: a second record of it does nothing.
    func insertGrant(_ id: TransactionID, reason: String, by: String, now: Int64) throws
    /// The grant `id` is, if it is one.
    func grant(_ id: TransactionID) throws -> GrantRecord?
    func setAppAccountToken(original: TransactionID, token: String, replacing: Bool) throws
    /// The account's app transaction, if it was made.
    func appTransaction() throws -> AppTransactionRecord?
    /// Records the account's app transaction unless it has one.
    func insertAppTransaction(_ record: AppTransactionRecord) throws
    /// Lets go of the payloads of notifications delivered before `before` (their records stay).
    func dropNotificationPayloads(deliveredBefore before: Int64) throws
    /// Every notification, oldest first.
    func notifications() throws -> [OutboxNotification]
    /// The attempts made to deliver `uuid`, in order.
    func notificationAttempts(_ uuid: String) throws -> [NotificationAttempt]
    /// When the next notification is due, if any is.
    func nextNotificationDue() throws -> Int64?
    /// Makes the notification `uuid`, not delivered, due at `now` (its lease let go); `false`
    /// when there is no such notification, or it was delivered.
    func retryNotification(_ uuid: String, now: Int64) throws -> Bool
    /// Moves the end of transaction `id`'s period (a renewal date extended).
    func setExpiresDate(_ date: Int64, for id: TransactionID) throws
    /// Keeps what a backend said of a consumable's use (the last report replaces the one before).
    func saveConsumption(_ transaction: TransactionID, body: String, now: Int64) throws
    /// What the developer's server last said of the purchase's use, if anything.
    func consumption(_ transaction: TransactionID) throws -> String?
    /// The purchase's refund case, if it has one.
    func refundCase(_ transaction: TransactionID) throws -> RefundCase?
    /// The account's daily words in `language` (on the day or from the archive), by day.
    func dailyGames(language: String) throws -> [GameRow]
    /// Every refund case of the account, each with the consumption answer its developer's server
    /// sent (kept on a decided case; the latest report for one still open).
    func refundCases() throws -> [RefundCase]
    /// Records the purchase's refund case as it is now (one row per purchase).
    func saveRefundCase(_ refundCase: RefundCase) throws
    /// Records the offer the purchase `id` is made with; `false` when its nonce was used before.
    func useOffer(_ offer: OfferUse, for id: TransactionID, now: Int64) throws -> Bool
    /// The promotional or win-back offer the purchase `id` was made with, as it was charged for, if any.
    func purchaseOffer(_ id: TransactionID) throws -> PromotionalOffer?
    /// Records that transaction `id` was charged under the promotional offer `identifier`.
    func markOffer(_ identifier: String, on id: TransactionID) throws
    /// What the developer's server signed on the introductory offer of the purchase `id`, if anything.
    func introductoryOfferAllowed(_ id: TransactionID) throws -> Bool?
    /// The price the subscriber of `original` agreed to, if the ledger recorded one.
    func priceAgreement(_ original: TransactionID) throws -> PriceAgreement?
    /// Every price agreement of the account's subscriptions.
    func priceAgreements() throws -> [PriceAgreement]
    /// Records a subscription's agreement as it is now (one row per subscription).
    func savePriceAgreement(_ agreement: PriceAgreement) throws
    /// The amount of the hint ledger's entry `key`, if there is one.
    func hintEntryAmount(key: String) throws -> Int?
}

/// An offer a purchase is made with, recorded in the purchase's own transaction: a signature's
/// nonce (or a fresh one for an unsigned offer), its audience, and what it says.
struct OfferUse {
    var nonce: String
    var audience: String
    var allowIntroductoryOffer: Bool?
    /// A promotional or win-back offer, its terms as charged.
    var offer: PromotionalOffer?
    /// An offer code's batch, for a one-time product's code (a subscription's is its `offer`).
    var offerCodeBatch: String?

    /// An offer code's audience: its nonce is the code's digest (``AccountService/redeem(offerCode:)``).
    static let offerCodeAudience = "offer-code"

    /// The identifier the purchase records: the offer's, or the code's batch.
    var identifier: String? { offer?.identifier ?? offerCodeBatch }
}

extension PromotionalOffer {
    /// An offer as a purchase recorded it (`offer_identifier, offer_kind, offer_periods`): its
    /// terms as charged, without prices.
    init(columns row: [String?]) throws(ServiceError) {
        guard row.count == 3, let identifier = row[0], let kind = row[1].flatMap(Kind.init(rawValue:)), let periods = row[2].flatMap(Int.init) else {
            throw ServiceError(.storage, "the ledger database holds a malformed purchase offer")
        }
        self.init(identifier: identifier, kind: kind, periods: periods, prices: [:])
    }
}

/// The price an auto-renewable's subscriber agreed to for its plan (``AccountLedger``'s renewal
/// charges no more without consent), and a higher one the subscriber was told of.
struct PriceAgreement: Equatable {
    var originalTransactionID: TransactionID
    var productID: ProductID
    var agreed: Money
    /// A higher price told (`PRICE_INCREASE` `PENDING`), and when.
    var told: Money?
    var toldDate: Int64?
    /// When the subscriber consented to `agreed` (it was a rise).
    var consentedDate: Int64?
    /// When the subscription ended for want of consent to `told`.
    var endedDate: Int64?

    static let columns = "original_transaction_id, product_id, currency, agreed_minor, told_minor, told_date, consented_date, ended_date"

    init(originalTransactionID: TransactionID, productID: ProductID, agreed: Money, told: Money? = nil, toldDate: Int64? = nil, consentedDate: Int64? = nil) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.agreed = agreed
        self.told = told
        self.toldDate = toldDate
        self.consentedDate = consentedDate
    }

    init(columns row: [String?]) throws(ServiceError) {
        guard row.count == 8, let original = row[0].flatMap(TransactionID.init(rawValue:)), let product = row[1].flatMap(ProductID.init(rawValue:)),
            let currency = row[2], let agreed = row[3].flatMap(Int64.init)
        else { throw ServiceError(.storage, "the ledger database holds a malformed price agreement") }
        self.init(
            originalTransactionID: original, productID: product, agreed: Money(minorUnits: agreed, currency: currency),
            told: row[4].flatMap(Int64.init).map { Money(minorUnits: $0, currency: currency) }, toldDate: row[5].flatMap(Int64.init),
            consentedDate: row[6].flatMap(Int64.init))
        endedDate = row[7].flatMap(Int64.init)
    }

    /// The values of ``columns``, as text.
    var values: [String?] {
        [originalTransactionID.rawValue, productID.rawValue, agreed.currency, String(agreed.minorUnits), told.map { String($0.minorUnits) }, toldDate.map(String.init),
            consentedDate.map(String.init), endedDate.map(String.init)]
    }
}

/// What a purchase charges, and where: the amount (the price times the quantity) in the
/// storefront's currency.
struct Charge {
    var amount: Money
    var storefront: String
}

/// What a subscription's transaction carries besides a purchase's.
struct SubscriptionFields {
    var originalTransactionID: TransactionID
    /// An auto-renewable's period number (0 the first); `nil` for a non-renewing purchase.
    var period: Int?
    var expiresDate: Int64
    var isTrial: Bool
}

/// Where one auto-renewable subscription stands, as the `subscriptions` table keeps it.
struct SubscriptionRow: Equatable {
    var originalTransactionID: TransactionID
    var group: String
    /// The product of the current period.
    var productID: ProductID
    var period: Int
    var inTrial: Bool
    /// The start of the current period.
    var periodStart: Int64
    /// The end of the current period.
    var expiresDate: Int64
    var willAutoRenew: Bool
    /// A lower level chosen for the next period.
    var renewsTo: ProductID?
    /// When renewals started failing (the period's end), while they do.
    var billingRetrySince: Int64?
    var endDate: Int64?
    /// `expired`, `upgraded`, `billing`, `refunded`.
    var endReason: String?

    var isLive: Bool { endDate == nil }

    /// Its state at `now`: ended (revoked when refunded), in its grace period or in billing retry
    /// while renewals fail (the group's grace period from the catalog, 6 days by default), in its
    /// trial, or active; and when the grace period ends, while renewals fail.
    func state(now: Int64, catalog: Catalog) -> (state: SubscriptionState, graceEnds: Int64?) {
        let grace = catalog.product(productID)?.autoRenewable?.gracePeriod ?? StoreDuration(6, .day)
        if let reason = endReason { return (reason == "refunded" ? .revoked : .expired, nil) }
        if let since = billingRetrySince {
            let ends = grace.added(to: since)
            return (now < ends ? .gracePeriod : .billingRetry, ends)
        }
        return (inTrial ? .trial : .active, nil)
    }
}

/// What inserting a new transaction row did.
enum TransactionInsert {
    case inserted
    /// A row with that id exists already.
    case idTaken
    /// Another unique key refused the row: a live purchase of the same pack, or the same request key.
    case duplicate
}

/// Why a hint ledger row was written, in the `reason` column's words.
enum HintReason: String {
    case purchase, spend, refund
}

/// What the seller gave: why, who gave it, and when.
public struct GrantRecord: Sendable, Equatable, Codable {
    public var reason: String
    public var grantedBy: String
    public var grantedDate: Int64
}
