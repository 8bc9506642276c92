import HTTPServer
import PackServiceWire
import Seller
import SystemCalls

extension PackServer {
    /// `GET /v1/packs/{id}/archive`: the archive of a base pack or of a pack the account owns,
    /// whole or a `Range` of it, with the recorded digest as its `ETag`; with `--downloads-url`, a
    /// redirect to a link on the static file server instead (``DownloadLinks``).
    func archive(_ request: HTTPRequest, productID text: String, account: String, service: AccountService) throws(ServiceError) -> HTTPResponse {
        guard let id = ProductID(rawValue: text) else { throw ServiceError(.invalidRequest, "'\(text)' is not a product identifier") }
        let file = try service.packArchiveFile(id)
        let digest = file.sha256
        if let downloads = configuration.downloads {
            // Off this server: a link to the static file server, for this account, that expires.
            let link = downloads.link(sha256: digest, account: account, now: configuration.clock.now())
            var response = HTTPResponse.json(307, Array("{\"location\":\"\(link)\"}".utf8))
            response.headers += [("Location", link), (Wire.downloadKeyHeader, downloads.key(account: account)), ("Cache-Control", "no-store")]
            return response
        }
        let opened: (descriptor: Int32, size: Int)
        do {
            opened = try FileSystem.openRegularFile(atPath: file.path)
        } catch {
            throw file.unreadable(error)
        }
        let size = UInt64(opened.size)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/octet-stream"), ("Accept-Ranges", "bytes"), ("ETag", "\"\(digest)\""),
        ]
        let ifRange = request.header("If-Range")
        // A range of another version of the archive (If-Range) gets the whole of this one.
        let range = ifRange == nil || ifRange == "\"\(digest)\"" ? request.header("Range").map { ByteRange.parse($0, size: size) } : nil
        switch range ?? .whole {
        case .whole:
            return HTTPResponse(status: 200, headers: headers, body: .file(descriptor: opened.descriptor, offset: 0, length: size))
        case .unsatisfiable:
            FileSystem.close(descriptor: opened.descriptor)
            return HTTPResponse(status: 416, headers: [("Content-Range", "bytes */\(size)")], body: .bytes([]))
        case .part(let start, let end):
            headers.append(("Content-Range", "bytes \(start)-\(end)/\(size)"))
            return HTTPResponse(status: 206, headers: headers, body: .file(descriptor: opened.descriptor, offset: start, length: end - start + 1))
        }
    }
}

/// What a `Range` header asks of `size` bytes. One `bytes=` range is served; anything else (another
/// unit, several ranges, a malformed one) is ignored and gets the whole, as RFC 9110 allows.
enum ByteRange: Equatable {
    case whole
    /// The first and the last byte.
    case part(UInt64, UInt64)
    /// One range with no byte inside the size: 416.
    case unsatisfiable

    static func parse(_ header: String, size: UInt64) -> ByteRange {
        guard header.hasPrefix("bytes=") else { return .whole }
        let spec = header.dropFirst("bytes=".count)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(size - min(suffix, size), size - 1)
        }
        guard let start = number(first) else { return .whole }
        var end = UInt64.max
        if !last.isEmpty {
            guard let asked = number(last), asked >= start else { return .whole }
            end = asked
        }
        guard start < size else { return .unsatisfiable }
        return .part(start, min(end, size - 1))
    }

    /// Decimal digits only (`UInt64` alone also takes a sign).
    private static func number(_ text: Substring) -> UInt64? {
        text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ? UInt64(text) : nil
    }
}
