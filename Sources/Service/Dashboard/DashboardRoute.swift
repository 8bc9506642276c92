/// The dashboard's routes, declared once: the server dispatches from ``DashboardRoute/init(method:path:)``
/// and the pages link to ``path``, as the API's `Route` is for the players' requests.
public enum DashboardRoute: Equatable, Sendable {
    /// `GET /style.css`: the one stylesheet (no script is ever served).
    case stylesheet
    /// `POST /sign-in`: an admin token from the sign-in form, kept in a cookie.
    case signIn
    /// `POST /sign-out`: the session ended, the cookie forgotten (a link on another site cannot
    /// sign the seller out: it would be a GET).
    case signOut
    /// `GET /`: to the overview, or the sign-in form.
    case home
    /// `GET /overview`, `/subscriptions`, `/players`, `/products`.
    case page(DashboardPages.Page)
    /// `GET /export/sales.tsv`: App Store Connect's summary sales report.
    case salesReport
    /// `GET /export/NAME.csv`: a chart's numbers.
    case chart(String)
    /// `GET /events?after=CURSOR&limit=N`: the service's own events, oldest first, for the
    /// seller's systems (JSON).
    case events
    /// `POST /customers/act`: support's action on a customer (grant, extend, refund) with its
    /// reason; an admin's alone (a viewer is refused, 403).
    case act

    /// The route a request is on, or `nil` for a path that is none (404) or a method it does not
    /// take (405 when ``methods(ofPath:)`` names others).
    public init?(method: String, path: String) {
        let method = method == "HEAD" ? "GET" : method
        guard let route = Self.route(ofPath: path), route.methods.contains(method) else { return nil }
        self = route
    }

    /// The route of `path`, whatever the method.
    public static func route(ofPath path: String) -> DashboardRoute? {
        switch path {
        case "/style.css": return .stylesheet
        case "/sign-in": return .signIn
        case "/sign-out": return .signOut
        case "/": return .home
        case "/export/sales.tsv": return .salesReport
        case "/customers/act": return .act
        case "/events": return .events
        default:
            if path.hasPrefix("/export/"), path.hasSuffix(".csv") {
                let name = String(path.dropFirst("/export/".count).dropLast(".csv".count))
                guard !name.isEmpty, !name.contains("/") else { return nil }
                return .chart(name)
            }
            return DashboardPages.Page(rawValue: String(path.dropFirst())).map(DashboardRoute.page)
        }
    }

    /// The methods the route takes (HEAD as GET).
    public var methods: [String] {
        switch self {
        case .signIn: ["POST"]
        case .signOut: ["POST"]
        case .act: ["POST"]
        default: ["GET"]
        }
    }

    /// The path, as links write it.
    public var path: String {
        switch self {
        case .stylesheet: "/style.css"
        case .signIn: "/sign-in"
        case .signOut: "/sign-out"
        case .home: "/"
        case .page(let page): "/" + page.rawValue
        case .salesReport: "/export/sales.tsv"
        case .chart(let name): "/export/\(name).csv"
        case .act: "/customers/act"
        case .events: "/events"
        }
    }

    /// Whether the route answers only a signed-in seller.
    public var needsAdmin: Bool {
        switch self {
        case .stylesheet, .signIn, .signOut: false
        case .home, .page, .salesReport, .chart, .act, .events: true
        }
    }

    /// Whether the route reads the players' numbers (read only where shown).
    public var readsPlayers: Bool { self == .page(.players) || self == .chart("players") }
    /// Whether the route reads the sales (every page but a customer's and the delivery log, which
    /// are of no range of days, and the players', which shows none).
    public var readsSales: Bool { ![.page(.customers), .page(.notifications), .page(.players), .chart("players")].contains(self) }
    /// Whether the route reads the refund requests (the refunds page alone).
    public var readsRefunds: Bool { self == .page(.refunds) }

    /// Whether the route is an export for scripts (refused with text, not a page, without a token).
    public var isExport: Bool {
        switch self {
        case .salesReport, .chart, .events: true
        default: false
        }
    }
}
