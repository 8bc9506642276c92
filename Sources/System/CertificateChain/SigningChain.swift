internal import CGnuTLS
import Base64

/// One X.509 certificate (DER).
public struct Certificate: Sendable, Equatable {
    public var der: [UInt8]

    public init(der: [UInt8]) { self.der = der }

    /// `-----BEGIN CERTIFICATE-----`, base64 in lines of 64.
    public var pem: String {
        let text = Base64.encode(der)
        var lines = ["-----BEGIN CERTIFICATE-----"]
        var rest = Substring(text)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        return (lines + ["-----END CERTIFICATE-----"]).joined(separator: "\n") + "\n"
    }

    /// The first certificate in PEM text.
    public init(pem: [UInt8]) throws(CertificateError) {
        let text = String(decoding: pem, as: UTF8.self)
        guard let begin = text.firstRange(of: "-----BEGIN CERTIFICATE-----"),
            let end = text[begin.upperBound...].firstRange(of: "-----END CERTIFICATE-----")
        else { throw CertificateError(message: "no PEM certificate") }
        let body = text[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
        guard let der = Base64.decode(String(body)) else { throw CertificateError(message: "the PEM certificate is not base64") }
        self.der = der
    }
}

/// A service's signing chain as Apple's libraries expect one: a root CA, an intermediate CA and a
/// signing leaf, all P-256 and X.509 v3, with the extensions OpenSSL's strict checks ask
/// (`basicConstraints` critical and `keyUsage` on the CAs, subject and authority key identifiers)
/// and Apple's markers, the intermediate's 1.2.840.113635.100.6.2.1 and the leaf's
/// 1.2.840.113635.100.6.11.1 (non-critical, ASN.1 NULL). A JWS carries `x5c`: leaf, intermediate,
/// root; a verifier trusts the root.
public struct SigningChain: Sendable {
    public var root: Certificate
    public var intermediate: Certificate
    public var leaf: Certificate
    /// The leaf's key: what signs.
    public var leafKey: ECKey

    public init(root: Certificate, intermediate: Certificate, leaf: Certificate, leafKey: ECKey) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.leafKey = leafKey
    }

    public static let intermediateMarker = "1.2.840.113635.100.6.2.1"
    public static let leafMarker = "1.2.840.113635.100.6.11.1"

    /// A new chain named after `name` (`Hangman Packs`), valid from a day before `now` (seconds
    /// since 1970) for `years`: the root and intermediate keys are used once, to sign, and dropped.
    public static func make(name: String, now: Int, years: Int = 20) throws(CertificateError) -> SigningChain {
        let rootKey = try ECKey.generate()
        let intermediateKey = try ECKey.generate()
        let leafKey = try ECKey.generate()
        let from = now - 86_400
        let until = now + years * 365 * 86_400
        let root = try CertificateBuilder(subject: "\(name) Root CA", key: rootKey, from: from, until: until)
        try root.makeAuthority()
        try root.sign(issuer: root, issuerKey: rootKey)
        let intermediate = try CertificateBuilder(subject: "\(name) Signing CA", key: intermediateKey, from: from, until: until)
        try intermediate.makeAuthority()
        try intermediate.marker(intermediateMarker)
        try intermediate.authorityKey(of: root)
        try intermediate.sign(issuer: root, issuerKey: rootKey)
        let leaf = try CertificateBuilder(subject: "\(name) Store Signing", key: leafKey, from: from, until: until)
        try check(gnutls_x509_crt_set_basic_constraints(leaf.certificate, 0, -1), "basicConstraints")
        try check(gnutls_x509_crt_set_key_usage(leaf.certificate, UInt32(GNUTLS_KEY_DIGITAL_SIGNATURE)), "keyUsage")
        try leaf.subjectKey()
        try leaf.marker(leafMarker)
        try leaf.authorityKey(of: intermediate)
        try leaf.sign(issuer: intermediate, issuerKey: intermediateKey)
        return SigningChain(root: try root.der(), intermediate: try intermediate.der(), leaf: try leaf.der(), leafKey: leafKey)
    }

