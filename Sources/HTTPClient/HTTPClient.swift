internal import CCurl
import Synchronization

/// An HTTP/1.1 exchange's answer.
public struct HTTPClientResponse: Sendable {
    public var status: Int
    public var body: [UInt8]
}

/// Why no answer came: the connection, not the server (the server's failures are answers).
public struct HTTPClientError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// HTTP and HTTPS requests through libcurl's easy interface, one at a time, blocking.
///
/// ```swift
/// let response = try HTTPClient.perform(method: "GET", url: "http://127.0.0.1:8080/v1/health")
/// ```
public enum HTTPClient {
    /// Sends one request (`curl_easy_perform`) and reads the whole answer, up to `maxBody` bytes.
    /// `caFile` trusts that certificate (PEM) for HTTPS besides the system's.
    public static func perform(
        method: String, url: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeoutSeconds: Int = 30, maxBody: Int = 256 << 20, caFile: String? = nil
    ) throws(HTTPClientError) -> HTTPClientResponse {
        initialize()
        guard let handle = curl_easy_init() else { throw HTTPClientError(message: "libcurl could not start a request") }
        defer { curl_easy_cleanup(handle) }
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
            hangman_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, 10),
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
        if let caFile { setup.append(hangman_curl_set_string(handle, CURLOPT_CAINFO, caFile)) }
        if let failed = setup.first(where: { $0 != CURLE_OK }) {
            throw HTTPClientError(message: "libcurl refused the request's settings: \(String(cString: curl_easy_strerror(failed)))")
        }
        let result = withExtendedLifetime(collected) { curl_easy_perform(handle) }
        if collected.exceeded { throw HTTPClientError(message: "the answer from \(url) is over \(maxBody) bytes") }
        guard result == CURLE_OK else {
            throw HTTPClientError(message: "\(String(cString: curl_easy_strerror(result))) (\(url))")
        }
        return HTTPClientResponse(status: hangman_curl_response_code(handle), body: collected.bytes)
    }

    private static let initialized = Mutex(false)

    /// `curl_global_init`, once, before any request.
    private static func initialize() {
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
