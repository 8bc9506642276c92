internal import CGnuTLS

/// What GnuTLS refused, with its own words.
public struct CertificateError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }

    init(_ what: String, _ code: Int32) {
        message = "\(what): \(String(cString: gnutls_strerror(code)))"
    }

    public init(message: String) { self.message = message }
}

@discardableResult
func check(_ code: Int32, _ what: String) throws(CertificateError) -> Int32 {
    guard code >= 0 else { throw CertificateError(what, code) }
    return code
}

/// Bytes GnuTLS allocated, copied out and freed.
func take(_ datum: inout gnutls_datum_t) -> [UInt8] {
    defer { hp_gnutls_free(datum.data) }
    guard let data = datum.data else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: Int(datum.size)))
}

/// `bytes` lent to GnuTLS as a datum for the length of `body`.
func withDatum<T>(_ bytes: [UInt8], _ body: (inout gnutls_datum_t) throws(CertificateError) -> T) throws(CertificateError) -> T {
    var copy = bytes
    return try copy.withUnsafeMutableBufferPointer { buffer throws(CertificateError) -> T in
        var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
        return try body(&datum)
    }
}

/// An ECDSA P-256 key (GnuTLS, on Nettle): made here, kept as PKCS #8 PEM, and signing as JOSE's
/// ES256 wants it, the raw 64-byte R‖S.
public final class ECKey: @unchecked Sendable {
    let key: gnutls_x509_privkey_t

    private init(key: gnutls_x509_privkey_t) { self.key = key }

    deinit { gnutls_x509_privkey_deinit(key) }

    /// A new random P-256 key.
    public static func generate() throws(CertificateError) -> ECKey {
        var key: gnutls_x509_privkey_t?
        try check(gnutls_x509_privkey_init(&key), "cannot make a key")
        guard let key else { throw CertificateError(message: "cannot make a key") }
        let made = ECKey(key: key)
        let bits = UInt32(GNUTLS_ECC_CURVE_SECP256R1.rawValue) | 0x8000_0000  // GNUTLS_CURVE_TO_BITS
        // GnuTLS writes the private scalar as a DER integer: 33 bytes when its top bit is set, 31
        // when its first byte is 0, where RFC 5915 says exactly 32 (Python's cryptography refuses
        // the others). A key whose scalar is written in 32 bytes is kept; about one in two is.
        for _ in 0..<64 {
            try check(gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA, bits, 0), "cannot make a P-256 key")
            if scalarLength(key) == 32 { return made }
        }
        throw CertificateError(message: "cannot make a P-256 key whose scalar is 32 bytes")
    }

    /// The public key, as SubjectPublicKeyInfo PEM (what a server is given to check signatures).
    public var publicKeyPEM: [UInt8] {
        get throws(CertificateError) {
            var privkey: gnutls_privkey_t?
            try check(gnutls_privkey_init(&privkey), "cannot read the key")
            defer { gnutls_privkey_deinit(privkey) }
            try check(gnutls_privkey_import_x509(privkey, key, 0), "cannot read the key")
            var pubkey: gnutls_pubkey_t?
            try check(gnutls_pubkey_init(&pubkey), "cannot make the public key")
            defer { gnutls_pubkey_deinit(pubkey) }
            try check(gnutls_pubkey_import_privkey(pubkey, privkey, 0, 0), "cannot make the public key")
            var out = gnutls_datum_t()
            try check(gnutls_pubkey_export2(pubkey, GNUTLS_X509_FMT_PEM, &out), "cannot write the public key")
            return take(&out)
        }
    }

    /// A key read from PEM (PKCS #8, unencrypted); refused unless it is P-256.
    public init(pem: [UInt8]) throws(CertificateError) {
        var key: gnutls_x509_privkey_t?
        try check(gnutls_x509_privkey_init(&key), "cannot read a key")
        guard let key else { throw CertificateError(message: "cannot read a key") }
        self.key = key
        _ = try withDatum(pem) { datum throws(CertificateError) in
            try check(gnutls_x509_privkey_import2(key, &datum, GNUTLS_X509_FMT_PEM, nil, UInt32(GNUTLS_PKCS_PLAIN.rawValue)), "not a private key in PEM")
        }
        guard gnutls_x509_privkey_get_pk_algorithm(key) == Int32(GNUTLS_PK_ECDSA.rawValue), curveOf(key) == GNUTLS_ECC_CURVE_SECP256R1
        else { throw CertificateError(message: "the key is not an ECDSA P-256 key") }
    }

    /// PKCS #8 PEM, unencrypted (kept in a file of mode 0600).
    public var pem: [UInt8] {
        get throws(CertificateError) {
            var out = gnutls_datum_t()
            try check(gnutls_x509_privkey_export2_pkcs8(key, GNUTLS_X509_FMT_PEM, nil, UInt32(GNUTLS_PKCS_PLAIN.rawValue), &out), "cannot write the key")
            return take(&out)
        }
    }

    /// The ES256 signature of `message`: SHA-256, ECDSA, R and S as 32 bytes each.
    public func sign(_ message: [UInt8]) throws(CertificateError) -> [UInt8] {
        var privkey: gnutls_privkey_t?
        try check(gnutls_privkey_init(&privkey), "cannot sign")
        defer { gnutls_privkey_deinit(privkey) }
        try check(gnutls_privkey_import_x509(privkey, key, 0), "cannot sign")
        var signature = gnutls_datum_t()
        _ = try withDatum(message) { datum throws(CertificateError) in
            try check(gnutls_privkey_sign_data(privkey, GNUTLS_DIG_SHA256, 0, &datum, &signature), "cannot sign")
        }
        let der = take(&signature)
        var r = gnutls_datum_t(), s = gnutls_datum_t()
        _ = try withDatum(der) { datum throws(CertificateError) in
            try check(gnutls_decode_rs_value(&datum, &r, &s), "cannot read the signature")
        }
        return Self.fixed(take(&r)) + Self.fixed(take(&s))
    }

    /// An integer of the signature as exactly 32 big-endian bytes.
    static func fixed(_ bytes: [UInt8]) -> [UInt8] {
        let trimmed = Array(bytes.drop { $0 == 0 })
        return [UInt8](repeating: 0, count: max(0, 32 - trimmed.count)) + trimmed.suffix(32)
    }
}

/// The length GnuTLS writes the private scalar in.
private func scalarLength(_ key: gnutls_x509_privkey_t) -> Int {
    var curve = GNUTLS_ECC_CURVE_INVALID
    var x = gnutls_datum_t(), y = gnutls_datum_t(), k = gnutls_datum_t()
    guard gnutls_x509_privkey_export_ecc_raw(key, &curve, &x, &y, &k) >= 0 else { return 0 }
    _ = take(&x)
    _ = take(&y)
    return take(&k).count
}

private func curveOf(_ key: gnutls_x509_privkey_t) -> gnutls_ecc_curve_t {
    var curve = GNUTLS_ECC_CURVE_INVALID
    var x = gnutls_datum_t(), y = gnutls_datum_t(), k = gnutls_datum_t()
    guard gnutls_x509_privkey_export_ecc_raw(key, &curve, &x, &y, &k) >= 0 else { return GNUTLS_ECC_CURVE_INVALID }
    _ = take(&x)
    _ = take(&y)
    _ = take(&k)
    return curve
}
