import Foundation
import HTTPServer
import PackServer
import Testing
import TestSupport

/// A server that replays the service's public signed documents (the catalog, the key) is not the
/// service: the home asks a new address to sign a fresh challenge before its token goes there, and
/// an impostor sees no token (it logged `Authorization: Bearer hp1...` four times).
@Suite struct ImpostorTests {
    @Test func anAddressThatOnlyReplaysTheCatalogNeverSeesTheToken() async throws {
        let scratch = try Scratch()
        let server = try PackServer(PackServerConfiguration(
            dataFolder: scratch.file("server"), packsFolder: SubscriptionCommandTests.packs, environment: .sandbox, testControls: true))
        let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        defer { http.stop() }
        let home = ["--home", scratch.file("alice")]
        #expect(try await CLI.run(["account", "create", "--service", http.url] + home).status == 0)
        // The impostor: the real server's public answers, saved, and every request's headers logged.
        let saved = scratch.file("saved")
        try FileManager.default.createDirectory(atPath: saved, withIntermediateDirectories: true)
        for (path, file) in [("/v1/catalog", "catalog"), ("/v1/service-key", "service-key")] {
            _ = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-o", saved + "/" + file, http.url + path])
        }
        let heard = scratch.file("heard.log")
        let impostor = try ExternalProcess("/usr/bin/python3", ["-u", "-c", #"""
            import http.server, socketserver, sys
            saved, heard = sys.argv[1], sys.argv[2]
            class Handler(http.server.BaseHTTPRequestHandler):
                def answer(self):
                    with open(heard, 'a') as log: log.write(self.command + ' ' + self.path + ' ' + str(dict(self.headers)) + '\n')
                    name = {'/v1/catalog': 'catalog', '/v1/service-key': 'service-key'}.get(self.path)
                    body = open(saved + '/' + name, 'rb').read() if name else b'{"error":"not-found","message":"no"}'
                    self.send_response(200 if name else 404)
                    self.send_header('Content-Type', 'application/json')
                    self.send_header('Content-Length', str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                do_GET = do_POST = do_PUT = do_DELETE = answer
                def log_message(self, *args): pass
            server = socketserver.TCPServer(('127.0.0.1', 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """#, saved, heard])
        defer { _ = impostor.kill() }
        #expect(await eventually { () async in !impostor.outputSoFar.isEmpty }, "the impostor did not start")
        let port = impostor.outputSoFar.trimmingCharacters(in: .whitespacesAndNewlines)
        let asked = try await CLI.run(["hints", "--service", "http://127.0.0.1:\(port)"] + home)
        #expect(asked.status != 0, "\(asked.stdout)")
        #expect(asked.stderr.contains("does not prove this home's service key"), "\(asked.stderr)")
        let log = (try? String(contentsOfFile: heard, encoding: .utf8)) ?? ""
        #expect(log.contains("POST /v1/service-key/proof"), "the challenge was asked: \(log)")
        #expect(!log.lowercased().contains("authorization") && !log.contains("hp1."), "\(log)")
    }
}
