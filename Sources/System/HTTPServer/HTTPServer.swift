internal import CMicroHTTPD
import Synchronization
import SystemCalls

/// What the server accepts: where it listens, and the limits every connection is held to.
public struct HTTPServerConfiguration: Sendable {
    /// An IPv4 address to listen on (`127.0.0.1`, `0.0.0.0`).
    public var host = "127.0.0.1"
    /// 0 asks the system for a free port; `HTTPServer.port` tells which.
    public var port: UInt16 = 0
    /// Larger request bodies get 413.
    public var maxBodySize = 64 << 10
    /// Paths allowed a larger body than `maxBodySize` (`/verifyReceipt`: a receipt of many
    /// transactions), how large, and the answer to a body past that.
    public var largeBodies: [String: BodyLimit] = [:]
    /// A request whose path and header fields (each name, `: `, value and line end) take more bytes
    /// gets 431; the connection's memory pool is sized to them. 8 KiB,
    /// as Apache's per field and nginx's large header buffer: libmicrohttpd clears the whole pool
    /// after every request, so a larger default costs every request (32 KiB made `GET /v1/health`
    /// some 15% slower).
    public var maxHeaderSize = 8 << 10
    /// A connection idle this long is closed: a slow client cannot hold a thread.
    public var timeoutSeconds: UInt32 = 30
    /// A whole request (line, headers, body) must arrive within this long of the connection
    /// opening or of the previous response being handed to the socket, however steadily a client
    /// trickles bytes; past it the connection is shut down. Sending a response has no such limit.
    /// The wait for the next request counts too, so keep it above `timeoutSeconds`.
    public var requestSeconds: UInt32 = 60
    /// Connections at once from one address (0: no limit, for a server behind a proxy, where every
    /// connection comes from the proxy's address).
    public var connectionsPerAddress: UInt32 = 32
    /// Connections at once in all. An idle connection costs a descriptor and a few kilobytes, not
    /// a thread.
    public var maxConnections: UInt32 = 1024
    /// Threads that run the handler for a request that may wait (on a database, a disk): its
    /// connection is set aside meanwhile (`MHD_suspend_connection`), and the threads that read
    /// and write the sockets go on with the others.
    public var threads: UInt32 = 16
    /// Threads that wait on the sockets (epoll), read the requests and send the answers; the
    /// connections are shared among them. 0: one a core. Few, so that each wakes for many
    /// requests at once, as nginx's workers do.
    public var ioThreads: UInt32 = 0
    /// `ioThreads`, or the machine's cores online when it is 0.
    public var socketThreads: UInt32 {
        ioThreads > 0 ? ioThreads : UInt32(Parallel.cores)
    }
    /// Requests that never wait (answered from memory: a liveness probe), by method and path:
    /// answered on the thread that read them, without the hand-off to a handler thread. Every
    /// other request goes to one of `threads`.
    public var answersAtOnce: (@Sendable (_ method: String, _ path: String) -> Bool)?
    /// Query parameters a request target may carry; more get 414.
    public var maxQueryParameters: UInt32 = 64
    /// HTTPS with this certificate and key (PEM text).
    public var tls: TLS?
    /// Told, in a sentence, what the HTTP layer refused or cut before or after a handler: a
    /// request refused before its handler (its header fields, its framing, its body's size), one
    /// that ran out of time or failed, a client gone mid-request, and libmicrohttpd's own
    /// messages (a malformed request it answered itself, a connection over a limit). Called on
    /// the server's threads; the caller keeps a flood from filling a disk.
    public var onEvent: (@Sendable (String) -> Void)?

    public struct TLS: Sendable {
        public var certificatePEM: String
        public var keyPEM: String

        public init(certificatePEM: String, keyPEM: String) {
            self.certificatePEM = certificatePEM
            self.keyPEM = keyPEM
        }
    }

    public init() {}
}

