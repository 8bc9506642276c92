/// A route with the body its request carries and the answer it gets. The client sends through
/// an endpoint and the server reads and answers through the same one, so the two cannot disagree
/// on a body: a change of either type is a change of both sides, or does not compile.
///
/// ```swift
/// // The client:
/// let game = try await send(API.guess, id: id, body: GuessRequest(guess: "e"))
/// // The server:
/// let asked = try API.guess.body(of: request.body)
/// return .json(200, try API.guess.answer(try service.guess(id, asked.guess)))
/// ```
public struct Endpoint<Body: Codable & Sendable, Answer: Codable & Sendable>: Sendable {
    public let route: Route

    public init(_ route: Route) { self.route = route }

    /// The server: the request's body as this route takes it (400 when it is not).
    public func body(of bytes: [UInt8]) throws(ServiceError) -> Body {
        try Wire.decode(Body.self, from: bytes)
    }

    /// The server: the answer's JSON.
    public func answer(_ value: Answer) throws(ServiceError) -> [UInt8] {
        try Wire.encode(value)
    }

    /// The server: the answer's JSON with one more member beside its own (a purchase's statement).
    public func answer(_ value: Answer, adding key: String, _ extra: some Encodable) throws(ServiceError) -> [UInt8] {
        try Wire.encode(WithKey(value, key, extra))
    }

    /// The client: the request's body.
    public func encode(_ body: Body) throws(ServiceError) -> [UInt8] {
        try Wire.encode(body)
    }

    /// The client: the server's answer, or a sentence saying that it is not this route's.
    public func decodeAnswer(_ bytes: [UInt8], path: String) throws(ServiceError) -> Answer {
        do {
            return try Wire.decode(Answer.self, from: bytes)
        } catch {
            throw ServiceError(.unavailable, "the service's answer to \(route.method) \(path) is not what this client expects: \(error.message)")
        }
    }
}

/// A request without a body.
public struct NoBody: Codable, Sendable, Equatable {
    public init() {}
}

/// An answer that only says the change was made (`{"revoked": true}`, `{"closed": true}`, `{}`).
public struct Done: Codable, Sendable, Equatable {
    public var revoked: Bool?
    public var closed: Bool?

    public init(revoked: Bool? = nil, closed: Bool? = nil) {
        self.revoked = revoked
        self.closed = closed
    }
}

