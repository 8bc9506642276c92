import Foundation
import HTTPClient
import Testing
import TestSupport

/// A download that starts from a file already holding part of it, against a server that knows
/// nothing of this code (Python's http.server): the file ends as exactly the server's file,
/// never the part and another answer spliced.
@Suite struct ResumeTests {
    private static func randomBytes(_ count: Int) -> [UInt8] {
        var random = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// As `Data`: a failed comparison prints sizes, not every byte.
    private static func contents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Downloads from `server` into `target`, and expects the status, the file's bytes, and the
    /// `Range` and `If-Range` of every request the server saw.
    private static func expectDownload(
        from server: LoopbackFileServer, to target: String, etag: String? = nil, status: Int, file: [UInt8], requests: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let answered = try HTTPClient.download(url: server.url, toFile: target, etag: etag)
        #expect(answered == status, sourceLocation: sourceLocation)
        let written = try contents(target)
        #expect(written == Data(file), sourceLocation: sourceLocation)
        let seen = try server.requests()
        #expect(seen == requests, sourceLocation: sourceLocation)
    }

    @Test func aCutDownloadResumesWithARange() throws {
        let directory = try TemporaryDirectory()
        let payload = Self.randomBytes(300_000)
        let server = try LoopbackFileServer(serving: payload, behaviour: .cutsTheFirstAnswer, in: directory)
        let target = directory.file("download.partial")
        #expect(throws: HTTPClientError.self) { try HTTPClient.download(url: server.url, toFile: target) }
        let part = try Self.contents(target)
        #expect(part.count == 150_000)
        try Self.expectDownload(from: server, to: target, status: 206, file: payload, requests: ["- -", "bytes=150000- -"])
    }

    @Test func aServerThatIgnoresTheRangeReplacesThePartWithTheWholeFile() throws {
        let directory = try TemporaryDirectory()
        let payload = Self.randomBytes(300_000)
        let server = try LoopbackFileServer(serving: payload, behaviour: .ignoresRanges, in: directory)
        let target = try directory.write("download.partial", Array(payload[..<150_000]))
        try Self.expectDownload(from: server, to: target, status: 200, file: payload, requests: ["bytes=150000- -"])
    }

    @Test func aFileChangedBetweenTheTwoHalvesIsDownloadedAgainWhole() throws {
        let directory = try TemporaryDirectory()
        let old = Self.randomBytes(300_000), new = Self.randomBytes(300_000)
        let server = try LoopbackFileServer(serving: new, etag: "new", behaviour: .ranges, in: directory)
        let target = try directory.write("download.partial", Array(old[..<150_000]))
        try Self.expectDownload(from: server, to: target, etag: "\"old\"", status: 200, file: new, requests: [#"bytes=150000- "old""#])
    }

    /// A part as long as the file or longer (the download had ended, or the file is shorter now).
    @Test func a416ToAResumedDownloadStartsItOverFromZero() throws {
        let directory = try TemporaryDirectory()
        let payload = Self.randomBytes(300_000)
        let server = try LoopbackFileServer(serving: payload, behaviour: .ranges, in: directory)
        let target = try directory.write("download.partial", Self.randomBytes(300_010))
        try Self.expectDownload(from: server, to: target, status: 200, file: payload, requests: ["bytes=300010- -", "- -"])
    }

    @Test func a416AgainFromZeroIsAnErrorAfterOneFreshTry() throws {
        let directory = try TemporaryDirectory()
        let server = try LoopbackFileServer(serving: [1, 2, 3], behaviour: .status(416), in: directory)
        let target = try directory.write("download.partial", Self.randomBytes(1000))
        let error = #expect(throws: HTTPClientError.self) { try HTTPClient.download(url: server.url, toFile: target) }
        #expect(error?.status == 416)
        let requests = try server.requests()
        #expect(requests == ["bytes=1000- -", "- -"])
        let file = try Self.contents(target)
        #expect(file.isEmpty)
    }

    /// The server's error is not the file, nor a reason to lose what arrived before.
    @Test func anErrorAnswerToAResumeKeepsThePart() throws {
        let directory = try TemporaryDirectory()
        let part = Self.randomBytes(1000)
        let server = try LoopbackFileServer(serving: [], behaviour: .status(503, body: "busy, try later"), in: directory)
        let target = try directory.write("download.partial", part)
        let error = #expect(throws: HTTPClientError.self) { try HTTPClient.download(url: server.url, toFile: target) }
        #expect(error?.status == 503)
        let file = try Self.contents(target)
        #expect(file == Data(part))
    }
}

/// A download the server refuses, or one too large, is an error; the file never holds an error's
/// body, nor more than the limit.
@Suite struct DownloadRefusalTests {
    @Test(arguments: [416, 503])
    func anErrorWithAnEmptyBodyIsAnErrorWithItsStatus(status: Int) throws {
        let directory = try TemporaryDirectory()
        let server = try LoopbackFileServer(serving: [1, 2, 3], behaviour: .status(status), in: directory)
        let target = directory.file("download.partial")
        let error = #expect(throws: HTTPClientError.self) { try HTTPClient.download(url: server.url, toFile: target) }
        #expect(error?.status == status)
        #expect(error?.message == "the server answered HTTP \(status)")
        let requests = try server.requests()
        #expect(requests == ["- -"])
    }

    /// With a length the server announces, and without one (the body ends with the connection).
    @Test(arguments: [LoopbackFileServer.Behaviour.ranges, .unsized])
    func aBodyOverTheLimitIsRefusedAndTheFileStaysWithinIt(behaviour: LoopbackFileServer.Behaviour) throws {
        let directory = try TemporaryDirectory()
        let server = try LoopbackFileServer(serving: [UInt8](repeating: 0x61, count: 1 << 20), behaviour: behaviour, in: directory)
        let target = directory.file("download.partial")
        let error = #expect(throws: HTTPClientError.self) {
            try HTTPClient.download(url: server.url, toFile: target, timeoutSeconds: 30, maxSize: 100_000)
        }
        #expect(error?.message == "the download is over 100000 bytes")
        let size = try FileManager.default.attributesOfItem(atPath: target)[.size] as? Int
        #expect(size.map { $0 <= 100_000 } == true, "\(size ?? -1) bytes on disk")
    }
}