/// An HTTP/1.1 server on libmicrohttpd: a few threads (one a core) wait on every socket with
/// epoll, read each request in full (within the limits) and send its answer; `handler` runs on a
/// pool of threads of its own while the request's connection is set aside, so a slow or idle
/// client holds a descriptor, never a thread, and a handler that waits holds none of the threads
/// that serve the sockets.
///
/// ```swift
/// let server = try HTTPServer(HTTPServerConfiguration()) { request in .text(200, "hello") }
/// print("listening on \(server.url)")
/// server.stop()  // waits for the requests in flight
/// ```
public final class HTTPServer: @unchecked Sendable {
    private let daemon: OpaquePointer
    private let state: Unmanaged<ServerState>
    private let keptStrings: [UnsafeMutablePointer<CChar>]
    private let stopped = Mutex(false)
    /// The port the server listens on.
    public let port: UInt16
    /// `http://HOST:PORT` or `https://HOST:PORT`.
    public let url: String

    /// Starts listening (`MHD_start_daemon_va`); throws when the address is taken or invalid.
    public init(_ configuration: HTTPServerConfiguration, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(HTTPServerError) {
        guard let watchdog = hangman_watch_start(configuration.requestSeconds) else {
            throw HTTPServerError("cannot start the thread that times out slow requests")
        }
        guard let handlers = ThreadPool(threads: Int(max(1, configuration.threads))) else {
            hangman_watch_stop(watchdog)
            throw HTTPServerError("cannot start the threads that run the handler")
        }
        let state = Unmanaged.passRetained(ServerState(
            handler: handler, maxBodySize: configuration.maxBodySize, maxHeaderSize: configuration.maxHeaderSize, largeBodies: configuration.largeBodies,
            maxQueryParameters: Int(configuration.maxQueryParameters), watchdog: watchdog, onEvent: configuration.onEvent,
            handlers: handlers, answersAtOnce: configuration.answersAtOnce))
        // epoll, not select(): a socket above descriptor 1023 is served too, and waiting costs
        // nothing per idle connection. Suspending a connection while its handler runs needs the
        // inter-thread channel (ITC) that wakes its thread when the answer is ready.
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        // libmicrohttpd may keep pointers to the key and certificate: they live as long as the server.
        let strings = configuration.tls.map { [Self.cString($0.keyPEM), Self.cString($0.certificatePEM)] } ?? []
        // The certificate is chosen at each handshake (shim.h): read and checked here, served once the port is known.
        var certificate: UnsafeMutablePointer<hangman_certificate>?
        if let tls = configuration.tls {
            var error: Int32 = 0
            certificate = hangman_tls_parse(tls.certificatePEM, tls.keyPEM, &error)
            if certificate == nil {
                handlers.stop()
                hangman_watch_stop(watchdog)
                state.release()
                for string in strings { string.deallocate() }
                throw HTTPServerError(
                    "cannot listen on \(Self.hostPort(configuration.host, configuration.port)): the TLS key and certificate do not load (\(String(cString: gnutls_strerror(error))))")
            }
        }
        let started = hangman_MHD_start(
            flags, configuration.host, configuration.port, accessHandler, state.toOpaque(), requestCompleted, state.toOpaque(),
            configuration.maxHeaderSize + 2048, configuration.timeoutSeconds, configuration.connectionsPerAddress,
            configuration.maxConnections, configuration.socketThreads, max(1, configuration.maxQueryParameters),
            strings.first, strings.last, watchdog, configuration.onEvent == nil ? nil : state.takeUnretainedValue().logger)
        state.takeUnretainedValue().started(started != nil)
        guard let started else {
            handlers.stop()
            hangman_watch_stop(watchdog)
            state.release()
            for string in strings { string.deallocate() }
            throw HTTPServerError(
                "cannot listen on \(Self.hostPort(configuration.host, configuration.port)): "
                    + Self.listenFailure(configuration.host, configuration.port, tls: configuration.tls != nil))
        }
        daemon = started
        self.state = state
        keptStrings = strings
        port = hangman_MHD_bound_port(started)
        if let certificate { _ = hangman_tls_serve(UInt32(port), certificate) }
        isTLS = certificate != nil
        url = (configuration.tls == nil ? "http" : "https") + "://\(Self.hostPort(configuration.host, port))"
    }

    /// Whether this listener serves HTTPS.
    private let isTLS: Bool

    /// Serves another certificate and key (PEM text) from the next TLS handshake on; throws, and
    /// keeps the one served, when they do not load or the key is not the certificate's.
    public func reloadCertificate(_ tls: HTTPServerConfiguration.TLS) throws(HTTPServerError) {
        guard isTLS else { throw HTTPServerError("\(url) serves plain HTTP: there is no certificate to reload") }
        var error: Int32 = 0
        guard let certificate = hangman_tls_parse(tls.certificatePEM, tls.keyPEM, &error) else {
            throw HTTPServerError("the new certificate and key do not load (\(String(cString: gnutls_strerror(error)))): the one served is kept")
        }
        _ = hangman_tls_serve(UInt32(port), certificate)
    }

    /// Requests read and waiting for a handler thread.
    public var queuedRequests: Int { state.takeUnretainedValue().handlers.queued }

    /// The connections open now.
    public var openConnections: Int { Int(hangman_open_connections(daemon)) }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    static func hostPort(_ host: String, _ port: UInt16) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Why the daemon could not listen, as `bind(2)` says it now.
    static func listenFailure(_ host: String, _ port: UInt16, tls: Bool) -> String {
        switch hangman_bind_error(host, port) {
        case EADDRINUSE: return "the port is taken (another server listens there)"
        case EADDRNOTAVAIL: return "\(host) is not an address of this machine"
        case EACCES: return "ports below 1024 need privileges this process lacks"
        case EINVAL: return "\(host) is not a numeric IPv4 or IPv6 address"
        case EAFNOSUPPORT: return "this machine has no \(host.contains(":") ? "IPv6" : "IPv4")"
        case 0 where tls: return "the TLS key and certificate do not load (or do not match)"
        case let code: return code == 0 ? "libmicrohttpd could not start" : Errno(rawValue: code).description
        }
    }

    /// Whether `text` is a numeric IPv4 or IPv6 address (no name is looked up).
    public static func isNumericAddress(_ text: String) -> Bool {
        var storage = sockaddr_storage()
        return hangman_socket_address(text, 0, &storage) == 0
    }

    /// The numeric addresses to listen on for `host`: itself when it is numeric (IPv4, or IPv6
    /// without brackets), else what it resolves to (`localhost`: 127.0.0.1 and ::1), each once.
    public static func addresses(of host: String) throws(HTTPServerError) -> [String] {
        var storage = sockaddr_storage()
        if hangman_socket_address(host, 0, &storage) == 0 { return [host] }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPServerError("cannot listen on \(host): it is not an address, and it does not resolve (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(first) }
        var found: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !found.contains(address) { found.append(address) }
            }
            entry = current.pointee.ai_next
        }
        return found
    }

