/// A pack server account's bearer token, `hp1.<account>.<secret>`: the one place its format is
/// read and written, by the server that makes and checks tokens and by the client that is given one.
/// The account is 16 hex digits; the secret at most 64 bytes (the server makes 43, base64url).
public struct BearerToken: Sendable, Equatable {
    /// The format's version, the token's first part.
    public static let scheme = "hp1"
    /// The secret's length at most, in bytes.
    public static let maxSecret = 64

    /// The account the token belongs to (its 16 hex digits).
    public var account: String
    /// The secret part, which the server keeps only as a digest.
    public var secret: String

    /// A token of `account` with `secret`.
    public init(account: String, secret: String) {
        self.account = account
        self.secret = secret
    }

    /// The token's parts, read without looking it up (`nil` for anything not in the format).
    public init?(parsing token: String) {
        // Taken apart as bytes: a server reads one on every request with a token.
        let parts = token.utf8.split(separator: UInt8(ascii: "."), maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].elementsEqual(Self.scheme.utf8), parts[1].count == 16, parts[2].count <= Self.maxSecret else { return nil }
        self.init(account: String(Substring(parts[1])), secret: String(Substring(parts[2])))
    }

    /// The token as a client sends it.
    public var text: String { "\(Self.scheme).\(account).\(secret)" }

    /// What a refusal of a text that is not a token says.
    public static let formatProblem = "that is not a token of a pack server's account (hp1.<account>.<secret>)"
}
