import CertificateChain
import CivilCalendar
import HTTPServer
import PackServer
import PackServiceAPI
import Seller
import SystemCalls
import TerminalText

/// What `hangman serve` is asked: its options, the chores it does and exits (admin tokens, the
/// root certificate), and the server's configuration built from them.
extension ServeCommand {
    struct Options {
        var data: String
        /// Where to listen: each host as given (resolved when the server starts) and its port.
        var listens: [(host: String, port: UInt16)]
        var environment: ReceiptEnvironment
        var packs: String?
        var database: LedgerDatabase?
        var testControls: Bool
        /// The certificate and key files, for HTTPS.
        var tls: (certificate: String, key: String)?
        /// The file holding the shared secret for `/verifyReceipt`.
        var sharedSecretFile: String?
        /// The limits given, each as a number (the others keep their defaults).
        var limits: [Limit: Int]
        /// One JSON object per log line, not text.
        var jsonLog: Bool
        /// Where `/metrics` is served, when it is.
        var metrics: (host: String, port: UInt16)?
        /// Reverse proxies whose X-Forwarded-For names the client.
        var trustedProxies: [String] = []
        /// `--print-root-certificate`: print the signing chain's root and exit.
        var printRootCertificate = false
        /// `--make-api-key KID`: make an App Store Server API key pair in the current folder and exit.
        var makeAPIKey: String?
        /// `--admin-listen`, `--admin-token` (make one and exit), `--revoke-admin-token ID`.
        var admin: (host: String, port: UInt16)?
        var newAdminToken = false
        var adminRole = AdminTokens.Role.admin
        var revokeAdminToken: String?
        var listAdminTokens = false
        /// `--api-issuer` and `--api-key KID=FILE`: who may call the App Store Server API routes.
        var apiIssuer: String?
        var apiKeys: [String] = []
        /// `--notification-url` and `--notification-retry` (milliseconds each).
        var notificationURL: String?
        var notificationRetry: [Int64]?
        var notificationPayloadDays: Int?
        /// `--public-url`, repeated.
        var publicURLs: [String] = []
        /// `--downloads-url`, `--downloads-secret` and `--download-link-seconds`.
        var downloadsURL: String?
        var downloadsSecretFile: String?
        var downloadLinkSeconds: Int?
    }

    /// A chore that is done and exits (`--list-admin-tokens`, `--admin-token`,
    /// `--revoke-admin-token`, `--print-root-certificate`): its exit status; `nil` to serve.
    static func runChore(_ options: Options, context: CommandContext) throws -> ExitCode? {
        if let kid = options.makeAPIKey {
            try makeAPIKey(kid, context: context)
            return .ok
        }
        if options.listAdminTokens {
            do {
                let tokens = AdminTokens(dataFolder: options.data)
                let entries = try tokens.entries()
                let uses = try tokens.lastUses()
                if entries.isEmpty { context.out("No admin token: 'hangman serve --data \(options.data) --admin-token' makes one.") }
                for entry in entries {
                    let made = UTCDateTime(millisecondsSince1970: entry.made).dateTimeText
                    let used = uses[entry.id].map { "last used \(UTCDateTime(millisecondsSince1970: $0).dateTimeText)" } ?? "never used"
                    context.out(TerminalText(trusted: "\(entry.id)  \(entry.role.rawValue)  made \(made)  \(used)" + (entry.revoked.map { "  revoked \(UTCDateTime(millisecondsSince1970: $0).dateTimeText)" } ?? "  live")))
                }
            } catch {
                throw CommandFailure.storage(error.message)
            }
            return .ok
        }
        if options.newAdminToken || options.revokeAdminToken != nil {
            do {
                try FileSystem.createFolder(atPath: options.data, permissions: 0o700)
                let tokens = AdminTokens(dataFolder: options.data)
                if let id = options.revokeAdminToken {
                    guard try tokens.revoke(id, now: context.clock.now()) else {
                        throw CommandFailure.usage("no live admin token '\(id)' in \(tokens.path)")
                    }
                    context.out("Revoked admin token \(id): it no longer opens the dashboard.")
                } else {
                    let made = try tokens.issue(now: context.clock.now(), role: options.adminRole)
                    context.out(TerminalText(trusted: made.token))
                    context.error("Admin token \(made.id) (\(options.adminRole == .admin ? "an admin: reads and acts" : "a viewer: reads only")), kept in \(tokens.path) as a digest: keep the token secret; 'serve --data \(options.data) --revoke-admin-token \(made.id)' revokes it.")
                }
            } catch let error as ServiceError {
                throw CommandFailure.storage(error.message)
            } catch let error as FileError {
                throw CommandFailure.storage("cannot make the data folder \(options.data): \(error)")
            }
            return .ok
        }
        if options.printRootCertificate {
            do {
                try FileSystem.createFolder(atPath: options.data, permissions: 0o700)
                let chain = try PackServer.appStoreChain(dataFolder: options.data, now: context.clock.now())
                context.out(TerminalText(trusted: chain.root.pem), terminator: "")
            } catch let error as ServiceError {
                throw CommandFailure.storage(error.message)
            } catch {
                throw CommandFailure.storage("cannot make the data folder \(options.data): \(error)")
            }
            return .ok
        }
        return nil
    }
}