/// The pack service's `/v1/` API, one endpoint per route: what each takes and answers. The App
/// Store Server API and `/verifyReceipt` are Apple's shapes (the `AppStore` module), spoken to by
/// Apple's library rather than this client.
public enum API {
    public static let serviceKey = Endpoint<NoBody, ServiceKeyDocument>(.serviceKey)
    public static let proveKey = Endpoint<KeyProof, SignedDocument>(.proveKey)
    /// A signed ``CatalogDocument``.
    public static let catalog = Endpoint<NoBody, SignedDocument>(.catalog)
    public static let createAccount = Endpoint<StorefrontRequest, NewAccount>(.createAccount)
    /// A signed ``AccountStatement``.
    public static let account = Endpoint<NoBody, SignedDocument>(.account)
    public static let closeAccount = Endpoint<NoBody, Done>(.closeAccount)
    public static let setStorefront = Endpoint<StorefrontRequest, StorefrontRequest>(.setStorefront)
    public static let offers = Endpoint<NoBody, Offers>(.offers)
    public static let transactions = Endpoint<NoBody, [StoreTransaction]>(.transactions)
    public static let entitlements = Endpoint<NoBody, [Entitlement]>(.entitlements)
    public static let hints = Endpoint<NoBody, HintBalance>(.hints)
    /// A signed ``HintSpendStatement``.
    public static let spendHint = Endpoint<HintSpendRequest, SignedDocument>(.spendHint)
    /// The outcome, and beside it the account's signed statement after it (`statement`).
    public static let purchase = Endpoint<PurchaseRequest, PurchaseOutcome>(.purchase)
    /// The outcome, and beside it the account's signed statement after it (`statement`), as a purchase's.
    public static let redeemOfferCode = Endpoint<OfferCodeRedemption, PurchaseOutcome>(.redeemOfferCode)
    public static let restore = Endpoint<NoBody, [Entitlement]>(.restore)
    public static let recover = Endpoint<NoBody, [StoreTransaction]>(.recover)
    public static let receipt = Endpoint<NoBody, ReceiptData>(.receipt)
    public static let subscriptions = Endpoint<NoBody, [SubscriptionStatus]>(.subscriptions)
    public static let subscriptionChange = Endpoint<SubscriptionChangeRequest, SubscriptionChange>(.subscriptionChange)
    public static let autoRenew = Endpoint<AutoRenewRequest, SubscriptionStatus>(.autoRenew)
    public static let priceConsent = Endpoint<SubscriptionChangeRequest, SubscriptionStatus>(.priceConsent)
    public static let startGame = Endpoint<GameRequest, ServedGame>(.startGame)
    public static let currentGame = Endpoint<NoBody, ServedGame>(.currentGame)
    public static let game = Endpoint<NoBody, ServedGame>(.game)
    public static let guess = Endpoint<GuessRequest, ServedGame>(.guess)
    public static let gameHint = Endpoint<NoBody, ServedGame>(.gameHint)
    public static let abandonGame = Endpoint<NoBody, ServedGame>(.abandonGame)
    public static let gameStats = Endpoint<NoBody, GameStatistics>(.gameStats)
    public static let daily = Endpoint<NoBody, DailyStatus>(.daily)
    public static let dailyArchive = Endpoint<NoBody, DailyArchive>(.dailyArchive)
    public static let leaderboard = Endpoint<NoBody, Leaderboard>(.leaderboard)
    public static let friendInvite = Endpoint<NoBody, FriendInvite>(.friendInvite)
    public static let addFriend = Endpoint<FriendRequest, Friend>(.addFriend)
    public static let friends = Endpoint<NoBody, [Friend]>(.friends)
    /// The friend that was.
    public static let removeFriend = Endpoint<NoBody, Friend>(.removeFriend)
    public static let createChallenge = Endpoint<ChallengeRequest, Challenge>(.createChallenge)
    public static let challenges = Endpoint<NoBody, [Challenge]>(.challenges)
    public static let setDisplayName = Endpoint<DisplayNameRequest, DisplayNameRequest>(.setDisplayName)
    public static let tokens = Endpoint<NoBody, [AccountTokenInfo]>(.tokens)
    public static let addToken = Endpoint<NewTokenRequest, NewToken>(.addToken)
    public static let rotateToken = Endpoint<NoBody, NewToken>(.rotateToken)
    public static let revokeToken = Endpoint<NoBody, Done>(.revokeToken)
    public static let testControls = Endpoint<NoBody, StoreControls>(.testControls)
    public static let setTestControls = Endpoint<StoreControls, StoreControls>(.setTestControls)
    public static let testClock = Endpoint<NoBody, StoreClockDocument>(.testClock)
    public static let advanceClock = Endpoint<ClockAdvance, StoreClockDocument>(.advanceClock)
    public static let clear = Endpoint<NoBody, Done>(.clear)
    public static let reset = Endpoint<NoBody, Done>(.reset)
    public static let approve = Endpoint<NoBody, StoreTransaction>(.approve)
    public static let decline = Endpoint<NoBody, StoreTransaction>(.decline)
    public static let resolve = Endpoint<NoBody, StoreTransaction>(.resolve)
    public static let refund = Endpoint<NoBody, RefundResult>(.refund)
    public static let decideRefund = Endpoint<RefundDecisionRequest, RefundOutcome>(.decideRefund)
    public static let requestRefund = Endpoint<RefundRequest, RefundCase>(.requestRefund)
    public static let causeNotification = Endpoint<NotificationCauseRequest, NotificationCause>(.causeNotification)
    public static let refundCase = Endpoint<NoBody, RefundCaseDocument>(.refundCase)
    /// `{"signedAppTransactionInfo": JWS}`, as Apple's Get App Transaction Info answers.
    public static let signedAppTransaction = Endpoint<NoBody, [String: String]>(.signedAppTransaction)

    /// Every route the table types: each `/v1/` route but liveness and readiness (answered before
    /// any body is read, and read by load balancers, not this client) and the pack archive (bytes).
    public static let typedRoutes: [Route] = [
        serviceKey.route, proveKey.route, catalog.route, createAccount.route, account.route, closeAccount.route, setStorefront.route,
        offers.route, transactions.route, entitlements.route, hints.route, spendHint.route, purchase.route, redeemOfferCode.route, restore.route, recover.route,
        receipt.route, subscriptions.route, subscriptionChange.route, autoRenew.route, priceConsent.route, startGame.route, currentGame.route, game.route,
        guess.route, gameHint.route, abandonGame.route, gameStats.route, daily.route, dailyArchive.route, leaderboard.route, friendInvite.route, addFriend.route, friends.route, removeFriend.route, createChallenge.route, challenges.route, setDisplayName.route, tokens.route,
        addToken.route, rotateToken.route, revokeToken.route, testControls.route, setTestControls.route, testClock.route, advanceClock.route,
        clear.route, reset.route, approve.route, decline.route, resolve.route, refund.route, decideRefund.route, causeNotification.route, requestRefund.route, refundCase.route, signedAppTransaction.route,
    ]
}
