/// The pack service's error, the boundary's one: what either door (an account's, the seller's) or the client of a
/// server could not do, its kind and a sentence that says what to do.
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible, Codable {
    /// What went wrong, as a stable code: how a caller decides what to do (and the exit status a command gives).
    public enum Kind: String, Sendable, Codable {
        /// The catalog does not sell that product.
        case unknownProduct = "unknown-product"
        /// A bad argument (a quantity out of range, say).
        case invalidRequest = "invalid-request"
        /// No such transaction.
        case unknownTransaction = "unknown-transaction"
        /// The transaction is not in a state that allows this.
        case wrongState = "wrong-state"
        /// Not enough hints.
        case notEnoughHints = "not-enough-hints"
        /// The account does not own the product.
        case notEntitled = "not-entitled"
        /// The product is in the catalog but cannot be sold or downloaded now: its pack is missing or damaged.
        case productUnavailable = "product-unavailable"
        /// A purchase of the same pack is already in progress or waiting for approval: try again later.
        case purchaseInProgress = "purchase-in-progress"
        /// A change the account may make later, not now: a storefront move while a subscription
        /// lasts, or too soon after the last move.
        case notYet = "not-yet"
        /// The account's database or key could not be used.
        case storage
        /// The service cannot be reached, or answered with a failure of its own.
        case unavailable = "service-unavailable"
        /// Too many requests from this address block: the answer says when to try again.
        case rateLimited = "rate-limited"
        /// This server does not offer what was asked: test controls on a server without them.
        case notOffered = "not-offered"
        /// The service does not know this account's token.
        case unauthorized
        /// The service's answer is not signed by the key pinned for it, or is older than one already seen.
        case untrusted = "untrusted-response"
        /// No such resource: a path the service does not serve, or a token the account does not have.
        case notFound = "not-found"
    }

    /// Why, where a caller acts on more than the kind: a stable code beside the sentence, which is
    /// in the reader's language and never read by a program.
    public enum Reason: String, Sendable, Codable {
        /// The pack server cannot be reached, or did not answer in time (the client's own).
        case unreachable
        /// The service has no base pack, so no daily word, in the language asked for.
        case noDailyWord = "no-daily-word"
        /// An offer-code batch the folder cannot take: its name is taken or bad, or the file would grow too large.
        case offerCodesFolder = "offer-codes-folder"
    }

    /// What went wrong.
    public var kind: Kind
    /// A sentence saying what, and what to do.
    public var message: String
    /// Why, for the few refusals a caller tells apart from others of their kind.
    public var reason: Reason?

    /// An error of `kind`, said by `message`.
    public init(_ kind: Kind, _ message: String, reason: Reason? = nil) {
        self.kind = kind
        self.message = message
        self.reason = reason
    }

    public var description: String { message }
}
