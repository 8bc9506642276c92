import CivilCalendar
import HTTPServer
import PackServer
import PackServiceAPI
import Seller
import SystemCalls
import TerminalText

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
                names: ["--admin-listen"], value: "HOST:PORT",
                help: "Serve the seller's dashboard (sales, subscriptions, products, exports) at http://HOST:PORT (https:// with --tls-cert, its cookie then Secure), on an address of its own; off by default. It asks for an admin token."),
            .init(names: ["--admin-token"], value: nil, help: "Make a new admin token for the dashboard, print it (once) and exit; only its digest is kept under --data."),
            .init(names: ["--admin-role"], value: "ROLE", help: "With --admin-token: admin (reads every page and acts on customers: grants, refunds; the default) or viewer (reads only)."),
            .init(names: ["--revoke-admin-token"], value: "ID", help: "Revoke the admin token with this id (its dashboard sessions end with it) and exit."),
            .init(names: ["--list-admin-tokens"], value: nil, help: "List the admin tokens made under --data (id, role, made, last used, revoked; never a token) and exit."),
            .init(
                names: ["--metrics-listen"], value: "HOST:PORT",
                help: "Serve Prometheus metrics at http://HOST:PORT/metrics, on an address of its own (never the players' port); off by default."),
            .init(
                names: ["--trusted-proxy"], value: "ADDRESS",
                help: "A reverse proxy's address (127.0.0.1, ::1): a request from it is taken to come from the last address of its X-Forwarded-For, for the logs and the rate limits. Repeat it for several.",
                repeatable: true),
            .init(names: ["--log-format"], value: "FORMAT", help: "text (default) or json: one line per request, and per event of the HTTP layer."),
            .init(names: ["--api-issuer"], value: "ISSUER", help: "The issuer id a developer's backend puts in its App Store Server API tokens (iss), with --api-key."),
            .init(
                names: ["--api-key"], value: "KEY_ID=FILE",
                help: "A key the backend signs App Store Server API tokens with: its id (kid) and its public key (PEM, P-256). Repeat it for several; a key left out is refused.",
                repeatable: true),
            .init(
                names: ["--make-api-key"], value: "KID",
                help: "Make an App Store Server API key pair here and exit: AuthKey_KID.p8 for the backend that signs its tokens, AuthKey_KID.pub.pem for --api-key KID=FILE (no --data needed)."),
            .init(
                names: ["--print-root-certificate"], value: nil,
                help: "Print the root certificate (PEM) of the chain the service signs Apple-shaped data with, made in --data on first use, and exit: what a backend's SignedDataVerifier trusts."),
            .init(
                names: ["--notification-url"], value: "URL",
                help: "Send App Store Server Notifications V2 ({\"signedPayload\": JWS}) of every change to a player's purchases to this http:// or https:// URL, retrying until it answers 2xx."),
            .init(
                names: ["--notification-retry"], value: "DELAYS",
                help: "How long each retry of an unanswered notification waits, comma-separated, each a number and s, m, h or d (default: Apple's 1h,12h,24h,48h,72h); then it is given up."),
            .init(
                names: ["--public-url"], value: "URL",
                help: "An address players reach this service at (repeatable; every server of the service names the same): signed into its key proof, so that a home sends its token to no other address, a relay's included.",
                repeatable: true),
            .init(
                names: ["--notification-payload-days"], value: "DAYS",
                help: "How many days a delivered notification keeps its signed payload, 1 to 3650 (default 180, as Apple's history); then its record and attempts stay.",
                kind: .integer(1...3650)),
            .init(
                names: ["--downloads-url"], value: "URL",
                help: "Where a static file server (nginx with secure_link, contrib/nginx-downloads.conf) serves the archives 'catalog update --downloads' publishes: archive requests are answered with a link there that expires."),
            .init(names: ["--downloads-secret"], value: "FILE", help: "The secret nginx's secure_link_md5 checks the links with, on the file's first line (16 to 128 of A-Z a-z 0-9 - _)."),
            .init(
                names: ["--download-link-seconds"], value: "SECONDS", help: "How long a download link works, 1 to 86400 (default 300); a download started keeps going.",
                kind: .integer(1...86_400)),
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
            served from the next TLS handshake on (a key that is not the certificate's is refused);
            with --api-key, each key file is read again: a key whose file is gone or is no
            longer a key is refused from then on (remove its file and send SIGHUP to revoke it).
            With --notification-url, each change to a player's purchases (a charge, a renewal,
            a refund, a renewal's status or preference, an extension, an expiry) is written in
            the same database transaction as a notification, which one server at a time delivers
            beside the requests, every attempt logged and kept for the notification history.
            The limits keep one client from taking the server from the others. When the open-file
            limit cannot hold the connections and open accounts asked, both are lowered to fit and
            the server says so on standard error. Behind a proxy every connection comes from the
            proxy's address: give --connections-per-address 0 and --requests-per-minute 0 there.
            Several servers can share one PostgreSQL database (--database) and one --data folder
            (its signing key): a token or receipt from one is good on the others. A database that
            is away answers 503; the client retries with the same Idempotency-Key.
            """)

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        if let done = try runChore(options, context: context) { return done }
        let (configuration, listening) = try options.configuration(context: context)
        BrokenPipeSignal.ignore()
        StopSignals.catchIntoFlag()
        ReloadSignal.catchIntoFlag()
        // The request log is written in batches: every 50 ms below (and at 64 KiB), and at stop,
        // so that a request costs no write of its own.
        let errors = context.errorOutput
        let log = BatchedWriter { errors.write($0) }
        let running: PackServerProcess
        do {
            running = try PackServerProcess(configuration, listening: listening, log: { log.append($0) }, warn: { context.error(TerminalText(escaping: $0)) })
        } catch {
            throw error.isUsage ? CommandFailure.usage(error.message)
                : error.isUnavailable ? CommandFailure(code: .storeRefused, message: error.message)
                : error.isStorage ? CommandFailure.storage(error.message) : CommandFailure.invalid(error.message)
        }
        for url in running.urls { context.out("listening on \(url)") }
        if let metrics = running.metricsURL { context.out("metrics on \(metrics)") }
        if let admin = running.adminURL { context.out("dashboard on \(admin)") }
        while StopSignals.received == nil {
            CurrentProcess.sleep(milliseconds: 50)
            log.flush()
            if ReloadSignal.take() {
                var said = running.reload()
                if let issuer = options.apiIssuer {
                    let reloaded = AppStoreAPIKeys.reload(issuer: issuer, keys: options.apiKeys)
                    running.server.replaceAppStoreAPI(reloaded.authorization)
                    said += reloaded.said
                }
                for line in said { context.error(TerminalText(escaping: line)) }
            }
        }
        running.stop()
        log.flush()
        context.error("stopped")
        return .ok
    }
}
