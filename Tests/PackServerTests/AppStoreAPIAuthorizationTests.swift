import AppStore
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
}