    /// A compact JWS of `payload` (JSON bytes): header `{"alg":"ES256","x5c":[leaf, intermediate,
    /// root]}` (standard base64 DER), signed by the leaf's key, R‖S.
    public func jws(_ payload: [UInt8]) throws(CertificateError) -> String {
        let chain = [leaf, intermediate, root].map { "\"" + Base64.encode($0.der) + "\"" }.joined(separator: ",")
        let header = Array(#"{"alg":"ES256","x5c":["#.utf8) + Array(chain.utf8) + Array("]}".utf8)
        let signingInput = Base64.encode(header, alphabet: .url) + "." + Base64.encode(payload, alphabet: .url)
        let signature = try leafKey.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64.encode(signature, alphabet: .url)
    }
}

/// A certificate being made.
final class CertificateBuilder {
    let certificate: gnutls_x509_crt_t
    let key: ECKey

    init(subject: String, key: ECKey, from: Int, until: Int) throws(CertificateError) {
        var made: gnutls_x509_crt_t?
        try check(gnutls_x509_crt_init(&made), "cannot make a certificate")
        guard let made else { throw CertificateError(message: "cannot make a certificate") }
        certificate = made
        self.key = key
        try check(gnutls_x509_crt_set_version(made, 3), "version")
        // 16 random bytes, positive (RFC 5280: unique per issuer, at most 20 bytes).
        var random = SystemRandomNumberGenerator()
        var serialBytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        serialBytes[0] = serialBytes[0] & 0x7F | 0x01
        try check(gnutls_x509_crt_set_serial(made, &serialBytes, serialBytes.count), "serial")
        try check(gnutls_x509_crt_set_activation_time(made, time_t(from)), "notBefore")
        try check(gnutls_x509_crt_set_expiration_time(made, time_t(until)), "notAfter")
        var name = Array(subject.utf8)
        try check(gnutls_x509_crt_set_dn_by_oid(made, GNUTLS_OID_X520_COMMON_NAME, 0, &name, UInt32(name.count)), "subject")
        var organization = Array("Hangman Packs".utf8)
        try check(gnutls_x509_crt_set_dn_by_oid(made, GNUTLS_OID_X520_ORGANIZATION_NAME, 0, &organization, UInt32(organization.count)), "subject")
        try check(gnutls_x509_crt_set_key(made, key.key), "key")
    }

    deinit { gnutls_x509_crt_deinit(certificate) }

    /// A CA: basicConstraints CA (critical), keyUsage keyCertSign and cRLSign, subject key id.
    func makeAuthority() throws(CertificateError) {
        try check(gnutls_x509_crt_set_basic_constraints(certificate, 1, -1), "basicConstraints")
        try check(gnutls_x509_crt_set_key_usage(certificate, UInt32(GNUTLS_KEY_KEY_CERT_SIGN | GNUTLS_KEY_CRL_SIGN)), "keyUsage")
        try subjectKey()
    }

    func subjectKey() throws(CertificateError) {
        var id = [UInt8](repeating: 0, count: 64)
        var size = id.count
        try check(gnutls_x509_crt_get_key_id(certificate, 0, &id, &size), "key id")
        try check(gnutls_x509_crt_set_subject_key_id(certificate, id, size), "subjectKeyIdentifier")
    }

    func authorityKey(of issuer: CertificateBuilder) throws(CertificateError) {
        var id = [UInt8](repeating: 0, count: 64)
        var size = id.count
        try check(gnutls_x509_crt_get_subject_key_id(issuer.certificate, &id, &size, nil), "the issuer's key id")
        try check(gnutls_x509_crt_set_authority_key_id(certificate, id, size), "authorityKeyIdentifier")
    }

    /// Apple's marker extension: non-critical, value ASN.1 NULL.
    func marker(_ oid: String) throws(CertificateError) {
        let null: [UInt8] = [0x05, 0x00]
        try check(gnutls_x509_crt_set_extension_by_oid(certificate, oid, null, null.count, 0), "extension \(oid)")
    }

    func sign(issuer: CertificateBuilder, issuerKey: ECKey) throws(CertificateError) {
        try check(gnutls_x509_crt_sign2(certificate, issuer.certificate, issuerKey.key, GNUTLS_DIG_SHA256, 0), "cannot sign the certificate")
    }

    func der() throws(CertificateError) -> Certificate {
        var out = gnutls_datum_t()
        try check(gnutls_x509_crt_export2(certificate, GNUTLS_X509_FMT_DER, &out), "cannot write the certificate")
        return Certificate(der: take(&out))
    }
}
