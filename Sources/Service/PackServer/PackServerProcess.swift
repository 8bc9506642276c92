import HTTPServer
import PackServiceWire
import Synchronization
import Seller
import SystemCalls
import TerminalText

/// How `hangman serve` runs a pack server: where it listens, what it serves HTTPS with, where its
/// metrics go, which proxies it trusts, and its log.
public struct PackServerListening: Sendable {
    /// Each host as given (a host name listens on every address it resolves to) and its port.
    public var addresses: [(host: String, port: UInt16)] = [("127.0.0.1", 8080)]
    /// The players' HTTP layer: limits, threads, timeouts (TLS comes from `tlsFiles`).
    public var http = HTTPServerConfiguration()
    /// The certificate and key files, for HTTPS; read again on ``PackServerProcess/reload()``.
    public var tlsFiles: (certificate: String, key: String)?
    /// Where `/metrics` is served, on an address of its own; `nil`: not served.
    public var metrics: (host: String, port: UInt16)?
    /// Where the seller's dashboard is served, on an address of its own; `nil`: not served.
    public var admin: (host: String, port: UInt16)?
    /// Reverse proxies whose `X-Forwarded-For` names the client.
    public var trustedProxies: [String] = []
    /// One JSON object per log line, not text.
    public var jsonLog = false

    public init() {}
}

/// A pack server with its listeners, as `hangman serve` runs it: each request passes the
/// pipeline (a trusted proxy's client address, the request id, the server, the log line, the
/// metrics); `/metrics` on its own address; SIGHUP's reload of the catalog and the certificate.
public final class PackServerProcess: Sendable {
    public let server: PackServer
    let listening: PackServerListening
    let listeners: [HTTPServer]
    let metricsListener: HTTPServer?
    let adminListener: HTTPServer?
    let log: RequestLog
    /// Sends Server Notifications V2 from the outboxes (with `--notification-url`).
    let sender: BackgroundThread?
    /// Carries out Apple's mass renewal-date extensions, a batch of accounts a second.
    let extender: BackgroundThread?
    /// Folds the players' settled hint rows into their kept numbers (PostgreSQL), every ten seconds.
    let folder: BackgroundThread?

    /// The players' addresses, as URLs.
    public var urls: [String] { listeners.map(\.url) }
    /// Where `/metrics` is, when it is served.
    public var metricsURL: String? { metricsListener.map { $0.url + "/metrics" } }
    /// Where the dashboard is, when it is served.
    public var adminURL: String? { adminListener.map(\.url) }

    /// Starts the server and its listeners; `warn` hears what was lowered or left out to start
    /// (a descriptor budget, an address of a host name that could not be listened on).
    public init(
        _ given: PackServerConfiguration, listening: PackServerListening, log output: @escaping @Sendable ([UInt8]) -> Void,
        warn: (String) -> Void
    ) throws(PackServerError) {
        var configuration = given
        var http = listening.http
        if let note = configuration.fitToOpenFileLimit(&http) { warn(note) }
        let server = try PackServer(configuration)
        for line in server.archivesDiffering { warn("warning: \(line)") }
        self.server = server
        self.listening = listening
        http.largeBodies = PackServer.largeBodies(environment: configuration.environment)
        http.answersAtOnce = PackServer.answersAtOnce
        if let files = listening.tlsFiles { http.tls = try Self.readTLS(files) }
        let log = RequestLog(json: listening.jsonLog, clock: configuration.clock, output: output)
        self.log = log
        let handler = Self.pipeline(server, log: log, trustedProxies: listening.trustedProxies)
        http.onEvent = { event in
            server.metrics.event()
            log.event(event)
        }
        var listeners: [HTTPServer] = []
        do throws(HTTPServerError) {
            for listen in listening.addresses {
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
                for failure in failures { warn("warning: \(failure.message); serving \(listen.host)'s other addresses") }
            }
        } catch {
            for listener in listeners { listener.stop() }
            throw PackServerError(message: error.message, isUnavailable: true)
        }
        self.listeners = listeners
        do throws(HTTPServerError) {
            metricsListener = try listening.metrics.map { at throws(HTTPServerError) in try Self.serveMetrics(server, at: at, players: listeners) }
        } catch {
            for listener in listeners { listener.stop() }
            throw PackServerError(message: "--metrics-listen: " + error.message, isUnavailable: true)
        }
        do throws(HTTPServerError) {
            adminListener = try listening.admin.map { at throws(HTTPServerError) in try Self.serveDashboard(server, at: at, tls: http.tls) }
        } catch {
            for listener in listeners { listener.stop() }
            metricsListener?.stop()
            throw PackServerError(message: "--admin-listen: " + error.message, isUnavailable: true)
        }
        sender = Self.startSender(server, log: log)
        extender = Self.startExtender(server)
        folder = Self.startFolder(server)
    }

