import HTTPServer
import PackServer
import PackServiceAPI
import Seller
import SystemCalls
import TerminalText

/// What `hangman serve` reads from its command line: its limits, the log format, listen addresses.
extension ServeCommand {
    static func options(_ parsed: ParsedArguments) throws -> Options {
        let makeAPIKey = parsed.value("--make-api-key")
        if let kid = makeAPIKey, kid.isEmpty || kid.utf8.count > 64 || !kid.utf8.allSatisfy({ $0 < 0x80 && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")) }) {
            throw CommandFailure.usage("--make-api-key takes a key id of 1 to 64 letters, digits, - and _ (Apple's are 10, like 2X9R4HXF34), not '\(kid.prefix(70))'")
        }
        guard let data = parsed.value("--data") ?? (makeAPIKey == nil ? nil : "") else {
            throw CommandFailure.usage("'serve' needs --data <DIR>: where the accounts and the signing key live")
        }
        let given = parsed.texts("--listen")
        let listens = try (given.isEmpty ? ["127.0.0.1:8080"] : given).map(listenAddress)
        let environment: ReceiptEnvironment
        switch parsed.value("--environment") ?? "production" {
        case "production": environment = .production
        case "sandbox": environment = .sandbox
        case let other: throw CommandFailure.usage("--environment is production or sandbox, not '\(other)'")
        }
        var database: LedgerDatabase?
        if let argument = parsed.value("--database") {
            guard let ledgers = LedgerDatabase(argument: argument) else {
                throw CommandFailure.usage("--database takes postgresql://..., a libpq 'key=value' string (like 'host=/run/postgresql dbname=hangman') or a folder for SQLite ledgers, not '\(argument)'; without it the ledgers are SQLite files under --data")
            }
            database = ledgers
        }
        let tls: (certificate: String, key: String)?
        switch (parsed.value("--tls-cert"), parsed.value("--tls-key")) {
        case (let certificate?, let key?): tls = (certificate, key)
        case (nil, nil): tls = nil
        default: throw CommandFailure.usage("HTTPS needs both --tls-cert <FILE> and --tls-key <FILE>")
        }
        var options = Options(
            data: data, listens: listens, environment: environment, packs: parsed.value("--packs"), database: database,
            testControls: parsed.has("--test-controls"), tls: tls, sharedSecretFile: parsed.value("--shared-secret-file"),
            limits: Dictionary(uniqueKeysWithValues: Limit.allCases.compactMap { limit in parsed.integer(limit.rawValue).map { (limit, $0) } }),
            jsonLog: try logFormat(parsed.value("--log-format")), metrics: try parsed.value("--metrics-listen").map(listenAddress),
            trustedProxies: try parsed.texts("--trusted-proxy").map { given in
                let address = given.hasPrefix("[") && given.hasSuffix("]") ? String(given.dropFirst().dropLast()) : given
                guard HTTPServer.isNumericAddress(address) else {
                    throw CommandFailure.usage("--trusted-proxy takes the proxy's numeric address (127.0.0.1, ::1), not '\(given)'")
                }
                return address
            })
        options.printRootCertificate = parsed.has("--print-root-certificate")
        options.makeAPIKey = makeAPIKey
        options.admin = try parsed.value("--admin-listen").map(listenAddress)
        options.newAdminToken = parsed.has("--admin-token")
        if let role = parsed.value("--admin-role") {
            guard let known = AdminTokens.Role(rawValue: role) else {
                throw CommandFailure.usage("--admin-role is admin (reads and acts) or viewer (reads only), not '\(role)'")
            }
            guard options.newAdminToken else { throw CommandFailure.usage("--admin-role goes with --admin-token: the role of the token it makes") }
            options.adminRole = known
        }
        options.revokeAdminToken = parsed.value("--revoke-admin-token")
        options.listAdminTokens = parsed.has("--list-admin-tokens")
        options.apiIssuer = parsed.value("--api-issuer")
        options.apiKeys = parsed.texts("--api-key")
        options.notificationURL = parsed.value("--notification-url")
        options.notificationRetry = try parsed.value("--notification-retry").map(retryDelays)
        options.notificationPayloadDays = parsed.integer("--notification-payload-days")
        options.publicURLs = parsed.texts("--public-url")
        options.downloadsURL = parsed.value("--downloads-url")
        options.downloadsSecretFile = parsed.value("--downloads-secret")
        options.downloadLinkSeconds = parsed.integer("--download-link-seconds")
        return options
    }

    /// `--notification-retry 2s,5s,30s`: each delay a whole number and a unit (s, m, h, d), in
    /// milliseconds; 1 to 20 of them, none over 30 days.
    static func retryDelays(_ text: String) throws -> [Int64] {
        let units: [Character: Int64] = ["s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000]
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        let delays = parts.map { part -> Int64? in
            guard let unit = part.last.flatMap({ units[$0] }), let number = Int64(part.dropLast()), number > 0, number <= 30 * 86_400_000 / unit else { return nil }
            return number * unit
        }
        guard (1...20).contains(delays.count), delays.allSatisfy({ $0 != nil }) else {
            throw CommandFailure.usage("--notification-retry takes 1 to 20 delays like 2s,5s,30s,1h,12h (s, m, h, d; each at most 30 days), not '\(text.prefix(80))'")
        }
        return delays.compactMap { $0 }
    }

    /// What one client may take of the server; each an option with its default.
    enum Limit: String, CaseIterable {
        case maxConnections = "--max-connections"
        case connectionsPerAddress = "--connections-per-address"
        case threads = "--threads"
        case ioThreads = "--io-threads"
        case idleTimeout = "--idle-timeout"
        case requestTimeout = "--request-timeout"
        case maxBody = "--max-body"
        case maxHeaders = "--max-headers"
        case openAccounts = "--open-accounts"
        case requestsPerMinute = "--requests-per-minute"
        case requestBurst = "--request-burst"
        case accountsPerMinute = "--accounts-per-minute"
        case accountBurst = "--account-burst"
        case databaseConnections = "--database-connections"
        case ipv4Group = "--address-block-v4"
        case ipv6Group = "--address-block-v6"
        case freeTrialsPerDay = "--free-trials-per-day"

        var option: CommandSpec.Option {
            let (value, help, range): (String, String, ClosedRange<Int>) =
                switch self {
                case .maxConnections: ("N", "Connections at once in all (default \(HTTPServerConfiguration().maxConnections)).", 1...1_000_000)
                case .connectionsPerAddress: ("N", "Connections at once from one client address; 0 for none (default \(HTTPServerConfiguration().connectionsPerAddress)).", 0...1_000_000)
                case .threads: ("N", "Threads that answer requests that may wait on the database or a disk (default \(HTTPServerConfiguration().threads)).", 1...1024)
                case .ioThreads: ("N", "Threads that read the requests and send the answers; 0 for one a core (default 0).", 0...1024)
                case .idleTimeout: ("SECONDS", "An idle connection is closed after this long (default \(HTTPServerConfiguration().timeoutSeconds)).", 1...86_400)
                case .requestTimeout: ("SECONDS", "A whole request must arrive within this long, however it trickles (default \(HTTPServerConfiguration().requestSeconds)).", 1...86_400)
                case .maxBody: ("BYTES", "Larger request bodies get 413; /verifyReceipt takes 16 MiB, what a 12 MiB receipt is in base64 (default \(HTTPServerConfiguration().maxBodySize)).", 1_024...(64 << 20))
                case .maxHeaders: ("BYTES", "A request whose path and header fields take more bytes gets 431 (default \(HTTPServerConfiguration().maxHeaderSize)).", 1_024...(1 << 20))
                case .openAccounts: ("N", "Accounts whose ledgers stay open between requests (default \(PackServerConfiguration.defaults.openAccounts)).", 1...1_000_000)
                case .requestsPerMinute: ("N", "Requests a minute per client address, after a burst; 0 for no limit (default \(PackServerConfiguration.defaults.requestsPerMinute)).", 0...10_000_000)
                case .requestBurst: ("N", "Requests at once per client address (default \(PackServerConfiguration.defaults.requestsAtOnce)).", 1...10_000_000)
                case .accountsPerMinute: ("N", "New accounts a minute per client address, after a burst (default \(PackServerConfiguration.defaults.accountsPerMinute)).", 1...10_000_000)
                case .accountBurst: ("N", "New accounts at once per client address (default \(PackServerConfiguration.defaults.accountsAtOnce)).", 1...10_000_000)
                case .databaseConnections: ("N", "Connections to PostgreSQL this server opens at most (default \(PackServerConfiguration.defaults.databaseConnections)).", 1...1_000)
                case .ipv4Group: ("BITS", "The IPv4 prefix whose addresses every per-address limit counts together (default \(PackServerConfiguration.defaults.ipv4GroupPrefix): a /24).", 8...32)
                case .ipv6Group: ("BITS", "The IPv6 prefix whose addresses every per-address limit counts together (default \(PackServerConfiguration.defaults.ipv6GroupPrefix): a /64).", 16...128)
                case .freeTrialsPerDay: ("N", "New accounts a day per address block that may get a free trial; 0 for none (default \(PackServerConfiguration.defaults.freeTrialAccountsPerDay)).", 0...10_000_000)
                }
            return .init(names: [rawValue], value: value, help: help, kind: .integer(range))
        }
    }

    static func logFormat(_ given: String?) throws -> Bool {
        switch given ?? "text" {
        case "text": return false
        case "json": return true
        case let other: throw CommandFailure.usage("--log-format is text or json, not '\(other)'")
        }
    }

    /// `127.0.0.1:8080`, `[::1]:8080`, `localhost:8080`: the host (an IPv6 address without its
    /// brackets) and the port.
    static func listenAddress(_ text: String) throws -> (host: String, port: UInt16) {
        let usage = CommandFailure.usage(
            "--listen takes HOST:PORT: an IPv4 address (127.0.0.1:8080), an IPv6 one in brackets ([::1]:8080) or a host name (localhost:8080), port 0 for a free one; not '\(text)'")
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex, let port = UInt16(text[text.index(after: colon)...]) else { throw usage }
        var host = String(text[..<colon])
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { throw usage }
            host = String(host.dropFirst().dropLast())
            guard host.contains(":") else { throw usage }
        } else if host.contains(":") {
            throw CommandFailure.usage("--listen takes an IPv6 address in brackets, like [::1]:8080, not '\(text)'")
        }
        guard !host.isEmpty, host.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 }) else { throw usage }
        return (host, port)
    }
}
