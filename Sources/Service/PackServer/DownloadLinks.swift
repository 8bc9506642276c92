import Base64
import Signing

/// Links to pack archives on a static file server (nginx with `secure_link`), so that archive
/// bytes never pass through the API server: each link names the archive by its SHA-256 (a new
/// version is a new file), expires, and works only with the key of the account it was made for.
///
/// nginx checks a link as its `secure_link_md5` is written in `contrib/nginx-downloads.conf`:
/// `"$secure_link_expires$uri$http_hangman_download_key <secret>"`, the MD5 in base64url in the
/// `md5` argument and the expiry (Unix seconds) in `expires`.
///
/// ```swift
/// let links = try DownloadLinks(base: "https://downloads.example/packs", secret: "...")
/// let url = links.link(sha256: digest, account: "4f2a...", now: now)
/// ```
public struct DownloadLinks: Sendable {
    /// Where the archives are, without a trailing slash: `https://downloads.example/packs`.
    public let base: String
    /// How long a link works after it is made, in milliseconds.
    public var lifetime: Int64
    /// The path part of `base` (`/packs`): the start of nginx's `$uri`.
    private let path: String
    private let secret: String

    /// A link lives 5 minutes unless told otherwise: long enough to start a download (a started
    /// one is not checked again), short enough that a copied link soon stops working.
    public static let defaultLifetime: Int64 = 300_000

    /// `base` is an `http://` or `https://` URL with a path and no query; `secret` is 16 to 128 of
    /// `A-Z a-z 0-9 - _` (it is written into nginx's configuration as it is).
    public init(base: String, secret: String, lifetime: Int64 = Self.defaultLifetime) throws(DownloadLinkError) {
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        guard let scheme = ["http://", "https://"].first(where: { trimmed.hasPrefix($0) }) else {
            throw DownloadLinkError("--downloads-url takes an http:// or https:// URL, not '\(base.prefix(80))'")
        }
        let rest = trimmed.dropFirst(scheme.count)
        guard let slash = rest.firstIndex(of: "/"), !rest[..<slash].isEmpty, !rest.contains("?"), !rest.contains("#"), base.utf8.count <= 1024 else {
            throw DownloadLinkError("--downloads-url names a host and the path the archives are under, without a query: like https://downloads.example/packs, not '\(base.prefix(80))'")
        }
        guard (16...128).contains(secret.utf8.count),
            secret.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D || $0 == 0x5F })
        else {
            throw DownloadLinkError("the downloads secret is 16 to 128 letters, digits, '-' or '_' (it goes into nginx's configuration as it is)", inSecret: true)
        }
        self.base = trimmed
        self.path = String(rest[slash...])
        self.secret = secret
        self.lifetime = lifetime
    }

    /// The key that ties links to `account`: the client sends it as `Hangman-Download-Key`, and a
    /// link made for another account does not match it.
    public func key(account: String) -> String {
        Base64.encode(HMACSHA256.authenticate(Array("hangman download \(account)".utf8), key: Array(secret.utf8)), alphabet: .url)
    }

    /// A link to the archive whose SHA-256 is `sha256` (its file `<sha256>.wordpack`), for `account`,
    /// working until `now` plus the lifetime.
    public func link(sha256: String, account: String, now: Int64) -> String {
        let file = "/" + sha256 + ".wordpack"
        let expires = (now + lifetime) / 1000
        let token = Base64.encode(MD5.hash(Array("\(expires)\(path)\(file)\(key(account: account)) \(secret)".utf8)), alphabet: .url)
        return base + file + "?md5=" + token + "&expires=\(expires)"
    }
}

/// Why a downloads setting cannot be used: a sentence for the operator.
public struct DownloadLinkError: Error, Sendable {
    public let message: String
    /// The secret is what is wrong (the file's contents), not the URL (the command line).
    public let inSecret: Bool
    init(_ message: String, inSecret: Bool = false) {
        self.message = message
        self.inSecret = inSecret
    }
}
