internal import CGnuTLS

/// An ECDSA P-256 public key that checks ES256 signatures (JOSE's raw R‖S): an App Store Server
/// API key a developer registers, read from its PEM (SubjectPublicKeyInfo).
public final class ES256PublicKey: @unchecked Sendable {
    private let key: gnutls_pubkey_t

    public init(pem: [UInt8]) throws(CertificateError) {
        var key: gnutls_pubkey_t?
        try check(gnutls_pubkey_init(&key), "cannot read a public key")
        guard let key else { throw CertificateError(message: "cannot read a public key") }
        self.key = key
        _ = try withDatum(pem) { datum throws(CertificateError) in
            try check(gnutls_pubkey_import(key, &datum, GNUTLS_X509_FMT_PEM), "not a public key in PEM")
        }
        var curve = GNUTLS_ECC_CURVE_INVALID
        var x = gnutls_datum_t(), y = gnutls_datum_t()
        guard gnutls_pubkey_get_pk_algorithm(key, nil) == Int32(GNUTLS_PK_ECDSA.rawValue),
            gnutls_pubkey_export_ecc_raw(key, &curve, &x, &y) >= 0
        else { throw CertificateError(message: "the key is not an ECDSA P-256 key") }
        _ = take(&x)
        _ = take(&y)
        guard curve == GNUTLS_ECC_CURVE_SECP256R1 else { throw CertificateError(message: "the key is not on P-256") }
    }

    /// The public half of `key`.
    public convenience init(of key: ECKey) throws(CertificateError) {
        var out = gnutls_datum_t()
        var pubkey: gnutls_pubkey_t?
        try check(gnutls_pubkey_init(&pubkey), "cannot export a public key")
        defer { gnutls_pubkey_deinit(pubkey) }
        var privkey: gnutls_privkey_t?
        try check(gnutls_privkey_init(&privkey), "cannot export a public key")
        defer { gnutls_privkey_deinit(privkey) }
        try check(gnutls_privkey_import_x509(privkey, key.key, 0), "cannot export a public key")
        try check(gnutls_pubkey_import_privkey(pubkey, privkey, 0, 0), "cannot export a public key")
        try check(gnutls_pubkey_export2(pubkey, GNUTLS_X509_FMT_PEM, &out), "cannot export a public key")
        try self.init(pem: take(&out))
    }

    deinit { gnutls_pubkey_deinit(key) }

    /// Whether `signature` (64 bytes, R‖S) signs `message` with SHA-256.
    public func verify(_ message: [UInt8], signature: [UInt8]) -> Bool {
        guard signature.count == 64 else { return false }
        var der = gnutls_datum_t()
        let encoded: Bool = (try? withDatum(Array(signature.prefix(32))) { r throws(CertificateError) -> Bool in
            try withDatum(Array(signature.suffix(32))) { s throws(CertificateError) -> Bool in gnutls_encode_rs_value(&der, &r, &s) >= 0 }
        }) ?? false
        guard encoded else { return false }
        let signatureDER = take(&der)
        return (try? withDatum(message) { data throws(CertificateError) -> Bool in
            try withDatum(signatureDER) { sig throws(CertificateError) -> Bool in
                gnutls_pubkey_verify_data2(key, GNUTLS_SIGN_ECDSA_SHA256, 0, &data, &sig) >= 0
            }
        }) ?? false
    }
}
