import HTTPServer
import Messages
import PackServiceWire
import Seller
import SystemCalls

extension PackServer {
    /// 429 with `Retry-After`: a client that keeps to it is served again.
    static func tooMany(_ message: String, wait: Int) -> HTTPResponse {
        var response = HTTPResponse.json(429, Self.encoded(ErrorBody(ServiceError(.rateLimited, message))))
        response.headers.append(("Retry-After", "\(wait)"))
        return response
    }

    /// A failure as JSON, with the status its kind deserves.
    static func failure(_ error: ServiceError) -> HTTPResponse {
        let status: Int =
            switch error.kind {
            case .unknownProduct, .unknownTransaction, .notFound: 404
            case .invalidRequest: 400
            case .wrongState, .purchaseInProgress, .notYet: 409
            case .productUnavailable: 410
            case .notEnoughHints: 402
            case .notEntitled, .notOffered: 403
            case .rateLimited: 429
            case .unauthorized: 401
            case .storage: 500
            case .unavailable: 503
            case .untrusted: 502
            }
        if status == 500 {
            // The server's own failure: its details (paths, the database's words) go to its log only.
            var response = HTTPResponse.json(
                500, Self.encoded(ErrorBody(ServiceError(.storage, "the server could not use its storage for this request; its log says why"))))
            response.logDetail = error.message
            return response
        }
        if status == 503 {
            // The database is away: the client is told to try again, the log what libpq said (a
            // socket path, a host, a role are the operator's, not a client's).
            var response = HTTPResponse.json(
                503, Self.encoded(ErrorBody(ServiceError(
                    .unavailable, L10n.text("the server's database cannot be reached now: nothing was done; the same request with the same key can be sent again")))))
            response.logDetail = error.message
            return response
        }
        var response = HTTPResponse.json(status, Self.encoded(ErrorBody(error)))
        if status == 401 { response.headers.append(("WWW-Authenticate", "Bearer")) }
        return response
    }

    /// An error's body; should encoding it fail, a fixed one (an error is never answered empty).
    static func encoded(_ body: ErrorBody) -> [UInt8] {
        do {
            return try Wire.encode(body)
        } catch {
            return Array(#"{"error":"storage","message":"the server could not write its answer"}"#.utf8)
        }
    }

    /// The values a scrape reads now: the catalog served, open accounts, and the database pool.
    public var gauges: [(name: String, help: String, value: Double)] {
        var values: [(name: String, help: String, value: Double)] = [
            ("hangman_catalog_version", "The CatalogVersion served.", Double(catalog.catalogVersion)),
            ("hangman_open_accounts", "Accounts whose ledgers are open now.", Double(openAccountCount)),
        ]
        if let pool = ledgers?.pool {
            let (open, idle) = pool.counts
            values.append(("hangman_database_connections_open", "PostgreSQL connections this server holds.", Double(open)))
            values.append(("hangman_database_connections_in_use", "PostgreSQL connections lent to a request now.", Double(open - idle)))
        }
        if configuration.notificationURL != nil {
            let pending = ledgers == nil ? "Accounts with notifications waiting (this server's view)." : "Notifications waiting to be delivered (due or scheduled)."
            values.append(("hangman_notifications_pending", pending, Double(notificationsPending.load(ordering: .relaxed))))
        }
        return values
    }

    /// Whether this server can serve players now: its accounts database answers (the one its
    /// ledgers share on PostgreSQL; a read that finds nothing) and its catalog is still in its
    /// packs folder. 200 `{"status":"ready"}`, else 503 with the reasons; no token, no rate limit.
    /// ``checkReadiness()``'s answer, made again once it is a second old.
    func ready() throws(ServiceError) -> HTTPResponse {
        let now = configuration.clock.now()
        if let kept = readiness.withLock({ $0 }), now - kept.at < 1000, now >= kept.at {
            var response = HTTPResponse.json(kept.status, kept.body)
            response.logDetail = kept.detail
            return response
        }
        let made = try checkReadiness()
        if case .bytes(let body) = made.body {
            readiness.withLock { $0 = (now, made.status, body, made.logDetail) }
        }
        return made
    }

    func checkReadiness() throws(ServiceError) -> HTTPResponse {
        // The reasons in words for anyone; their details (paths, the database's words) for the log.
        var reasons: [String] = []
        var details: [String] = []
        if let damage = seller.damage {
            reasons.append("the accounts database is damaged")
            details.append(damage)
        } else {
            do {
                // A write taken back: a database that reads but cannot write is not ready either.
                try accounts.probeWrite()
            } catch {
                reasons.append("the accounts database cannot be used")
                details.append(error.message)
            }
        }
        let failing = storageFailuresInARow.load(ordering: .relaxed)
        if failing >= Self.storageFailuresUntilNotReady {
            reasons.append("requests are failing on storage")
            details.append("\(failing) requests in a row failed on storage, none answered since")
        }
        let catalogFile = configuration.packsFolder + "/" + Catalog.fileName
        if !FileSystem.exists(atPath: catalogFile) {
            reasons.append("the catalog is gone from the packs folder")
            details.append("\(catalogFile) is gone")
        }
        guard !reasons.isEmpty else { return .json(200, Array(#"{"status":"ready"}"#.utf8)) }
        var response = HTTPResponse.json(503, try Wire.encode(Readiness(status: "not ready", reasons: reasons)))
        response.logDetail = details.joined(separator: "; ")
        return response
    }

    /// `/v1/ready`'s answer when the server is not.
    struct Readiness: Encodable {
        var status: String
        var reasons: [String]
    }
}
