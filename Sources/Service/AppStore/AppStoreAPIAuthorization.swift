import PackServiceWire
import Base64
import CertificateChain

/// Who may call the App Store Server API routes (`/inApps/`): a developer's backend signing its
/// requests as Apple asks, `Authorization: Bearer <JWT>`, ES256 with a registered key (`kid`),
/// claims `iss` (the issuer), `aud` = `appstoreconnect-v1`, `bid` (the bundle) and an `exp` in
/// the future and at most 60 minutes ahead (`iat`, when given, not in the future). Anything else is
/// refused, and the answer (401) says nothing of why.
public struct AppStoreAPIAuthorization: Sendable {
    public var issuer: String
    public var bundleID: String
    /// The registered keys, by key id.
    public var keys: [String: ES256PublicKey]

    public init(issuer: String, bundleID: String, keys: [String: ES256PublicKey]) {
        self.issuer = issuer
        self.bundleID = bundleID
        self.keys = keys
    }

    /// The audience Apple's clients put in every token.
    public static let audience = "appstoreconnect-v1"
    /// The longest a token may live, in seconds.
    public static let longestLife: Int64 = 3600

    struct Header: Decodable {
        var alg: String
        var kid: String
        var typ: String?
    }

    struct Claims: Decodable {
        var iss: String
        var aud: String
        var bid: String
        var exp: Int64
        var iat: Int64?
    }

    /// Whether the request's `Authorization` header is a token this service accepts at `now`
    /// (milliseconds since 1970).
    public func allows(_ authorization: String?, now: Int64) -> Bool {
        keyID(allowing: authorization, now: now) != nil
    }

    /// The id of the registered key that signed the request's token, when this service accepts
    /// it at `now`; `nil` otherwise (a key's requests have a budget of their own).
    public func keyID(allowing authorization: String?, now: Int64) -> String? {
        if case .allowed(let keyID) = verdict(authorization, now: now) { return keyID }
        return nil
    }

    /// What this service makes of a request's token: allowed (by which key), or refused and why,
    /// in words for the server's log only (the answer, a 401, says nothing).
    public enum Verdict: Sendable, Equatable {
        case allowed(keyID: String)
        case refused(String)
    }

    public func verdict(_ authorization: String?, now: Int64) -> Verdict {
        // The scheme in any case, as RFC 9110 says (and as the players' API takes it).
        guard let authorization else { return .refused("no Authorization header") }
        guard authorization.utf8.count <= 4096, authorization.prefix(7).lowercased() == "bearer " else {
            return .refused("the Authorization header is not 'Bearer <JWT>'")
        }
        let header: Header
        let claimBytes: [UInt8]
        switch signedBy(authorization.dropFirst("Bearer ".count)) {
        case .failure(let refusal): return .refused(refusal.why)
        case .success(let signed): (header, claimBytes) = signed
        }
        guard let claims = try? Wire.decode(Claims.self, from: claimBytes) else {
            return .refused("the token's claims are not iss, aud, bid and exp")
        }
        let seconds = now / 1000
        if claims.iss != issuer { return .refused("the token's issuer (iss) is not this server's --api-issuer") }
        if claims.aud != Self.audience { return .refused("the token's audience (aud) is not \(Self.audience)") }
        if claims.bid != bundleID { return .refused("the token's bundle id (bid) is not the catalog's \(bundleID)") }
        if claims.exp <= seconds { return .refused("the token expired \(seconds - claims.exp) s ago") }
        if claims.exp > seconds + Self.longestLife { return .refused("the token lives more than \(Self.longestLife / 60) minutes (exp)") }
        if (claims.iat ?? 0) > seconds + 60 { return .refused("the token was issued in the future (iat)") }
        return .allowed(keyID: header.kid)
    }

    /// Why a token or a signature is refused, in words for a log or an error.
    public struct Refusal: Error, Sendable, Equatable {
        public var why: String
    }

