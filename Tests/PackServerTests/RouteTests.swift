import PackServer
import PackServiceWire
import Testing

/// The route table both sides build from: every route is found at its own path, and a route's
/// name in the log and the metrics is its template, whatever a client puts in the path.
@Suite struct RouteTests {
    @Test(arguments: Route.allCases)
    func everyRouteIsFoundAtItsPath(_ route: Route) throws {
        let id = route.template.contains("{id}") ? "com.hangmanpacks.words.ios" : ""
        let found = try #require(Route.routes(at: route.path(id)))
        #expect(found.routes.contains(route))
        #expect(found.id == (id.isEmpty ? nil : id))
        #expect(Set(found.routes.map(\.method)).count == found.routes.count, "two routes at one path with one method: \(found.routes)")
        #expect(PackServer.routeName(route.path(id)) == route.template)
    }

    /// 10,000 paths a client made up name at most the routes there are: a label per path would
    /// grow the metrics without end (a counter and a histogram per new path).
    @Test func madeUpPathsNameNoNewRoute() {
        var names = Set<String>()
        for n in 0..<10_000 {
            names.insert(PackServer.routeName("/v1/test/transactions/\(n)/\(n)x"))
            names.insert(PackServer.routeName("/v1/packs/\(n)/archive/\(n)"))
            names.insert(PackServer.routeName("/v1/\(n)"))
            names.insert(PackServer.routeName("/\(n)%0A2026-12-02T00:00:00.000Z"))
        }
        #expect(names == ["other"])
        #expect(PackServer.routeName("/v1/test/transactions/0123456789abcdef/refund") == "/v1/test/transactions/{id}/refund")
        #expect(PackServer.routeName("//v1//packs/x/archive/") == "/v1/packs/{id}/archive")
    }

    @Test func anEmptyIdentifierIsNoRoute() {
        #expect(Route.routes(at: "/v1/packs//archive") == nil)
    }
}
