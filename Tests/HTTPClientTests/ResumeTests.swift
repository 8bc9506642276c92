import Foundation
import HTTPClient
import Testing
import TestSupport

/// A download cut off half-way resumes where it stopped, against a server that knows nothing of
/// this code (Python's http.server), which cuts its first answer.
@Suite struct ResumeTests {
    static let server = #"""
    import http.server, socketserver, sys
    data = open(sys.argv[1], 'rb').read()
    log = open(sys.argv[2], 'a')
    class Handler(http.server.BaseHTTPRequestHandler):
        count = 0
        def do_GET(self):
            Handler.count += 1
            asked = self.headers.get('Range')
            log.write(f"{Handler.count} {asked}\n"); log.flush()
            if Handler.count == 1:
                self.send_response(200)
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data[:len(data) // 2]); self.wfile.flush()
                self.connection.shutdown(2)
                return
            start = int(asked.split('=')[1].split('-')[0])
            self.send_response(206)
            self.send_header('Content-Range', f'bytes {start}-{len(data) - 1}/{len(data)}')
            self.send_header('Content-Length', str(len(data) - start))
            self.end_headers()
            self.wfile.write(data[start:])
        def log_message(self, *arguments): pass
    with socketserver.TCPServer(('127.0.0.1', 0), Handler) as server:
        print(server.server_address[1], flush=True)
        server.serve_forever()
    """#

    @Test func aCutDownloadResumesWithARange() throws {
        let directory = try TemporaryDirectory()
        var random = SystemRandomNumberGenerator()
        let payload = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let source = try directory.write("payload", payload)
        let script = try directory.write("server.py", Self.server)
        let log = directory.file("requests.log")
        let process = try ExternalProcess("/usr/bin/python3", [script, source, log])
        defer { _ = process.wait(killAfter: 0) }
        var port = ""
        for _ in 0..<200 where port.isEmpty {
            usleep(25_000)
            port = try shell("cat /proc/\(process.processIdentifier)/fd/1 2>/dev/null || true").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try #require(!port.isEmpty, "the server did not start")
        let target = directory.file("download.partial")
        let url = "http://127.0.0.1:\(port)/archive"
        #expect(throws: HTTPClientError.self) { try HTTPClient.download(url: url, toFile: target) }
        let partial = try FileManager.default.attributesOfItem(atPath: target)[.size] as? Int ?? 0
        #expect(partial == 150_000)
        let status = try HTTPClient.download(url: url, toFile: target)
        #expect(status == 206)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: target))) == payload)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "1 None\n2 bytes=150000-\n")
    }
}
