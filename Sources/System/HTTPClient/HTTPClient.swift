internal import CCurl
import Synchronization
import SystemCalls

/// An HTTP/1.1 exchange's answer.
public struct HTTPClientResponse: Sendable {
    public var status: Int
    public var body: [UInt8]
    /// The answer's headers the caller asked for (`answerHeaders`), by lower-cased name.
    public var headers: [String: String] = [:]

    public init(status: Int, body: [UInt8], headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    /// The header `name` (any case), when the answer had it and the caller asked for it.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// One connection kept for a command's requests, one request at a time: libcurl keeps the
/// connection (and an HTTPS session) between them, so the second request needs no new TCP or
/// TLS handshake.
///
/// ```swift
/// let connection = HTTPConnection()
/// let first = try HTTPClient.perform(method: "GET", url: base + "/v1/account", connection: connection)
/// ```
public final class HTTPConnection: Sendable {
    /// libcurl's handle, used only under `lock`.
    private nonisolated(unsafe) let handle: UnsafeMutableRawPointer?
    private let lock = Mutex(())

    public init() {
        HTTPClient.initialize()
        handle = curl_easy_init()
    }

    deinit {
        if let handle { curl_easy_cleanup(handle) }
    }

    /// `body` on the kept handle, reset to no options first (its connections stay), one request at a time.
    func with<T>(_ body: (UnsafeMutableRawPointer?) throws(HTTPClientError) -> T) throws(HTTPClientError) -> T {
        try lock.withLock { (_) throws(HTTPClientError) -> T in
            if let handle { curl_easy_reset(handle) }
            return try body(handle)
        }
    }
}

/// Why no answer came: the connection, not the server (the server's failures are answers), or,
/// for a download, the server's error status in place of the file.
/// The message is a phrase a caller can put after "because": `couldn't connect to server`.
public struct HTTPClientError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The server's status when it answered a download with an error (4xx, 5xx) or a redirect (3xx).
    public var status: Int? = nil
    /// A download answered with a redirect: where to (never followed by the client itself), and
    /// the answer's headers the caller asked for.
    public var location: String? = nil
    public var headers: [String: String] = [:]
    /// The answer ran past the size the caller allows: reading stopped there.
    public var isTooLarge = false
    /// The server did not answer in time (or a download crawled below its minimum speed).
    public var isTimeout = false
    /// The TLS handshake failed: the server speaks plain HTTP, or its certificate is not trusted.
    public var isTLS = false
    /// The server's certificate is not signed by an authority this client trusts.
    public var isUntrustedCertificate = false
    /// Nothing was sent: the name did not resolve, or the connection was refused. Known at once,
    /// and asking again at once would be answered the same.
    public var isNotConnected = false
    public var description: String { message }

    /// libcurl's words for `code`, starting in lower case (they end a sentence of the caller's),
    /// but for a word in capitals (`SSL connect error`, `URL using bad/illegal format`).
    static func curl(_ code: CURLcode) -> String {
        let text = String(cString: curl_easy_strerror(code))
        guard let second = text.dropFirst().first, second.isLowercase else { return text }
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// The error of a failed transfer.
    static func failed(_ code: CURLcode, suffix: String = "") -> HTTPClientError {
        let tls = [CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE].contains(code)
        var error = HTTPClientError(message: curl(code) + suffix, isTLS: tls)
        error.isUntrustedCertificate = code == CURLE_PEER_FAILED_VERIFICATION
        error.isNotConnected = code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST
        return error
    }
}

/// HTTP and HTTPS requests through libcurl's easy interface, one at a time, blocking.
///
/// ```swift
/// let response = try HTTPClient.perform(method: "GET", url: "http://127.0.0.1:8080/v1/health")
/// ```
public enum HTTPClient {
    /// The certificate authorities (a PEM file) HTTPS trusts: `caFile`, else `HANGMAN_CA_FILE`,
    /// else `SSL_CERT_FILE` (as OpenSSL's own tools read it), else libcurl's default bundle; the
    /// system's folder of authorities (`/etc/ssl/certs`) stays trusted either way. A private
    /// authority is named this way, never by turning verification off.
    static func authorities(_ caFile: String?) -> String? {
        for candidate in [caFile, ProcessEnvironment.value("HANGMAN_CA_FILE"), ProcessEnvironment.value("SSL_CERT_FILE")] {
            if let candidate, !candidate.isEmpty { return candidate }
        }
        return nil
    }

    /// Sends one request (`curl_easy_perform`) and reads the whole answer, up to `maxBody` bytes.
    /// `caFile` trusts that certificate (PEM) for HTTPS besides the system's.
    /// `answerHeaders` names the answer's headers to read back (`Retry-After`, `Location`); on
    /// `connection`, the request reuses that connection when the server kept it open.
    public static func perform(
        method: String, url: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeoutSeconds: Int = 30, maxBody: Int = 256 << 20, caFile: String? = nil, answerHeaders: [String] = [], connection: HTTPConnection? = nil
    ) throws(HTTPClientError) -> HTTPClientResponse {
        initialize()
        let run = { (handle: UnsafeMutableRawPointer?) throws(HTTPClientError) -> HTTPClientResponse in
            guard let handle else { throw HTTPClientError(message: "libcurl could not start a request") }
            return try perform(
                on: handle, method: method, url: url, headers: headers, body: body, timeoutSeconds: timeoutSeconds, maxBody: maxBody, caFile: caFile,
                answerHeaders: answerHeaders)
        }
        if let connection { return try connection.with(run) }
        let handle = curl_easy_init()
        defer { if let handle { curl_easy_cleanup(handle) } }
        return try run(handle)
    }

    private static func perform(
        on handle: UnsafeMutableRawPointer, method: String, url: String, headers: [(String, String)], body: [UInt8]?,
        timeoutSeconds: Int, maxBody: Int, caFile: String?, answerHeaders: [String]
    ) throws(HTTPClientError) -> HTTPClientResponse {
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }
        for (name, value) in headers { list = curl_slist_append(list, "\(name): \(value)") }
        // An empty Expect stops libcurl from waiting for "100 Continue" before a body.
        list = curl_slist_append(list, "Expect:")
        let collected = Collected(limit: maxBody)
        var setup = [
            hangman_curl_set_string(handle, CURLOPT_URL, url),
            hangman_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method),
            hangman_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
            hangman_curl_set_long(handle, CURLOPT_TIMEOUT, timeoutSeconds),
            hangman_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, min(10, timeoutSeconds)),
            hangman_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            hangman_curl_set_headers(handle, list),
            hangman_curl_set_writer(handle, write, Unmanaged.passUnretained(collected).toOpaque()),
        ]
        if method == "HEAD" { setup.append(hangman_curl_set_long(handle, CURLOPT_NOBODY, 1)) }
        if let body {
            // COPYPOSTFIELDS copies the bytes: the buffer need not outlive this call.
            let bytes = body.isEmpty ? [0] : body
            setup.append(bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    hangman_curl_set_body(handle, chars.baseAddress, body.count)
                }
            })
        }
        if let authorities = Self.authorities(caFile) { setup.append(hangman_curl_set_string(handle, CURLOPT_CAINFO, authorities)) }
        if let failed = setup.first(where: { $0 != CURLE_OK }) {
            throw HTTPClientError(message: "libcurl refused the request's settings: \(String(cString: curl_easy_strerror(failed)))")
        }
        let result = withExtendedLifetime(collected) { curl_easy_perform(handle) }
        if collected.exceeded { throw HTTPClientError(message: "the answer is over \(maxBody) bytes", isTooLarge: true) }
        guard result == CURLE_OK else {
            if result == CURLE_OPERATION_TIMEDOUT {
                throw HTTPClientError(message: "no answer within \(timeoutSeconds) s", isTimeout: true)
            }
            throw HTTPClientError.failed(result)
        }
        var read: [String: String] = [:]
        for name in answerHeaders {
            if let value = hangman_curl_header(handle, name) { read[name.lowercased()] = String(cString: value) }
        }
        return HTTPClientResponse(status: hangman_curl_response_code(handle), body: collected.bytes, headers: read)
    }

    /// Downloads `url` into the file at `path`, resuming from its current end with a `Range`
    /// request (`If-Range: etag`, so a changed file starts over). Answers the status, 200 or 206.
    /// The server's error throws with its `status` and leaves the file as it was, except a 416 to a
    /// resumed request (the file holds more than the server has): then the file starts over, once.
    /// A broken connection throws, leaving what arrived in the file for the next try.
    /// A redirect is not followed: it throws with its `status`, `location` and the `answerHeaders`
    /// asked for, so that the caller decides where its credentials go.
    public static func download(
        url: String, headers: [(String, String)] = [], toFile path: String, etag: String? = nil, timeoutSeconds: Int = 300,
        maxSize: Int = 256 << 20, progress: ((Int) -> Void)? = nil, caFile: String? = nil, answerHeaders: [String] = []
    ) throws(HTTPClientError) -> Int {
        initialize()
        let file: AppendingFile
        do {
            file = try AppendingFile(path: path)
        } catch {
            throw HTTPClientError(message: "cannot write the download to \(path): \(error)")
        }
        let sink = FileSink(file: file, limit: maxSize, progress: progress)
        var status = try transfer(url: url, headers: headers, etag: etag, timeoutSeconds: timeoutSeconds, into: sink, caFile: caFile, answerHeaders: answerHeaders)
        if status == 416 && sink.resumedFrom > 0 {
            do { try file.truncate() } catch { throw HTTPClientError(message: "cannot start the download in \(path) over: \(error)") }
            status = try transfer(url: url, headers: headers, etag: etag, timeoutSeconds: timeoutSeconds, into: sink, caFile: caFile, answerHeaders: answerHeaders)
        }
        guard (200..<300).contains(status) else {
            var error = HTTPClientError(message: "the server answered HTTP \(status)", status: status)
            if (300..<400).contains(status) {
                error.location = sink.location
                error.headers = sink.answered
            }
            throw error
        }
        do { try file.flush() } catch { throw HTTPClientError(message: "\(error)") }
        return status
    }

    /// One request of a download, from the file's end: the status. Only a 2xx body goes to the file.
    private static func transfer(
        url: String, headers: [(String, String)], etag: String?, timeoutSeconds: Int, into sink: FileSink, caFile: String?, answerHeaders: [String]
    ) throws(HTTPClientError) -> Int {
        guard let handle = curl_easy_init() else { throw HTTPClientError(message: "libcurl could not start a request") }
        defer { curl_easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }
        for (name, value) in headers { list = curl_slist_append(list, "\(name): \(value)") }
        sink.start(handle: handle)
        if sink.resumedFrom > 0 {
            list = curl_slist_append(list, "Range: bytes=\(sink.resumedFrom)-")
            if let etag { list = curl_slist_append(list, "If-Range: \(etag)") }
        }
        var setup = [
            hangman_curl_set_string(handle, CURLOPT_URL, url),
            hangman_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
            hangman_curl_set_long(handle, CURLOPT_TIMEOUT, timeoutSeconds),
            hangman_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, min(10, timeoutSeconds)),
            // A download that crawls below 1 KiB/s for 20 s is given up (what arrived is kept).
            hangman_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1024),
            hangman_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, 20),
            hangman_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            hangman_curl_set_headers(handle, list),
            hangman_curl_set_writer(handle, writeToFile, Unmanaged.passUnretained(sink).toOpaque()),
        ]
        if let authorities = Self.authorities(caFile) { setup.append(hangman_curl_set_string(handle, CURLOPT_CAINFO, authorities)) }
        if let failed = setup.first(where: { $0 != CURLE_OK }) {
            throw HTTPClientError(message: "libcurl refused the request's settings: \(String(cString: curl_easy_strerror(failed)))")
        }
        let result = withExtendedLifetime(sink) { curl_easy_perform(handle) }
        if let failure = sink.failure { throw HTTPClientError(message: failure, isTooLarge: sink.exceeded) }
        let status = hangman_curl_response_code(handle)
        if (300..<400).contains(status) {
            sink.location = (hangman_curl_redirect_url(handle) ?? hangman_curl_header(handle, "Location")).map { String(cString: $0) }
            for name in answerHeaders {
                if let value = hangman_curl_header(handle, name) { sink.answered[name.lowercased()] = String(cString: value) }
            }
        }
        // The writer stopped an error's answer at its first bytes: the status is the answer.
        if status != 0 && !(200..<300).contains(status) { return status }
        guard result == CURLE_OK else {
            if result == CURLE_OPERATION_TIMEDOUT {
                throw HTTPClientError(message: "the download stalled or ran past \(timeoutSeconds) s after \(sink.file.size) bytes", isTimeout: true)
            }
            throw HTTPClientError.failed(result, suffix: " after \(sink.file.size) bytes")
        }
        return status
    }

    private static let initialized = Mutex(false)

    /// `curl_global_init`, once, before any request.
    static func initialize() {
        initialized.withLock { done in
            if !done {
                curl_global_init(Int(CURL_GLOBAL_DEFAULT))
                done = true
            }
        }
    }
}

