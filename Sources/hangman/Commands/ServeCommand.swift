import HTTPServer
import PackServer
import PackServiceAPI
import SystemCalls

/// `hangman serve`
enum ServeCommand: Command {
    static let spec = CommandSpec(
        name: "hangman serve",
        overview: "Run the pack service over HTTP: accounts, purchases, hints, receipts and pack downloads for many players.",
        usage: ["hangman serve [--listen <HOST:PORT> ...] --data <DIR> [--database <URL>] [--packs <DIR>] [--environment production|sandbox] [--tls-cert <FILE> --tls-key <FILE>] [--test-controls] [--shared-secret-file <FILE>] [LIMITS]"],
        options: [
            .init(
                names: ["--listen"], value: "HOST:PORT",
                help: "An IPv4 address, an IPv6 one in brackets ([::1]:8080, [::]:8080) or a host name (localhost:8080: each address it resolves to) and a port (0 picks a free one); repeat it to listen on several (default 127.0.0.1:8080).",
                repeatable: true),
            .init(names: ["--data"], value: "DIR", help: "The signing key (created 0700), and the accounts and their ledgers in SQLite unless --database."),
            .init(names: ["--database"], value: "URL", help: "The accounts and ledgers: PostgreSQL (postgresql://... or 'host=/socket/dir dbname=...') or a folder for SQLite files (default: --data)."),
            HomeContext.packsOption,
            .init(names: ["--environment"], value: "NAME", help: "production (default) or sandbox: the receipts it signs and accepts."),
            .init(names: ["--tls-cert"], value: "FILE", help: "PEM certificate: serve HTTPS (with --tls-key)."),
            .init(names: ["--tls-key"], value: "FILE", help: "PEM private key of the certificate."),
            .init(names: ["--test-controls"], value: nil, help: "Allow StoreKit Testing's switches over HTTP (/v1/test/...); a sandbox server only."),
            .init(
                names: ["--metrics-listen"], value: "HOST:PORT",
                help: "Serve Prometheus metrics at http://HOST:PORT/metrics, on an address of its own (never the players' port); off by default."),
            .init(
                names: ["--trusted-proxy"], value: "ADDRESS",
                help: "A reverse proxy's address (127.0.0.1, ::1): a request from it is taken to come from the last address of its X-Forwarded-For, for the logs and the rate limits. Repeat it for several.",
                repeatable: true),
            .init(names: ["--log-format"], value: "FORMAT", help: "text (default) or json: one line per request, and per event of the HTTP layer."),
            .init(names: ["--shared-secret-file"], value: "FILE", help: "The shared secret /verifyReceipt asks of a receipt with an auto-renewable subscription (its 'password'), on the file's first line."),
        ] + Limit.allCases.map(\.option),
        discussion: """
            Prints one line, 'listening on http://HOST:PORT', once it accepts connections (one per
            address); then one line per request on standard error: the time (ISO 8601, UTC), the
            client's address, the request id (X-Request-ID as the client sent it, when it is 1 to
            64 letters, digits, '-', '_' or '.', else one made here; echoed in the answer), the
            method, the route, the status, the bytes of the answer, the milliseconds and the
            account (never a token). What the HTTP layer refuses or cuts itself (a malformed
            request, a timeout, a client gone) is logged too, at most 20 lines a second (the
            rest counted, then said in one line).
            SIGINT or SIGTERM stops it after the requests in flight (exit 0). SIGHUP reads
            the packs folder's catalog again: a valid one is served from the next request on
            (requests in flight finish on the old one), an invalid one is refused and logged, and
            the old one kept; with --tls-cert, the certificate and key files are read again too,
            served from the next TLS handshake on (a key that is not the certificate's is refused).
            The limits keep one client from taking the server from the others. When the open-file
            limit cannot hold the connections and open accounts asked, both are lowered to fit and
            the server says so on standard error. Behind a proxy every connection comes from the
            proxy's address: give --connections-per-address 0 and --requests-per-minute 0 there.
            Several servers can share one PostgreSQL database (--database) and one --data folder
            (its signing key): a token or receipt from one is good on the others. A database that
            is away answers 503; the client retries with the same Idempotency-Key.
            """)

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
    }

    /// What one client may take of the server; each an option with its default.
    enum Limit: String, CaseIterable {
        case maxConnections = "--max-connections"
        case connectionsPerAddress = "--connections-per-address"
        case threads = "--threads"
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

        var option: CommandSpec.Option {
            let (value, help, range): (String, String, ClosedRange<Int>) =
                switch self {
                case .maxConnections: ("N", "Connections at once in all (default \(HTTPServerConfiguration().maxConnections)).", 1...1_000_000)
                case .connectionsPerAddress: ("N", "Connections at once from one client address; 0 for none (default \(HTTPServerConfiguration().connectionsPerAddress)).", 0...1_000_000)
                case .threads: ("N", "Threads that serve the connections (default \(HTTPServerConfiguration().threads)).", 1...1024)
                case .idleTimeout: ("SECONDS", "An idle connection is closed after this long (default \(HTTPServerConfiguration().timeoutSeconds)).", 1...86_400)
                case .requestTimeout: ("SECONDS", "A whole request must arrive within this long, however it trickles (default \(HTTPServerConfiguration().requestSeconds)).", 1...86_400)
                case .maxBody: ("BYTES", "Larger request bodies get 413; /verifyReceipt takes 8 MiB (default \(HTTPServerConfiguration().maxBodySize)).", 1_024...(64 << 20))
                case .maxHeaders: ("BYTES", "A request whose path and header fields take more bytes gets 431 (default \(HTTPServerConfiguration().maxHeaderSize)).", 1_024...(1 << 20))
                case .openAccounts: ("N", "Accounts whose ledgers stay open between requests (default \(PackServerConfiguration.defaults.openAccounts)).", 1...1_000_000)
                case .requestsPerMinute: ("N", "Requests a minute per client address, after a burst; 0 for no limit (default \(PackServerConfiguration.defaults.requestsPerMinute)).", 0...10_000_000)
                case .requestBurst: ("N", "Requests at once per client address (default \(PackServerConfiguration.defaults.requestsAtOnce)).", 1...10_000_000)
                case .accountsPerMinute: ("N", "New accounts a minute per client address, after a burst (default \(PackServerConfiguration.defaults.accountsPerMinute)).", 1...10_000_000)
                case .accountBurst: ("N", "New accounts at once per client address (default \(PackServerConfiguration.defaults.accountsAtOnce)).", 1...10_000_000)
                case .databaseConnections: ("N", "Connections to PostgreSQL this server opens at most (default \(PackServerConfiguration.defaults.databaseConnections)).", 1...1_000)
                }
            return .init(names: [rawValue], value: value, help: help, kind: .integer(range))
        }
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        guard let data = parsed.value("--data") else { throw CommandFailure.usage("'serve' needs --data <DIR>: where the accounts and the signing key live") }
        let given = parsed.texts("--listen")
        let listens = try (given.isEmpty ? ["127.0.0.1:8080"] : given).map(listenAddress)
        let environment: ReceiptEnvironment
        switch parsed.value("--environment") ?? "production" {
        case "production": environment = .production
        case "sandbox": environment = .sandbox
        case let other: throw CommandFailure.usage("--environment is production or sandbox, not '\(other)'")
        }
        if parsed.has("--test-controls"), environment == .production {
            throw CommandFailure.usage(
                "--test-controls lets every player approve, refund and clear their own purchases: it is for a sandbox server (add --environment sandbox)")
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
        return Options(
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
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        var configuration = PackServerConfiguration(
            dataFolder: options.data, packsFolder: try EmbeddedStore.packsFolder(options.packs, context: context), environment: options.environment,
            testControls: options.testControls)
        if let database = options.database { configuration.database = database }
        configuration.sharedSecret = try SharedSecretFile.read(options.sharedSecretFile)
        var http = HTTPServerConfiguration()
        for (limit, value) in options.limits {
            switch limit {
            case .maxConnections: http.maxConnections = UInt32(value)
            case .connectionsPerAddress: http.connectionsPerAddress = UInt32(value)
            case .threads: http.threads = UInt32(value)
            case .idleTimeout: http.timeoutSeconds = UInt32(value)
            case .requestTimeout: http.requestSeconds = UInt32(value)
            case .maxBody: http.maxBodySize = value
            case .maxHeaders: http.maxHeaderSize = value
            case .openAccounts: configuration.openAccounts = value
            case .requestsPerMinute: configuration.requestsPerMinute = value
            case .requestBurst: configuration.requestsAtOnce = value
            case .accountsPerMinute: configuration.accountsPerMinute = value
            case .accountBurst: configuration.accountsAtOnce = value
            case .databaseConnections: configuration.databaseConnections = value
            }
        }
        // A socket per client and files per account: as many descriptors as the system allows,
        // shared so that neither runs out.
        if let limit = OpenFileLimit.raiseToHardLimit() {
            let onSQLite = if case .sqlite = configuration.database { true } else { false }
            let budget = DescriptorBudget(
                openFileLimit: Int(min(limit.soft, UInt64(Int.max))), connections: Int(http.maxConnections),
                openAccounts: configuration.openAccounts, perAccount: onSQLite ? 3 : 0,
                reserved: DescriptorBudget.reserved(threads: Int(http.threads), databaseConnections: configuration.databaseConnections))
            http.maxConnections = UInt32(budget.connections)
            configuration.openAccounts = budget.openAccounts
            if let note = budget.note { context.error(TerminalText(escaping: note)) }
        }
        configuration.clock = context.clock
        configuration.crash = context.crash
        let server: PackServer
        do {
            server = try PackServer(configuration)
        } catch {
            throw error.isUnavailable ? CommandFailure(code: .storeRefused, message: error.message) : CommandFailure.invalid(error.message)
        }
        http.largeBodies = PackServer.largeBodies
        if let tls = options.tls {
            http.tls = HTTPServerConfiguration.TLS(certificatePEM: try readText(tls.certificate), keyPEM: try readText(tls.key))
        }
        BrokenPipeSignal.ignore()
        StopSignals.catchIntoFlag()
        ReloadSignal.catchIntoFlag()
        let log = context.errorOutput
        let clock = ContinuousClock()
        let requestLog = RequestLog(json: options.jsonLog, output: log)
        let proxies = options.trustedProxies
        let handler: @Sendable (HTTPRequest) -> HTTPResponse = { given in
            let started = clock.now
            var request = given
            if proxies.contains(request.clientAddress), let client = Self.forwardedClient(request.header("X-Forwarded-For")) {
                request.clientAddress = client
            }
            let id = RequestLog.requestID(request.header("X-Request-ID"))
            var response = server.handle(request)
            response.headers.append(("X-Request-ID", id))
            let elapsed = started.duration(to: clock.now)
            let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            let route = PackServer.routeName(request.path)
            requestLog.request(request, route: route, response: response, id: id, milliseconds: milliseconds)
            server.metrics.request(route: route, status: response.status, seconds: milliseconds / 1000)
            return response
        }
        http.onEvent = { event in
            server.metrics.event()
            requestLog.event(event)
        }
        // One listener per address: each --listen, and each address a host name resolves to.
        var listeners: [HTTPServer] = []
        do {
            for listen in options.listens {
                // A host name listens on every address it resolves to that this machine has
                // (localhost without IPv6 is 127.0.0.1 alone); a numeric address must work.
                let addresses = try HTTPServer.addresses(of: listen.host)
                var failures: [HTTPServerError] = []
                for address in addresses {
                    var at = http
                    at.host = address
                    at.port = listen.port
                    do {
                        listeners.append(try HTTPServer(at, handler: handler))
                    } catch {
                        failures.append(error)
                    }
                }
                if failures.count == addresses.count, let first = failures.first { throw first }
                for failure in failures { context.error("warning: \(failure.message); serving \(listen.host)'s other addresses") }
            }
        } catch {
            for listener in listeners { listener.stop() }
            throw CommandFailure(code: .storeRefused, message: (error as? HTTPServerError)?.message ?? "\(error)")
        }
        for listener in listeners { context.out("listening on \(listener.url)") }
        // Metrics on an address of their own, with the default limits and no TLS.
        let players = Listeners(listeners)
        var metricsServer: HTTPServer?
        if let at = options.metrics {
            var configuration = HTTPServerConfiguration()
            configuration.threads = 2
            do {
                guard let address = try HTTPServer.addresses(of: at.host).first else { throw HTTPServerError("\(at.host) has no address") }
                configuration.host = address
                configuration.port = at.port
                metricsServer = try HTTPServer(configuration) { request in
                    guard request.path == "/metrics" else { return .text(404, "metrics are at /metrics") }
                    guard request.method == "GET" || request.method == "HEAD" else { return .text(405, "/metrics takes GET") }
                    let gauges = server.gauges + [("hangman_http_connections_open", "Connections open on the players' addresses.", Double(players.openConnections))]
                    return HTTPResponse(
                        status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                        body: .bytes(Array(server.metrics.render(gauges: gauges).utf8)))
                }
            } catch {
                for listener in listeners { listener.stop() }
                throw CommandFailure(code: .storeRefused, message: "--metrics-listen: " + ((error as? HTTPServerError)?.message ?? "\(error)"))
            }
            context.out("metrics on \(metricsServer!.url)/metrics")
        }
        while StopSignals.received == nil {
            CurrentProcess.sleep(milliseconds: 50)
            if ReloadSignal.take() {
                // SIGHUP: the packs folder's catalog again, checked first.
                switch server.reloadCatalog() {
                case .success(let catalog):
                    context.error("SIGHUP: serving catalog version \(catalog.catalogVersion) from \(server.configuration.packsFolder)")
                case .failure(let error):
                    context.error("SIGHUP: the catalog in the packs folder is refused, catalog version \(server.catalog.catalogVersion) is still served: \(error.message)")
                }
                // And the TLS certificate and key files again, from the next handshake on.
                if let tls = options.tls {
                    do {
                        let pair = HTTPServerConfiguration.TLS(certificatePEM: try readText(tls.certificate), keyPEM: try readText(tls.key))
                        for listener in listeners { try listener.reloadCertificate(pair) }
                        context.error("SIGHUP: serving the certificate in \(tls.certificate)")
                    } catch let error as HTTPServerError {
                        context.error("SIGHUP: \(error.message)")
                    } catch {
                        context.error("SIGHUP: the certificate is not read again: \((error as? CommandFailure)?.message ?? "\(error)"); the one served is kept")
                    }
                }
            }
        }
        for listener in listeners { listener.stop() }
        metricsServer?.stop()
        context.error("stopped")
        return .ok
    }

    /// The client a trusted proxy names: the last address of `X-Forwarded-For` (the one that proxy
    /// appended; earlier ones are the client's own words), when it is a numeric address.
    static func forwardedClient(_ header: String?) -> String? {
        guard let last = header?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty, last.utf8.count <= 64,
            HTTPServer.isNumericAddress(last)
        else { return nil }
        return last
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

    private static func readText(_ path: String) throws -> String {
        do {
            let bytes = try FileSystem.readFile(atPath: path, limit: 1 << 20)
            guard let text = String(validating: bytes, as: UTF8.self) else { throw CommandFailure.invalid("\(path) is not PEM text") }
            return text
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure.missing("cannot read \(path): \(error)")
        }
    }
}

/// The players' listeners, as the metrics read them.
final class Listeners: Sendable {
    let servers: [HTTPServer]
    init(_ servers: [HTTPServer]) { self.servers = servers }
    var openConnections: Int { servers.reduce(0) { $0 + $1.openConnections } }
}
