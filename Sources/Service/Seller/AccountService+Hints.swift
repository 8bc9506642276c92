import FoundationEssentials
import Messages

extension AccountService {
    public func hintBalance() throws(ServiceError) -> Int {
        _ = try settleSubscriptions()
        return try ledger.balance()
    }

    public func spendHint(idempotencyKey: String) throws(ServiceError) -> HintSpend {
        try spendHint(idempotencyKey: idempotencyKey, checking: nil)
    }

    /// No hint left, and what to buy (for a spend and a served game's hint alike).
    var noHintsLeft: ServiceError {
        guard let offer = catalog.hintOffer else { return ServiceError.noHintsLeft }
        return ServiceError(.notEnoughHints, L10n.text("no hints left: buy more with 'hangman buy %s'", offer.id))
    }

    /// A hint spend's key: 1 to 200 bytes.
    public static func checkIdempotencyKey(_ key: String) throws(ServiceError) {
        guard !key.isEmpty, key.utf8.count <= 200 else {
            throw ServiceError(.invalidRequest, L10n.text("an idempotency key is 1 to 200 bytes"))
        }
    }

    /// Whether ``spendHint(idempotencyKey:checking:)`` can check a request's token in the spend
    /// itself (PostgreSQL's ledgers: one round trip for both).
    public var checksTokensInSpend: Bool { ledger.engine.checksTokensInOneCall }

    /// Spends a hint; with `token` (where ``checksTokensInSpend``), only when the token is live
    /// and this account's, checked in the same call (401 otherwise, nothing spent).
    public func spendHint(idempotencyKey: String, checking token: PresentedToken?) throws(ServiceError) -> HintSpend {
        try Self.checkIdempotencyKey(idempotencyKey)
        do {
            return try ledger.spend(key: idempotencyKey, now: clock.now(), checking: token)
        } catch where error.kind == .notEnoughHints {
            throw noHintsLeft
        }
    }
}