/// The answer's bytes as libcurl hands them over.
private final class Collected {
    var bytes: [UInt8] = []
    let limit: Int
    var exceeded = false
    init(limit: Int) { self.limit = limit }
}

private let write: hangman_curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    if collected.bytes.count + length > collected.limit {
        collected.exceeded = true
        return 0  // stops the transfer
    }
    if let data { collected.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length)) }
    return length
}

/// Where a download's bytes go: the file, started over when the server sends the whole file
/// (200) instead of the rest (206). An error's body is not the file: it is not written.
private final class FileSink {
    let file: AppendingFile
    let limit: Int
    let progress: ((Int) -> Void)?
    var checkedStatus = false
    var failure: String?
    /// The transfer, to read its status on the first bytes; and where it resumed from.
    var handle: UnsafeMutableRawPointer?
    var resumedFrom = 0
    /// A redirect's target and headers.
    var location: String?
    var answered: [String: String] = [:]

    /// The download ran past `limit`.
    var exceeded = false
    init(file: AppendingFile, limit: Int, progress: ((Int) -> Void)?) {
        self.file = file
        self.limit = limit
        self.progress = progress
    }

    /// Ready for a request through `handle`, from the file's end.
    func start(handle: UnsafeMutableRawPointer) {
        self.handle = handle
        resumedFrom = file.size
        checkedStatus = false
    }
}

private let writeToFile: hangman_curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    let sink = Unmanaged<FileSink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard let data else { return length }
    do {
        if !sink.checkedStatus {
            sink.checkedStatus = true
            let status = sink.handle.map { hangman_curl_response_code($0) } ?? 0
            // An error's body: stop; the caller reads the status.
            guard (200..<300).contains(status) else { return 0 }
            // Not the rest (206) but the whole file: start the file over.
            if sink.resumedFrom > 0 && status != 206 { try sink.file.truncate() }
        }
        if sink.file.size + length > sink.limit {
            sink.failure = "the download is over \(sink.limit) bytes"
            sink.exceeded = true
            return 0
        }
        try sink.file.append(UnsafeRawBufferPointer(start: data, count: length))
    } catch {
        sink.failure = "\(error)"
        return 0
    }
    sink.progress?(sink.file.size)
    return length
}
