import Foundation
import PackServer
import Testing
import TestSupport

/// The metrics' labels come from a closed set: 10,000 requests on distinct made-up paths add no
/// series (each new last segment of /v1/test/transactions/{id}/... added a counter and a
/// histogram, and a flood ate the server's memory).
@Suite struct MetricsFloodTests {
    @Test func tenThousandDistinctPathsAddNoSeries() async throws {
        let directory = try TemporaryDirectory()
        var configuration = PackServerConfiguration(
            dataFolder: directory.file("data"), packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, environment: .sandbox,
            testControls: true)
        configuration.requestsPerMinute = 0
        var listening = PackServerListening()
        listening.addresses = [("127.0.0.1", 0)]
        listening.metrics = ("127.0.0.1", 0)
        let running = try PackServerProcess(configuration, listening: listening, log: { _ in }, warn: { _ in })
        defer { running.stop() }
        let url = try #require(running.urls.first), metrics = try #require(running.metricsURL)
        func series() throws -> Int {
            try ExternalProcess.run("/usr/bin/curl", ["-sS", "--max-time", "20", metrics]).stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        }
        // Every route's labels present once: a first round of the same kinds of request.
        let flood = { (count: Int) throws -> ProcessResult in
            try ExternalProcess.run("/usr/bin/python3", ["-c", """
                import http.client, sys
                host, port = sys.argv[1].rsplit(':', 1)
                connection = http.client.HTTPConnection(host.split('//')[1], int(port))
                for n in range(int(sys.argv[2])):
                    path = ['/v1/test/transactions/%d/x%d' % (n, n), '/v1/packs/%d/archive/%d' % (n, n), '/v1/x%d' % n, '/y%d%%0A%%1B' % n][n % 4]
                    connection.request('POST' if n % 4 == 0 else 'GET', path)
                    connection.getresponse().read()
                """, url, String(count)], killAfter: 120)
        }
        #expect(try flood(8).status == 0)
        let before = try series()
        let sent = try flood(10_000)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try series() == before, "the metrics grew with the paths")
    }
}