    /// Answers every request that begins from now on 503 ("the server is stopping") and closes
    /// its connection, waits up to `grace` seconds for the requests in flight to finish, then
    /// stops (`MHD_stop_daemon`, which closes the listening socket). Calling it again does nothing.
    ///
    /// Not `MHD_quiesce_daemon`: in libmicrohttpd 0.9.75 with a pool of polling threads it takes
    /// the listening socket out of each thread's epoll set while that thread may be doing the same,
    /// and the loser of the race aborts the process ("Failed to remove listen FD from epoll set",
    /// daemon.c:5531; 0.9.77 has the same code).
    public func stop(grace: Double = 10) {
        let first = stopped.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        state.takeUnretainedValue().stopping.store(true, ordering: .releasing)
        var waited = 0.0
        while state.takeUnretainedValue().active.load(ordering: .acquiring) > 0 && waited < grace {
            _ = CurrentProcess.sleep(milliseconds: 10)
            waited += 0.01
        }
        // No connection may be left set aside when the daemon stops: the handlers running finish
        // and hand back their answers, and the requests not started are answered 503.
        state.takeUnretainedValue().handlers.stop()
        // The answers handed back just now (a running handler's, and the 503s) are sent before
        // the daemon stops, for at most a second: stopping at once cut them off on a busy machine.
        var flushed = 0.0
        while state.takeUnretainedValue().active.load(ordering: .acquiring) > 0 && flushed < 1 {
            _ = CurrentProcess.sleep(milliseconds: 10)
            flushed += 0.01
        }
        MHD_stop_daemon(daemon)
        if isTLS { hangman_tls_forget(UInt32(port)) }
        hangman_watch_stop(state.takeUnretainedValue().watchdog)
    }

