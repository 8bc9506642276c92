import Foundation

/// One file served over HTTP by Python's http.server on 127.0.0.1, for one test: a server that
/// knows nothing of this code, and that answers as this code's own server never would (ignoring
/// `Range`, cutting a download short, an error without a body, a body without a length).
public final class LoopbackFileServer {
    /// How the server answers a `GET` of its file.
    public enum Behaviour: Sendable, CustomStringConvertible {
        /// `Range` honoured unless `If-Range` names another ETag; 416 with `bytes */N` past the end.
        case ranges
        /// The first answer cut off half-way; then as `ranges`.
        case cutsTheFirstAnswer
        /// Always 200 with the whole file.
        case ignoresRanges
        /// Always 200 with the whole file, without `Content-Length` (the end of the body is the
        /// end of the connection).
        case unsized
        /// Always this status, with this body (empty by default).
        case status(Int, body: String = "")

        public var description: String {
            switch self {
            case .ranges: "ranges"
            case .cutsTheFirstAnswer: "cut"
            case .ignoresRanges: "whole"
            case .unsized: "unsized"
            case .status(let code, let body): "status:\(code):\(body)"
            }
        }
    }

    static let program = #"""
    import http.server, socketserver, sys
    data = open(sys.argv[1], 'rb').read()
    log = open(sys.argv[2], 'a')
    behaviour, etag = sys.argv[3], '"' + sys.argv[4] + '"'
    class Handler(http.server.BaseHTTPRequestHandler):
        count = 0
        def answer(self, status, body, headers=()):
            self.send_response(status)
            for name, value in headers: self.send_header(name, value)
            if behaviour != 'unsized': self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def do_GET(self):
            Handler.count += 1
            asked, condition = self.headers.get('Range'), self.headers.get('If-Range')
            log.write(f"{asked or '-'} {condition or '-'}\n"); log.flush()
            if behaviour.startswith('status:'):
                _, code, body = behaviour.split(':', 2)
                return self.answer(int(code), body.encode())
            if behaviour == 'cut' and Handler.count == 1:
                self.send_response(200)
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data[:len(data) // 2]); self.wfile.flush()
                self.connection.shutdown(2)
                return
            if asked is None or behaviour in ('whole', 'unsized') or condition not in (None, etag):
                return self.answer(200, data, [('ETag', etag)])
            start = int(asked[len('bytes='):].split('-')[0])
            if start >= len(data):
                return self.answer(416, b'', [('Content-Range', f'bytes */{len(data)}')])
            self.answer(206, data[start:], [('ETag', etag), ('Content-Range', f'bytes {start}-{len(data) - 1}/{len(data)}')])
        def log_message(self, *arguments): pass
    with socketserver.TCPServer(('127.0.0.1', 0), Handler) as server:
        print(server.server_address[1], flush=True)
        server.serve_forever()
    """#

    private let process: ExternalProcess
    private let log: String
    public let url: String

    /// Serves `data` with the ETag `"etag"`, its files in `directory`; waits up to `deadline`
    /// seconds for the server to say its port.
    public init(serving data: [UInt8], etag: String = "v1", behaviour: Behaviour, in directory: TemporaryDirectory, deadline: Double = 10) throws {
        let name = UUID().uuidString
        let source = try directory.write("served-\(name)", data)
        log = directory.file("requests-\(name).log")
        process = try ExternalProcess("/usr/bin/python3", ["-u", "-c", Self.program, source, log, behaviour.description, etag])
        let end = Date().addingTimeInterval(deadline)
        var line = ""
        while !line.hasSuffix("\n") && process.isRunning && Date() < end {
            usleep(10_000)
            line = process.outputSoFar
        }
        guard line.hasSuffix("\n"), let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            let result = process.kill()
            throw LoopbackFileServerFailure(description: "the Python file server printed no port within \(deadline) s: \(result.stdout) \(result.stderr)")
        }
        url = "http://127.0.0.1:\(port)/file"
    }

    deinit { _ = process.kill() }

    /// Each request's `Range` and `If-Range`, "-" when absent, in the order they came.
    public func requests() throws -> [String] {
        try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}

public struct LoopbackFileServerFailure: Error, CustomStringConvertible {
    public var description: String
}