extension ServeCommand {
    /// `--make-api-key KID`: a P-256 key pair for the App Store Server API, as App Store Connect
    /// hands one out: `AuthKey_KID.p8` (PKCS #8, 0600) for the backend that signs its tokens, and
    /// `AuthKey_KID.pub.pem` for the servers (`--api-key KID=FILE`). Nothing is written over.
    static func makeAPIKey(_ kid: String, context: CommandContext) throws {
        let (privatePath, publicPath) = ("AuthKey_\(kid).p8", "AuthKey_\(kid).pub.pem")
        for path in [privatePath, publicPath] where FileSystem.exists(atPath: path) {
            throw CommandFailure.cannotCreate("\(path) is here already: keep it, or move it away to make a new key")
        }
        do {
            let key = try ECKey.generate()
            try FileSystem.writeAtomically(try key.pem, toPath: privatePath, permissions: 0o600)
            try FileSystem.writeAtomically(try key.publicKeyPEM, toPath: publicPath, permissions: 0o644)
        } catch let error as CertificateError {
            throw CommandFailure.storage("cannot make the key: \(error.message)")
        } catch {
            throw CommandFailure.storage("cannot write the key files here: \(error)")
        }
        context.outWrapped(
            "Made the App Store Server API key \(kid): \(privatePath) is the backend's (Apple's library signs its tokens with it; keep it secret), \(publicPath) is the servers'.")
        context.out("  hangman serve ... --api-issuer ISSUER --api-key \(kid)=\(publicPath)")
        context.out("  AppStoreServerAPIClient(open('\(privatePath)','rb').read(), '\(kid)', ISSUER, BUNDLE_ID, Environment.SANDBOX)")
    }
}

extension ServeCommand.Options {
    /// The server's configuration and where it listens, from the options given.
    func configuration(context: CommandContext) throws -> (PackServerConfiguration, PackServerListening) {
        let options = self
        var configuration = PackServerConfiguration(
            dataFolder: options.data, packsFolder: try EmbeddedStore.packsFolder(options.packs, context: context), environment: options.environment,
            testControls: options.testControls)
        if let database = options.database { configuration.database = database }
        configuration.sharedSecret = try SharedSecretFile.read(options.sharedSecretFile)
        configuration.appStoreAPI = try AppStoreAPIKeys.read(issuer: options.apiIssuer, keys: options.apiKeys)
        configuration.notificationURL = options.notificationURL
        if let retry = options.notificationRetry { configuration.notificationRetry = retry }
        if let days = options.notificationPayloadDays { configuration.notificationPayloadDays = days }
        configuration.publicURLs = options.publicURLs.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        configuration.downloads = try SecretFile.downloads(url: options.downloadsURL, secretFile: options.downloadsSecretFile, seconds: options.downloadLinkSeconds)
        configuration.clock = context.clock
        configuration.crash = context.crash
        var listening = PackServerListening()
        listening.addresses = options.listens
        listening.tlsFiles = options.tls
        listening.metrics = options.metrics
        listening.admin = options.admin
        listening.trustedProxies = options.trustedProxies
        listening.jsonLog = options.jsonLog
        for (limit, value) in options.limits {
            switch limit {
            case .maxConnections: listening.http.maxConnections = UInt32(value)
            case .connectionsPerAddress: listening.http.connectionsPerAddress = UInt32(value)
            case .threads: listening.http.threads = UInt32(value)
            case .ioThreads: listening.http.ioThreads = UInt32(value)
            case .idleTimeout: listening.http.timeoutSeconds = UInt32(value)
            case .requestTimeout: listening.http.requestSeconds = UInt32(value)
            case .maxBody: listening.http.maxBodySize = value
            case .maxHeaders: listening.http.maxHeaderSize = value
            case .openAccounts: configuration.openAccounts = value
            case .requestsPerMinute: configuration.requestsPerMinute = value
            case .requestBurst: configuration.requestsAtOnce = value
            case .accountsPerMinute: configuration.accountsPerMinute = value
            case .accountBurst: configuration.accountsAtOnce = value
            case .databaseConnections: configuration.databaseConnections = value
            case .ipv4Group: configuration.ipv4GroupPrefix = value
            case .ipv6Group: configuration.ipv6GroupPrefix = value
            case .freeTrialsPerDay: configuration.freeTrialAccountsPerDay = value
            }
        }
        return (configuration, listening)
    }
}
