import CivilCalendar
import FoundationEssentials
import Dashboard
import HTTPClient
import HTTPServer
import PackServiceAPI
import PackServiceWire
import SalesReports
import Seller

/// The seller's dashboard (`hangman serve --admin-listen`), on an address of its own: pages for
/// a browser signed in with an admin token (kept in an HttpOnly, SameSite=Strict cookie) and
/// exports for scripts (`Authorization: Bearer`). It reads through the seller's module alone.
extension PackServer {
    /// What the dashboard may load: its own stylesheet, nothing else, no script.
    static let dashboardPolicy = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    static let adminCookie = "hangman_admin"

    /// Answers one request on the admin address.
    /// `secure`: the dashboard is served over TLS, and its cookie is sent back over TLS only.
    public func dashboard(_ request: HTTPRequest, secure: Bool = false) -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try dashboardAnswer(request, cookie: "HttpOnly; SameSite=Strict; Path=/" + (secure ? "; Secure" : ""))
        } catch {
            // A range or a storefront asked wrongly is the asker's (400), the ledgers away 503.
            let status = error.kind == .invalidRequest ? 400 : error.kind == .unavailable ? 503 : 500
            let title = status == 400 ? "Not a range" : "Unavailable"
            response = Self.page(status, DashboardPages.document(title: title, body: "<main><p>\(escaped(error.message))</p></main>"))
        }
        response.headers += [
            ("Content-Security-Policy", Self.dashboardPolicy), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-store"),
        ]
        return response
    }

    private func dashboardAnswer(_ request: HTTPRequest, cookie attributes: String) throws(ServiceError) -> HTTPResponse {
        let tokens = AdminTokens(dataFolder: configuration.dataFolder)
        guard let route = DashboardRoute(method: request.method, path: request.path) else {
            guard let known = DashboardRoute.route(ofPath: request.path) else { return .text(404, "no such page: \(request.path)") }
            var refused = HTTPResponse.text(405, "\(request.path) takes \(known.methods.joined(separator: " or "))")
            refused.headers.append(("Allow", known.methods.joined(separator: ", ")))
            return refused
        }
        switch route {
        case .stylesheet:
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/css; charset=utf-8")], body: .bytes(Array(DashboardPages.stylesheet.utf8)))
        case .signIn:
            let now = configuration.clock.now()
            if let wait = signInWait(request.clientAddress, now: now) {
                var response = Self.page(429, DashboardPages.signIn(refused: true))
                response.headers.append(("Retry-After", String(wait)))
                return response
            }
            let token = Self.formValue("token", in: request.body) ?? ""
            // The cookie holds a session of its own, never the token: revocable, ended at sign-out.
            guard let session = try sessions.begin(with: token, now: now) else {
                noteFailedSignIn(request.clientAddress, now: now)
                return Self.page(401, DashboardPages.signIn(refused: true))
            }
            return HTTPResponse(status: 303, headers: [
                ("Location", DashboardRoute.page(.overview).path),
                ("Set-Cookie", "\(Self.adminCookie)=\(session); \(attributes); Max-Age=\(AdminSessions.lifetime / 1000)"),
            ])
        case .signOut:
            if let session = Self.cookie(Self.adminCookie, in: request.header("Cookie")) { try sessions.end(session) }
            return HTTPResponse(status: 303, headers: [("Location", "/"), ("Set-Cookie", "\(Self.adminCookie)=; \(attributes); Max-Age=0")])
        default:
            break
        }
        // A script shows the token; a browser its session.
        let bearer = request.header("Authorization").flatMap { $0.lowercased().hasPrefix("bearer ") ? String($0.dropFirst(7)) : nil }
        let session = Self.cookie(Self.adminCookie, in: request.header("Cookie"))
        var signedIn: AdminTokens.Entry?
        if let bearer {
            signedIn = try tokens.live(bearer)
        } else if let session {
            signedIn = try sessions.token(of: session, now: configuration.clock.now())
        }
        guard let admin = signedIn else {
            if route.isExport { return .text(401, "an admin token is needed: Authorization: Bearer hpa1...") }
            return Self.page(401, DashboardPages.signIn(refused: bearer != nil || session != nil))
        }
        try tokens.touch(admin.id, now: configuration.clock.now())
        if route == .home { return HTTPResponse(status: 303, headers: [("Location", DashboardRoute.page(.overview).path)]) }
        if route == .act { return try act(request, admin: admin) }
        if route == .events {
            struct Page: Encodable {
                var events: [FeedEvent]
                /// Where to go on from: the last event's cursor, or the one given when none came.
                var next: String?
            }
            let after = request.query["after"].flatMap { $0.isEmpty ? nil : $0 }
            do {
                let events = try seller.events(after: after, limit: request.query["limit"].flatMap { Int($0) } ?? 100, now: configuration.clock.now())
                return .json(200, try Wire.encode(Page(events: events, next: events.last?.cursor ?? after)))
            } catch where error.kind == .invalidRequest {
                return .text(400, error.message)
            }
        }
        let range = try Self.range(request.query, now: configuration.clock.now())
        let catalog = self.catalog
        let storefront = request.query["storefront"].flatMap { $0.isEmpty ? nil : $0.uppercased() }
        let sources: SalesLedgers = ledgers.map { .postgreSQL($0) } ?? .sqlite(folder: sqliteFolder)
        let numbers: SellerNumbers
        do {
            numbers = try SellerNumbers(
                sources, catalog: catalog, firstDay: range.first, lastDay: range.last, storefront: storefront, now: configuration.clock.now(),
                players: route.readsPlayers, refunds: route.readsRefunds, sales: route.readsSales)
        } catch where error.kind == .invalidRequest {
            return .text(400, error.message)
        }
        let query = range.query + (storefront.map { "&storefront=" + $0 } ?? "")
        var pages = DashboardPages(
            overview: numbers.sales, catalog: catalog, firstDay: range.first, lastDay: range.last,
            amounts: ViewerLocale(acceptLanguage: request.header("Accept-Language")), query: query)
        pages.players = numbers.players
        if let refunds = numbers.refunds {
            pages.refunds = refunds.map { refund in
                DashboardPages.RefundRow(refundCase: refund.refundCase, product: refund.productID.map { catalog.product($0)?.displayName ?? $0.rawValue } ?? "-")
            }
        }
        if route == .page(.notifications) {
            pages.undelivered = try seller.undeliveredNotifications(limit: 100)
            pages.mayAct = admin.role == .admin
            pages.actionOutcome = request.query["done"].map { String($0.prefix(300)) }
        }
        if route == .page(.customers) {
            let query = request.query["q"] ?? ""
            if !query.isEmpty {
                do {
                    pages.customerSearch = (query, try seller.findCustomers(query), nil)
                } catch where error.kind == .invalidRequest {
                    pages.customerSearch = (query, [], error.message)
                }
            }
            if let account = request.query["account"].map({ $0.lowercased() }), SellerService.isAccountID(account), try seller.directory.lifetime(account: account) != nil {
                pages.customerStory = try seller.customerStory(account: account, service: try store(for: account))
                pages.customerActions = try seller.directory.actions(account: account, before: nil, limit: 50)
                pages.mayAct = admin.role == .admin
                pages.actionKey = UUID().uuidString.lowercased()
                pages.actionOutcome = request.query["done"].map { String($0.prefix(300)) }
            }
        }
        switch route {
        case .salesReport:
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/tab-separated-values; charset=utf-8"), ("Content-Disposition", "attachment; filename=\"sales.tsv\"")],
                body: .bytes(Array(SalesReportTSV.render(numbers.days, catalog: catalog, firstDay: range.first, lastDay: range.last).utf8)))
        case .chart(let chart):
            guard let csv = pages.csv(chart) else { return .text(404, "no chart '\(chart)'") }
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/csv; charset=utf-8")], body: .bytes(Array(csv.utf8)))
        case .page(let page):
            return Self.page(200, pages.html(page))
        case .stylesheet, .signIn, .signOut, .home, .act, .events:
            return .text(404, "no such page: \(request.path)")
        }
    }

    /// `POST /customers/act`: an admin's action on a customer, from the customer page's forms
    /// (a browser's session, SameSite=Strict: another site's form does not carry it) or a script
    /// (`Authorization: Bearer`); back to the customer's page with what came of it. A viewer is
    /// refused (403); a refused action says why (400).
    private func act(_ request: HTTPRequest, admin: AdminTokens.Entry) throws(ServiceError) -> HTTPResponse {
        guard admin.role == .admin else {
            return Self.page(403, DashboardPages.document(title: "Not allowed", body: "<main><p>This admin token is a viewer's: it reads every page and takes no action.</p></main>"))
        }
        func field(_ name: String) -> String { Self.formValue(name, in: request.body) ?? "" }
        let account = field("account").lowercased()
        guard SellerService.isAccountID(account), try seller.directory.lifetime(account: account) != nil else { return .text(400, "no customer '\(account.prefix(40))'") }
        let action: SupportAction
        switch field("action") {
        case "grant":
            guard let product = ProductID(rawValue: field("product")), catalog.product(product) != nil else { return .text(400, "no product '\(field("product").prefix(80))' in the catalog") }
            action = .grant(product, quantity: Int(field("quantity")) ?? 1)
        case "extend":
            guard let days = Int(field("days")), (1...90).contains(days) else { return .text(400, "an extension gives 1 to 90 days") }
            action = .extend(days: days)
        case "retry-notification":
            action = .retryNotification(String(field("uuid").prefix(36)))
        case "refund":
            guard let transaction = TransactionID(number: field("transaction")) ?? TransactionID(rawValue: field("transaction")) else { return .text(400, "no transaction '\(field("transaction").prefix(40))'") }
            action = .refund(transaction)
        default:
            return .text(400, "an action is grant, extend or refund")
        }
        let key = field("key").isEmpty ? UUID().uuidString.lowercased() : String(field("key").prefix(100))
        let outcome: String
        do {
            outcome = try seller.act(action, on: account, reason: field("reason"), by: admin.id, requestKey: key, service: try store(for: account), now: configuration.clock.now())
        } catch where [.invalidRequest, .wrongState, .notFound, .unknownProduct, .productUnavailable].contains(error.kind) {
            outcome = "refused: " + error.message
        }
        let done = PercentEncoding.encoded(outcome)
        let back = field("back") == "notifications"
            ? "\(DashboardRoute.page(.notifications).path)?done=" + done : "\(DashboardRoute.page(.customers).path)?account=\(account)&done=" + done
        return HTTPResponse(status: 303, headers: [("Location", back)])
    }

    /// The browsers signed in to the dashboard.
    var sessions: AdminSessions { AdminSessions(dataFolder: configuration.dataFolder) }

    /// How long an address waits before its next sign-in, after failed ones: none for the first
    /// three, then 1, 2, 4... seconds, at most a minute; `nil`: it may try now.
    func signInWait(_ address: String, now: Int64) -> Int? {
        signInFailures.withLock { failures in
            guard let (count, last) = failures[address], count > 3 else { return nil }
            let wait = Int64(min(60, 1 << min(count - 4, 6))) * 1000
            return now < last + wait ? Int((last + wait - now + 999) / 1000) : nil
        }
    }

    func noteFailedSignIn(_ address: String, now: Int64) {
        signInFailures.withLock { failures in
            // Addresses long quiet are forgotten as new ones come: the map stays small.
            if failures.count > 10_000 { failures = failures.filter { now - $0.value.last < 3_600_000 } }
            let count = (failures[address]?.count ?? 0) + 1
            failures[address] = (count, now)
        }
    }

    private static func page(_ status: Int, _ html: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: .bytes(Array(html.utf8)))
    }

    /// The days asked (`days=N`, or, without it, `from=YYYY-MM-DD&to=YYYY-MM-DD`), 30 up to today by default,
    /// 3660 at most; as days since 1970, with the query that asks them again.
    static func range(_ query: [String: String], now: Int64) throws(ServiceError) -> (first: Int64, last: Int64, query: String) {
        let today = UTCDateTime.day(ofMilliseconds: now)
        // A number of days chosen wins over the dates the form always sends.
        if (query["days"] ?? "").isEmpty, let from = query["from"], let to = query["to"], !from.isEmpty, !to.isEmpty {
            guard let first = day(from), let last = day(to), first <= last, last - first < 3660 else {
                throw ServiceError(.invalidRequest, "from and to are dates (YYYY-MM-DD), from first, at most 3660 days apart")
            }
            return (first, last, "from=\(from)&to=\(to)")
        }
        let days = query["days"].flatMap { Int($0) }.map { min(3660, max(1, $0)) } ?? 30
        return (today - Int64(days) + 1, today, "days=\(days)")
    }

    static func day(_ text: String) -> Int64? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let year = Int64(parts[0]), let month = Int64(parts[1]), let day = Int64(parts[2]),
            (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year)
        else { return nil }
        return CivilDate.days(fromCivil: year, month, day)
    }

    /// A value of an `application/x-www-form-urlencoded` body.
    static func formValue(_ name: String, in body: [UInt8]) -> String? {
        for pair in String(decoding: body.prefix(4096), as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0] == name else { continue }
            return PercentEncoding.decoded(String(parts[1]).replacing("+", with: " "))
        }
        return nil
    }

    /// A cookie's value in a `Cookie` header.
    static func cookie(_ name: String, in header: String?) -> String? {
        header?.split(separator: ";").lazy.map { $0.drop { $0 == " " } }.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }
}
