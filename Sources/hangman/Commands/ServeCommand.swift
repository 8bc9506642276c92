import HTTPServer
import PackServer
import PackServiceAPI
import SystemCalls

/// `hangman serve`
enum ServeCommand: Command {
    static let spec = CommandSpec(
        name: "hangman serve",
        overview: "Run the pack service over HTTP: accounts, purchases, hints, receipts and pack downloads for many players.",
        usage: ["hangman serve --listen <HOST:PORT> --data <DIR> [--database <URL>] [--packs <DIR>] [--environment production|sandbox] [--tls-cert <FILE> --tls-key <FILE>] [--test-controls]"],
        options: [
            .init(names: ["--listen"], value: "HOST:PORT", help: "IPv4 address and port (port 0 picks a free one; default 127.0.0.1:8080)."),
            .init(names: ["--data"], value: "DIR", help: "The signing key (created 0700), and the accounts and their ledgers in SQLite unless --database."),
            .init(names: ["--database"], value: "URL", help: "The accounts and ledgers: PostgreSQL (postgresql://... or 'host=/socket/dir dbname=...') or a folder for SQLite files (default: --data)."),
            HomeContext.packsOption,
            .init(names: ["--environment"], value: "NAME", help: "production (default) or sandbox: the receipts it signs and accepts."),
            .init(names: ["--tls-cert"], value: "FILE", help: "PEM certificate: serve HTTPS (with --tls-key)."),
            .init(names: ["--tls-key"], value: "FILE", help: "PEM private key of the certificate."),
            .init(names: ["--test-controls"], value: nil, help: "Allow StoreKit Testing's switches over HTTP (/v1/test/...); a sandbox server only."),
        ],
        discussion: """
            Prints one line, 'listening on http://HOST:PORT', once it accepts connections; then one
            line per request on standard error (method, path, status, milliseconds; never a token).
            SIGINT or SIGTERM stops it after the requests in flight (exit 0).
            Several servers can share one PostgreSQL database (--database) and one --data folder
            (its signing key): a token or receipt from one is good on the others. A database that
            is away answers 503; the client retries with the same Idempotency-Key.
            """)

    struct Options {
        var data: String
        var host: String
        var port: UInt16
        var environment: ReceiptEnvironment
        var packs: String?
        var database: LedgerDatabase?
        var testControls: Bool
        /// The certificate and key files, for HTTPS.
        var tls: (certificate: String, key: String)?
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        guard let data = parsed.value("--data") else { throw CommandFailure.usage("'serve' needs --data <DIR>: where the accounts and the signing key live") }
        let (host, port) = try listenAddress(parsed.value("--listen") ?? "127.0.0.1:8080")
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
            data: data, host: host, port: port, environment: environment, packs: parsed.value("--packs"), database: database,
            testControls: parsed.has("--test-controls"), tls: tls)
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        var configuration = PackServerConfiguration(
            dataFolder: options.data, packsFolder: try EmbeddedStore.packsFolder(options.packs, context: context), environment: options.environment,
            testControls: options.testControls)
        if let database = options.database { configuration.database = database }
        configuration.clock = context.clock
        configuration.crash = context.crash
        let server: PackServer
        do {
            server = try PackServer(configuration)
        } catch {
            throw error.isUnavailable ? CommandFailure(code: .storeRefused, message: error.message) : CommandFailure.invalid(error.message)
        }
        var http = HTTPServerConfiguration()
        http.largeBodies = PackServer.largeBodies
        http.host = options.host
        http.port = options.port
        if let tls = options.tls {
            http.tls = HTTPServerConfiguration.TLS(certificatePEM: try readText(tls.certificate), keyPEM: try readText(tls.key))
        }
        BrokenPipeSignal.ignore()
        StopSignals.catchIntoFlag()
        // A socket per client and files per account: as many descriptors as the system allows.
        OpenFileLimit.raiseToHardLimit()
        let log = context.errorOutput
        let clock = ContinuousClock()
        let listener: HTTPServer
        do {
            listener = try HTTPServer(http) { request in
                let started = clock.now
                let response = server.handle(request)
                let elapsed = started.duration(to: clock.now)
                let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
                let detail = response.logDetail.map { ": \($0)" } ?? ""
                let line = TerminalText(escaping: "\(request.method) \(request.path) \(response.status) \(Int(milliseconds.rounded())) ms\(detail)")
                log.write(line.description + "\n")
                return response
            }
        } catch {
            throw CommandFailure(code: .storeRefused, message: error.message)
        }
        context.out("listening on \(listener.url)")
        while StopSignals.received == nil {
            CurrentProcess.sleep(milliseconds: 50)
        }
        listener.stop()
        context.error("stopped")
        return .ok
    }

    private static func listenAddress(_ text: String) throws -> (String, UInt16) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), colon != text.startIndex else {
            throw CommandFailure.usage("--listen takes HOST:PORT (like 127.0.0.1:8080, or port 0 for a free one), not '\(text)'")
        }
        return (String(text[..<colon]), port)
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
