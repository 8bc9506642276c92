import Foundation
import PackServiceClient
import PackServiceWire
import Signing
import Testing
import TestSupport

/// The archive endpoint's answers to `Range` and `If-Range`, read through `curl`: each is the
/// status the case deserves, and every answer is one a client can use as it is: the whole (200),
/// exactly the bytes `Content-Range` names (206), or 416 with `Content-Range: bytes */N`.
@Suite struct ArchiveRangeTests {
    /// A server, an account owning a pack, and the pack's archive as a request without a range gets it.
    private struct Fixture {
        let running: RunningServer
        let token: String
        let url: String
        let whole: [UInt8]

        init() async throws {
            running = try RunningServer()
            let client = try await running.newClient()
            let product = ProductID(rawValue: "com.hangmanpacks.words.ios")!
            _ = try await client.buy(product, quantity: 1)
            token = client.credentials.token
            url = running.url + "/v1/packs/\(product.rawValue)/archive"
            whole = try await client.packArchive(product)
        }

        var etag: String { "\"\(SHA256.hash(whole).hex)\"" }

        /// One GET with these request headers: its status, its headers (names in lower case), its body.
        func get(_ headers: [String]) throws -> (status: Int, headers: [String: String], body: [UInt8]) {
            let name = UUID().uuidString
            let head = running.directory.file("\(name).head"), body = running.directory.file("\(name).body")
            let result = try ExternalProcess.run(
                "/usr/bin/curl",
                ["-sS", "--max-time", "10", "-D", head, "-o", body, "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)"]
                    + headers.flatMap { ["-H", $0] } + [url], killAfter: 20)
            var fields: [String: String] = [:]
            for line in try String(contentsOfFile: head, encoding: .utf8).split(separator: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let bytes = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: body)))) ?? []
            return (Int(result.stdout) ?? 0, fields, bytes)
        }

        /// Gets with `headers`, checks the answer is a usable one, and returns its status and
        /// `Content-Range` ("-" when there is none): "206 bytes 10-19/4000".
        func usableAnswer(_ headers: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let answer = try get(headers)
            let range = answer.headers["content-range"]
            switch answer.status {
            case 200:
                #expect(Data(answer.body) == Data(whole), sourceLocation: sourceLocation)
                #expect(range == nil, sourceLocation: sourceLocation)
            case 206:
                let numbers = range?.dropFirst("bytes ".count).split(whereSeparator: { $0 == "-" || $0 == "/" }).compactMap { Int($0) } ?? []
                try #require(range?.hasPrefix("bytes ") == true && numbers.count == 3, "206 with Content-Range \(range ?? "none")", sourceLocation: sourceLocation)
                try #require(numbers[2] == whole.count && numbers[0] <= numbers[1] && numbers[1] < whole.count, "\(range ?? "")", sourceLocation: sourceLocation)
                #expect(Data(answer.body) == Data(whole[numbers[0]...numbers[1]]), sourceLocation: sourceLocation)
            case 416:
                #expect(range == "bytes */\(whole.count)", sourceLocation: sourceLocation)
                #expect(answer.body.isEmpty, sourceLocation: sourceLocation)
            default:
                Issue.record("HTTP \(answer.status) to \(headers)", sourceLocation: sourceLocation)
            }
            return "\(answer.status) \(range ?? "-")"
        }
    }

    /// A range with bytes inside the archive, and the `Content-Range` of what it gets, for a size.
    enum Inside: CaseIterable, Sendable {
        case suffix, suffixLongerThanTheArchive, openEnd, endPastTheEnd

        func header(size: Int) -> String {
            switch self {
            case .suffix: "bytes=-100"
            case .suffixLongerThanTheArchive: "bytes=-\(size + 100)"
            case .openEnd: "bytes=100-"
            case .endPastTheEnd: "bytes=10-\(size * 2)"
            }
        }

        func contentRange(size: Int) -> String {
            switch self {
            case .suffix: "bytes \(size - 100)-\(size - 1)/\(size)"
            case .suffixLongerThanTheArchive: "bytes 0-\(size - 1)/\(size)"
            case .openEnd: "bytes 100-\(size - 1)/\(size)"
            case .endPastTheEnd: "bytes 10-\(size - 1)/\(size)"
            }
        }
    }

    /// The last 100 bytes, all of a shorter archive, the rest from byte 100, up to the end.
    @Test(arguments: Inside.allCases)
    func aRangeWithBytesInsideGetsThoseBytes(range: Inside) async throws {
        let fixture = try await Fixture()
        let size = fixture.whole.count
        let answer = try fixture.usableAnswer(["Range: \(range.header(size: size))"])
        #expect(answer == "206 \(range.contentRange(size: size))")
    }

    /// No byte of the range is in the archive: 416, each with the archive's size.
    @Test func aRangeWithNothingInsideGets416WithTheSize() async throws {
        let fixture = try await Fixture()
        let size = fixture.whole.count
        for header in ["bytes=\(size)-", "bytes=\(size + 5)-\(size + 10)", "bytes=-0"] {
            let answer = try fixture.usableAnswer(["Range: \(header)"])
            #expect(answer == "416 bytes */\(size)", "\(header)")
        }
    }

    /// Several ranges are served as the whole archive (RFC 9110 lets a server ignore `Range`).
    @Test func severalRangesGetTheWholeArchive() async throws {
        let fixture = try await Fixture()
        let answer = try fixture.usableAnswer(["Range: bytes=0-1,5-6"])
        #expect(answer == "200 -")
    }

    /// Another unit must be ignored (RFC 9110, 14.2); a malformed range may be, and is.
    @Test(arguments: ["items=0-1", "bytes=5-3", "bytes=abc", "bytes=+1-2", "bytes=0-99999999999999999999999"])
    func aRangeNotUnderstoodGetsTheWholeArchive(header: String) async throws {
        let fixture = try await Fixture()
        let answer = try fixture.usableAnswer(["Range: \(header)"])
        #expect(answer == "200 -")
    }

    /// `If-Range` naming another version of the archive: the whole of this one; naming this one: the range.
    @Test func aRangeOfAnotherVersionGetsTheWholeArchive() async throws {
        let fixture = try await Fixture()
        let size = fixture.whole.count
        let other = try fixture.usableAnswer(["Range: bytes=10-19", "If-Range: \"0123abcd\""])
        #expect(other == "200 -")
        let this = try fixture.usableAnswer(["Range: bytes=10-19", "If-Range: \(fixture.etag)"])
        #expect(this == "206 bytes 10-19/\(size)")
    }
}
