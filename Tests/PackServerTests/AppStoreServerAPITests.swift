import AppStore
import CertificateChain
import Foundation
import HTTPServer
import PackServer
import PackServiceClient
import PackServiceWire
import Testing
import TestSupport

/// A developer's backend written with Apple's `app-store-server-library` reads a player's
/// transactions from the service, unchanged but for the base URL and the trusted root.
@Suite struct AppStoreServerAPITests {
    static let python = HangmanBinary.packageRoot.appendingPathComponent(".build/apple-client/bin/python").path
    static let backend = HangmanBinary.packageRoot.appendingPathComponent("Tests/AppleClient/backend.py").path
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"

    /// A sandbox server whose App Store Server API takes one key (`2X9R4HXF34`), and a backend
    /// holding that key, as Apple's library runs it.
    struct Backend {
        let keys: TemporaryDirectory
        let running: RunningServer
        let root: String
        let bundle: String

        init() throws {
            keys = try TemporaryDirectory()
            #expect(try ExternalProcess.run(AppStoreServerAPITests.python, [AppStoreServerAPITests.backend, "keygen", keys.path]).status == 0)
            let publicKey = try ES256PublicKey(pem: Array(try Data(contentsOf: URL(fileURLWithPath: keys.file("public.pem")))))
            running = try RunningServer(
                environment: .sandbox, appStoreAPI: AppStoreAPIAuthorization(issuer: AppStoreServerAPITests.issuer, bundleID: "", keys: ["2X9R4HXF34": publicKey]))
            root = try keys.write("root.der", running.server.appStoreRootCertificate.der)
            bundle = running.server.catalog.bundleIdentifier
        }

        /// `backend.py COMMAND` against the server, with this key (or `kid`) and bundle (or `bundle`).
        func ask(_ command: String, _ arguments: [String], kid: String = "2X9R4HXF34", bundle given: String? = nil) throws -> ProcessResult {
            try ExternalProcess.run(
                AppStoreServerAPITests.python,
                [AppStoreServerAPITests.backend, command, running.url, keys.path, kid, AppStoreServerAPITests.issuer, given ?? bundle, root] + arguments)
        }
    }