    /// Connections shut down so far for not delivering a request in time (`requestSeconds`).
    public var connectionsTimedOut: Int {
        stopped.withLock { done in done ? 0 : Int(hangman_watch_cut(state.takeUnretainedValue().watchdog)) }
    }

    deinit {
        stop(grace: 0)
        state.release()
        for string in keptStrings { string.deallocate() }
    }

    private static func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let bytes = Array(text.utf8)
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
        return pointer
    }
}

/// How large a body a path takes, and what a larger one is answered: 413 in plain text, unless
/// the path's protocol has its own words for it (`refusal`, sent with its own status).
public struct BodyLimit: Sendable {
    public var bytes: Int
    public var refusal: HTTPResponse?

    public init(bytes: Int, refusal: HTTPResponse? = nil) {
        self.bytes = bytes
        self.refusal = refusal
    }
}

/// What every connection thread shares.
final class ServerState: @unchecked Sendable {
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let maxBodySize: Int
    let maxHeaderSize: Int
    let largeBodies: [String: BodyLimit]
    let maxQueryParameters: Int
    /// Requests begun and not completed: `stop` waits for them.
    let active = Atomic<Int>(0)
    /// Set by `stop`: a request that begins after it is answered 503 and its connection closed.
    let stopping = Atomic<Bool>(false)
    /// The per-request deadline's sweeper (C, `shim.h`).
    let watchdog: UnsafeMutablePointer<hangman_watchdog>
    let onEvent: (@Sendable (String) -> Void)?
    /// libmicrohttpd's messages come through this (C) to `onEvent`; it lives as long as the state.
    let logger: UnsafeMutablePointer<hangman_logger>
    /// The threads that run `handler` (``HTTPServerConfiguration/threads``).
    let handlers: ThreadPool
    let answersAtOnce: (@Sendable (_ method: String, _ path: String) -> Bool)?

    deinit { logger.deallocate() }

    init(
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse, maxBodySize: Int, maxHeaderSize: Int, largeBodies: [String: BodyLimit],
        maxQueryParameters: Int, watchdog: UnsafeMutablePointer<hangman_watchdog>, onEvent: (@Sendable (String) -> Void)?,
        handlers: ThreadPool, answersAtOnce: (@Sendable (_ method: String, _ path: String) -> Bool)?
    ) {
        self.handlers = handlers
        self.answersAtOnce = answersAtOnce
        self.onEvent = onEvent
        logger = .allocate(capacity: 1)
        logger.initialize(to: hangman_logger(sink: nil, context: nil))
        self.maxQueryParameters = maxQueryParameters
        self.handler = handler
        self.maxBodySize = maxBodySize
        self.maxHeaderSize = maxHeaderSize
        self.largeBodies = largeBodies
        self.watchdog = watchdog
        logger.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        logger.pointee.sink = { context, message in
            guard let context, let message else { return }
            Unmanaged<ServerState>.fromOpaque(context).takeUnretainedValue().event("libmicrohttpd: " + String(cString: message))
        }
    }

    /// What libmicrohttpd says while the server starts, held: said once it listens, dropped when
    /// it cannot (the error names why, in its own words: "the port is taken").
    private let startupEvents = Mutex<[String]?>([])

    func event(_ text: String) {
        let held = startupEvents.withLock { events -> Bool in
            guard events != nil else { return false }
            events?.append(text)
            return true
        }
        if !held { onEvent?(text) }
    }

    /// The server listens, or could not: the held events are said, or dropped.
    func started(_ listening: Bool) {
        let held = startupEvents.withLock { events in
            defer { events = nil }
            return events ?? []
        }
        if listening { for text in held { onEvent?(text) } }
    }
}

