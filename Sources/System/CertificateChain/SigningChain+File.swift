import SystemCalls

extension SigningChain {
    /// The chain kept in one file (mode 0600): the leaf's key, then the leaf, the intermediate and
    /// the root certificates, PEM. Made on first use; of two processes making it at once, one
    /// file wins and both use it. Anything at `path` that is not such a file is refused.
    public static func loadOrCreate(at path: String, name: String, now: Int) throws(CertificateError) -> SigningChain {
        if let kept = try read(at: path) { return kept }
        let made = try make(name: name, now: now)
        do {
            try FileSystem.createNew(atPath: path, containing: try made.fileContents, permissions: 0o600)
        } catch {
            // Another server of the folder made it first: its chain is the one.
            guard let kept = try read(at: path) else { throw CertificateError(message: "cannot keep the signing chain at \(path): \(error)") }
            return kept
        }
        return made
    }

    /// The chain at `path`, or `nil` when there is no file.
    public static func read(at path: String) throws(CertificateError) -> SigningChain? {
        let bytes: [UInt8]
        do {
            guard let status = try FileSystem.status(atPath: path, followingLinks: false) else { return nil }
            guard status.kind == .regular else { throw CertificateError(message: "\(path) is not a regular file") }
            bytes = try FileSystem.readFile(atPath: path, limit: 64 << 10)
        } catch let error as CertificateError {
            throw error
        } catch {
            throw CertificateError(message: "cannot read the signing chain \(path): \(error)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let certificates = text.split(separator: "-----END CERTIFICATE-----", omittingEmptySubsequences: true)
            .filter { $0.contains("-----BEGIN CERTIFICATE-----") }
        guard certificates.count == 3 else { throw CertificateError(message: "\(path) does not hold a key and three certificates") }
        let parsed = try certificates.map { part throws(CertificateError) in try Certificate(pem: Array((part + "-----END CERTIFICATE-----").utf8)) }
        let key = try ECKey(pem: bytes)
        return SigningChain(root: parsed[2], intermediate: parsed[1], leaf: parsed[0], leafKey: key)
    }

    /// The file's text: the key, then leaf, intermediate, root.
    var fileContents: [UInt8] {
        get throws(CertificateError) {
            try leafKey.pem + Array((leaf.pem + intermediate.pem + root.pem).utf8)
        }
    }
}