    /// The players' numbers' fold (``PlayerAggregates``), on PostgreSQL: a pass every ten
    /// seconds (a pass another server is making is left to it), on the real clock.
    static func startFolder(_ server: PackServer) -> BackgroundThread? {
        guard let ledgers = server.ledgers else { return nil }
        return BackgroundThread(every: 10_000) {
            try? ledgers.foldPlayerNumbers(now: RealtimeClock.millisecondsSince1970())
        }
    }

    /// The mass extensions' worker: a pass every second; whether one may be waiting is read from
    /// the data again every five minutes (another server may have died holding one).
    static func startExtender(_ server: PackServer) -> BackgroundThread? {
        let clock = server.configuration.clock
        let lastLook = Mutex<Int64?>(nil)
        return BackgroundThread(every: 1000) {
            let now = clock.now()
            let look = lastLook.withLock { last -> Bool in
                guard last.map({ now - $0 >= 300_000 }) ?? true else { return false }
                last = now
                return true
            }
            if look { server.lookForMassExtensions() }
            server.carryOutMassExtensions(now: now)
        }
    }

    /// The seller's dashboard on an address of its own (``PackServer/dashboard(_:secure:)``), over
    /// TLS with the players' certificate when the server has one (its cookie then `Secure`).
    static func serveDashboard(
        _ server: PackServer, at: (host: String, port: UInt16), tls: HTTPServerConfiguration.TLS?
    ) throws(HTTPServerError) -> HTTPServer {
        var configuration = HTTPServerConfiguration()
        configuration.threads = 2
        guard let address = try HTTPServer.addresses(of: at.host).first else { throw HTTPServerError("\(at.host) has no address") }
        configuration.host = address
        configuration.port = at.port
        configuration.tls = tls
        let secure = tls != nil
        return try HTTPServer(configuration) { request in server.dashboard(request, secure: secure) }
    }

    /// The notifications' sender: a pass every quarter second; a SQLite folder's outboxes read
    /// from their files first, and again every five minutes.
    static func startSender(_ server: PackServer, log: RequestLog) -> BackgroundThread? {
        guard server.configuration.notificationURL != nil else { return nil }
        server.notificationLog.withLock { $0 = { line in log.note(line) } }
        let clock = server.configuration.clock
        let lastScan = Mutex<Int64?>(nil)
        return BackgroundThread(every: 250) {
            let now = clock.now()
            let scan = lastScan.withLock { last -> Bool in
                guard last.map({ now - $0 >= 300_000 }) ?? true else { return false }
                last = now
                return true
            }
            if scan { server.scanOutboxes() }
            server.deliverDueNotifications(now: now)
        }
    }

    /// Stops the listeners after the requests in flight.
    public func stop() {
        for listener in listeners { listener.stop() }
        metricsListener?.stop()
        adminListener?.stop()
        sender?.stop()
        extender?.stop()
        folder?.stop()
    }

    /// SIGHUP: the packs folder's catalog again (checked first; a refused one leaves the one
    /// served), and the certificate and key files, from the next handshake on. What happened,
    /// a line each, for the server's log.
    public func reload() -> [String] {
        var said: [String] = []
        switch server.reloadCatalog() {
        case .success(let loaded):
            said.append("SIGHUP: serving catalog version \(loaded.catalog.catalogVersion) from \(server.configuration.packsFolder)")
            said += loaded.differing.map { "SIGHUP: \($0)" }
        case .failure(let error):
            said.append("SIGHUP: the catalog in the packs folder is refused, catalog version \(server.catalog.catalogVersion) is still served: \(error.message)")
        }
        if let files = listening.tlsFiles {
            do throws(PackServerError) {
                let pair = try Self.readTLS(files)
                do throws(HTTPServerError) {
                    for listener in listeners + [adminListener].compactMap({ $0 }) { try listener.reloadCertificate(pair) }
                    said.append("SIGHUP: serving the certificate in \(files.certificate)")
                } catch {
                    said.append("SIGHUP: \(error.message)")
                }
            } catch {
                said.append("SIGHUP: the certificate is not read again: \(error.message); the one served is kept")
            }
        }
        return said
    }