/// One request being read, kept in libmicrohttpd's per-request pointer until it completes. A
/// handler thread writes `answer` while the connection is suspended, and its thread reads it once
/// resumed (`MHD_resume_connection` takes the daemon's lock between the two).
final class RequestState: @unchecked Sendable {
    /// The handler's answer, waiting to be queued on the connection's own thread.
    var answer: HTTPResponse?
    /// The largest body this request may have (its path's).
    var limit = 0
    /// The path's own answer to a body past `limit` (``BodyLimit/refusal``).
    var tooLargeAnswer: HTTPResponse?
    var body: [UInt8] = []
    var tooLarge = false
    var answered = false
}

/// libmicrohttpd calls this once when a request's headers are in, again for each piece of its
/// body, and once more when the body is complete (`*upload_data_size == 0`); the response is
/// queued on that last call (a response queued on the first call would close the connection).
private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, version, uploadData, uploadDataSize, requestPointer in
    guard let context, let connection, let requestPointer, let uploadDataSize else { return .NO }
    let server = Unmanaged<ServerState>.fromOpaque(context).takeUnretainedValue()
    guard let stored = requestPointer.pointee, hangman_is_too_many_parameters(stored) == 0 else {
        let tooManyParameters = requestPointer.pointee.map { hangman_is_too_many_parameters($0) != 0 } ?? false
        let request = RequestState()
        let large = url.flatMap { server.largeBodies[String(cString: $0)] }
        request.limit = large?.bytes ?? server.maxBodySize
        request.tooLargeAnswer = large?.refusal
        requestPointer.pointee = Unmanaged.passRetained(request).toOpaque()
        server.active.add(1, ordering: .relaxed)
        // Framed two ways (RFC 9112 6.1): a proxy that reads Content-Length and a server that
        // reads the chunks would see different requests. Refused, and the connection closed, so
        // nothing hidden in the body is ever read as a request of its own.
        let refusal: (status: Int, message: String)?
        var facts = hangman_header_facts()
        hangman_header_facts(connection, &facts)
        if tooManyParameters {
            refusal = (414, "a request target may carry at most \(server.maxQueryParameters) query parameters")
        } else if facts.too_many != 0 {
            refusal = (431, "a request may carry at most \(HANGMAN_MAX_FIELDS) header fields")
        } else if facts.size + (url.map { CString.length($0) } ?? 0) > server.maxHeaderSize {
            // libmicrohttpd's own limit is its memory pool, which holds more than the fields.
            refusal = (431, "a request's path and header fields may take at most \(server.maxHeaderSize) bytes")
        } else if facts.bad_name != 0 {
            refusal = (400, "a header field's name is a token: no whitespace before its colon, no separators (RFC 9112 5.1)")
        } else if facts.transfer_encoding > 1 {
            refusal = (400, "the header transfer-encoding may appear once, and appears \(facts.transfer_encoding) times")
        } else if facts.transfer_encoding > 0, hangman_header_count(&facts, HANGMAN_CONTENT_LENGTH_HEADER) > 0 {
            refusal = (400, "a request may not carry both Content-Length and Transfer-Encoding")
        } else if hangman_header_count(&facts, HANGMAN_HOST_HEADER) == 0, let version, strcmp(version, "HTTP/1.1") == 0 {
            refusal = (400, "an HTTP/1.1 request needs a Host header")  // RFC 9112 3.2
        } else if case let repeated = hangman_repeated_header(&facts), repeated >= 0 {
            refusal = (400, "the header \(String(cString: hangman_single_header(repeated))) may appear once, and appears \(hangman_header_count(&facts, repeated)) times")
        } else if facts.hides_bytes != 0 {
            refusal = (400, "a header value may not contain a NUL byte")
        } else {
            refusal = nil
        }
        if let refusal {
            request.answered = true
            return refuse(server, connection, refusal.status, refusal.message, closing: true)
        }
        if server.stopping.load(ordering: .acquiring) {
            request.answered = true
            return refuse(server, connection, 503, "the server is stopping: try again", closing: true)
        }
        if let declared = facts.content_length.flatMap({ Int(String(cString: $0)) }), declared > request.limit {
            request.tooLarge = true
            request.answered = true
            return refuse(server, connection, 413, "the request body is over \(request.limit) bytes", answer: request.tooLargeAnswer)
        }
        return .YES
    }
    let request = Unmanaged<RequestState>.fromOpaque(stored).takeUnretainedValue()
    if uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        if !request.tooLarge, let uploadData {
            if request.body.count + count > request.limit {
                request.tooLarge = true
                request.body = []
            } else {
                request.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: count))
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }
    if request.answered {
        // Resumed after its handler ran on a handler thread: the answer goes out from here.
        guard let answer = request.answer else { return .YES }
        request.answer = nil
        return queue(connection, answer)
    }
    request.answered = true
    // The request is whole: from here the handler's time (a row lock, a slow database) is not
    // the client's, and the deadline stops.
    hangman_watch_answered(connection)
    if request.tooLarge {
        // Its deadline stopped above.
        return refuse(server, connection, 413, "the request body is over \(request.limit) bytes", answered: true, answer: request.tooLargeAnswer)
    }
    let arguments = collect(connection, .GET_ARGUMENT_KIND)
    var full = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
        query: arguments.values, headers: values(connection, .HEADER_KIND, lowercased: true), body: request.body)
    full.repeatedQuery = arguments.repeated
    full.clientAddress = clientAddress(connection)
    if let atOnce = server.answersAtOnce, atOnce(full.method, full.path) {
        return queue(connection, server.handler(full))
    }
    // Set aside while a handler thread answers; resumed, libmicrohttpd calls this again, and the
    // branch above queues the answer. A server that stops before the handler starts answers 503.
    MHD_suspend_connection(connection)
    let suspended = SuspendedConnection(connection)
    let handler = server.handler
    let whole = full
    let ready = Unmanaged.passRetained(request)
    let deliver: @Sendable (HTTPResponse) -> Void = { answer in
        ready.takeUnretainedValue().answer = answer
        MHD_resume_connection(suspended.connection)
        ready.release()
    }
    server.handlers.submit(ThreadPool.Job(run: { deliver(handler(whole)) }, cancel: { deliver(.text(503, "the server is stopping: try again")) }))
    return .YES
}

