import Foundation
import HTTPServer
import PackServer
import Seller
import PackServiceClient
import PackServiceWire
import Signing
import Synchronization
import SystemCalls
import Testing
import TestSupport

/// Pack archives off the API server: `catalog update --downloads` publishes them by SHA-256,
/// nginx (Debian's nginx-light, `secure_link` as `contrib/nginx-downloads.conf` has it) serves
/// them, and the API answers an archive request with a link there that expires and works only
/// with its account's key.
@Suite struct DownloadLinkTests {
    static let secret = "test-downloads-secret-0123456789"
    static let base = ProductID(rawValue: "com.hangmanpacks.words.base")!

    /// nginx serving a downloads folder as the contrib configuration does: `/packs/` at full
    /// speed, `/slow/` (the same files) at 4 KiB/s.
    final class Downloads {
        let directory: TemporaryDirectory
        let server: Nginx
        let port: Int
        var folder: String { directory.file("downloads") }
        var packs: String { directory.file("Packs") }
        var access: String { (try? String(contentsOfFile: directory.file("nginx/access.log"), encoding: .utf8)) ?? "" }

        init() throws {
            directory = try TemporaryDirectory()
            try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: directory.file("Packs"))
            let published = try HangmanBinary.run(["catalog", "update", "--packs", directory.file("Packs"), "--downloads", directory.file("downloads")])
            try #require(published.status == 0, "\(published.stderr)")
            let contrib = try String(contentsOfFile: HangmanBinary.packageRoot.appendingPathComponent("contrib/nginx-downloads.conf").path, encoding: .utf8)
            let location = try #require(contrib.range(of: "    location /packs/ {").map { String(contrib[$0.lowerBound...]) })
            let block = String(location[..<(location.range(of: "\n    }\n")?.upperBound ?? location.endIndex)])
                .replacingOccurrences(of: "/srv/hangman/downloads/", with: directory.file("downloads") + "/")
                .replacingOccurrences(of: "DOWNLOADS_SECRET", with: DownloadLinkTests.secret)
            let slow = block.replacingOccurrences(of: "location /packs/ {", with: "location /slow/ {\n        limit_rate 4k;")
            let nginx = directory.file("nginx")
            let server = try Nginx(folder: nginx, ready: ("/packs/none", "403")) { port in
                """
                access_log \(nginx)/access.log;
                server {
                    listen 127.0.0.1:\(port);
                \(block)
                \(slow)
                }
                """
            }
            self.server = server
            port = server.port
        }

        deinit { server.stop() }

        func url(_ path: String = "packs") -> String { "http://127.0.0.1:\(port)/\(path)" }

        /// A pack server selling from this copy of the packs, its archives sent here.
        func server(clock: Clock? = nil, minted: Progress? = nil) throws -> (PackServer, HTTPServer) {
            var configuration = PackServerConfiguration(dataFolder: directory.file("data"), packsFolder: packs, environment: .sandbox, testControls: true)
            configuration.requestsPerMinute = 0
            configuration.downloads = try DownloadLinks(base: url(), secret: DownloadLinkTests.secret)
            if let clock { configuration.clock = clock }
            let server = try PackServer(configuration)
            let http = try HTTPServer(HTTPServerConfiguration()) { request in
                let response = server.handle(request)
                if response.status == 307 { minted?.count.add(1, ordering: .relaxed) }
                return response
            }
            return (server, http)
        }

