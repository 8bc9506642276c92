import Foundation
import PackServiceClient
import PackServiceWire
import Testing
import TestSupport

/// A hint is a letter revealed: the client takes a spend only signed by the pinned key, for its
/// account and the key it asked under. A proxy that forges or replays the answer gets nothing.
@Suite struct HintSpendSigningTests {
    /// A proxy of `upstream` on loopback; its answers to `POST /v1/hints/spend` are `mode`'s:
    /// `forge` (an unsigned "spent, 5 left"), or `replay` (the first signed answer, every time).
    private static let proxy = #"""
        import http.server, socketserver, sys, urllib.request, urllib.error
        upstream, mode = sys.argv[1], sys.argv[2]
        kept = []
        class Handler(http.server.BaseHTTPRequestHandler):
            def forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() in ("authorization", "content-type", "idempotency-key")}
                request = urllib.request.Request(upstream + self.path, data=body, headers=headers, method=self.command)
                try:
                    answer = urllib.request.urlopen(request)
                    return answer.status, answer.read()
                except urllib.error.HTTPError as error:
                    return error.code, error.read()
            def respond(self):
                if self.path == "/v1/hints/spend" and mode == "forge":
                    self.rfile.read(int(self.headers.get("Content-Length") or 0))
                    status, body = 200, b'{"balance": 5, "wasAlreadySpent": false}'
                elif self.path == "/v1/hints/spend" and kept:
                    self.rfile.read(int(self.headers.get("Content-Length") or 0))
                    status, body = 200, kept[0]
                else:
                    status, body = self.forward()
                    if self.path == "/v1/hints/spend":
                        kept.append(body)
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            do_GET = respond
            do_POST = respond
            def log_message(self, *args):
                pass
        server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    private func client(through mode: String, of running: RunningServer) async throws -> (HTTPPackService, ExternalProcess) {
        let proxy = try ExternalProcess("/usr/bin/python3", ["-u", "-c", Self.proxy, running.url, mode])
        var port = ""
        for _ in 0..<200 where port.isEmpty {
            port = ((try? String(contentsOfFile: "/proc/\(proxy.processIdentifier)/fd/1", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if port.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
        }
        if port.isEmpty { throw ServiceError(.unavailable, "the proxy did not start: \(proxy.kill().stderr)") }
        var credentials = try await HTTPPackService.createAccount(at: running.url)
        credentials.service = "http://127.0.0.1:\(port)"
        let client = HTTPPackService(credentials: credentials, attempts: 1)
        _ = try await client.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1)
        return (client, proxy)
    }

    @Test func anUnsignedSpendIsRefused() async throws {
        let running = try RunningServer()
        let (client, proxy) = try await client(through: "forge", of: running)
        defer { _ = proxy.kill() }
        await #expect(throws: ServiceError.self) { try await client.spendHint(idempotencyKey: "game-1-hint-1") }
        #expect(try await client.hintBalance() == 10, "nothing was spent")
    }

    @Test func aSignedSpendForAnotherKeyIsRefused() async throws {
        let running = try RunningServer()
        let (client, proxy) = try await client(through: "replay", of: running)
        defer { _ = proxy.kill() }
        // Control: the first spend goes through, signed for its key.
        #expect(try await client.spendHint(idempotencyKey: "game-1-hint-1").balance == 9)
        let replayed = await #expect(throws: ServiceError.self) { try await client.spendHint(idempotencyKey: "game-1-hint-2") }
        #expect(replayed?.kind == .untrusted)
        #expect(replayed?.message.contains("key 'game-1-hint-1'") == true, "\(replayed?.message ?? "")")
    }
}
