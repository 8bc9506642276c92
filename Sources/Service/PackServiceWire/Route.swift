/// Every route of the pack service's HTTP API, declared once: the server dispatches from it and
/// names its logs and metrics by it, and the client builds its requests from it. A route is a
/// method and a path template; a template holds at most one `{id}`, one path segment.
public enum Route: String, CaseIterable, Sendable {
    case health, ready, serviceKey, proveKey, catalog, createAccount
    case account, closeAccount, setStorefront, offers, transactions, entitlements, hints, spendHint
    case purchase, redeemOfferCode, restore, recover, receipt, packArchive, refundCase, requestRefund, signedAppTransaction
    case subscriptions, subscriptionChange, autoRenew, priceConsent
    case startGame, currentGame, game, guess, gameHint, abandonGame, gameStats, daily, dailyArchive, leaderboard, setDisplayName
    case friendInvite, addFriend, friends, removeFriend, createChallenge, challenges
    case tokens, addToken, rotateToken, revokeToken
    case testControls, setTestControls, testClock, advanceClock, clear, reset
    case approve, decline, resolve, refund, decideRefund, causeNotification
    /// Apple's endpoint, which answers every method itself (21000 for anything but POST).
    case verifyReceipt
    /// The App Store Server API, for a developer's backend (its own JWT): Get Transaction Info,
    /// Get Transaction History v2, Get All Subscription Statuses, Get Refund History, Extend a
    /// Subscription Renewal Date, Send Consumption Information, Request a Test Notification, Get
    /// Test Notification Status, Get Notification History.
    case appStoreTransaction, appStoreHistory, appStoreStatuses, appStoreRefunds, appStoreExtend, appStoreConsumption, appStoreSetAppAccountToken, appStoreAppTransaction
    case appStoreConsumptionV2, appStoreFinish, appStoreOrderLookup, appStoreMassExtend, appStoreMassExtendStatus
    case appStoreTestNotification, appStoreTestStatus, appStoreNotificationHistory

    /// The App Store Server API's routes, under `/inApps/`.
    public var isAppStoreAPI: Bool { template.hasPrefix("/inApps/") }

    public var method: String {
        switch self {
        case .health, .ready, .serviceKey, .catalog, .account, .offers, .transactions, .entitlements, .hints, .receipt, .packArchive, .subscriptions,
            .tokens, .testControls, .testClock, .currentGame, .game, .gameStats, .daily, .dailyArchive, .leaderboard, .friends, .challenges, .appStoreTransaction, .appStoreHistory,
            .appStoreStatuses, .appStoreRefunds, .appStoreTestStatus, .appStoreAppTransaction, .appStoreOrderLookup, .refundCase, .appStoreMassExtendStatus, .signedAppTransaction:
            "GET"
        case .closeAccount, .revokeToken, .removeFriend: "DELETE"
        case .setStorefront, .setTestControls, .setDisplayName, .appStoreExtend, .appStoreConsumption, .appStoreSetAppAccountToken, .appStoreConsumptionV2: "PUT"
        case .proveKey, .createAccount, .spendHint, .purchase, .redeemOfferCode, .friendInvite, .addFriend, .createChallenge, .restore, .recover, .subscriptionChange, .autoRenew, .priceConsent, .addToken, .rotateToken, .advanceClock, .clear,
            .reset, .approve, .decline, .resolve, .refund, .decideRefund, .causeNotification, .requestRefund, .verifyReceipt, .startGame, .guess, .gameHint, .abandonGame, .appStoreTestNotification,
            .appStoreNotificationHistory, .appStoreFinish, .appStoreMassExtend:
            "POST"
        }
    }

