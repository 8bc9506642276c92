/// One HTTP request, read in full (its body within the server's limit).
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query: `/v1/packs/com.x/archive`.
    public var path: String
    /// Query arguments, decoded; of a name given more than once, the last.
    public var query: [String: String]
    /// The names given more than once (`?productId=a&productId=b`), every value in order.
    public var repeatedQuery: [String: [String]] = [:]
    /// Header fields, names in lower case.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The client's address as the server's socket sees it (`127.0.0.1`, `::1`); empty when unknown.
    public var clientAddress: String = ""

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Every value of the query argument `name`, in order (none: empty).
    public func queryValues(_ name: String) -> [String] {
        repeatedQuery[name] ?? query[name].map { [$0] } ?? []
    }

    /// A header field by name, whatever its case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// One HTTP response: bytes, or a part of a file sent from the kernel (`sendfile`).
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// `length` bytes from `offset` of the open file `descriptor`, which the server closes.
        case file(descriptor: Int32, offset: UInt64, length: UInt64)
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body
    /// What the server's log says of this answer and the client is not told (a file path on the
    /// server, a database's own words); never sent.
    public var logDetail: String? = nil
    /// The account the request was made for, once its token was checked: for the log only.
    public var logAccount: String? = nil
    /// The route the request was answered on (a closed set, never the client's path), as the
    /// handler found it: for the log and the metrics only.
    public var logRoute: String? = nil

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text response: `message` and a newline.
    public static func text(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: .bytes(Array((message + "\n").utf8)))
    }

    /// A JSON response from bytes already encoded.
    public static func json(_ status: Int, _ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: .bytes(bytes))
    }

    /// The number of body bytes.
    public var bodyLength: UInt64 {
        switch body {
        case .bytes(let bytes): UInt64(bytes.count)
        case .file(_, _, let length): length
        }
    }
}

/// Why the server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(_ message: String) {
        self.message = message
    }
}
