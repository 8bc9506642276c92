import FoundationEssentials
import Messages
import Synchronization
import SystemCalls

/// The pack service in-process, for `make play` and the sandbox: ``PackService`` over one
/// ``AccountService`` (the catalog from a packs folder, the account in SQLite under the home,
/// receipts signed with a key kept beside the account). Every rule is the account service's.
///
/// ```swift
/// let service = try EmbeddedPackService(catalog: Catalog.load(folder: "Packs"), packsFolder: "Packs", accountFolder: home + "/account")
/// let outcome = try await service.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1)
/// ```
public final class EmbeddedPackService: PackService, StoreTestControls {
    /// The account behind it: the one door into its ledger.
    public let account: AccountService
    /// What is for sale: the packs folder's catalog.
    public var catalog: Catalog { account.catalog }
    private let dailyWord: EmbeddedDailyWord

    /// The store's own daily word, on no board: its other games are played on the device.
    public var dailyWords: (any GameService)? { dailyWord }

    /// Opens (creating if needed) the account in `accountFolder`; a new account's storefront is
    /// the player's region's (`preferredStorefront`) when the catalog sells there.
    /// `sharedSecret`: the one a subscription's receipt needs here; `nil`: the store's own
    /// (``AccountService/ownSharedSecret()``).
    public init(
        catalog: Catalog, packsFolder: String, accountFolder: String, clock: Clock = .system, preferredStorefront: String? = nil,
        sharedSecret: SharedSecret? = nil, crash: @escaping @Sendable (CrashPoint) -> Void = { _ in }
    ) throws(ServiceError) {
        account = try AccountService(catalog: catalog, packsFolder: packsFolder, accountFolder: accountFolder, clock: clock, crash: crash)
        account.receiptPolicy = sharedSecret.map(ReceiptPolicy.init(sharedSecret:))
        account.drawsOwnDailyWord = true
        dailyWord = EmbeddedDailyWord(account)
        try account.chooseStorefront(AccountService.newAccountStorefront(required: nil, preferred: preferredStorefront, in: catalog))
    }

    public func fetchCatalog() throws(ServiceError) -> Catalog { account.catalog }
    public func recoverUnfinished() throws(ServiceError) -> [StoreTransaction] { try account.recoverUnfinished() }
    public func buy(_ product: ProductID, quantity: Int) throws(ServiceError) -> PurchaseOutcome { try account.buy(product, quantity: quantity) }
    public func redeem(offerCode: String) throws(ServiceError) -> PurchaseOutcome { try account.redeem(offerCode: offerCode) }
    public func buy(_ product: ProductID, quantity: Int, options: PurchaseOptions) throws(ServiceError) -> PurchaseOutcome {
        try account.buy(product, quantity: quantity, options: options)
    }
    public func restore() throws(ServiceError) -> [Entitlement] { try account.restore() }
    public func transactions() throws(ServiceError) -> [StoreTransaction] { try account.transactions() }
    public func entitlements() throws(ServiceError) -> [Entitlement] { try account.entitlements() }
    public func hintBalance() throws(ServiceError) -> Int { try account.hintBalance() }
    public func storefront() throws(ServiceError) -> String { try account.storefront() }
    public func appTransaction() throws(ServiceError) -> AppTransactionRecord { try account.appTransaction() }
    public func offers() throws(ServiceError) -> Offers { try account.offers() }
    public func setStorefront(_ code: String) throws(ServiceError) -> String { try account.setStorefront(code) }
    public func spendHint(idempotencyKey: String) throws(ServiceError) -> HintSpend { try account.spendHint(idempotencyKey: idempotencyKey) }
    public func packArchive(_ product: ProductID) throws(ServiceError) -> [UInt8] { try account.packArchive(product) }
    public func subscriptions() throws(ServiceError) -> [SubscriptionStatus] { try account.subscriptions() }
    public func subscriptionChange(to product: ProductID) throws(ServiceError) -> SubscriptionChange { try account.subscriptionChange(to: product) }
    public func setAutoRenew(_ product: ProductID, on: Bool) throws(ServiceError) -> SubscriptionStatus { try account.setAutoRenew(product, on: on) }
    public func consentToPriceIncrease(_ product: ProductID) throws(ServiceError) -> SubscriptionStatus { try account.consentToPriceIncrease(product) }
    public func receipt() throws(ServiceError) -> Receipt { try account.receipt() }
    public func refundCase(_ id: TransactionID) throws(ServiceError) -> RefundCase? { try account.refundCase(id) }
    public func requestRefund(_ id: TransactionID, reason: RefundReason) throws(ServiceError) -> RefundCase { try account.requestRefund(id, reason: reason) }
    public func verifyReceipt(_ bytes: [UInt8]) -> ReceiptVerification { account.verifyReceipt(bytes, password: nil) }
    public func verifyReceipt(_ bytes: [UInt8], password: String?) -> ReceiptVerification { account.verifyReceipt(bytes, password: password) }
    public func ownSharedSecret() -> SharedSecret? { try? account.ownSharedSecret() }

