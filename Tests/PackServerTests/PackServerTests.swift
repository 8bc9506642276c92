import AppStore
import Base64
import Foundation
import HTTPServer
import Messages
import PackServer
import PackServiceClient
import PackServiceWire
import Seller
import Signing
import Synchronization
import SystemCalls
import TestSupport
import Testing

/// A pack server on a free port, on the shipped packs, with its data in a temporary folder.
final class RunningServer {
    let directory: TemporaryDirectory
    let server: PackServer
    let http: HTTPServer
    var url: String { http.url }

    /// A server on its own data folder, or on `dataFolder` (another server's: the same key and
    /// accounts), selling from the shipped packs or from `packsFolder`.
    init(
        environment: ReceiptEnvironment = .production, catalogLifetime: Int64? = nil, tls: HTTPServerConfiguration.TLS? = nil,
        dataFolder: String? = nil, packsFolder: String? = nil, clock: Clock? = nil, sharedSecret: String? = nil, database: LedgerDatabase = .sqlite,
        appStoreAPI: AppStoreAPIAuthorization? = nil
    ) throws {
        directory = try TemporaryDirectory()
        var configuration = PackServerConfiguration(
            dataFolder: dataFolder ?? directory.file("data"), packsFolder: packsFolder ?? HangmanBinary.packageRoot.appendingPathComponent("Packs").path,
            environment: environment, testControls: environment == .sandbox)
        if let catalogLifetime { configuration.catalogLifetime = catalogLifetime }
        if let clock { configuration.clock = clock }
        configuration.database = database
        configuration.appStoreAPI = appStoreAPI
        // The tests here buy and spend faster than a player would; the rate limit has its own test.
        configuration.requestsPerMinute = 0
        configuration.sharedSecret = sharedSecret.flatMap { SharedSecret(fileContents: Array($0.utf8)) }
        let server = try PackServer(configuration)
        self.server = server
        var http = HTTPServerConfiguration()
        http.tls = tls
        http.largeBodies = PackServer.largeBodies(environment: environment)
        self.http = try HTTPServer(http) { server.handle($0) }
    }

    deinit { http.stop() }

    /// A new account on this server, and a client for it.
    func newClient(statePath: String? = nil) async throws -> HTTPPackService {
        HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url), statePath: statePath)
    }

    /// `curl` with `arguments` against this server: the HTTP status and the body.
    func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let result = try ExternalProcess.run("/usr/bin/curl", ["-sS", "--max-time", "10", "-w", "\n%{http_code}"] + arguments)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }
}

private let hints10 = ProductID(rawValue: "com.hangmanpacks.hints.10")!
private let ios = ProductID(rawValue: "com.hangmanpacks.words.ios")!
private let hard = ProductID(rawValue: "com.hangmanpacks.words.hard")!

@Suite struct PackServerTests {
    /// A rolling deploy: two servers share the key and the accounts, one already on a newer
    /// catalog. A client that has seen the newer one, sent to the older server, keeps using the
    /// newer one it holds (and says so); without it, an older catalog is a rollback, refused.
    @Test func aServerStillOnAnOlderCatalogIsNotARollbackWhenTheNewerIsHeld() async throws {
        let packs = try TemporaryDirectory()
        try FileManager.default.removeItem(atPath: packs.path)
        try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: packs.path)
        let catalogFile = packs.file("Catalog.plist")
        let text = try String(contentsOfFile: catalogFile, encoding: .utf8)
        let version = try #require(text.range(of: #"<key>CatalogVersion</key>\s*<integer>\d+</integer>"#, options: .regularExpression))
        try text.replacingCharacters(in: version, with: "<key>CatalogVersion</key><integer>99</integer>").write(toFile: catalogFile, atomically: true, encoding: .utf8)
        let newer = try RunningServer(packsFolder: packs.path)
        let older = try RunningServer(dataFolder: newer.directory.file("data"))
        let home = try TemporaryDirectory()
        let credentials = try await HTTPPackService.createAccount(at: newer.url)
        let state = home.file("service-catalog-version")
        #expect(try await HTTPPackService(credentials: credentials, statePath: state).fetchCatalog().catalogVersion == 99)

        var atOlder = credentials
        atOlder.service = older.url
        let client = HTTPPackService(credentials: atOlder, statePath: state)
        let catalog = try await client.fetchCatalog()
        #expect(catalog.catalogVersion == 99 && client.servedOlderCatalog != nil && client.servedOlderCatalog! < 99)
        #expect(try await client.hintBalance() == 0, "the older server serves the account meanwhile")

