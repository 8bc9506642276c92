import Foundation
import Testing
import TestSupport

/// The operator's guide's nginx block (docs/operating.md), run as written in front of a server: its limits count an IPv6
/// client's /64 as one address, as the server counts its own (PX). The client addresses are
/// given to nginx in a header of the test's (its realip module), all from loopback.
@Suite struct ProxyLimitTests {
    /// The guide's `nginx` block after "Behind a reverse proxy", listening on `port` in front of
    /// `upstream`, taking the client's address from `X-Test-Client`.
    static func readmeBlock(port: Int, upstream: String) throws -> String {
        let readme = try String(contentsOf: HangmanBinary.packageRoot.appendingPathComponent("docs/operating.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Behind a reverse proxy"))
        let start = try #require(readme.range(of: "```nginx\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let address = String(upstream.dropFirst("http://".count))
        return String(readme[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "127.0.0.1:8081", with: address).replacingOccurrences(of: "127.0.0.1:8082", with: address)
            .replacingOccurrences(
                of: "listen 443 ssl;", with: "listen 127.0.0.1:\(port); set_real_ip_from 127.0.0.1; real_ip_header X-Test-Client; access_log off;")
    }

    /// How `address`'s `count` requests, sent at once on one connection, were answered.
    static func statuses(_ url: String, from address: String, count: Int) throws -> [Int] {
        let script = """
            import http.client, sys
            c = http.client.HTTPConnection('127.0.0.1', \(url.split(separator: ":").last!), timeout=10)
            out = []
            for _ in range(\(count)):
                c.request('GET', '/v1/health', headers={'X-Test-Client': '\(address)'})
                r = c.getresponse(); r.read(); out.append(str(r.status))
            print(' '.join(out))
            """
        let run = try ExternalProcess.run("/usr/bin/python3", ["-c", script], killAfter: 30)
        return run.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @Test func theReadmesLimitsCountAnIPv6ClientsSlash64AsOneAddress() throws {
        let directory = try TemporaryDirectory()
        let (server, upstream) = try ServeProcess.start(
            data: directory.file("data"), port: 0, extra: ["--connections-per-address", "0", "--requests-per-minute", "0"])
        defer { _ = server.kill() }
        var block = ""
        let proxy = try Nginx(folder: directory.file("nginx"), ready: ("/v1/health", "200")) { port in
            block = (try? Self.readmeBlock(port: port, upstream: upstream)) ?? ""
            return block
        }
        defer { proxy.stop() }
        #expect(block.contains("$hangman_client_block"), "\(block)")
        // One address of a /64 spends the block's burst (120 at once, 20 a second after)...
        let first = try Self.statuses(proxy.url, from: "2001:db8:1:2::1", count: 160)
        #expect(first.count == 160 && first.contains(429), "\(first)")
        // ...and another address of the same /64 finds it spent, while another /64 does not.
        let sameBlock = try Self.statuses(proxy.url, from: "2001:db8:1:2:ffff::99", count: 20)
        let otherBlock = try Self.statuses(proxy.url, from: "2001:db8:1:3::1", count: 20)
        #expect(sameBlock.filter { $0 == 429 }.count >= 15, "\(sameBlock)")
        #expect(otherBlock == Array(repeating: 200, count: 20), "\(otherBlock)")
    }
}