/// A connection set aside (`MHD_suspend_connection`), handed to the thread that resumes it.
private struct SuspendedConnection: @unchecked Sendable {
    let connection: OpaquePointer
    init(_ connection: OpaquePointer) { self.connection = connection }
}

/// Answers a request the HTTP layer refuses before any handler sees it (its deadline stopped),
/// and tells `onEvent`, which the handler's log is not: a plain-text `status` with `message` (or
/// the path's own `answer`), the connection closed after it when `closing`.
private func refuse(
    _ server: ServerState, _ connection: OpaquePointer, _ status: Int, _ message: String, closing: Bool = false, answered: Bool = false,
    answer: HTTPResponse? = nil
) -> MHD_Result {
    if !answered { hangman_watch_answered(connection) }
    if let onEvent = server.onEvent {
        let client = clientAddress(connection)
        onEvent("refused a request from \(client.isEmpty ? "an unknown address" : client) with \(status): \(message)")
    }
    var response = answer ?? HTTPResponse.text(status, message)
    if closing { response.headers.append(("Connection", "close")) }
    return queue(connection, response)
}

/// The client's address as the socket sees it (`127.0.0.1`, `::1`); empty when unknown.
private func clientAddress(_ connection: OpaquePointer) -> String {
    // On the stack: every request asks.
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { address in
        hangman_client_address(connection, address.baseAddress!, address.count)
        return String(cString: address.baseAddress!)
    }
}