        func archive(_ product: ProductID) throws -> [UInt8] {
            let catalog = try Catalog.load(folder: packs)
            let file = try #require(catalog.basePack(product)?.file ?? catalog.product(product)?.packFile)
            return Array(try Data(contentsOf: URL(fileURLWithPath: packs + "/" + file)))
        }
    }

    /// A new version is a new name beside the old one; publishing again writes nothing.
    @Test func archivesArePublishedByTheirDigestAndNeverReplaced() throws {
        let downloads = try Downloads()
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: downloads.folder))
        // Every archive the catalog records (base packs, word packs, themes).
        let recorded = try Set(FileManager.default.contentsOfDirectory(atPath: downloads.packs).filter { $0.hasSuffix(".wordpack") && $0 != "theme-classic.wordpack" })
        #expect(before.count == recorded.count && before.allSatisfy { $0.hasSuffix(".wordpack") && $0.count == 64 + ".wordpack".count }, "\(before)")
        for name in before {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: downloads.folder + "/" + name))
            #expect(SHA256.hash(Array(bytes)).description + ".wordpack" == name)
        }
        let again = try HangmanBinary.run(["catalog", "update", "--packs", downloads.packs, "--downloads", downloads.folder])
        #expect(again.stdout.contains("\(recorded.count) archives by SHA-256, 0 new"), "\(again.stdout)")
        // The hard words change (a new content version): a new archive, a new name; the old file
        // stays for whoever downloads it.
        let source = downloads.directory.file("hard-words")
        try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs/hard-words").path, toPath: source)
        let info = try String(contentsOfFile: source + "/Info.plist", encoding: .utf8)
        try info.replacingOccurrences(of: "<string>1.0</string>", with: "<string>1.1</string>").write(toFile: source + "/Info.plist", atomically: true, encoding: .utf8)
        let rebuilt = try HangmanBinary.run(["pack", "build", source, "--output", downloads.packs + "/hard-words.wordpack"])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let published = try HangmanBinary.run(["catalog", "update", "--packs", downloads.packs, "--downloads", downloads.folder])
        #expect(published.stdout.contains("\(recorded.count) archives by SHA-256, 1 new"), "\(published.stdout)\(published.stderr)")
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: downloads.folder))
        #expect(after.count == recorded.count + 1 && after.isSuperset(of: before), "\(after)")
    }

    /// A download through nginx: the API answers 307 with a link, the bytes come from nginx, a
    /// partial download is resumed with a Range there, and another account's key is refused.
    @Test func archivesComeFromNginxByLinksForOneAccount() async throws {
        let downloads = try Downloads()
        let (_, http) = try downloads.server()
        defer { http.stop() }
        let folder = downloads.directory.file("client")
        let client = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: http.url), downloadFolder: folder)
        _ = try await client.fetchCatalog()
        let expected = try downloads.archive(Self.base)
        // Half of it already there, from a download cut short: the rest comes as a range.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(expected.prefix(expected.count / 2)).write(to: URL(fileURLWithPath: folder + "/\(Self.base.rawValue).partial"))
        #expect(try await client.packArchive(Self.base) == expected)
        #expect(downloads.access.contains(".wordpack?md5=") && downloads.access.contains("\" 206 "), "\(downloads.access)")

        // The link and the key, as the API gives them.
        let answer = try ExternalProcess.run("/usr/bin/curl", [
            "-sS", "-D", "-", "-o", "/dev/null", "-H", "Authorization: Bearer \(client.credentials.token)", http.url + "/v1/packs/\(Self.base)/archive",
        ]).stdout
        #expect(answer.hasPrefix("HTTP/1.1 307"), "\(answer)")
        let link = try #require(answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location: ") }.map { String($0.dropFirst("location: ".count)) })
        let key = try #require(answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("hangman-download-key: ") }.map { String($0.dropFirst("hangman-download-key: ".count)) })
        func status(_ url: String, key: String?) throws -> String {
            try ExternalProcess.run("/usr/bin/curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}"] + (key.map { ["-H", "Hangman-Download-Key: \($0)"] } ?? []) + [url]).stdout
        }
        #expect(try status(link, key: key) == "200")
        #expect(try status(link, key: nil) == "403", "no key")
        // Another account's key with this account's link: refused.
        let other = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: http.url))
        let otherAnswer = try ExternalProcess.run("/usr/bin/curl", [
            "-sS", "-D", "-", "-o", "/dev/null", "-H", "Authorization: Bearer \(other.credentials.token)", http.url + "/v1/packs/\(Self.base)/archive",
        ]).stdout
        let otherKey = try #require(otherAnswer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("hangman-download-key: ") }.map { String($0.dropFirst("hangman-download-key: ".count)) })
        #expect(otherKey != key)
        #expect(try status(link, key: otherKey) == "403", "another account's link")
        // A link changed by hand (another file, a later expiry) is refused.
        #expect(try status(link.replacingOccurrences(of: "expires=", with: "expires=9"), key: key) == "403")
        // Without the pack, no link at all.
        let locked = try ExternalProcess.run("/usr/bin/curl", [
            "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(client.credentials.token)",
            http.url + "/v1/packs/com.hangmanpacks.words.hard/archive",
        ]).stdout
        #expect(locked == "403", "a pack not owned gets no link")
    }

    /// A link that expired before it was used: nginx answers 403, the client asks the API for a
    /// fresh one and downloads.
    @Test func anExpiredLinkIsReplacedByAFreshOne() async throws {
        let downloads = try Downloads()
        let minted = Progress()
        // The first link is made an hour in the past (expired at once); the next ones now.
        let clock = Clock { Clock.system.now() - (minted.count.load(ordering: .relaxed) == 0 ? 3_600_000 : 0) }
        let (_, http) = try downloads.server(clock: clock, minted: minted)
        defer { http.stop() }
        let client = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: http.url), downloadFolder: downloads.directory.file("client"))
        _ = try await client.fetchCatalog()
        #expect(try await client.packArchive(Self.base) == (try downloads.archive(Self.base)))
        #expect(minted.count.load(ordering: .relaxed) == 2, "one expired link, one fresh")
        let lines = downloads.access.split(separator: "\n").filter { $0.contains(".wordpack?md5=") }
        #expect(lines.count == 2 && lines[0].contains("\" 403 ") && lines[1].contains("\" 200 "), "\(downloads.access)")
    }

    /// The API server killed while an archive downloads through nginx (slowly): the download
    /// completes, from nginx alone.
    @Test func aDownloadOutlivesTheAPIServer() async throws {
        let downloads = try Downloads()
        let secretFile = try downloads.directory.write("secret", Array((Self.secret + "\n").utf8))
        let (api, url) = try ServeProcess.start(
            data: downloads.directory.file("data"), port: 0, packs: downloads.packs,
            extra: ["--downloads-url", downloads.url("slow"), "--downloads-secret", secretFile, "--requests-per-minute", "0"])
        defer { _ = api.kill() }
        let client = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url), downloadFolder: downloads.directory.file("client"))
        _ = try await client.fetchCatalog()
        let killed = Progress()
        let bytes = try await client.packArchive(Self.base) { received in
            // Some of it here, the rest still to come at 4 KiB/s: the API server goes.
            if received >= 4096, killed.count.add(1, ordering: .relaxed).newValue == 1 { _ = api.kill() }
        }
        #expect(killed.count.load(ordering: .relaxed) >= 1, "the API server was killed during the download")
        #expect(!api.isRunning)
        #expect(bytes == (try downloads.archive(Self.base)))
        #expect(downloads.access.contains("GET /slow/") && downloads.access.contains("\" 200 "), "\(downloads.access)")
    }

    /// The options: both or neither, an address with a path, a secret nginx can hold.
    @Test func theOptionsAreCheckedBeforeTheServerStarts() throws {
        let directory = try TemporaryDirectory()
        let secret = try directory.write("secret", Array((Self.secret + "\n").utf8))
        let short = try directory.write("short", Array("abc\n".utf8))
        let data = directory.file("data")
        let cases: [([String], Int32, String)] = [
            (["--downloads-url", "http://127.0.0.1:1/packs"], 64, "both --downloads-url"),
            (["--downloads-secret", secret], 64, "both --downloads-url"),
            (["--downloads-url", "ftp://host/packs", "--downloads-secret", secret], 64, "http:// or https://"),
            (["--downloads-url", "http://host", "--downloads-secret", secret], 64, "the path the archives are under"),
            (["--downloads-url", "http://host/packs", "--downloads-secret", short], 65, "16 to 128"),
            (["--downloads-url", "http://host/packs", "--downloads-secret", directory.file("none")], 66, "no such file"),
            (["--download-link-seconds", "60"], 64, "goes with --downloads-url"),
        ]
        for (arguments, code, says) in cases {
            let result = try HangmanBinary.run(["serve", "--data", data, "--listen", "127.0.0.1:0"] + arguments, killAfter: 20)
            #expect(result.status == code && result.stderr.contains(says), "\(arguments): \(result.status) \(result.stderr)")
        }
    }
}

@Suite struct KeyedHashTests {
    @Test func md5AndHMACMatchTheirReferences() {
        let md5 = MD5.hash(Array("The quick brown fox jumps over the lazy dog".utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(md5 == "9e107d9d372bb6826bd81d3542a419d6")
        // RFC 4231, test case 2.
        let tag = HMACSHA256.authenticate(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(tag == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }
}