    public func controls() throws(ServiceError) -> StoreControls { try account.controls() }
    public func setControls(_ controls: StoreControls) throws(ServiceError) { try account.setControls(controls) }
    public func approve(_ id: TransactionID) throws(ServiceError) -> StoreTransaction { try account.approve(id) }
    public func decline(_ id: TransactionID) throws(ServiceError) -> StoreTransaction { try account.decline(id) }
    public func resolve(_ id: TransactionID) throws(ServiceError) -> StoreTransaction { try account.resolve(id) }
    public func refund(_ id: TransactionID) throws(ServiceError) -> (transaction: StoreTransaction, hintsTakenBack: Int) { try account.refund(id) }
    public func decideRefund(_ id: TransactionID, _ decision: RefundDecision) throws(ServiceError) -> RefundOutcome { try account.decideRefund(id, decision) }
    public func causeNotification(_ type: String, subtype: String?) throws(ServiceError) -> NotificationCause {
        try account.causeNotification(type, subtype: subtype)
    }
    public func clear() throws(ServiceError) { try account.clear() }
    public func reset() throws(ServiceError) { try account.reset() }
    public func storeClock() throws(ServiceError) -> Int64 { try account.storeClock() }
    public func advanceClock(by duration: StoreDuration) throws(ServiceError) -> Int64 { try account.advanceClock(by: duration) }
    public func moveClock(by duration: StoreClockStep) throws(ServiceError) -> StoreClockMove { try account.moveClock(by: duration) }
}

/// The embedded store's daily word: the account service's served daily game (the same rule as a
/// server's: the same lives, one game a day, a word drawn from the store's own key), on no
/// leaderboard. Every other game of the embedded store is played on the device.
final class EmbeddedDailyWord: GameService, @unchecked Sendable {
    /// The account, one call at a time (it is not `Sendable`; every use goes through `serialized`).
    private let account: AccountService
    private let lock = Mutex<Void>(())

    init(_ account: AccountService) { self.account = account }

    private func serialized<T>(_ body: (AccountService) throws(ServiceError) -> T) throws(ServiceError) -> T {
        try lock.withLock { _ throws(ServiceError) in try body(account) }
    }

    func startGame(_ request: GameRequest) throws(ServiceError) -> ServedGame {
        guard request.daily else {
            throw ServiceError(.invalidRequest, L10n.text("the embedded store serves its daily word only: its other games are played on the device"))
        }
        guard !request.hard else {
            throw ServiceError(.unavailable, L10n.text("hard mode is played on a pack server, which keeps the words it has not ruled out: this device would hold them"))
        }
        return try serialized { account throws(ServiceError) in try account.startGame(request) }
    }

    /// The live game that is not the daily word: none, the device plays those.
    func currentGame() -> ServedGame? { nil }
    func game(_ id: String) throws(ServiceError) -> ServedGame { try serialized { account throws(ServiceError) in try account.game(id) } }
    func guess(game id: String, _ text: String) throws(ServiceError) -> ServedGame {
        try serialized { account throws(ServiceError) in try account.guess(id, text) }
    }
    func hint(game id: String, idempotencyKey: String) throws(ServiceError) -> ServedGame {
        try serialized { account throws(ServiceError) in try account.hint(id, key: idempotencyKey) }
    }
    func abandonGame(_ id: String) throws(ServiceError) -> ServedGame { try serialized { account throws(ServiceError) in try account.abandonGame(id) } }
    func gameStatistics() throws(ServiceError) -> GameStatistics { try serialized { account throws(ServiceError) in try account.statistics() } }
    /// Friends are a pack server's: this store has one player.
    private static var noFriends: ServiceError { ServiceError(.unavailable, L10n.text("friends are a pack server's: this store plays on this device alone ('hangman account login' joins a server)")) }
    func inviteFriend() throws(ServiceError) -> FriendInvite { throw Self.noFriends }
    func addFriend(code: String) throws(ServiceError) -> Friend { throw Self.noFriends }
    func friends() throws(ServiceError) -> [Friend] { throw Self.noFriends }
    func removeFriend(named name: String) throws(ServiceError) -> Friend { throw Self.noFriends }
    func friendsLeaderboard(date: String?, language: String?, week: Bool, hard: Bool) throws(ServiceError) -> Leaderboard { throw Self.noFriends }
    func challenge(_ request: ChallengeRequest) throws(ServiceError) -> Challenge { throw Self.noFriends }
    func challenges() throws(ServiceError) -> [Challenge] { throw Self.noFriends }
    func dailyArchive(language: String?, since: String?) throws(ServiceError) -> DailyArchive {
        try serialized { account throws(ServiceError) in try account.dailyArchive(language: language, since: since) }
    }
    func daily(language: String?) throws(ServiceError) -> DailyStatus {
        try serialized { account throws(ServiceError) in try account.dailyStatus(language: language) }
    }
    func leaderboard(date: String?, language: String?, week: Bool, hard: Bool) throws(ServiceError) -> Leaderboard {
        try serialized { account throws(ServiceError) in try account.leaderboard(date: date, language: language, week: week, hard: hard) }
    }
    func setDisplayName(_ name: String) throws(ServiceError) -> String { try serialized { account throws(ServiceError) in try account.setDisplayName(name) } }
}