    @Test func applesClientReadsAndVerifiesATransaction() async throws {
        let backend = try Backend()
        let bundle = backend.bundle
        let client = try await backend.running.newClient()
        let account = client.credentials.accountID
        func ask(_ id: String, kid: String = "2X9R4HXF34", bundle given: String? = nil) throws -> ProcessResult {
            try backend.ask("transaction", [id], kid: kid, bundle: given)
        }
        guard case .purchased(let hints) = try await client.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1),
            case .purchased(let pack) = try await client.buy(ProductID(rawValue: "com.hangmanpacks.words.ios")!, quantity: 1)
        else { throw ServiceError(.wrongState, "not bought") }
        let bought: [(StoreTransaction, String)] = [(hints, "Consumable"), (pack, "Non-Consumable")]
        for (transaction, type) in bought {
            let id = transaction.id.number
            let read = try ask(id)
            #expect(read.status == 0, "\(read.stdout)\(read.stderr)")
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any], "\(read.stdout)")
            #expect(fields["transactionId"] as? String == id && fields["productId"] as? String == transaction.productID.rawValue, "\(fields)")
            #expect(fields["rawType"] as? String == type && fields["rawEnvironment"] as? String == "Sandbox" && fields["bundleId"] as? String == bundle, "\(fields)")
            #expect(fields["storefront"] as? String == "USA" && fields["storefrontId"] as? String == "143441" && fields["currency"] as? String == "USD")
            #expect(fields["price"] as? Int == Int(transaction.price?.minorUnits ?? 0) * 10, "milliunits: \(fields)")
        }
        // The id the player reads out is the id: its number alone finds its account (issue 57.6). The
        // form this service gave before (the account's 16 hex digits, then the transaction's) still does.
        let older = try ask(account + pack.id.rawValue)
        #expect(older.status == 0 && older.stdout.contains("\"transactionId\": \"\(pack.id.number)\""), "\(older.stdout)\(older.stderr)")
        // Apple's errors: an unknown transaction, a malformed id; a key the server does not know, another bundle: 401.
        #expect(try ask(account + "0000000000000001").stdout == "error 404 4040010\n")
        #expect(try ask("1234567890123456").stdout == "error 404 4040010\n", "a number no account has")
        #expect(try ask("12ab5").stdout == "error 400 4000006\n")
        #expect(try ask("123456789012345678901").stdout == "error 400 4000006\n", "21 digits are no 64-bit number")
        #expect(try ask("ffffffffffffffff" + pack.id.rawValue).stdout == "error 404 4040010\n", "another account's id")
        #expect(try ask(pack.id.number, kid: "OTHERKEY01").stdout == "error 401 None\n")
        #expect(try ask(pack.id.number, bundle: "com.example.other").stdout == "error 401 None\n")
    }

    /// Each customer has one app transaction (StoreKit's `AppTransaction`): Get App Transaction
    /// Info answers it from any of the customer's ids, signed as Apple signs it; every signed
    /// transaction names it; the endpoints about a customer take its id, the others do not.
    @Test func theAppTransactionNamesTheCustomer() async throws {
        let backend = try Backend()
        let bundle = backend.bundle
        let client = try await backend.running.newClient()
        func ask(_ command: String, _ arguments: String...) throws -> ProcessResult { try backend.ask(command, arguments) }
        guard case .purchased(let hints) = try await client.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1),
            case .purchased(let pack) = try await client.buy(ProductID(rawValue: "com.hangmanpacks.words.ios")!, quantity: 1)
        else { throw ServiceError(.wrongState, "not bought") }
        let app = try await client.appTransaction()
        #expect(app.id.number.utf8.count == 16 && app.originalPurchaseDate == hints.purchaseDate, "\(app)")
        for id in [hints.id.number, pack.id.number, app.id.number] {
            let read = try ask("app-transaction", id)
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any], "\(read.stdout)\(read.stderr)")
            #expect(fields["appTransactionId"] as? String == app.id.number && fields["bundleId"] as? String == bundle, "\(fields)")
            #expect(fields["originalPurchaseDate"] as? Int == Int(app.originalPurchaseDate) && fields["originalApplicationVersion"] as? String == "1.0")
        }
        let signed = try #require(try JSONSerialization.jsonObject(with: Data(try ask("transaction", pack.id.number).stdout.utf8)) as? [String: Any])
        #expect(signed["appTransactionId"] as? String == app.id.number, "\(signed)")
        // The customer's endpoints take it; Get Transaction Info does not (it is no purchase).
        let history = try ask("history", app.id.number)
        #expect(history.status == 0 && history.stdout.contains(hints.id.number) && history.stdout.contains(pack.id.number), "\(history.stdout)\(history.stderr)")
        #expect(try ask("transaction", app.id.number).stdout == "error 404 4040010\n")
        #expect(try ask("app-transaction", "1234567890123456").stdout == "error 404 4040010\n")
        #expect(try await client.appTransaction() == app, "one per account")
    }

    /// Send Consumption Information v2 takes every kind of product and checks its fields with
    /// Apple's errors; Finish Transaction answers for a charged purchase (a client recovering then
    /// has nothing to deliver), and refuses a refunded one; an unpaid one is no transaction.
    @Test func consumptionV2AndFinishTransaction() async throws {
        let backend = try Backend()
        let client = try await backend.running.newClient()
        func ask(_ command: String, _ arguments: String...) throws -> ProcessResult { try backend.ask(command, arguments) }
        guard case .purchased(let pack) = try await client.buy(ProductID(rawValue: "com.hangmanpacks.words.ios")!, quantity: 1) else {
            throw ServiceError(.wrongState, "not bought")
        }
        let sent = try ask("consumption-v2", pack.id.number, "DELIVERED", "25000", "DECLINE")
        #expect(sent.status == 0 && sent.stdout.contains("\"sent\": true"), "a pack, not only a consumable: \(sent.stdout)\(sent.stderr)")
        #expect(try ask("consumption", pack.id.number).stdout == "error 400 4000043\n", "version 1 stays for consumables only")
        let path = "/inApps/v2/transactions/consumption/" + pack.id.number
        for (body, code) in [
            (#"{"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#, "4000035"),
            (#"{"customerConsented":true,"deliveryStatus":"DELIVERED"}"#, "4000041"),
            (#"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"LOST"}"#, "4000036"),
            (#"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","consumptionPercentage":100001}"#, "4000000"),
        ] {
            let answer = try ask("raw", "PUT", path, body).stdout
            #expect(answer.hasPrefix("400 ") && answer.contains("\"errorCode\":\(code)"), "\(body): \(answer)")
        }

        // Finish Transaction: a purchase left charged and not delivered (ask to buy, approved
        // while the client was away) is finished by the backend, once.
        try await client.setControls(StoreControls(askToBuy: true))
        guard case .deferred(let waiting) = try await client.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1) else {
            throw ServiceError(.wrongState, "not deferred")
        }
        #expect(try ask("finish", waiting.id.number).stdout == "error 404 4040010\n", "never charged: no transaction Apple shows")
        let finished = try ask("finish", pack.id.number)
        #expect(finished.status == 0 && finished.stdout.contains("\"finished\": true"), "\(finished.stdout)\(finished.stderr)")
        #expect(try ask("finish", pack.id.number).status == 0, "finished again: the same answer")
        #expect(try await client.recoverUnfinished().isEmpty, "nothing left for the client to deliver")
        _ = try await client.refund(pack.id)
        #expect(try ask("finish", pack.id.number).stdout == "error 400 4000000\n", "refunded: not finished again")
        #expect(try ask("finish", "1234567890123456").stdout == "error 404 4040010\n")
    }

    /// Every purchase has an order id as Apple's emailed receipts show one; Look Up Order ID
    /// answers status 0 with its signed transaction, and 1 for an id that names no purchase.
    @Test func anOrderIdIsLookedUp() async throws {
        let backend = try Backend()
        let client = try await backend.running.newClient()
        guard case .purchased(let pack) = try await client.buy(ProductID(rawValue: "com.hangmanpacks.words.ios")!, quantity: 1) else {
            throw ServiceError(.wrongState, "not bought")
        }
        let order = pack.id.orderID
        #expect(order.utf8.count == 10 && order.allSatisfy { $0.isUppercase || $0.isNumber }, "\(order)")
        for asked in [order, order.lowercased()] {
            let found = try backend.ask("order", [asked])
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any], "\(found.stdout)\(found.stderr)")
            let signed = fields["transactions"] as? [[String: Any]] ?? []
            #expect(fields["status"] as? Int == 0 && signed.count == 1 && signed.first?["transactionId"] as? String == pack.id.number, "\(fields)")
        }
        for unknown in ["ZZZZZZZZZZ", "MK5TTT", "not-an-order", "0000000000000"] {
            let found = try backend.ask("order", [unknown]).stdout
            #expect(found.contains("\"status\": 1") && found.contains("\"transactions\": []"), "\(unknown): \(found)")
        }
    }

    /// `serve --make-api-key KID` makes the pair App Store Connect would hand out: Apple's library
    /// signs with the `.p8`, the server checks with the public PEM. A refused token's reason is in
    /// the server's log (the answer, a 401, says nothing).
    @Test func aKeyMadeByServeWorksWithApplesLibraryAndARefusalIsLogged() async throws {
        let keys = try TemporaryDirectory()
        let made = try HangmanBinary.run(["serve", "--make-api-key", "2X9R4HXF34"], directory: keys.path)
        #expect(made.status == 0 && made.stdout.contains("--api-key 2X9R4HXF34=AuthKey_2X9R4HXF34.pub.pem"), "\(made.stdout)\(made.stderr)")
        try FileManager.default.copyItem(atPath: keys.file("AuthKey_2X9R4HXF34.p8"), toPath: keys.file("private.pem"))
        let publicKey = try ES256PublicKey(pem: Array(try Data(contentsOf: URL(fileURLWithPath: keys.file("AuthKey_2X9R4HXF34.pub.pem")))))
        let running = try RunningServer(environment: .sandbox, appStoreAPI: AppStoreAPIAuthorization(issuer: Self.issuer, bundleID: "", keys: ["2X9R4HXF34": publicKey]))
        let root = try keys.write("root.der", running.server.appStoreRootCertificate.der)
        let bundle = running.server.catalog.bundleIdentifier
        let client = try await running.newClient()
        let unknown = client.credentials.accountID + "0000000000000001"
        let asked = try ExternalProcess.run(Self.python, [Self.backend, "transaction", running.url, keys.path, "2X9R4HXF34", Self.issuer, bundle, root, unknown])
        #expect(asked.stdout == "error 404 4040010\n", "the token was taken: \(asked.stdout)\(asked.stderr)")
        let refused = running.server.handle(HTTPRequest(
            method: "GET", path: "/inApps/v1/transactions/" + unknown, query: [:], headers: ["authorization": "Bearer a.b.c"], body: []))
        #expect(refused.status == 401 && refused.logDetail?.contains("not a JWT") == true, "\(refused.logDetail ?? "")")
        guard case .bytes(let body) = refused.body else { throw ServiceError(.storage, "no body") }
        #expect(body.isEmpty, "the caller is told nothing")
    }
}
