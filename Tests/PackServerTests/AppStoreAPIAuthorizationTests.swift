import AppStore
import PackServer
import HTTPServer
import HTTPClient
import CertificateChain
import Foundation
import PackServiceWire
import Testing
import TestSupport

/// The App Store Server API's bearer tokens as Apple's Python library makes them.
@Suite struct AppStoreAPIAuthorizationTests {
    @Test func onlyATokenOfARegisteredKeyForThisIssuerAndBundleIsAllowed() throws {
        let python = HangmanBinary.packageRoot.appendingPathComponent(".build/apple-client/bin/python").path
        let script = HangmanBinary.packageRoot.appendingPathComponent("Tests/AppleClient/api_tokens.py").path
        let made = try ExternalProcess.run(python, [script, "57246542-96fe-1a63-e053-0824d011072a", "2X9R4HXF34", "com.hangmanpacks.game"])
        try #require(made.status == 0, "\(made.stderr)")
        let lines = made.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 6, "\(made.stdout)")
        let key = try ES256PublicKey(pem: Array(lines[0].replacingOccurrences(of: "|", with: "\n").utf8))
        let authorization = AppStoreAPIAuthorization(
            issuer: "57246542-96fe-1a63-e053-0824d011072a", bundleID: "com.hangmanpacks.game", keys: ["2X9R4HXF34": key])
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(authorization.allows("Bearer " + lines[1], now: now), "the library's own token")
        #expect(authorization.allows("bearer " + lines[1], now: now) && authorization.allows("BEARER " + lines[1], now: now), "the scheme in any case")
        #expect(!authorization.allows("Bearer " + lines[2], now: now), "expired")
        #expect(!authorization.allows("Bearer " + lines[3], now: now), "two hours ahead")
        #expect(!authorization.allows("Bearer " + lines[4], now: now), "another bundle")
        #expect(!authorization.allows("Bearer " + lines[5], now: now), "another key")
        #expect(!authorization.allows(lines[1], now: now), "no Bearer")
        #expect(!authorization.allows("Bearer " + lines[1], now: now + 600_000), "expired since")
        var other = authorization
        other.issuer = "another-issuer"
        #expect(!other.allows("Bearer " + lines[1], now: now))
        other = authorization
        other.keys = [:]
        #expect(!other.allows("Bearer " + lines[1], now: now), "a key removed")
        // A token whose signature is changed in one byte.
        var tampered = Array(lines[1].utf8)
        tampered[tampered.count - 3] = tampered[tampered.count - 3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(!authorization.allows("Bearer " + String(decoding: tampered, as: UTF8.self), now: now))
    }

    /// The API's requests are counted per key that signs them, not per address block: a player
    /// in the backend's /24 who spends the block's budget does not spend the backend's, and a
    /// key's own budget ends in Apple's 429 (4290000).
    @Test func theAPIHasABudgetOfItsOwnPerKey() throws {
        let python = HangmanBinary.packageRoot.appendingPathComponent(".build/apple-client/bin/python").path
        let script = HangmanBinary.packageRoot.appendingPathComponent("Tests/AppleClient/api_tokens.py").path
        let issuer = "57246542-96fe-1a63-e053-0824d011072a"
        let made = try ExternalProcess.run(python, [script, issuer, "2X9R4HXF34", "com.hangmanpacks.hangman"])
        try #require(made.status == 0, "\(made.stderr)")
        let lines = made.stdout.split(separator: "\n").map(String.init)
        let key = try ES256PublicKey(pem: Array(lines[0].replacingOccurrences(of: "|", with: "\n").utf8))
        let directory = try TemporaryDirectory()
        var configuration = PackServerConfiguration(
            dataFolder: directory.file("data"), packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, environment: .sandbox)
        configuration.appStoreAPI = AppStoreAPIAuthorization(issuer: issuer, bundleID: "", keys: ["2X9R4HXF34": key])
        configuration.requestsAtOnce = 5
        configuration.requestsPerMinute = 1
        let server = try PackServer(configuration)
        let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        defer { http.stop() }
        func status(_ path: String, token: String? = nil) throws -> (Int, String) {
            let answer = try HTTPClient.perform(
                method: "GET", url: http.url + path, headers: token.map { [("Authorization", "Bearer " + $0)] } ?? [], body: nil, timeoutSeconds: 5,
                maxBody: 1 << 16)
            return (answer.status, String(decoding: answer.body, as: UTF8.self))
        }
        // The address block's budget, spent by anonymous requests.
        let catalog = try (0..<6).map { _ in try status("/v1/catalog").0 }
        #expect(catalog.last == 429, "\(catalog)")
        // The backend's key still has its own.
        let transaction = "/inApps/v1/transactions/0000000000000001"
        let answered = try (0..<5).map { _ in try status(transaction, token: lines[1]) }
        #expect(answered.allSatisfy { $0.0 != 429 }, "\(answered)")
        let spent = try status(transaction, token: lines[1])
        #expect(spent.0 == 429 && spent.1.contains("4290000") && spent.1.contains("Rate limit exceeded."), "\(spent)")
        // A token that is refused counts against its address block, which is spent.
        #expect(try status(transaction, token: lines[5]).0 == 429)
    }
}
