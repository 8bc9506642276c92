import Foundation
import PackServiceClient
import PackServiceWire
import Testing
import TestSupport

/// `HTTPPackService.packArchive` against a server that errs as the pack server never does: an
/// error's status is never taken for an archive.
@Suite struct ArchiveDownloadTests {
    private let product = ProductID(rawValue: "com.hangmanpacks.words.ios")!

    private func client(of server: LoopbackFileServer, downloads: String) -> HTTPPackService {
        let service = String(server.url.dropLast("/file".count))
        return HTTPPackService(
            credentials: ServiceCredentials(service: service, accountID: "account", token: "token", publicKey: nil), downloadFolder: downloads,
            attempts: 2)
    }

    @Test(arguments: [416, 503])
    func anEmptyErrorAnswerIsAnErrorThatNamesTheStatus(status: Int) async throws {
        let directory = try TemporaryDirectory()
        let server = try LoopbackFileServer(serving: [1, 2, 3], behaviour: .status(status), in: directory)
        let error = await #expect(throws: ServiceError.self) {
            try await client(of: server, downloads: directory.file("downloads")).packArchive(product)
        }
        #expect(error?.kind == .unavailable)
        #expect(error?.message.contains("HTTP \(status)") == true, "\(error?.message ?? "")")
    }

    /// A part longer than the archive (a newer, shorter version) gets 416: the download starts
    /// over, and the part is not taken for the archive.
    @Test func aPartLongerThanTheArchiveStartsOverFromZero() async throws {
        let directory = try TemporaryDirectory()
        let archive = [UInt8]((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let server = try LoopbackFileServer(serving: archive, behaviour: .ranges, in: directory)
        let part = try directory.write("downloads/\(product.rawValue).partial", [UInt8](repeating: 0x7a, count: 60_000))
        let bytes = try await client(of: server, downloads: directory.file("downloads")).packArchive(product)
        #expect(Data(bytes) == Data(archive))
        #expect(!FileManager.default.fileExists(atPath: part))
        let requests = try server.requests()
        #expect(requests == ["bytes=60000- -", "- -"])
    }

    /// A server that answers a pack with more bytes than the signed catalog records (an endless
    /// or swapped archive) is refused once the recorded size is passed: nothing past it is read.
    @Test func anArchiveLongerThanItsSignedSizeIsRefused() async throws {
        let running = try RunningServer()
        let directory = try TemporaryDirectory()
        // A proxy of the real server's catalog that answers every archive with 1 MiB of noise.
        let proxy = try ExternalProcess("/usr/bin/python3", ["-u", "-c", #"""
            import http.server, socketserver, sys, urllib.request
            upstream = sys.argv[1]
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    if self.path == "/v1/catalog":
                        body = urllib.request.urlopen(upstream + self.path).read()
                    else:
                        body = bytes(1 << 20)
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *args):
                    pass
            server = socketserver.TCPServer(("127.0.0.1", 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """#, running.url])
        defer { _ = proxy.kill() }
        var port = ""
        for _ in 0..<200 where port.isEmpty {
            port = ((try? String(contentsOfFile: "/proc/\(proxy.processIdentifier)/fd/1", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if port.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
        }
        try #require(!port.isEmpty, "the proxy did not start")
        var credentials = try await HTTPPackService.createAccount(at: running.url)
        credentials.service = "http://127.0.0.1:\(port)"
        let client = HTTPPackService(credentials: credentials, downloadFolder: directory.file("downloads"), attempts: 1)
        let catalog = try await client.fetchCatalog()
        let recorded = try #require(catalog.basePacks.first)
        let error = await #expect(throws: ServiceError.self) { try await client.packArchive(recorded.productID) }
        #expect(error?.kind == .untrusted, "\(error?.message ?? "")")
        #expect(error?.message.contains("longer than the \(recorded.size) bytes") == true, "\(error?.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: directory.file("downloads/\(recorded.productID.rawValue).partial")))
    }
}

/// A server that accepts and never answers: the client gives up after its timeout, says so in
/// one sentence, and asks once (a read is not sent again to a server that does not answer).
@Suite struct SilentServerTests {
    @Test func aServerThatNeverAnswersIsAskedOnceAndNamed() async throws {
        let server = try ExternalProcess("/usr/bin/python3", ["-u", "-c", #"""
            import socket, sys, time
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            listener.listen(16)
            print(listener.getsockname()[1], flush=True)
            held = []
            while True:
                connection, _ = listener.accept()
                held.append(connection)
                sys.stderr.write("accepted\n")
                sys.stderr.flush()
            """#])
        var port = ""
        for _ in 0..<200 where port.isEmpty {
            port = ((try? String(contentsOfFile: "/proc/\(server.processIdentifier)/fd/1", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if port.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
        }
        try #require(!port.isEmpty, "the silent server did not start")
        let client = HTTPPackService(
            credentials: ServiceCredentials(service: "http://127.0.0.1:\(port)", accountID: "a", token: "t", publicKey: nil), attempts: 4, timeoutSeconds: 1)
        let error = await #expect(throws: ServiceError.self) { try await client.fetchCatalog() }
        let ended = server.kill()
        #expect(error?.kind == .unavailable)
        #expect(error?.message == "the pack server at http://127.0.0.1:\(port) did not answer within 1 s; try again later", "\(error?.message ?? "")")
        #expect(ended.stderr.components(separatedBy: "accepted").count - 1 == 1, "asked once: \(ended.stderr)")
    }
}
