import HTTPServer
import Messages
import PackServiceWire
import Seller

extension PackServer {
    /// `POST /v1/accounts`: a new account and its first token, held to a pace per client address.
    /// The account's storefront, when the client names one (the player's region), is checked
    /// before the account is made, and recorded in its ledger at once.
    func createAccount(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let now = configuration.clock.now()
        if let wait = accountCreations.take(request.clientAddress, now: now) {
            return Self.tooMany("too many new accounts from \(request.clientAddress)'s address block: try again in \(wait) s", wait: wait)
        }
        let asked = request.body.isEmpty ? StorefrontRequest(storefront: nil) : try API.createAccount.body(of: request.body)
        let deviceName = try Self.deviceName(asked.deviceName)
        // The block's budget of free trials today: the rule is the seller's, the count per address block ours.
        let budget = configuration.freeTrialAccountsPerDay
        let freeTrial = { budget > 0 && self.freeTrialAccounts.take(request.clientAddress, now: now) == nil }
        let made = try seller.createAccount(
            required: asked.storefront, preferred: asked.preferred, deviceName: deviceName, catalog: catalog, freeTrial: freeTrial, now: now
        ) { account, body throws(ServiceError) in
            try stores.with(account, open: { () throws(ServiceError) in try store(for: account) }, body)
        }
        return .json(201, try API.createAccount.answer(made))
    }

    /// A device's name as a request gives it: checked (``DeviceName``), refused with a sentence (400).
    static func deviceName(_ given: String?) throws(ServiceError) -> String? {
        guard let given else { return nil }
        switch DeviceName.check(given) {
        case .success(let name): return name
        case .failure(let problem): throw ServiceError(.invalidRequest, problem.message)
        }
    }

    /// The account's tokens (one per device) and the account itself: list, add, rotate, revoke,
    /// close. `nil` for any other request.
    func routeTokens(
        _ request: HTTPRequest, _ route: Route, id: String?, account: String, tokenID: String
    ) throws(ServiceError) -> HTTPResponse? {
        let now = configuration.clock.now()
        switch route {
        case .tokens:
            let listed = try accounts.tokens(account: account).map {
                AccountTokenInfo(
                    tokenID: $0.id, deviceName: $0.deviceName, createdDate: $0.created, lastUsedDate: $0.lastUsed, revokedDate: $0.revoked, current: $0.id == tokenID)
            }
            return .json(200, try API.tokens.answer(listed))
        case .addToken:
            // A client before device names sends no body: its token has no name.
            let asked = request.body.isEmpty ? NewTokenRequest(deviceName: nil) : try API.addToken.body(of: request.body)
            let made = try accounts.newToken(account: account, deviceName: try Self.deviceName(asked.deviceName), now: now)
            return .json(201, try API.addToken.answer(NewToken(accountID: account, tokenID: made.tokenID, token: made.token)))
        case .rotateToken:
            // Under the accounts database's lock: of rotations of one token at once, one wins.
            guard let made = try accounts.rotate(account: account, tokenID: tokenID, now: now) else { throw ServiceError.tokenNotLive }
            return .json(201, try API.rotateToken.answer(NewToken(accountID: account, tokenID: made.tokenID, token: made.token)))
        case .revokeToken:
            let revoked = id ?? ""
            guard try accounts.revoke(account: account, tokenID: revoked, now: now) == 1 else {
                throw ServiceError(.notFound, L10n.text("the account has no live token %s: see 'hangman account tokens'", revoked))
            }
            return .json(200, try API.revokeToken.answer(Done(revoked: true)))
        case .closeAccount:
            try accounts.close(account: account, now: now)
            return .json(200, try API.closeAccount.answer(Done(closed: true)))
        default:
            return nil
        }
    }

    /// Spends a hint and answers with the signed statement of it; with `token`, the spend checks
    /// the request's token itself (see ``spendCheckingItsToken(_:_:)``).
    func spend(
        _ spend: HintSpendRequest, account: String, service: AccountService, checking token: PresentedToken?
    ) throws(ServiceError) -> HTTPResponse {
        let spent: HintSpend
        do {
            spent = try service.spendHint(idempotencyKey: spend.key, checking: token)
        } catch {
            if error.kind != .unauthorized { metrics.spend(error.kind == .notEnoughHints ? "no-hints" : "error") }
            throw error
        }
        metrics.spend(spent.wasAlreadySpent ? "already-spent" : "spent")
        let statement = HintSpendStatement(accountID: account, key: spend.key, spend: spent, issued: configuration.clock.now())
        var response = HTTPResponse.json(200, try API.spendHint.answer(try SignedDocument(signing: statement, with: key)))
        response.logAccount = account
        return response
    }

    /// A hint spend in one round trip to the ledger database, its token checked in the same call,
    /// when the engine can (PostgreSQL) and the account's store is open already (only a request
    /// whose token was looked up opens one). `nil` otherwise, and the request goes the usual way:
    /// its token looked up first. A body that is not a valid spend goes that way too, so that a
    /// request with a wrong token is told 401 before anything else.
    func spendCheckingItsToken(_ request: HTTPRequest, _ presented: PresentedToken) throws(ServiceError) -> HTTPResponse? {
        guard let spend = try? API.spendHint.body(of: request.body),
            (try? AccountService.checkIdempotencyKey(spend.key)) != nil
        else { return nil }
        let answer = try stores.withOpen(presented.account) { service throws(ServiceError) -> HTTPResponse? in
            guard service.checksTokensInSpend else { return nil }
            return try self.spend(spend, account: presented.account, service: service, checking: presented)
        }
        if answer != nil { noteUse(of: presented.tokenID) }
        return answer ?? nil
    }

    /// The request's bearer token, read but not looked up.
    func presentedToken(_ request: HTTPRequest) throws(ServiceError) -> PresentedToken {
        guard let header = request.header("Authorization"), let space = header.firstIndex(of: " "),
            header[..<space].lowercased() == "bearer"
        else {
            throw ServiceError(.unauthorized, L10n.text("this request needs an account: 'Authorization: Bearer <token>' (see 'hangman account create')"))
        }
        let token = String(header[header.index(after: space)...].drop { $0 == " " })
        guard let presented = PresentedToken(parsing: token) else { throw ServiceError.tokenNotLive }
        return presented
    }

    func authenticate(_ presented: PresentedToken) throws(ServiceError) -> (account: String, tokenID: String) {
        guard let found = try accounts.account(for: presented) else { throw ServiceError.tokenNotLive }
        noteUse(of: found.tokenID)
        return found
    }

    /// When a token was last used, written at most once a minute per token (never on every request).
    func noteUse(of tokenID: String) {
        let now = configuration.clock.now()
        let due = touched.withLock { seen in
            guard now - (seen[tokenID] ?? 0) >= 60_000 else { return false }
            // Bounded: past 10,000 tokens, those not seen for a minute are forgotten (their next
            // request writes once more, which is all forgetting costs).
            if seen.count >= 10_000 { seen = seen.filter { now - $0.value < 60_000 } }
            seen[tokenID] = now
            return true
        }
        guard due else { return }
        // The request goes on without it, but a failure is counted where an operator looks
        // (hangman_store_errors_total), not lost.
        do {
            try accounts.touch(tokenID: tokenID, now: now)
        } catch {
            metrics.storeError(error.kind == .unavailable ? "unavailable" : "storage")
        }
    }
}
