import AppStore
import TestSupport
import Foundation
import PackServer
import PackServiceWire
import Testing

/// The route table both sides build from: every route is found at its own path, and a route's
/// name in the log and the metrics is its template, whatever a client puts in the path.
@Suite struct RouteTests {
    @Test(arguments: Route.allCases)
    func everyRouteIsFoundAtItsPath(_ route: Route) throws {
        let holes = route.template.split(separator: "/").filter { $0 == "{id}" }.count
        let id = ["", "com.hangmanpacks.words.ios", "com.hangmanpacks.words.ios/spring-gift"][holes]
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

/// Every route the client and the server exchange a body on is typed once (``API``): the client
/// sends through the endpoint and the server answers through it.
@Suite struct EndpointTableTests {
    @Test func everyV1RouteButLivenessAndArchivesHasOneEndpoint() {
        let typed = API.typedRoutes
        #expect(Set(typed).count == typed.count, "a route typed twice")
        let untyped: Set<Route> = [.health, .ready, .packArchive]
        for route in Route.allCases where route.path("x").hasPrefix("/v1/") && !untyped.contains(route) {
            #expect(typed.contains(route), "\(route) has no endpoint in API")
        }
        #expect(API.verifyReceipt.route == .verifyReceipt)
    }

    /// What the client encodes the server reads, and what the server answers the client decodes.
    @Test func anEndpointReadsWhatItWrites() throws {
        let body = try API.guess.encode(GuessRequest(guess: "e"))
        #expect(try API.guess.body(of: body).guess == "e")
        let refused = #expect(throws: ServiceError.self) { try API.guess.decodeAnswer(Array("{}".utf8), path: "/v1/games/x/guesses") }
        #expect(refused?.kind == .unavailable && refused?.message.contains("POST /v1/games/x/guesses") == true)
        let made = NewAccount(accountID: "0123456789abcdef", token: "t")
        #expect(try API.createAccount.decodeAnswer(try API.createAccount.answer(made), path: "/v1/accounts") == made)
    }
}

/// The app developer's guide lists every route of the players' API, as `Route` declares it: a
/// route added to the table and not to the guide fails here.
@Suite struct RouteDocumentationTests {
    @Test func theGuidesAPITableNamesEveryRoute() throws {
        let guide = try String(contentsOf: HangmanBinary.packageRoot.appendingPathComponent("docs/app-developers.md"), encoding: .utf8)
        for route in Route.allCases where !route.isTestControl && !route.isAppStoreAPI {
            // The path up to its identifier, which the guide writes as it reads best (`{id}`, `{YYYY-MM-DD or today}`).
            let path = String(route.template.prefix { $0 != "{" })
            let named = guide.contains("`\(route.method) \(path)") || guide.contains("`\(route.method)`/`HEAD \(path)")
            #expect(named, "docs/app-developers.md does not name \(route.method) \(route.template)")
        }
    }
}
