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
        let error = await #expect(throws: StoreError.self) {
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
}