    /// A compact JWS signed by one of the registered keys: its header and its claims' bytes, or
    /// why not.
    private func signedBy(_ token: Substring) -> Result<(Header, [UInt8]), Refusal> {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64.decodeURL(parts[0]), let claimBytes = Base64.decodeURL(parts[1]), let signature = Base64.decodeURL(parts[2]),
            let header = try? Wire.decode(Header.self, from: headerBytes)
        else { return .failure(Refusal(why: "the token is not a JWT (three base64url parts, a JSON header with alg and kid)")) }
        guard header.alg == "ES256" else { return .failure(Refusal(why: "the token is signed with \(header.alg.prefix(20)), not ES256")) }
        guard let key = keys[header.kid] else {
            return .failure(Refusal(why: "the token's key id '\(header.kid.prefix(40))' is not one this server was given (--api-key KID=FILE)"))
        }
        guard key.verify(Array((parts[0] + "." + parts[1]).utf8), signature: signature) else {
            return .failure(Refusal(why: "the token's signature is not key \(header.kid)'s"))
        }
        return .success((header, claimBytes))
    }

    // MARK: - Signatures for StoreKit

    /// How long a signature for StoreKit is taken after it was made, in seconds (a day).
    public static let signatureLife: Int64 = 86_400

    /// What the developer's server signed for a purchase (Apple's `JWSSignatureCreator`: `iss`,
    /// `aud`, `bid`, `iat`, `nonce`, and the feature's claims).
    public struct StoreKitSignature: Sendable, Equatable {
        public var keyID: String
        public var productID: String
        /// A UUID, used once.
        public var nonce: String
        /// When it was signed (seconds since 1970).
        public var issuedAt: Int64
        /// Any of the customer's transaction ids, or their app transaction's.
        public var transactionID: String?
        public var offerIdentifier: String?
        public var allowIntroductoryOffer: Bool?
    }

    struct SignatureClaims: Decodable {
        var iss: String
        var aud: String
        var bid: String
        var iat: Int64
        var nonce: String
        var productId: String
        var transactionId: String?
        var offerIdentifier: String?
        var allowIntroductoryOffer: Bool?
    }

    /// A signature for StoreKit (`audience`: `IntroductoryOfferDecision.audience` or
    /// `PromotionalOfferDecision.audience`), checked at `now` (milliseconds since 1970): one of the registered
    /// keys, this server's issuer and bundle, the audience asked, a UUID nonce, made at most a day
    /// ago and not in the future; or why not. That the nonce was not used before, and that the
    /// transaction is the customer's, the caller checks.
    public func storeKitSignature(_ jws: String, audience: String, now: Int64) -> Result<StoreKitSignature, Refusal> {
        guard jws.utf8.count <= 4096 else { return .failure(Refusal(why: "the signature is longer than 4096 bytes")) }
        let header: Header
        let claimBytes: [UInt8]
        switch signedBy(Substring(jws)) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let signed): (header, claimBytes) = signed
        }
        guard let claims = try? Wire.decode(SignatureClaims.self, from: claimBytes) else {
            return .failure(Refusal(why: "the signature's claims are not iss, aud, bid, iat, nonce and productId"))
        }
        let seconds = now / 1000
        if claims.iss != issuer { return .failure(Refusal(why: "the signature's issuer (iss) is not this server's --api-issuer")) }
        if claims.aud != audience { return .failure(Refusal(why: "the signature's audience (aud) is '\(claims.aud.prefix(40))', not \(audience)")) }
        if claims.bid != bundleID { return .failure(Refusal(why: "the signature's bundle id (bid) is not the catalog's \(bundleID)")) }
        if claims.iat > seconds + 60 { return .failure(Refusal(why: "the signature was made in the future (iat)")) }
        if claims.iat < seconds - Self.signatureLife { return .failure(Refusal(why: "the signature was made more than a day ago (iat)")) }
        guard claims.nonce.utf8.count == 36, claims.nonce.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) }) else {
            return .failure(Refusal(why: "the signature's nonce is not a UUID"))
        }
        return .success(
            StoreKitSignature(
                keyID: header.kid, productID: claims.productId, nonce: claims.nonce.lowercased(), issuedAt: claims.iat, transactionID: claims.transactionId,
                offerIdentifier: claims.offerIdentifier, allowIntroductoryOffer: claims.allowIntroductoryOffer))
    }
}