    /// One request through the pipeline: the client a trusted proxy names, the request id (the
    /// client's, or one made here; echoed), the server's answer, the log line, the metrics.
    static func pipeline(_ server: PackServer, log: RequestLog, trustedProxies: [String]) -> @Sendable (HTTPRequest) -> HTTPResponse {
        let clock = ContinuousClock()
        return { given in
            let started = clock.now
            var request = given
            if trustedProxies.contains(request.clientAddress), let client = forwardedClient(request.header("X-Forwarded-For")) {
                request.clientAddress = client
            }
            let id = RequestLog.requestID(request.header("X-Request-ID"))
            var response = server.handle(request)
            response.headers.append(("X-Request-ID", id))
            let elapsed = started.duration(to: clock.now)
            let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            let route = response.logRoute ?? PackServer.routeName(request.path)
            log.request(request, route: route, response: response, id: id, milliseconds: milliseconds)
            server.metrics.request(route: route, status: response.status, seconds: milliseconds / 1000)
            return response
        }
    }

    /// The client a trusted proxy names: the last address of `X-Forwarded-For` (the one that proxy
    /// appended; earlier ones are the client's own words), when it is a numeric address.
    public static func forwardedClient(_ header: String?) -> String? {
        guard let header else { return nil }
        let last = header.split(separator: ",").last.map { $0.drop { $0 == " " || $0 == "\t" } }.map { String($0.reversed().drop { $0 == " " || $0 == "\t" }.reversed()) }
        guard let last, !last.isEmpty, last.utf8.count <= 64, HTTPServer.isNumericAddress(last) else { return nil }
        return last
    }

    /// `/metrics` in Prometheus' text format on an address of its own, with the default limits
    /// and no TLS; 404 for any other path, 405 for any method but GET and HEAD.
    static func serveMetrics(_ server: PackServer, at: (host: String, port: UInt16), players: [HTTPServer]) throws(HTTPServerError) -> HTTPServer {
        var configuration = HTTPServerConfiguration()
        configuration.threads = 2
        guard let address = try HTTPServer.addresses(of: at.host).first else { throw HTTPServerError("\(at.host) has no address") }
        configuration.host = address
        configuration.port = at.port
        return try HTTPServer(configuration) { request in
            guard request.path == "/metrics" else { return .text(404, "metrics are at /metrics") }
            guard request.method == "GET" || request.method == "HEAD" else { return .text(405, "/metrics takes GET") }
            let open = players.reduce(0) { $0 + $1.openConnections }
            let gauges = server.gauges + [("hangman_http_connections_open", "Connections open on the players' addresses.", Double(open))]
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                body: .bytes(Array(server.metrics.render(gauges: gauges).utf8)))
        }
    }

    /// The certificate and key files as PEM text.
    static func readTLS(_ files: (certificate: String, key: String)) throws(PackServerError) -> HTTPServerConfiguration.TLS {
        func text(_ path: String) throws(PackServerError) -> String {
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.readFile(atPath: path, limit: 1 << 20)
            } catch {
                throw PackServerError(message: "cannot read \(path): \(error)")
            }
            guard let text = String(validating: bytes, as: UTF8.self) else { throw PackServerError(message: "\(path) is not PEM text") }
            return text
        }
        return HTTPServerConfiguration.TLS(certificatePEM: try text(files.certificate), keyPEM: try text(files.key))
    }
}

extension PackServerConfiguration {
    /// Descriptors an open account holds: a SQLite database, its log and its shared memory (3);
    /// none on PostgreSQL, whose connections the server keeps apart.
    var descriptorsPerAccount: Int {
        if case .sqlite = database { 3 } else { 0 }
    }

    /// A socket per client and files per account: the open-file limit raised as far as the system
    /// allows, and connections and open accounts lowered to fit it when they do not; what was
    /// lowered, or `nil`.
    mutating func fitToOpenFileLimit(_ http: inout HTTPServerConfiguration) -> String? {
        guard let limit = OpenFileLimit.raiseToHardLimit() else { return nil }
        let budget = DescriptorBudget(
            openFileLimit: Int(min(limit.soft, UInt64(Int.max))), connections: Int(http.maxConnections), openAccounts: openAccounts,
            perAccount: descriptorsPerAccount, reserved: DescriptorBudget.reserved(threads: Int(http.threads + http.socketThreads), databaseConnections: databaseConnections))
        http.maxConnections = UInt32(budget.connections)
        openAccounts = budget.openAccounts
        return budget.note.map { TerminalText(escaping: $0).description }
    }
}