    /// The path, `{id}` standing for a pack's, a token's or a transaction's identifier: also the
    /// route's name in the server's log and metrics, a closed set whatever clients send.
    public var template: String {
        switch self {
        case .health: "/v1/health"
        case .ready: "/v1/ready"
        case .serviceKey: "/v1/service-key"
        case .proveKey: "/v1/service-key/proof"
        case .catalog: "/v1/catalog"
        case .createAccount: "/v1/accounts"
        case .account, .closeAccount: "/v1/account"
        case .setStorefront: "/v1/account/storefront"
        case .offers: "/v1/offers"
        case .transactions: "/v1/transactions"
        case .entitlements: "/v1/entitlements"
        case .hints: "/v1/hints"
        case .spendHint: "/v1/hints/spend"
        case .purchase: "/v1/purchases"
        case .redeemOfferCode: "/v1/offer-codes/redemptions"
        case .restore: "/v1/restore"
        case .recover: "/v1/recover"
        case .receipt: "/v1/receipt"
        case .packArchive: "/v1/packs/{id}/archive"
        case .subscriptions: "/v1/subscriptions"
        case .subscriptionChange: "/v1/subscriptions/change"
        case .autoRenew: "/v1/subscriptions/auto-renew"
        case .priceConsent: "/v1/subscriptions/price-consent"
        case .startGame: "/v1/games"
        case .currentGame: "/v1/games/current"
        case .game: "/v1/games/{id}"
        case .guess: "/v1/games/{id}/guesses"
        case .gameHint: "/v1/games/{id}/hints"
        case .abandonGame: "/v1/games/{id}/abandon"
        case .gameStats: "/v1/games/stats"
        case .daily: "/v1/daily"
        case .dailyArchive: "/v1/daily/archive"
        case .friendInvite: "/v1/friends/invites"
        case .addFriend, .friends: "/v1/friends"
        case .createChallenge, .challenges: "/v1/challenges"
        case .removeFriend: "/v1/friends/{id}"
        case .leaderboard: "/v1/leaderboards/daily/{id}"
        case .setDisplayName: "/v1/account/name"
        case .signedAppTransaction: "/v1/account/app-transaction"
        case .tokens, .addToken: "/v1/account/tokens"
        case .rotateToken: "/v1/account/tokens/rotate"
        case .revokeToken: "/v1/account/tokens/{id}"
        case .testControls, .setTestControls: "/v1/test/controls"
        case .testClock: "/v1/test/clock"
        case .advanceClock: "/v1/test/clock/advance"
        case .clear: "/v1/test/clear"
        case .reset: "/v1/test/reset"
        case .approve: "/v1/test/transactions/{id}/approve"
        case .decline: "/v1/test/transactions/{id}/decline"
        case .resolve: "/v1/test/transactions/{id}/resolve"
        case .refund: "/v1/test/transactions/{id}/refund"
        case .decideRefund: "/v1/test/transactions/{id}/refund-decision"
        case .causeNotification: "/v1/test/notifications"
        case .refundCase, .requestRefund: "/v1/transactions/{id}/refund"
        case .verifyReceipt: "/verifyReceipt"
        case .appStoreTransaction: "/inApps/v1/transactions/{id}"
        case .appStoreHistory: "/inApps/v2/history/{id}"
        case .appStoreStatuses: "/inApps/v1/subscriptions/{id}"
        case .appStoreRefunds: "/inApps/v2/refund/lookup/{id}"
        case .appStoreExtend: "/inApps/v1/subscriptions/extend/{id}"
        case .appStoreConsumption: "/inApps/v1/transactions/consumption/{id}"
        case .appStoreSetAppAccountToken: "/inApps/v1/transactions/{id}/appAccountToken"
        case .appStoreAppTransaction: "/inApps/v1/transactions/appTransactions/{id}"
        case .appStoreConsumptionV2: "/inApps/v2/transactions/consumption/{id}"
        case .appStoreFinish: "/inApps/v1/transactions/{id}/finish"
        case .appStoreOrderLookup: "/inApps/v1/lookup/{id}"
        case .appStoreMassExtend: "/inApps/v1/subscriptions/extend/mass"
        // Apple's path has two identifiers: the product's, then the request's ("product/request").
        case .appStoreMassExtendStatus: "/inApps/v1/subscriptions/extend/mass/{id}/{id}"
        case .appStoreTestNotification: "/inApps/v1/notifications/test"
        case .appStoreTestStatus: "/inApps/v1/notifications/test/{id}"
        case .appStoreNotificationHistory: "/inApps/v1/notifications/history"
        }
    }

    /// Answered without a token.
    public var isPublic: Bool {
        switch self {
        case .health, .ready, .serviceKey, .proveKey, .catalog, .createAccount, .verifyReceipt: true
        default: isAppStoreAPI
        }
    }

    /// Held to the per-address request limit: all but liveness, readiness and a new account
    /// (which has a limit of its own).
    public var isRateLimited: Bool {
        switch self {
        case .health, .ready, .createAccount: false
        default: true
        }
    }

    /// StoreKit Testing's switches and actions: served only by a sandbox server with test controls.
    public var isTestControl: Bool { template.hasPrefix("/v1/test/") }

    /// The path of a request on this route; `id` fills the template's `{id}` (a template with
    /// two takes them joined by "/", as ``routes(at:)`` gives them).
    public func path(_ id: String = "") -> String {
        var parts = template.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let holes = parts.indices.filter { parts[$0] == "{id}" }
        let given = holes.count > 1 ? id.split(separator: "/", maxSplits: holes.count - 1, omittingEmptySubsequences: false).map(String.init) : [id]
        for (hole, value) in zip(holes, given) { parts[hole] = value }
        return parts.joined(separator: "/")
    }

    /// What a request's path (normalized: `/v1/hints/spend`, no empty segment) names: the routes
    /// at that path, one per method, and the identifier its template holds; `nil` for a path that
    /// is no route.
    public static func routes(at path: String) -> (routes: [Route], id: String?)? {
        if let exact = exactPaths[path] { return (exact, nil) }
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var found: [Route] = []
        var id: String?
        for (template, routes) in templatedPaths where template.count == parts.count {
            var given: String?
            let matches = zip(template, parts).allSatisfy { want, part in
                guard let want else {
                    // A template with two identifiers gives both, joined by "/".
                    given = given.map { $0 + "/" } ?? ""
                    given! += String(Substring(part))
                    return !part.isEmpty
                }
                return part.elementsEqual(want.utf8)
            }
            if matches {
                found += routes
                id = given
            }
        }
        return found.isEmpty ? nil : (found, id)
    }

    /// The route's name for a request's path, whatever its method: the template (`/v1/packs/{id}/archive`),
    /// or `other` for a path that is no route. Never the client's own segments.
    public static func name(ofPath path: String) -> String {
        if let exact = exactPaths[path] { return exact[0].template }
        return routes(at: path)?.routes.first?.template ?? "other"
    }

    /// The routes whose template has no `{id}`, by path: one lookup for nearly every request.
    private static let exactPaths: [String: [Route]] = Dictionary(grouping: allCases.filter { !$0.template.contains("{") }, by: \.template)

    /// The templates with an `{id}`, as segments (`nil` where the identifier goes), and their routes.
    private static let templatedPaths: [([String?], [Route])] = Dictionary(grouping: allCases.filter { $0.template.contains("{") }, by: \.template)
        .sorted { $0.key < $1.key }
        .map { template, routes in
            (template.split(separator: "/", omittingEmptySubsequences: false).map { $0 == "{id}" ? nil : String($0) }, routes)
        }
}