/// Called when a request ends, answered or not: releases its state.
private let requestCompleted: MHD_RequestCompletedCallback = { context, connection, requestPointer, termination in
    if let context, let connection {
        let server = Unmanaged<ServerState>.fromOpaque(context).takeUnretainedValue()
        hangman_watch_completed(connection)
        // A request that did not end with its answer sent: said, with the client's address.
        // libmicrohttpd's MHD_RequestTerminationCode: 1 error, 2 timeout, 4 read error, 5 client abort.
        let why: String? = switch termination.rawValue {
        case 1: "ended by an error (a malformed request, or its answer could not be sent)"
        case 2: "cut: the client sent nothing for the idle timeout"
        case 4: "ended: the connection failed while it was read"
        case 5: "ended: the client closed the connection mid-request"
        default: nil
        }
        if let why, let onEvent = server.onEvent {
            let client = clientAddress(connection)
            onEvent("a request from \(client.isEmpty ? "an unknown address" : client) \(why)")
        }
    }
    guard let context, let requestPointer, let stored = requestPointer.pointee else { return }
    // Marked by the query guard, and ended before its handler ran: nothing of ours to release.
    guard hangman_is_too_many_parameters(stored) == 0 else {
        requestPointer.pointee = nil
        return
    }
    Unmanaged<RequestState>.fromOpaque(stored).release()
    requestPointer.pointee = nil
    Unmanaged<ServerState>.fromOpaque(context).takeUnretainedValue().active.subtract(1, ordering: .releasing)
}

/// Every value of a kind (`MHD_get_connection_values`): header fields or query arguments.
private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool = false) -> [String: String] {
    collect(connection, kind, lowercased: lowercased).values
}

/// Every value of a kind, the last of each name, and every value of the names given more than once.
private func collect(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool = false) -> (values: [String: String], repeated: [String: [String]]) {
    final class Collected {
        var values: [String: String] = [:]
        var repeated: [String: [String]] = [:]
        let lowercased: Bool
        init(lowercased: Bool) { self.lowercased = lowercased }
    }
    let collected = Collected(lowercased: lowercased)
    _ = withExtendedLifetime(collected) {
        MHD_get_connection_values(connection, kind, { context, _, key, value in
            guard let context, let key else { return .YES }
            let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
            let name = collected.lowercased ? asciiLowercased(key) : String(cString: key)
            let text = value.map { String(cString: $0) } ?? ""
            if let earlier = collected.values.updateValue(text, forKey: name) {
                collected.repeated[name, default: [earlier]].append(text)
            }
            return .YES
        }, Unmanaged.passUnretained(collected).toOpaque())
    }
    return (collected.values, collected.repeated)
}

/// A header field's name in lower case. Names are tokens (RFC 9110, section 5.1: ASCII), so
/// only A to Z change, byte by byte, without Unicode's case tables; any other byte is kept (and
/// invalid UTF-8 repaired, as `String(cString:)` does).
private func asciiLowercased(_ key: UnsafePointer<CChar>) -> String {
    let length = strlen(key)
    return key.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
        String(unsafeUninitializedCapacity: length) { buffer in
            for index in 0..<length {
                let byte = bytes[index]
                buffer[index] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            }
            return length
        }
    }
}

/// Sends `response` (`MHD_create_response_from_buffer` or `..._from_fd_at_offset64`,
/// `MHD_add_response_header`, `MHD_queue_response`).
private func queue(_ connection: OpaquePointer, _ response: HTTPResponse) -> MHD_Result {
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        // Copied by libmicrohttpd (MUST_COPY), which only reads the buffer: no copy of ours first.
        let count = response.bodyLength
        let body = bytes.isEmpty ? [0] : bytes
        made = body.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(Int(count), UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .file(let descriptor, let offset, let length):
        made = MHD_create_response_from_fd_at_offset64(length, descriptor, offset)
        if made == nil { FileSystem.close(descriptor: descriptor) }
    }
    guard let made else { return .NO }
    defer { MHD_destroy_response(made) }
    for (name, value) in response.headers {
        _ = MHD_add_response_header(made, name, value)
    }
    return MHD_queue_response(connection, UInt32(response.status), made)
}

/// The process's table of the certificates its HTTPS listeners serve (`shim.h` reads it from the
/// TLS handshake callback, which has no context of its own): allocated zeroed, with its lock, once.
nonisolated(unsafe) private let tlsTable: UnsafeMutablePointer<hangman_tls_table> = {
    let table = UnsafeMutablePointer<hangman_tls_table>.allocate(capacity: 1)
    UnsafeMutableRawPointer(table).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<hangman_tls_table>.size)
    pthread_mutex_init(&table.pointee.lock, nil)
    return table
}()

@_cdecl("hangman_tls_table_get")
func hangmanTLSTable() -> UnsafeMutablePointer<hangman_tls_table> { tlsTable }