        // Without the newer catalog kept, the same answer is a rollback.
        try FileManager.default.removeItem(atPath: home.file("service-catalog.json"))
        do {
            _ = try await HTTPPackService(credentials: atOlder, statePath: state).fetchCatalog()
            Issue.record("an older catalog without the newer one held was taken")
        } catch {
            #expect(error.kind == .untrusted && error.message.contains("refusing a rollback"), "\(error)")
        }
    }

    /// Liveness and readiness, both without a token: ready while the catalog is in the packs
    /// folder and the accounts database answers; alive whatever happens.
    @Test func healthIsLivenessAndReadyIsReadiness() throws {
        let packs = try TemporaryDirectory()
        try FileManager.default.removeItem(atPath: packs.path)
        try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: packs.path)
        let running = try RunningServer(packsFolder: packs.path)
        let ready = try running.curl([running.url + "/v1/ready"])
        #expect(ready.status == 200 && ready.body == #"{"status":"ready"}"#, "\(ready)")
        try FileManager.default.moveItem(atPath: packs.file("Catalog.plist"), toPath: packs.file("Catalog.plist.away"))
        // Readiness is checked at most once a second: the change shows within one.
        var gone = (status: 0, body: "")
        #expect(try eventually(within: 5) {
            gone = try running.curl([running.url + "/v1/ready"])
            return gone.status == 503
        }, "\(gone)")
        #expect(gone.body.contains("the catalog is gone from the packs folder"), "\(gone)")
        #expect(try running.curl([running.url + "/v1/health"]).status == 200)
        #expect(try running.curl(["-X", "POST", running.url + "/v1/ready"]).status == 405)
        try FileManager.default.moveItem(atPath: packs.file("Catalog.plist.away"), toPath: packs.file("Catalog.plist"))
        #expect(try eventually(within: 5) { try running.curl([running.url + "/v1/ready"]).status == 200 })
    }

    /// An accounts database damaged past the pages a start reads: the server starts, and says it
    /// is not ready (every new account would fail), rather than ready.
    @Test func aDamagedAccountsDatabaseIsNotReady() async throws {
        let folder = try TemporaryDirectory()
        let data = folder.file("data")
        let path = data + "/accounts.sqlite"
        // The schema's pages, with no account yet.
        do { _ = try SellerService(.sqlite(folder: data)) }
        let schema = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        do {
            let seller = try SellerService(.sqlite(folder: data))
            for _ in 0..<300 { _ = try seller.directory.create(now: 0) }
        }
        // Garbage over the pages the accounts took after the schema's, as a failing disk leaves them.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let size = try handle.seekToEnd()
        try #require(size > UInt64(schema) + 2 * 4096, "\(size) bytes, the schema \(schema)")
        try handle.seek(toOffset: UInt64(schema))
        handle.write(Data(repeating: 0xA5, count: Int(size) - schema))
        try handle.close()
        let second = try RunningServer(dataFolder: data)
        let ready = try second.curl([second.url + "/v1/ready"])
        #expect(ready.status == 503 && ready.body.contains("the accounts database is damaged"), "\(ready)")
        #expect(try second.curl([second.url + "/v1/health"]).status == 200)
    }

    @Test func aPlayerBuysSpendsAndDownloadsThroughTheServer() async throws {
        let running = try RunningServer()
        let client = try await running.newClient()
        let catalog = try await client.fetchCatalog()
        #expect(catalog.product(ios) != nil)
        guard case .purchased = try await client.buy(hints10, quantity: 1) else { throw ServiceError(.storage, "no purchase") }
        #expect(try await client.hintBalance() == 10)
        #expect(try await client.spendHint(idempotencyKey: "game-1-hint-1").balance == 9)
        #expect(try await client.spendHint(idempotencyKey: "game-1-hint-1").wasAlreadySpent)
        guard case .purchased = try await client.buy(ios, quantity: 1) else { throw ServiceError(.storage, "no purchase") }
        let archive = try await client.packArchive(ios)
        #expect(SHA256.hash(archive).hex == catalog.product(ios)?.packSHA256)
        #expect(try await client.entitlements().map(\.productID) == [ios])
    }

    @Test func aDownloadReportsItsBytesAsTheyArrive() async throws {
        let running = try RunningServer()
        let credentials = try await HTTPPackService.createAccount(at: running.url)
        let client = HTTPPackService(credentials: credentials, downloadFolder: running.directory.file("downloads"))
        guard case .purchased = try await client.buy(ios, quantity: 1) else { throw ServiceError(.storage, "no purchase") }
        final class Seen: @unchecked Sendable { var counts: [Int] = [] }
        let seen = Seen()
        let archive = try await client.packArchive(ios, progress: { seen.counts.append($0) })
        #expect(!seen.counts.isEmpty)
        #expect(seen.counts == seen.counts.sorted(), "never backwards")
        #expect(seen.counts.last == archive.count)
    }

    @Test func twoAccountsSeeNothingOfEachOther() async throws {
        let running = try RunningServer(environment: .sandbox)
        let alice = try await running.newClient()
        let bob = try await running.newClient()
        guard case .purchased(let bought) = try await alice.buy(hard, quantity: 1) else { throw ServiceError(.storage, "no purchase") }
        _ = try await alice.buy(hints10, quantity: 1)
        #expect(try await bob.transactions().isEmpty)
        #expect(try await bob.hintBalance() == 0)
        await #expect(throws: ServiceError.self) { try await bob.spendHint(idempotencyKey: "steal") }
        let download = await #expect(throws: ServiceError.self) { try await bob.packArchive(hard) }
        #expect(download?.kind == .notEntitled)
        let refund = await #expect(throws: ServiceError.self) { try await bob.refund(bought.id) }
        #expect(refund?.kind == .unknownTransaction)
        #expect(try await alice.hintBalance() == 10)
        #expect(try await alice.entitlements().contains { $0.productID == hard && $0.isActive })
    }

    @Test func noTokenAndAWrongTokenGet401() async throws {
        let running = try RunningServer()
        let client = try await running.newClient()
        #expect(try running.curl([running.url + "/v1/hints"]).status == 401)
        #expect(try running.curl(["-H", "Authorization: Bearer hp1.0000000000000000.nope", running.url + "/v1/hints"]).status == 401)
        let forged = client.credentials.token.dropLast(2) + "xx"
        #expect(try running.curl(["-H", "Authorization: Bearer \(forged)", running.url + "/v1/hints"]).status == 401)
        #expect(try running.curl(["-H", "Authorization: Bearer \(client.credentials.token)", running.url + "/v1/hints"]) == (200, #"{"hints":0}"#))
        // The catalog, the key, health and verifyReceipt need no token.
        #expect(try running.curl([running.url + "/v1/catalog"]).status == 200)
        #expect(try running.curl([running.url + "/v1/service-key"]).status == 200)
    }

    @Test func aRetriedPurchaseWithTheSameKeyChargesOnce() async throws {
        let running = try RunningServer()
        let client = try await running.newClient()
        let body = #"{"productID":"com.hangmanpacks.hints.10","quantity":1}"#
        let arguments = ["-X", "POST", "-H", "Authorization: Bearer \(client.credentials.token)", "-H", "Idempotency-Key: once", "--data", body, running.url + "/v1/purchases"]
        let first = try running.curl(arguments)
        let second = try running.curl(arguments)
        #expect(first.status == 200)
        // The same outcome (the same transaction, charged once); the statement beside it is the account's now.
        let outcomes = try [first, second].map { try Wire.decode(PurchaseOutcome.self, from: Array($0.body.utf8)) }
        #expect(outcomes[0] == outcomes[1])
        #expect(first.body.contains(#""statement":{"#) && second.body.contains(#""statement":{"#), "\(second.body)")
        #expect(try await client.hintBalance() == 10)
        #expect(try await client.transactions().count == 1)
        let noKey = try running.curl(["-X", "POST", "-H", "Authorization: Bearer \(client.credentials.token)", "--data", body, running.url + "/v1/purchases"])
        #expect(noKey.status == 400)
    }

    @Test func archivesAnswerRangesHeadAndETag() async throws {
        let running = try RunningServer()
        let client = try await running.newClient()
        _ = try await client.buy(ios, quantity: 1)
        let auth = ["-H", "Authorization: Bearer \(client.credentials.token)"]
        let path = running.url + "/v1/packs/\(ios.rawValue)/archive"
        let whole = try await client.packArchive(ios)
        let part = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-D", "-", "-o", running.directory.file("part")] + auth + ["-H", "Range: bytes=10-19", path])
        #expect(part.stdout.contains("HTTP/1.1 206"))
        #expect(part.stdout.contains("Content-Range: bytes 10-19/\(whole.count)"))
        let digest = SHA256.hash(whole).hex
        #expect(part.stdout.contains("ETag: \"\(digest)\""))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: running.directory.file("part")))) == Array(whole[10...19]))
        #expect(try running.curl(["-o", "/dev/null"] + auth + ["-H", "Range: bytes=\(whole.count)-", path]).status == 416)
        let head = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-I"] + auth + [path])
        #expect(head.stdout.contains("Content-Length: \(whole.count)"))
        #expect(try running.curl(["-o", "/dev/null", path]).status == 401)
    }

    @Test func aSandboxReceiptSentToProductionGets21007() async throws {
        let production = try RunningServer(environment: .production)
        let sandbox = try RunningServer(environment: .sandbox)
        let player = try await sandbox.newClient()
        _ = try await player.buy(hints10, quantity: 1)
        let receipt = try await player.receipt()
        #expect(receipt.payload.environment == .sandbox)
        #expect(try await sandbox.newClient().verifyReceipt(receipt.bytes).status == .valid)
        let atProduction = try await production.newClient().verifyReceipt(receipt.bytes)
        #expect(atProduction.status.rawValue == 21007)
        let raw = try production.curl(["-X", "POST", "--data", #"{"receipt-data":"bm90IGEgcmVjZWlwdA=="}"#, production.url + "/verifyReceipt"])
        #expect(raw.body.contains(#""status":21002"#))
    }

    @Test func aProductionReceiptSentToASandboxGets21008OverHTTP() async throws {
        let production = try RunningServer(environment: .production)
        let sandbox = try RunningServer(environment: .sandbox)
        let player = try await production.newClient()
        _ = try await player.buy(hints10, quantity: 1)
        let receipt = try await player.receipt()
        #expect(receipt.payload.environment == .production)
        let body = String(decoding: try Wire.encode(ReceiptData(receipt.bytes)), as: UTF8.self)
        let atSandbox = try sandbox.curl(["-X", "POST", "-H", "Content-Type: application/json", "--data", body, sandbox.url + "/verifyReceipt"])
        #expect(atSandbox.status == 200)
        #expect(atSandbox.body.contains(#""status":21008"#), "\(atSandbox.body)")
        // Control: at its own environment the same bytes are valid.
        let atProduction = try production.curl(["-X", "POST", "-H", "Content-Type: application/json", "--data", body, production.url + "/verifyReceipt"])
        #expect(atProduction.body.contains(#""status":0"#), "\(atProduction.body)")
    }

    @Test func answersSignedByAnotherKeyAreRefused() async throws {
        let running = try RunningServer()
        let other = try RunningServer()
        let client = try await running.newClient()
        // The same account's token, but the client pinned the other server's key.
        let impostor = HTTPPackService(credentials: ServiceCredentials(
            service: running.url, accountID: client.credentials.accountID, token: client.credentials.token, publicKey: other.server.publicKey))
        let error = await #expect(throws: ServiceError.self) { try await impostor.fetchCatalog() }
        #expect(error?.kind == .untrusted)
        await #expect(throws: ServiceError.self) { try await impostor.entitlements() }
    }

    @Test func aRolledBackOrExpiredCatalogIsRefused() async throws {
        let running = try RunningServer()
        let state = running.directory.file("catalog-version")
        let client = try await running.newClient(statePath: state)
        let version = try await client.fetchCatalog().catalogVersion
        #expect(try String(contentsOfFile: state, encoding: .utf8) == "\(version)\n")
        // A newer catalog was seen once: the service now offering an older one is a rollback.
        try Data("\(version + 1)\n".utf8).write(to: URL(fileURLWithPath: state))
        let rollback = await #expect(throws: ServiceError.self) { try await client.fetchCatalog() }
        #expect(rollback?.kind == .untrusted)
        #expect(rollback?.message.contains("rollback") == true)
        let frozen = try RunningServer(catalogLifetime: -1)
        let late = await #expect(throws: ServiceError.self) { try await frozen.newClient().fetchCatalog() }
        #expect(late?.message.contains("expired") == true)
    }

    /// A second server of the same service (same key) that still sells an older catalog: once the
    /// client has seen the newer one, the older one is never used, also when the version file the
    /// client keeps is damaged (the last signed catalog it kept is a floor too): the newer one it
    /// holds serves meanwhile.
    @Test func anOlderCatalogFromAnotherServerIsNeverUsedEvenWithADamagedStateFile() async throws {
        let newer = try RunningServer()
        // The same packs published once more: CatalogVersion + 1, served by the first server.
        let packs = newer.directory.file("packs")
        try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: packs)
        let catalogURL = URL(fileURLWithPath: packs + "/Catalog.plist")
        var root = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: catalogURL), format: nil) as? [String: Any])
        let shipped = try #require(root["CatalogVersion"] as? Int)
        root["CatalogVersion"] = shipped + 1
        try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0).write(to: catalogURL)
        let republished = try RunningServer(dataFolder: newer.directory.file("data"), packsFolder: packs)
        let older = try RunningServer(dataFolder: newer.directory.file("data"))
        let state = newer.directory.file("account/catalog-version")
        try FileManager.default.createDirectory(atPath: newer.directory.file("account"), withIntermediateDirectories: true)
        let credentials = try await HTTPPackService.createAccount(at: republished.url)
        #expect(try await HTTPPackService(credentials: credentials, statePath: state).fetchCatalog().catalogVersion == shipped + 1)
        var elsewhere = credentials
        elsewhere.service = older.url
        // Control: a client that never saw the newer catalog takes the older one.
        #expect(try await HTTPPackService(credentials: elsewhere).fetchCatalog().catalogVersion == shipped)
        for damage in ["", "garbage\n", nil] as [String?] {
            if let damage { try Data(damage.utf8).write(to: URL(fileURLWithPath: state)) } else { try? FileManager.default.removeItem(atPath: state) }
            let client = HTTPPackService(credentials: elsewhere, statePath: state)
            let used = try await client.fetchCatalog()
            #expect(used.catalogVersion == shipped + 1 && client.servedOlderCatalog == shipped, "state file \(damage.map { "'\($0)'" } ?? "deleted")")
        }
    }

    /// A known resource asked with a method it does not take gets 405 and the methods it takes;
    /// an unknown one 404; the bearer scheme is matched in any case.
    @Test func wrongMethodsGet405AndTheSchemeIsCaseInsensitive() async throws {
        let running = try RunningServer()
        let client = try await running.newClient()
        let catalog = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-i", "--max-time", "10", "-X", "DELETE", running.url + "/v1/catalog"])
        #expect(catalog.stdout.hasPrefix("HTTP/1.1 405"), "\(catalog.stdout)")
        #expect(catalog.stdout.contains("Allow: GET, HEAD"), "\(catalog.stdout)")
        #expect(try running.curl(["-X", "POST", "-H", "Authorization: Bearer \(client.credentials.token)", running.url + "/v1/hints"]).status == 405)
        #expect(try running.curl(["-H", "Authorization: Bearer \(client.credentials.token)", running.url + "/v1/nothing"]).status == 404)
        for scheme in ["Bearer", "bearer", "BEARER"] {
            let hints = try running.curl(["-H", "Authorization: \(scheme) \(client.credentials.token)", running.url + "/v1/hints"])
            #expect(hints.status == 200, "\(scheme): \(hints)")
        }
        #expect(try running.curl(["-H", "Authorization: Basic \(client.credentials.token)", running.url + "/v1/hints"]).status == 401)
    }

    /// The accounts database holds every token's digest: private (0600) even when its folder
    /// was made beforehand by someone else.
    @Test func theAccountsDatabaseIsPrivateInAFolderThatExists() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("data"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        _ = try RunningServer(dataFolder: directory.file("data"))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: directory.file("data/accounts.sqlite"))[.posixPermissions] as? Int)
        #expect(mode & 0o077 == 0, "mode \(String(mode, radix: 8))")
    }

    /// Requests that keep failing on storage make the server not ready (a load balancer then sends
    /// players elsewhere), until a request reaches an account's storage again (L6).
    @Test func repeatedStorageFailuresMakeTheServerNotReady() async throws {
        let first = try RunningServer()
        let damaged = try await first.newClient()
        let healthy = try await first.newClient()
        _ = try await damaged.buy(hints10, quantity: 1)
        let ledger = first.directory.file("data/accounts/\(damaged.credentials.accountID)/account.sqlite")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: ledger + suffix) }
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: ledger))
        let second = try RunningServer(dataFolder: first.directory.file("data"))
        func hints(_ client: HTTPPackService) -> Int {
            second.server.handle(HTTPRequest(
                method: "GET", path: "/v1/hints", query: [:], headers: ["authorization": "Bearer \(client.credentials.token)"], body: [])).status
        }
        func ready() -> HTTPResponse { second.server.handle(HTTPRequest(method: "GET", path: "/v1/ready", query: [:], headers: [:], body: [])) }
        for _ in 0..<4 { #expect(hints(damaged) == 500) }
        #expect(ready().status == 200, "four failures are not yet a pattern")
        #expect(hints(damaged) == 500)
        // The answer is kept a second: asked until it is made again.
        var notReady = ready()
        #expect(eventually(within: 5) {
            notReady = ready()
            return notReady.status == 503
        })
        guard case .bytes(let body) = notReady.body else { throw ServiceError(.storage, "no body") }
        #expect(String(decoding: body, as: UTF8.self).contains("requests are failing on storage"))
        #expect(hints(healthy) == 200)
        #expect(eventually(within: 5) { ready().status == 200 }, "an account's storage answered again")
    }

    /// A failure of the server's own storage answers 500 without its paths or the database's
    /// words: those are for the server's log (`logDetail`), not for a client.
    @Test func aStorageFailureTellsTheClientNoPath() async throws {
        let first = try RunningServer()
        let client = try await first.newClient()
        _ = try await client.buy(hints10, quantity: 1)
        let ledger = first.directory.file("data/accounts/\(client.credentials.accountID)/account.sqlite")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: ledger + suffix) }
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: ledger))
        // A second server on the same data opens the damaged ledger afresh.
        let second = try RunningServer(dataFolder: first.directory.file("data"))
        let request = HTTPRequest(
            method: "GET", path: "/v1/hints", query: [:], headers: ["authorization": "Bearer \(client.credentials.token)"], body: [])
        let response = second.server.handle(request)
        #expect(response.status == 500)
        guard case .bytes(let body) = response.body else { throw ServiceError(.storage, "no body") }
        let text = String(decoding: body, as: UTF8.self)
        #expect(!text.contains(first.directory.path), "\(text)")
        #expect(text.contains("its log says why"), "\(text)")
        #expect(response.logDetail?.contains(ledger) == true, "\(response.logDetail ?? "")")
    }

    /// A receipt names its account, signed: its server calls it valid; a server with the same key
    /// that does not know the account answers 21010, with nothing of the history.
    @Test func aReceiptIsTiedToItsAccount() async throws {
        let running = try RunningServer()
        let client = try await running.newClient()
        _ = try await client.buy(hints10, quantity: 1)
        let receipt = try await client.receipt()
        #expect(receipt.payload.accountID == client.credentials.accountID)
        let verified = await client.verifyReceipt(receipt.bytes)
        #expect(verified.status == .valid, "\(verified.message)")
        // The same key (the same data folder), other accounts (another SQLite folder).
        let directory = try TemporaryDirectory()
        var configuration = PackServerConfiguration(
            dataFolder: running.server.configuration.dataFolder, packsFolder: running.server.configuration.packsFolder, environment: .production)
        configuration.database = .sqlite(folder: directory.file("other-accounts"))
        let stranger = try PackServer(configuration)
        let answer = stranger.handle(HTTPRequest(
            method: "POST", path: "/verifyReceipt", query: [:], headers: [:], body: try Wire.encode(AppleVerifyRequest(receiptData: Base64.encode(receipt.bytes)))))
        guard case .bytes(let body) = answer.body else { throw ServiceError(.storage, "no body") }
        let decoded = try Wire.decode(AppleVerifyResponse.self, from: body)
        #expect(decoded.status == 21010)
        #expect(decoded.receipt == nil && decoded.latestReceipt == nil)
    }

    /// A refusal in the language the request's `Accept-Language` asks for, when the service has a
    /// catalog for it (`Content-Language` says which); English for any other, and for none.
    @Test func aRefusalIsInTheLanguageTheClientAccepts() async throws {
        let running = try RunningServer()
        func refused(_ accepting: String?) throws -> (message: String, language: String?, vary: String?) {
            let answer = running.server.handle(HTTPRequest(
                method: "DELETE", path: "/v1/health", query: [:], headers: accepting.map { ["accept-language": $0] } ?? [:], body: []))
            #expect(answer.status == 405)
            guard case .bytes(let body) = answer.body else { throw ServiceError(.storage, "no body") }
            let header = { (name: String) in answer.headers.first { $0.0 == name }?.1 }
            return (try Wire.decode(ErrorBody.self, from: body).message, header("Content-Language"), header("Vary"))
        }
        let english = "/v1/health takes GET, not DELETE"
        let german = L10n.$language.withValue("de") { L10n.text("%s takes %s, not %s", "/v1/health", "GET", "DELETE") }
        #expect(german != english && german.contains("/v1/health"), "\(german)")
        #expect(try refused(nil) == (english, nil, nil))
        #expect(try refused("de-DE,de;q=0.9,en;q=0.8") == (german, "de", "Accept-Language"))
        // The highest weight that has a catalog wins; English or a language without one is English.
        #expect(try refused("ja, de;q=0.2, fr;q=0.7").language == "fr")
        #expect(try refused("en-US, de;q=0.5").message == english)
        #expect(try refused("ja").message == english)
        #expect(try refused("pt-BR").language == "pt-BR")
        // A field too long, or of nonsense, is read as none.
        #expect(try refused(String(repeating: "de,", count: 200)).message == english)
        #expect(try refused(";;q=,\u{0};de;q=abc").message == english)
    }

    /// A receipt of many transactions (its body past the 64 KiB default) is verified by its own
    /// server; only /verifyReceipt takes such a body.
    @Test func aLargeReceiptIsVerifiedByItsServer() async throws {
        let running = try RunningServer()
        let client = try await running.newClient()
        for _ in 0..<150 { _ = try await client.buy(hints10, quantity: 1) }
        let receipt = try await client.receipt()
        let body = try Wire.encode(ReceiptData(receipt.bytes))
        #expect(body.count > 64 << 10, "\(body.count) bytes")
        #expect(await client.verifyReceipt(receipt.bytes).status == .valid)
        // Control: the same size elsewhere is still refused.
        let file = running.directory.file("big.json")
        try Data(body).write(to: URL(fileURLWithPath: file))
        let elsewhere = try running.curl([
            "-X", "POST", "-H", "Authorization: Bearer \(client.credentials.token)", "-H", "Content-Type: application/json",
            "--data-binary", "@" + file, running.url + "/v1/hints/spend",
        ])
        #expect(elsewhere.status == 413)
    }

    /// The server polls with poll(), not select(): with 1,100 descriptors already open, its
    /// sockets are numbered past 1023 and it still answers.
    @Test func aServerWhoseSocketsArePastDescriptor1023StillAnswers() async throws {
        let directory = try TemporaryDirectory()
        let server = try ExternalProcess("/usr/bin/python3", ["-c", #"""
            import os, resource, sys
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            if hard != resource.RLIM_INFINITY and hard < 2048:
                sys.exit("the open-file hard limit is %d: this test needs 2048 (ulimit -Hn)" % hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (4096, hard))
            null = os.open("/dev/null", os.O_RDONLY)
            for _ in range(1100):
                os.set_inheritable(os.dup(null), True)
            os.execv(sys.argv[1], sys.argv[1:])
            """#, HangmanBinary.path, "serve", "--listen", "127.0.0.1:0", "--data", directory.file("data"), "--environment", "sandbox",
            "--packs", HangmanBinary.packageRoot.appendingPathComponent("Packs").path])
        defer { _ = server.kill() }
        var url = ""
        for _ in 0..<400 where url.isEmpty && server.isRunning {
            let line = (try? String(contentsOfFile: "/proc/\(server.processIdentifier)/fd/1", encoding: .utf8)) ?? ""
            if let range = line.range(of: "listening on ") { url = line[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines) }
            if url.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
        }
        if url.isEmpty {
            let ended = server.kill()
            Issue.record("the server did not start: \(ended.stderr)")
            return
        }
        let answer = try ExternalProcess.run("/usr/bin/curl", ["-sS", "--max-time", "10", "-w", " %{http_code}", url + "/v1/health"])
        #expect(answer.stdout.hasSuffix(" 200"), "\(answer.stdout) \(answer.stderr)")
    }

    /// A bounded number of accounts keep their ledgers open: the least recently used is closed
    /// to make room, and opens again, with everything it held, when it comes back.
    @Test func openLedgersAreBoundedAndAClosedOneComesBackWhole() async throws {
        let directory = try TemporaryDirectory()
        var configuration = PackServerConfiguration(
            dataFolder: directory.file("data"), packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, environment: .sandbox)
        configuration.openAccounts = 4
        let server = try PackServer(configuration)
        let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        defer { http.stop() }
        var clients: [HTTPPackService] = []
        for _ in 0..<10 {
            let client = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: http.url))
            _ = try await client.buy(hints10, quantity: 1)
            clients.append(client)
            #expect(server.openAccountCount <= 4)
        }
        #expect(server.openAccountCount == 4)
        // The first account was closed long ago: it opens again with its hints.
        #expect(try await clients[0].spendHint(idempotencyKey: "after-closing").balance == 9)
        #expect(server.openAccountCount == 4)
    }

    /// An account statement older than one already seen (beyond the clocks' allowed skew) is a
    /// replay: refused, and the newer one kept for offline play.
    @Test func anOlderAccountStatementIsAReplay() async throws {
        let now = Clock.system.now()
        let current = try RunningServer(clock: Clock { now })
        let stale = try RunningServer(dataFolder: current.directory.file("data"), clock: Clock { now - 3_600_000 })
        let slightlyBehind = try RunningServer(dataFolder: current.directory.file("data"), clock: Clock { now - 60_000 })
        try FileManager.default.createDirectory(atPath: current.directory.file("account"), withIntermediateDirectories: true)
        let state = current.directory.file("account/catalog-version")
        let credentials = try await HTTPPackService.createAccount(at: current.url)
        func client(_ server: RunningServer) -> HTTPPackService {
            var moved = credentials
            moved.service = server.url
            return HTTPPackService(credentials: moved, statePath: state)
        }
        #expect(try await client(current).statement().issued == now)
        let replay = await #expect(throws: ServiceError.self) { try await client(stale).statement() }
        #expect(replay?.kind == .untrusted)
        #expect(replay?.message.contains("refusing a replay") == true, "\(replay?.message ?? "")")
        // Control: a server whose clock is a minute behind is not a replay.
        #expect(try await client(slightlyBehind).statement().issued == now - 60_000)
        // The newest statement stays the one kept.
        #expect(client(current).lastSignedHintBalance()?.issued == now)
    }

    /// A server without test controls refuses them with 403, the store clock included: nobody
    /// moves a production store's time.
    @Test func testControlsAreForbiddenWithoutTheOption() async throws {
        let directory = try TemporaryDirectory()
        let server = try PackServer(PackServerConfiguration(
            dataFolder: directory.file("data"), packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, environment: .production))
        let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        defer { http.stop() }
        let client = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: http.url))
        let before = Clock.system.now()
        let advance = await #expect(throws: ServiceError.self) { try await client.advanceClock(by: StoreDuration(1, .year)) }
        #expect(advance?.kind == .notOffered && advance?.message.contains("test controls are off") == true, "\(advance?.message ?? "")")
        await #expect(throws: ServiceError.self) { try await client.storeClock() }
        let raw = try ExternalProcess.run("/usr/bin/curl", [
            "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", "-X", "POST", "-H", "Authorization: Bearer \(client.credentials.token)",
            "--data", #"{"duration":"P1Y"}"#, http.url + "/v1/test/clock/advance",
        ])
        #expect(raw.stdout == "403")
        // The store's time did not move: a pass bought now lasts from now.
        _ = try await client.buy(ProductID(rawValue: "com.hangmanpacks.pass.30days")!, quantity: 1)
        let ends = try #require(try await client.subscriptions().first?.expiresDate)
        #expect(ends < before + 31 * 86_400_000)
    }

    /// New accounts are rate-limited per client address (a token bucket): beyond the burst, 429
    /// with `Retry-After` and one sentence; a minute later, one more.
    @Test func accountCreationIsRateLimitedPerAddress() async throws {
        let directory = try TemporaryDirectory()
        let now = Mutex(Clock.system.now())
        var configuration = PackServerConfiguration(
            dataFolder: directory.file("data"), packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, environment: .sandbox)
        configuration.accountsAtOnce = 3
        configuration.accountsPerMinute = 1
        configuration.clock = Clock { now.withLock { $0 } }
        let server = try PackServer(configuration)
        let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        defer { http.stop() }
        for _ in 0..<3 { _ = try await HTTPPackService.createAccount(at: http.url) }
        let refused = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-i", "--max-time", "10", "-X", "POST", http.url + "/v1/accounts"])
        #expect(refused.stdout.hasPrefix("HTTP/1.1 429"), "\(refused.stdout)")
        #expect(refused.stdout.contains("Retry-After: 60"), "\(refused.stdout)")
        let error = await #expect(throws: ServiceError.self) { try await HTTPPackService.createAccount(at: http.url) }
        #expect(error?.message.contains("too many new accounts from 127.0.0.1's address block") == true, "\(error?.message ?? "")")
        // Ten addresses of one /24 are one budget (before: 20 accounts each).
        for index in 2...11 {
            let other = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", "--interface", "127.0.0.\(index)", "-X", "POST", http.url + "/v1/accounts"])
            #expect(other.stdout == "429", "127.0.0.\(index): \(other.stdout)")
        }
        // A minute later the bucket holds one more.
        now.withLock { $0 += 60_000 }
        _ = try await HTTPPackService.createAccount(at: http.url)
        await #expect(throws: ServiceError.self) { try await HTTPPackService.createAccount(at: http.url) }
    }

    /// Every other request is rate-limited per client address too, before its token is looked at
    /// (guessing tokens keeps the same pace); health checks are not. Another address has its own
    /// bucket.
    @Test func requestsAreRateLimitedPerAddressBeforeTheTokenIsRead() async throws {
        let directory = try TemporaryDirectory()
        let now = Mutex(Clock.system.now())
        var configuration = PackServerConfiguration(
            dataFolder: directory.file("data"), packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, environment: .sandbox)
        // Five at once: the service key fetched with the new account, three balances, a statement.
        configuration.requestsAtOnce = 5
        configuration.requestsPerMinute = 6
        configuration.clock = Clock { now.withLock { $0 } }
        let server = try PackServer(configuration)
        let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        defer { http.stop() }
        let credentials = try await HTTPPackService.createAccount(at: http.url)
        func hints() throws -> String {
            try ExternalProcess.run("/usr/bin/curl", [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", "-H", "Authorization: Bearer \(credentials.token)",
                http.url + "/v1/hints",
            ]).stdout
        }
        for _ in 0..<3 { #expect(try hints() == "200") }
        // A client that does not wait out Retry-After: the server's clock stands still here.
        let client = HTTPPackService(credentials: credentials, maxWaitSeconds: 0)
        _ = try await client.hintBalance()
        let refused = try ExternalProcess.run("/usr/bin/curl", [
            "-sS", "-i", "--max-time", "10", "-H", "Authorization: Bearer hp1.0000000000000000.guess", http.url + "/v1/hints",
        ])
        #expect(refused.stdout.hasPrefix("HTTP/1.1 429"), "a wrong token waits its turn too: \(refused.stdout)")
        #expect(refused.stdout.contains("Retry-After: 10"), "\(refused.stdout)")
        let error = await #expect(throws: ServiceError.self) { try await client.hintBalance() }
        #expect(error?.message.contains("too many requests from 127.0.0.1's address block: try again in 10 s") == true, "\(error?.message ?? "")")
        // Said as what it is, not as an outage: the body's kind is rate-limited (before, service-unavailable).
        #expect(error?.kind == .rateLimited, "\(String(describing: error?.kind))")
        #expect(refused.stdout.contains(#""error":"rate-limited""#), "\(refused.stdout)")
        let health = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", http.url + "/v1/health"])
        #expect(health.stdout == "200")
        func catalog(from address: String) throws -> String {
            try ExternalProcess.run("/usr/bin/curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", "--interface", address, http.url + "/v1/catalog"]).stdout
        }
        // An address of the same /24 shares the bucket (before, ten addresses had ten); another
        // /24 has its own.
        #expect(try catalog(from: "127.0.0.2") == "429", "the same /24 shares the bucket")
        #expect(try catalog(from: "127.0.1.1") == "200", "another /24 has its own bucket")
        // Ten seconds later, one more.
        now.withLock { $0 += 10_000 }
        #expect(try hints() == "200")
        #expect(try hints() == "429")
    }

    /// The open-file limit is shared so that neither connections nor open accounts run out: what
    /// fits is kept; what does not is lowered, and the note says what and why.
    @Test func theDescriptorBudgetFitsTheOpenFileLimit() {
        let roomy = DescriptorBudget(openFileLimit: 1_048_576, connections: 1024, openAccounts: 256, perAccount: 3, reserved: 120)
        #expect(roomy == DescriptorBudget(openFileLimit: 1_048_576, connections: 1024, openAccounts: 256, perAccount: 3, reserved: 120))
        #expect(roomy.connections == 1024 && roomy.openAccounts == 256 && roomy.note == nil)
        let tight = DescriptorBudget(openFileLimit: 1024, connections: 1024, openAccounts: 256, perAccount: 3, reserved: 120)
        #expect(tight.connections + 3 * tight.openAccounts + 120 <= 1024, "\(tight)")
        #expect(tight.connections == 452 && tight.openAccounts == 150, "\(tight)")
        #expect(tight.note?.contains("the open-file limit is 1024") == true, "\(tight.note ?? "")")
        // On PostgreSQL an open account holds no descriptor: only connections are lowered.
        let shared = DescriptorBudget(openFileLimit: 1024, connections: 2048, openAccounts: 256, perAccount: 0, reserved: 120)
        #expect(shared.connections == 452 && shared.openAccounts == 256, "\(shared)")
        // Asked little: kept.
        let small = DescriptorBudget(openFileLimit: 1024, connections: 100, openAccounts: 100, perAccount: 3, reserved: 120)
        #expect(small.connections == 100 && small.openAccounts == 100 && small.note == nil)
    }

    @Test func aServerThatIsGoneIsUnavailable() async throws {
        var running: RunningServer? = try RunningServer()
        let client = try await running?.newClient()
        running = nil
        let error = await #expect(throws: ServiceError.self) { try await client?.hintBalance() }
        #expect(error?.kind == .unavailable)
    }

    @Test func httpsWithACertificateTheTestMakes() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"),
            "/usr/bin/openssl is missing: this test makes its certificate with it ('make test' installs it; or apt-get install openssl)")
        let directory = try TemporaryDirectory()
        let key = directory.file("key.pem"), certificate = directory.file("cert.pem")
        let made = try ExternalProcess.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", certificate,
            "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let tls = HTTPServerConfiguration.TLS(
            certificatePEM: try String(contentsOfFile: certificate, encoding: .utf8), keyPEM: try String(contentsOfFile: key, encoding: .utf8))
        let running = try RunningServer(tls: tls)
        #expect(running.url.hasPrefix("https://"))
        let trusted = try running.curl(["--cacert", certificate, running.url + "/v1/health"])
        #expect(trusted == (200, #"{"status":"ok"}"#))
        #expect(try running.curl([running.url + "/v1/health"]).status == 0)  // not trusted without the certificate
    }

    /// A private certificate authority signs the server's certificate: the client trusts it
    /// through HANGMAN_CA_FILE or SSL_CERT_FILE, and refuses the server without either. The
    /// server offers TLS 1.2 and 1.3 only: a TLS 1.1 handshake is refused, a TLS 1.2 one is not.
    @Test func aPrivateAuthorityIsTrustedByNameAndOldTLSIsRefused() throws {
        let directory = try TemporaryDirectory()
        func openssl(_ arguments: [String]) throws {
            let made = try ExternalProcess.run("/usr/bin/openssl", arguments)
            #expect(made.status == 0, "openssl \(arguments): \(made.stderr)")
        }
        let caKey = directory.file("ca.key"), ca = directory.file("ca.pem"), key = directory.file("server.key")
        let request = directory.file("server.csr"), certificate = directory.file("server.pem"), extensions = directory.file("ext.cnf")
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", caKey, "-out", ca,
                     "-days", "1", "-subj", "/CN=Hangman Test CA"])
        try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=127.0.0.1"])
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: extensions, atomically: true, encoding: .utf8)
        try openssl(["x509", "-req", "-in", request, "-CA", ca, "-CAkey", caKey, "-CAcreateserial", "-out", certificate, "-days", "1", "-extfile", extensions])
        let tls = HTTPServerConfiguration.TLS(
            certificatePEM: try String(contentsOfFile: certificate, encoding: .utf8), keyPEM: try String(contentsOfFile: key, encoding: .utf8))
        let running = try RunningServer(tls: tls)

        func create(_ home: String, _ environment: [String: String]) throws -> ProcessResult {
            try HangmanBinary.run(["account", "create", "--service", running.url], environment: ["HANGMAN_HOME": directory.file(home)].merging(environment) { $1 })
        }
        let untrusted = try create("none", ["HANGMAN_CA_FILE": "", "SSL_CERT_FILE": ""])
        #expect(untrusted.status == 69 && untrusted.stderr.contains("TLS"), "\(untrusted.status) \(untrusted.stderr)")
        let named = try create("named", ["HANGMAN_CA_FILE": ca])
        #expect(named.status == 0, "\(named.stderr)")
        let standard = try create("standard", ["SSL_CERT_FILE": ca, "HANGMAN_CA_FILE": ""])
        #expect(standard.status == 0, "\(standard.stderr)")
        // --ca-file, for the account and for every command after it.
        let none = ["HANGMAN_CA_FILE": "", "SSL_CERT_FILE": "", "HANGMAN_HOME": directory.file("flag")]
        let flagged = try HangmanBinary.run(["account", "create", "--service", running.url, "--ca-file", ca], environment: none)
        #expect(flagged.status == 0, "\(flagged.stderr)")
        let listed = try HangmanBinary.run(["products", "--ca-file", ca], environment: none)
        #expect(listed.status == 0 && listed.stdout.contains("ios"), "\(listed.stderr)")
        let untrustedLater = try HangmanBinary.run(["products"], environment: none)
        #expect(untrustedLater.status != 0 || untrustedLater.stderr.contains("TLS"), "without the authority: \(untrustedLater.status) \(untrustedLater.stderr)")

        let port = running.url.split(separator: ":").last.map(String.init) ?? ""
        func handshake(_ version: String) throws -> ProcessResult {
            try ExternalProcess.run(
                "/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(port)", version, "-cipher", "DEFAULT:@SECLEVEL=0", "-CAfile", ca],
                input: Array("".utf8), killAfter: 20)
        }
        let old = try handshake("-tls1_1")
        // Refused: no cipher was agreed (s_client prints the protocol it tried either way).
        #expect(old.status != 0 && old.stdout.contains("Cipher is (NONE)"), "TLS 1.1 was accepted: \(old.stdout)\(old.stderr)")
        let current = try handshake("-tls1_2")
        #expect(current.status == 0 && current.stdout.contains("TLSv1.2") && !current.stdout.contains("Cipher is (NONE)"), "\(current.stdout)\(current.stderr)")
    }
}

/// `hangman serve` as a process of its own, killed at a crash point and started again.
@Suite struct ServerCrashTests {
    /// A backup taken with `hangman backup` while the server serves, restored as a new server's
    /// data folder: the account, its balance and its old receipts are all there.
    @Test func aBackupTakenWhileServingRestoresIntoANewServer() async throws {
        let directory = try TemporaryDirectory()
        let (first, url) = try ServeProcess.start(data: directory.file("data"), port: 0)
        let credentials = try await HTTPPackService.createAccount(at: url)
        let client = HTTPPackService(credentials: credentials)
        _ = try await client.buy(hints10, quantity: 1)
        let receipt = try await client.receipt()
        let backup = try HangmanBinary.run(["backup", "--data", directory.file("data"), "-o", directory.file("backup")])
        #expect(backup.status == 0 && backup.stdout.contains("2 databases and"), "\(backup.stdout)\(backup.stderr)")
        _ = first.kill()
        let (second, restoredURL) = try ServeProcess.start(data: directory.file("backup"), port: 0)
        defer { _ = second.kill() }
        var moved = credentials
        moved.service = restoredURL
        let restored = HTTPPackService(credentials: moved)
        #expect(try await restored.hintBalance() == 10)
        #expect(await restored.verifyReceipt(receipt.bytes).status == .valid)
        let again = try HangmanBinary.run(["backup", "--data", directory.file("data"), "-o", directory.file("backup")])
        #expect(again.status == 64, "a backup never overwrites one")
    }

    /// The systemd unit's ExecStart is a command line this server takes: run as written, but on
    /// a free port and in temporary folders.
    @Test func theSystemdUnitStartsTheServer() throws {
        let unit = try String(contentsOfFile: HangmanBinary.packageRoot.appendingPathComponent("contrib/hangman-serve.service").path, encoding: .utf8)
        for setting in ["DynamicUser=yes", "StateDirectory=hangman", "ProtectSystem=strict", "NoNewPrivileges=yes", "Restart=on-failure", "KillSignal=SIGTERM", "ExecReload=/bin/kill -HUP $MAINPID"] {
            #expect(unit.contains("\n" + setting + "\n"), "\(setting)")
        }
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let directory = try TemporaryDirectory()
        let arguments = line.dropFirst("ExecStart=".count).split(separator: " ").map(String.init).dropFirst().map { argument -> String in
            switch argument {
            case "/var/lib/hangman": directory.file("state")
            case "/usr/local/share/hangman/Packs": HangmanBinary.packageRoot.appendingPathComponent("Packs").path
            case let address where address.hasPrefix("127.0.0.1:"): "127.0.0.1:0"
            default: argument
            }
        }
        #expect(arguments.first == "serve")
        let process = try ExternalProcess(HangmanBinary.path, Array(arguments))
        defer { _ = process.kill() }
        var out = ""
        for _ in 0..<400 where !out.contains("metrics on ") {
            usleep(25_000)
            out = try shell("cat /proc/\(process.processIdentifier)/fd/1 2>/dev/null || true")
        }
        #expect(out.contains("listening on http://127.0.0.1:") && out.contains("metrics on http://127.0.0.1:"), "\(out)")
    }

    /// SIGHUP reads the TLS certificate and key again: the new one is served from the next
    /// handshake on; a key that is not the certificate's is refused, logged, the old pair kept.
    @Test func sighupServesANewCertificate() throws {
        let directory = try TemporaryDirectory()
        func make(_ name: String) throws -> (key: String, certificate: String) {
            let key = directory.file("\(name).key"), certificate = directory.file("\(name).pem")
            let made = try ExternalProcess.run("/usr/bin/openssl", [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", certificate,
                "-days", "1", "-subj", "/O=\(name)/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
            #expect(made.status == 0, "\(made.stderr)")
            return (key, certificate)
        }
        let first = try make("first"), second = try make("second")
        let servedKey = directory.file("served.key"), servedCertificate = directory.file("served.pem")
        func serve(_ pair: (key: String, certificate: String)) throws {
            _ = try shell("cp '\(pair.key)' '\(servedKey)' && cp '\(pair.certificate)' '\(servedCertificate)'")
        }
        try serve(first)
        let (process, url) = try ServeProcess.start(data: directory.file("data"), port: 0, extra: ["--tls-cert", servedCertificate, "--tls-key", servedKey])
        defer { _ = process.kill() }
        let port = url.split(separator: ":").last.map(String.init) ?? ""
        func subject() throws -> String {
            try shell("openssl s_client -connect 127.0.0.1:\(port) </dev/null 2>/dev/null | openssl x509 -noout -subject 2>/dev/null")
        }
        let initial = try subject()
        #expect(initial.contains("O = first"), "\(initial)")
        try serve(second)
        #expect(kill(process.processIdentifier, SIGHUP) == 0)
        var now = ""
        for _ in 0..<100 where !now.contains("O = second") {
            usleep(30_000)
            now = try subject()
        }
        #expect(now.contains("O = second"), "\(now)")
        // A key that is not the certificate's: refused, the second pair still served.
        _ = try shell("cp '\(first.key)' '\(servedKey)'")
        #expect(kill(process.processIdentifier, SIGHUP) == 0)
        #expect(eventually { process.errorSoFar.contains("the new certificate and key do not load") }, "\(process.errorSoFar)")
        #expect(try subject().contains("O = second"))
        #expect(try shell("curl -sS --cacert '\(second.certificate)' \(url)/v1/health") == #"{"status":"ok"}"#)
        let log = process.kill().stderr
        #expect(log.contains("SIGHUP: serving the certificate in \(servedCertificate)"), "\(log)")
        #expect(log.contains("the new certificate and key do not load"), "\(log)")
    }

    /// With a certificate the dashboard is served over TLS too, and its session cookie is sent
    /// back over TLS only (`Secure`); without one it is plain HTTP and says nothing of TLS (K1).
    @Test func theDashboardIsServedOverTLSWithASecureCookie() throws {
        let directory = try TemporaryDirectory()
        let key = directory.file("served.key"), certificate = directory.file("served.pem")
        let made = try ExternalProcess.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", certificate,
            "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let issued = try HangmanBinary.run(["serve", "--data", directory.file("data"), "--admin-token"])
        let token = issued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let (process, _) = try ServeProcess.start(
            data: directory.file("data"), port: 0, extra: ["--tls-cert", certificate, "--tls-key", key, "--admin-listen", "127.0.0.1:0"])
        defer { _ = process.kill() }
        var said = ""
        #expect(eventually {
            said = (try? shell("cat /proc/\(process.processIdentifier)/fd/1 2>/dev/null || true")) ?? ""
            return said.contains("dashboard on ")
        }, "\(said)")
        let admin = try #require(said.range(of: "dashboard on ").map { String(said[$0.upperBound...].prefix { !$0.isNewline }) })
        #expect(admin.hasPrefix("https://127.0.0.1:"), "\(admin)")
        let headers = try shell("curl -sS -D - -o /dev/null --cacert '\(certificate)' --data-urlencode 'token=\(token)' \(admin)/sign-in")
        let cookie = try #require(headers.split(whereSeparator: \.isNewline).first { $0.lowercased().hasPrefix("set-cookie:") }, "\(headers)")
        #expect(cookie.contains("; Secure") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(cookie)")
        #expect(!cookie.contains(token), "the cookie holds a session, never the token")
    }

    /// Connections over the per-address limit are refused by libmicrohttpd before any request:
    /// the log says so, at most 20 lines a second, and counts the rest.
    @Test func aFloodOfRefusedConnectionsIsLoggedWithinItsRate() throws {
        let directory = try TemporaryDirectory()
        let (process, url) = try ServeProcess.start(data: directory.file("data"), port: 0, extra: ["--connections-per-address", "2"])
        let port = url.split(separator: ":").last.map(String.init) ?? ""
        let flood = try ExternalProcess.run("/usr/bin/python3", ["-c", """
            import socket, time
            held = [socket.create_connection(('127.0.0.1', \(port))) for _ in range(60)]
            time.sleep(0.5)
            """], killAfter: 30)
        #expect(flood.status == 0, "\(flood.stderr)")
        // A request in a later second says the count of what was left out.
        #expect(try eventually {
            _ = try shell("curl -sS \(url)/v1/health")
            return process.errorSoFar.contains("more events of the HTTP layer were not logged")
        }, "\(process.errorSoFar.suffix(600))")
        let log = process.kill().stderr
        let refusals = log.split(separator: "\n").filter { $0.contains("Server reached connection limit") }
        #expect(refusals.count >= 10 && refusals.count <= 20, "\(refusals.count) refusal lines")
        #expect(log.contains("more events of the HTTP layer were not logged"), "\(log.suffix(600))")
    }

    /// `--metrics-listen` serves Prometheus' text format on its own address; the counters move
    /// with the requests, purchases and spends; the players' port has no /metrics.
    @Test func metricsAreScrapedOnTheirOwnAddressAndMove() throws {
        let directory = try TemporaryDirectory()
        let (process, url) = try ServeProcess.start(data: directory.file("data"), port: 0, extra: ["--metrics-listen", "127.0.0.1:0"])
        defer { _ = process.kill() }
        var metricsURL = ""
        for _ in 0..<200 where metricsURL.isEmpty {
            let out = try shell("cat /proc/\(process.processIdentifier)/fd/1 2>/dev/null || true")
            if let range = out.range(of: "metrics on ") { metricsURL = String(out[range.upperBound...].prefix { !$0.isNewline }) }
            usleep(25_000)
        }
        func scrape() throws -> [String: Double] {
            let text = try shell("curl -sS --max-time 10 \(metricsURL)")
            var values: [String: Double] = [:]
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let parts = line.split(separator: " ")
                #expect(parts.count == 2 && line.range(of: #"^[a-z_]+(\{[a-z]+="[^"]*"(,[a-z]+="[^"]*")*\})? [0-9.e+-]+$"#, options: .regularExpression) != nil, "\(line)")
                if parts.count == 2 { values[String(parts[0])] = Double(parts[1]) }
            }
            return values
        }
        let before = try scrape()
        #expect(before["hangman_catalog_version"] ?? 0 >= 1 && before["hangman_http_connections_open"] != nil)
        let made = try shell("curl -sS -X POST \(url)/v1/accounts")
        let token = try #require((try JSONSerialization.jsonObject(with: Data(made.utf8)) as? [String: String])?["token"])
        let bought = try shell(
            "curl -sS -X POST -H 'Authorization: Bearer \(token)' -H 'Idempotency-Key: m1' -H 'Content-Type: application/json' "
                + #"--data '{"productID":"com.hangmanpacks.hints.10","quantity":1}' "# + "\(url)/v1/purchases")
        #expect(bought.contains("purchased"), "\(bought)")
        for key in ["a", "a"] {
            _ = try shell("curl -sS -X POST -H 'Authorization: Bearer \(token)' -H 'Content-Type: application/json' --data '{\"key\":\"\(key)\"}' \(url)/v1/hints/spend")
        }
        #expect(try shell("curl -sS -o /dev/null -w '%{http_code}' \(url)/metrics") == "404", "no metrics on the players' port")
        let after = try scrape()
        #expect(after[#"hangman_purchases_total{outcome="purchased"}"#] == 1)
        #expect(after[#"hangman_hint_spends_total{outcome="spent"}"#] == 1 && after[#"hangman_hint_spends_total{outcome="already-spent"}"#] == 1)
        #expect(after[#"hangman_http_requests_total{route="/v1/hints/spend",status="200"}"#] == 2)
        #expect(after[#"hangman_http_request_duration_seconds_count{route="/v1/purchases"}"#] == 1)
        #expect(after[#"hangman_http_requests_total{route="other",status="404"}"#] == 1)
    }

    /// One JSON line per request (time, client, request id taken or made and echoed, route,
    /// status, bytes, account, never a token), and what libmicrohttpd refuses itself, at most 20
    /// lines a second.
    @Test func theLogSaysEveryRequestAndWhatTheHTTPLayerRefusesWithinItsRate() throws {
        let directory = try TemporaryDirectory()
        let (process, url) = try ServeProcess.start(data: directory.file("data"), port: 0, extra: ["--log-format", "json"])
        let echoed = try shell("curl -sS -D - -o /dev/null -H 'X-Request-ID: trace-42' \(url)/v1/health")
        #expect(echoed.contains("X-Request-ID: trace-42"), "\(echoed)")
        let made = try shell("curl -sS -X POST \(url)/v1/accounts")
        let account = try #require(try JSONSerialization.jsonObject(with: Data(made.utf8)) as? [String: String])
        _ = try shell("curl -sS -H 'Authorization: Bearer \(account["token"] ?? "")' -H 'X-Request-ID: bad id with spaces' \(url)/v1/hints")
        let port = url.split(separator: ":").last.map(String.init) ?? ""
        // 60 malformed requests at once: libmicrohttpd answers them 400 itself.
        let flood = try ExternalProcess.run("/usr/bin/python3", ["-c", """
            import socket
            for _ in range(60):
                s = socket.create_connection(('127.0.0.1', \(port)))
                s.send(b'GET /v1/health HTTP/1.1\\r\\nHost: x\\r\\nbroken header\\r\\n\\r\\n')
                s.recv(100)
                s.close()
            """], killAfter: 30)
        #expect(flood.status == 0, "\(flood.stderr)")
        // A request in a later second says the count of what was left out.
        #expect(try eventually {
            _ = try shell("curl -sS \(url)/v1/health")
            return process.errorSoFar.contains("more events of the HTTP layer were not logged")
        }, "\(process.errorSoFar.suffix(600))")
        let ended = process.kill()
        let lines = ended.stderr.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let health = try #require(lines.first { $0["requestID"] as? String == "trace-42" })
        #expect(health["route"] as? String == "/v1/health" && health["status"] as? Int == 200 && health["client"] as? String == "127.0.0.1")
        #expect((health["time"] as? String)?.hasSuffix("Z") == true && health["bytes"] as? Int == 15)
        let hints = try #require(lines.first { $0["route"] as? String == "/v1/hints" })
        let madeID = hints["requestID"] as? String ?? ""
        #expect(hints["account"] as? String == account["accountID"] && !madeID.isEmpty && !madeID.contains(" "), "a bad id is replaced: \(hints)")
        #expect(!ended.stderr.contains(account["token"] ?? "no token"), "never a token")
        let events = lines.filter { $0["event"] != nil }
        #expect(events.contains { ($0["event"] as? String)?.contains("Error processing request") == true }, "\(events)")
        #expect(events.count < 60 && events.count >= 20, "at most 20 a second: \(events.count)")
        #expect(events.contains { ($0["event"] as? String)?.contains("more events of the HTTP layer were not logged") == true }, "\(events.suffix(3))")
        let wrong = try HangmanBinary.run(["serve", "--log-format", "xml", "--data", directory.file("x")])
        #expect(wrong.status == 64 && wrong.stderr.contains("--log-format is text or json"))
    }

    /// The text log: one line a request, time, client, request id, method, route, status,
    /// bytes, milliseconds, and the account when there is one.
    @Test func theTextLogIsOneLineARequest() throws {
        let directory = try TemporaryDirectory()
        let (process, url) = try ServeProcess.start(data: directory.file("data"), port: 0)
        _ = try shell("curl -sS -H 'X-Request-ID: trace-7' \(url)/v1/health")
        let made = try shell("curl -sS -X POST \(url)/v1/accounts")
        let account = try #require(try JSONSerialization.jsonObject(with: Data(made.utf8)) as? [String: String])
        _ = try shell("curl -sS -H 'Authorization: Bearer \(account["token"] ?? "")' -H 'X-Request-ID: trace-8' \(url)/v1/hints")
        // A path that would forge a line and clear the operator's screen once decoded: its route
        // is "other", and nothing the client sent reaches the log unescaped.
        _ = try shell("curl -sS -H 'X-Request-ID: trace-9' '\(url)/v1/test/transactions/x/y%0A2026-12-02T00:00:00.000Z%2010.6.6.6%20GET%20/v1/health%20200%1B%5B2J'")
        // A request's line is written once its answer is: wait for the last one.
        #expect(eventually { process.errorSoFar.contains(" trace-9 ") }, "\(process.errorSoFar)")
        let lines = process.kill().stderr.split(separator: "\n").map(String.init)
        let time = #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/#
        let health = try #require(lines.first { $0.contains(" trace-7 ") }, "\(lines)")
        #expect(health.wholeMatch(of: #/(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) 127\.0\.0\.1 trace-7 GET \/v1\/health 200 15B \d+ ms/#) != nil, "\(health)")
        let hints = try #require(lines.first { $0.contains(" trace-8 ") }, "\(lines)")
        #expect(hints.hasSuffix(" account=\(account["accountID"] ?? "?")") && hints.contains(" GET /v1/hints 200 "), "\(hints)")
        #expect(hints.prefixMatch(of: time) != nil, "\(hints)")
        let forged = try #require(lines.first { $0.contains(" trace-9 ") }, "\(lines)")
        #expect(forged.contains(" GET other 401 "), "\(forged)")
        #expect(!lines.contains { $0.hasPrefix("2026-12-02T00:00:00.000Z") } && !lines.contains { $0.contains("\u{1B}") }, "\(lines)")
        // A request without an id of its own is given one: this process's prefix, then a count.
        let created = try #require(lines.first { $0.contains(" POST /v1/accounts ") }, "\(lines)")
        let given = try #require(created.firstMatch(of: #/ 127\.0\.0\.1 ([0-9a-f]{1,8})-([0-9a-f]+) POST \/v1\/accounts 201 [1-9]\d*B \d+ ms$/#), "\(created)")
        #expect(Int(given.output.2, radix: 16).map { $0 >= 1 } == true, "\(created)")
    }

    /// `--listen` takes IPv4, IPv6 in brackets and host names, more than once; a failure names
    /// its cause.
    @Test func theServerListensOnEveryAddressGivenAndSaysWhyItCannot() throws {
        let directory = try TemporaryDirectory()
        let process = try ExternalProcess(HangmanBinary.path, [
            "serve", "--listen", "127.0.0.1:0", "--listen", "[::1]:0", "--listen", "localhost:0", "--data", directory.file("data"),
            "--packs", HangmanBinary.packageRoot.appendingPathComponent("Packs").path,
        ])
        var urls: [String] = []
        for _ in 0..<400 where urls.count < 3 {
            usleep(25_000)
            urls = try shell("cat /proc/\(process.processIdentifier)/fd/1 2>/dev/null || true").split(separator: "\n")
                .compactMap { $0.hasPrefix("listening on ") ? String($0.dropFirst("listening on ".count)) : nil }
        }
        #expect(urls.count == 3 && urls[0].hasPrefix("http://127.0.0.1:") && urls[1].hasPrefix("http://[::1]:"), "\(urls)")
        for url in urls {
            #expect(try shell("curl -sS --max-time 10 '\(url)/v1/health'") == #"{"status":"ok"}"#, "\(url)")
        }
        _ = process.kill()

        func refused(_ listen: String) throws -> String {
            let result = try HangmanBinary.run(["serve", "--listen", listen, "--data", directory.file("other")], killAfter: 20)
            #expect(result.status != 0, "\(listen) was served")
            return result.stderr
        }
        let blocker = try ExternalProcess("/usr/bin/python3", ["-c", "import socket,time;s=socket.socket();s.bind(('127.0.0.1',0));s.listen();print(s.getsockname()[1],flush=True);time.sleep(30)"])
        defer { _ = blocker.kill() }
        var port = ""
        for _ in 0..<200 where port.isEmpty {
            usleep(25_000)
            port = try shell("cat /proc/\(blocker.processIdentifier)/fd/1 2>/dev/null || true").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let taken = try refused("127.0.0.1:\(port)")
        #expect(taken.contains("the port is taken"))
        #expect(!taken.contains("libmicrohttpd"), "one sentence, not the library's line before it: \(taken)")
        #expect(try refused("192.0.2.1:8080").contains("192.0.2.1 is not an address of this machine"))
        #expect(try refused("::1:8080").contains("an IPv6 address in brackets"))
        #expect(try refused("no-such-host.invalid:8080").contains("does not resolve"))
    }

    /// SIGHUP reloads the packs folder's catalog: a valid one is served from then on, an invalid
    /// one is refused, logged, and the one served kept.
    @Test func sighupReloadsTheCatalogAndRefusesABadOne() throws {
        let directory = try TemporaryDirectory()
        let packs = directory.file("Packs")
        try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: packs)
        let (process, url) = try ServeProcess.start(data: directory.file("data"), port: 0, packs: packs)
        defer { _ = process.kill() }
        func version() throws -> Int? {
            let body = try shell("curl -sS --max-time 10 \(url)/v1/catalog")
            guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], let payload = object["payload"] as? String,
                let bytes = Data(base64Encoded: payload), let document = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
                let catalog = document["catalog"] as? [String: Any]
            else { return nil }
            return catalog["catalogVersion"] as? Int
        }
        let first = try #require(try version())
        let catalogFile = packs + "/Catalog.plist"
        let text = try String(contentsOfFile: catalogFile, encoding: .utf8)
        let range = try #require(text.range(of: #"<key>CatalogVersion</key>\s*<integer>\d+</integer>"#, options: .regularExpression))
        try text.replacingCharacters(in: range, with: "<key>CatalogVersion</key><integer>\(first + 1)</integer>")
            .write(toFile: catalogFile, atomically: true, encoding: .utf8)
        #expect(kill(process.processIdentifier, SIGHUP) == 0)
        var reloaded: Int?
        for _ in 0..<200 where reloaded != first + 1 {
            usleep(25_000)
            reloaded = try version()
        }
        #expect(reloaded == first + 1, "the new catalog is served after SIGHUP")
        try "not a catalog".write(toFile: catalogFile, atomically: true, encoding: .utf8)
        #expect(kill(process.processIdentifier, SIGHUP) == 0)
        #expect(eventually { process.errorSoFar.contains("SIGHUP: the catalog in the packs folder is refused") }, "\(process.errorSoFar)")
        #expect(try version() == first + 1, "a bad catalog is refused and the served one kept")
        let ended = process.kill()
        #expect(ended.stderr.contains("SIGHUP: serving catalog version \(first + 1)"), "\(ended.stderr)")
        #expect(ended.stderr.contains("SIGHUP: the catalog in the packs folder is refused, catalog version \(first + 1) is still served"), "\(ended.stderr)")
    }

    /// An archive that is not the one the catalog published (one byte changed: the same size,
    /// which loading alone does not see) makes its product unavailable when the server starts and
    /// at SIGHUP, and the log says which: nobody is charged for a pack that cannot install.
    @Test func archivesThatDifferFromTheCatalogAreUnavailableAndNamed() throws {
        let directory = try TemporaryDirectory()
        let packs = directory.file("Packs")
        try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: packs)
        let archive = packs + "/ios-words.wordpack"
        let good = try Data(contentsOf: URL(fileURLWithPath: archive))
        var bad = good
        bad[bad.count / 2] ^= 0x01
        try bad.write(to: URL(fileURLWithPath: archive))
        let (process, url) = try ServeProcess.start(data: directory.file("data"), port: 0, packs: packs)
        defer { _ = process.kill() }
        func unavailable() -> String? {
            guard let body = try? shell("curl -sS --max-time 10 \(url)/v1/catalog"), let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], let payload = object["payload"] as? String,
                let bytes = Data(base64Encoded: payload), let document = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
                let catalog = document["catalog"] as? [String: Any], let products = catalog["products"] as? [[String: Any]],
                let ios = products.first(where: { ($0["id"] as? String) == "com.hangmanpacks.words.ios" })
            else { return "no catalog" }
            return ios["unavailableReason"] as? String
        }
        let said = "com.hangmanpacks.words.ios is unavailable: its pack ios-words.wordpack is not the archive the catalog published"
        #expect(eventually { process.errorSoFar.contains("warning: " + said) }, "\(process.errorSoFar)")
        #expect(unavailable()?.contains("is not the archive the catalog published") == true)
        try good.write(to: URL(fileURLWithPath: archive))
        #expect(kill(process.processIdentifier, SIGHUP) == 0)
        #expect(eventually { unavailable() == nil }, "the right archive is sold again after SIGHUP")
        try bad.write(to: URL(fileURLWithPath: archive))
        #expect(kill(process.processIdentifier, SIGHUP) == 0)
        #expect(eventually { process.errorSoFar.contains("SIGHUP: " + said) }, "\(process.errorSoFar)")
    }

    /// Starts the built binary's server on `port` (0: a free one) and returns it with its URL.
    private func serve(_ data: String, port: Int, crashAt: String? = nil) throws -> (ExternalProcess, String) {
        try ServeProcess.start(data: data, port: port, crashAt: crashAt)
    }

    /// A crash point is a test's: a server without test controls does not die because its
    /// environment names one (a production server did).
    @Test func aServerWithoutTestControlsIgnoresCrashPoints() async throws {
        let directory = try TemporaryDirectory()
        let process = try ExternalProcess(HangmanBinary.path, [
            "serve", "--listen", "127.0.0.1:0", "--data", directory.file("data"),
            "--packs", HangmanBinary.packageRoot.appendingPathComponent("Packs").path,
        ], environment: ["HANGMAN_CRASH_AT": "after-charge"])
        defer { _ = process.kill() }
        #expect(await eventually { () async in process.outputSoFar.contains("listening on ") }, "\(process.errorSoFar)")
        let url = String(process.outputSoFar.split(separator: "\n").first { $0.hasPrefix("listening on ") }?.dropFirst("listening on ".count) ?? "")
        let client = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url), attempts: 1)
        guard case .purchased(let bought) = try await client.buy(hints10, quantity: 1) else {
            Issue.record("the purchase did not go through")
            return
        }
        #expect(bought.state == .finished)
        #expect(process.isRunning, "the server is still up: \(process.errorSoFar.suffix(300))")
    }

    @Test(arguments: ["after-charge", "after-deliver"])
    func aPurchaseCutByAServerCrashIsCompletedOnceByTheRetry(_ point: String) async throws {
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        let (plain, url) = try serve(data, port: 0)
        let credentials = try await HTTPPackService.createAccount(at: url)
        _ = plain.wait(killAfter: 0)
        let port = Int(url.split(separator: ":").last ?? "") ?? 0
        let (dying, _) = try serve(data, port: port, crashAt: point)
        // Patient: the retry must outlast the restart below.
        let client = HTTPPackService(credentials: credentials, attempts: 9)
        let purchase = Task { try await client.buy(hints10, quantity: 1) }
        let died = await dying.finished()
        #expect(died.wasSignaled && died.status == 9, "the server died at \(point): \(died.stderr)")
        let (again, _) = try serve(data, port: port)
        defer { _ = again.wait(killAfter: 0) }
        let outcome = try await purchase.value
        guard case .purchased(let transaction) = outcome else {
            Issue.record("the retried purchase answered \(outcome)")
            return
        }
        #expect(transaction.state == .finished)
        #expect(try await client.transactions().count == 1)
        #expect(try await client.hintBalance() == 10)
    }
}

/// The built binary's `hangman serve` as a process of its own, for the tests that kill it.
enum ServeProcess {
    /// Starts a sandbox server on `port` (0: a free one), dying at `crashAt` when given, and
    /// returns it with its URL once it listens.
    static func start(data: String, port: Int, crashAt: String? = nil, packs: String? = nil, extra: [String] = []) throws -> (ExternalProcess, String) {
        var environment: [String: String] = [:]
        if let crashAt { environment["HANGMAN_CRASH_AT"] = crashAt }
        // Crash points are a test's: a server honours them only with its test controls.
        let process = try ExternalProcess(HangmanBinary.path, [
            "serve", "--listen", "127.0.0.1:\(port)", "--data", data, "--environment", "sandbox",
            "--packs", packs ?? HangmanBinary.packageRoot.appendingPathComponent("Packs").path,
        ] + (crashAt == nil ? [] : ["--test-controls"]) + extra, environment: environment)
        for _ in 0..<400 {
            let line = try shell("cat /proc/\(process.processIdentifier)/fd/1 2>/dev/null || true")
            if let range = line.range(of: "listening on ") {
                return (process, String(line[range.upperBound...].prefix { !$0.isNewline }))
            }
            usleep(25_000)
        }
        throw ServiceError(.unavailable, "the server did not start")
    }
}

/// The address blocks the limits count together.
@Suite struct AddressGroupTests {
    @Test(arguments: [
        ("203.0.113.7", "203.0.113.0/24"), ("203.0.113.250", "203.0.113.0/24"), ("127.0.1.9", "127.0.1.0/24"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"), ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("::ffff:198.51.100.3", "198.51.100.0/24"), ("::1", "127.0.0.0/24"), ("127.0.0.1", "127.0.0.0/24"), ("not an address", "not an address"),
    ])
    func eachAddressCountsInItsBlock(_ address: String, _ block: String) {
        #expect(AddressGroup().key(address).description == block)
    }

    @Test func thePrefixesAreSettable() {
        let narrow = AddressGroup(ipv4Prefix: 32, ipv6Prefix: 48)
        #expect(narrow.key("203.0.113.7").description == "203.0.113.7/32")
        #expect(narrow.key("2001:db8:1:2::1").description == "2001:db8:1::/48")
        #expect(AddressGroup(ipv4Prefix: 20, ipv6Prefix: 64).key("203.0.127.7").description == "203.0.112.0/20")
    }

    /// Free trials go to the first accounts of an address block each day: a fresh anonymous
    /// account after them is offered none and its first month is paid.
    @Test func freeTrialsAreABudgetPerAddressBlock() async throws {
        let directory = try TemporaryDirectory()
        var configuration = PackServerConfiguration(
            dataFolder: directory.file("data"), packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, environment: .sandbox)
        configuration.freeTrialAccountsPerDay = 2
        let server = try PackServer(configuration)
        let http = try HTTPServer(HTTPServerConfiguration()) { server.handle($0) }
        defer { http.stop() }
        let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
        var trials: [Bool] = []
        for _ in 0..<3 {
            let client = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: http.url))
            let offered = try await client.offers().offers.first { $0.productID == monthly }?.freeTrial != nil
            guard case .purchased(let bought) = try await client.buy(monthly, quantity: 1) else { throw ServiceError(.wrongState, "not bought") }
            #expect(offered == bought.isTrial, "what is offered is what starts")
            trials.append(bought.isTrial)
        }
        #expect(trials == [true, true, false])
    }
}

/// A token a server issues is checked before it is kept as this device's secret.
@Suite struct IssuedTokenTests {
    /// A server that answers a new account with a token that is not its format, or another
    /// account's: the client refuses it and keeps nothing (before: stored whatever came).
    @Test(arguments: ["not-a-token", "hp1.ffffffffffffffff.secret"])
    func aMalformedOrForeignTokenIsRefused(_ forged: String) async throws {
        let directory = try TemporaryDirectory()
        let server = try PackServer(PackServerConfiguration(
            dataFolder: directory.file("data"), packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, environment: .sandbox))
        let http = try HTTPServer(HTTPServerConfiguration()) { request in
            var response = server.handle(request)
            if request.path == "/v1/accounts", case .bytes(let bytes) = response.body,
                var made = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            {
                made["token"] = forged
                response.body = .bytes(Array(try! JSONSerialization.data(withJSONObject: made)))
            }
            return response
        }
        defer { http.stop() }
        let refused = await refusal { () async throws(ServiceError) in try await HTTPPackService.createAccount(at: http.url) }
        #expect(refused?.kind == .untrusted && refused?.message.contains("it was not kept") == true, "\(String(describing: refused))")
    }
}
