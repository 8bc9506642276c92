import AppStore
import Base64
import Foundation
import PackServer
import PackServiceClient
import PackServiceWire
import Seller
import Testing
import TestSupport

private let hints10 = ProductID(rawValue: "com.hangmanpacks.hints.10")!
private let ios = ProductID(rawValue: "com.hangmanpacks.words.ios")!
private let hard = ProductID(rawValue: "com.hangmanpacks.words.hard")!
private let removeAds = ProductID(rawValue: "com.hangmanpacks.removeads")!
private let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
private let yearly = ProductID(rawValue: "com.hangmanpacks.pass.yearly")!
private let thirtyDays = ProductID(rawValue: "com.hangmanpacks.pass.30days")!
private let secret = "apple-compatible-shared-secret"

/// An account that bought every kind of product the catalog sells, refunded one, and moved
/// through a trial, a renewal, an upgrade and a downgrade; its receipt.
private func everyKindOfPurchase(on running: RunningServer) async throws -> (client: HTTPPackService, receipt: Receipt) {
    let client = try await running.newClient()
    _ = try await client.buy(hints10, quantity: 3)
    _ = try await client.buy(ios, quantity: 1)
    guard case .purchased(let refunded) = try await client.buy(hard, quantity: 1) else { throw ServiceError(.wrongState, "not bought") }
    _ = try await client.refund(refunded.id)
    _ = try await client.buy(removeAds, quantity: 1)
    _ = try await client.buy(thirtyDays, quantity: 1)
    _ = try await client.buy(monthly, quantity: 1)
    _ = try await client.advanceClock(by: StoreDuration(1, .week))
    _ = try await client.advanceClock(by: StoreDuration(3, .day))
    _ = try await client.buy(yearly, quantity: 1)
    _ = try await client.buy(monthly, quantity: 1)
    return (client, try await client.receipt())
}

/// ``everyKindOfPurchase(on:)`` as `running` signs it: made on a sandbox server on its data
/// folder when it is a production one (test controls are a sandbox server's), whose ledger a
/// production server signs as Production.
private func everyKindOfPurchase(signedBy running: RunningServer) async throws -> (client: HTTPPackService, receipt: Receipt) {
    guard running.server.configuration.environment == .production else { return try await everyKindOfPurchase(on: running) }
    let history = try RunningServer(
        environment: .sandbox, dataFolder: running.server.configuration.dataFolder, sharedSecret: secret)
    let (made, _) = try await everyKindOfPurchase(on: history)
    var credentials = made.credentials
    credentials.service = running.url
    let client = HTTPPackService(credentials: credentials)
    return (client, try await client.receipt())
}

/// `POST /verifyReceipt` against Apple's documented types and formats, field by field, on a
/// sandbox and a production server.
@Suite struct AppleVerifyReceiptConformanceTests {
    /// Posts `body` and returns the JSON object answered, with the HTTP status.
    private func post(_ running: RunningServer, _ body: String, method: String = "POST") throws -> (http: Int, json: [String: Any]) {
        let answer = try running.curl(["-X", method, "-H", "Content-Type: application/json", "--data-binary", body, running.url + "/verifyReceipt"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], "\(answer.body)")
        return (answer.status, json)
    }

    private func body(_ receipt: [UInt8], password: String? = nil, excludeOld: Bool? = nil) -> String {
        var fields = [#""receipt-data":"\#(Base64.encode(receipt))""#]
        if let password { fields.append(#""password":"\#(password)""#) }
        if let excludeOld { fields.append(#""exclude-old-transactions":\#(excludeOld)"#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    private static let gmt = try! NSRegularExpression(pattern: #"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} Etc/GMT$"#)
    private static let pst = try! NSRegularExpression(pattern: #"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} America/Los_Angeles$"#)
    private static let digits = try! NSRegularExpression(pattern: #"^[0-9]+$"#)

    private func matches(_ pattern: NSRegularExpression, _ value: Any?) -> Bool {
        guard let text = value as? String else { return false }
        return pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// A date's three forms: the GMT text and the Pacific text are the milliseconds' (Pacific is
    /// 8 hours behind, 7 on daylight saving).
    private func checkDate(_ object: [String: Any], _ name: String, _ where: String) {
        #expect(matches(Self.gmt, object[name]), "\(`where`).\(name) = \(String(describing: object[name]))")
        #expect(matches(Self.digits, object[name + "_ms"]), "\(`where`).\(name)_ms = \(String(describing: object[name + "_ms"]))")
        #expect(matches(Self.pst, object[name + "_pst"]), "\(`where`).\(name)_pst = \(String(describing: object[name + "_pst"]))")
        guard let ms = (object[name + "_ms"] as? String).flatMap({ Int64($0) }), let gmtText = object[name] as? String,
            let pstText = object[name + "_pst"] as? String
        else { return }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let seconds = Date(timeIntervalSince1970: Double(ms / 1000))
        #expect(gmtText.hasPrefix(formatter.string(from: seconds)), "\(`where`).\(name): \(gmtText) is not \(ms)")
        formatter.timeZone = TimeZone(identifier: "America/Los_Angeles")
        #expect(pstText.hasPrefix(formatter.string(from: seconds)), "\(`where`).\(name)_pst: \(pstText) is not \(ms) in Los Angeles")
    }

    private static let inAppKeys: Set<String> = [
        "product_id", "transaction_id", "original_transaction_id", "quantity", "purchase_date", "purchase_date_ms", "purchase_date_pst",
        "original_purchase_date", "original_purchase_date_ms", "original_purchase_date_pst", "expires_date", "expires_date_ms", "expires_date_pst",
        "cancellation_date", "cancellation_date_ms", "cancellation_date_pst", "cancellation_reason", "is_trial_period", "is_in_intro_offer_period",
        "web_order_line_item_id", "in_app_ownership_type", "is_upgraded",
    ]

    private func checkInApp(_ entry: [String: Any], catalog: Catalog, _ where: String) {
        #expect(Set(entry.keys).isSubset(of: Self.inAppKeys), "\(`where`): keys Apple does not send: \(Set(entry.keys).subtracting(Self.inAppKeys))")
        for key in ["product_id", "transaction_id", "original_transaction_id"] { #expect(entry[key] is String, "\(`where`).\(key)") }
        #expect(matches(Self.digits, entry["quantity"]), "\(`where`).quantity is a string of digits: \(String(describing: entry["quantity"]))")
        #expect(entry["in_app_ownership_type"] as? String == "PURCHASED")
        checkDate(entry, "purchase_date", `where`)
        checkDate(entry, "original_purchase_date", `where`)
        let product = (entry["product_id"] as? String).flatMap(ProductID.init(rawValue:)).flatMap { catalog.product($0) }
        if product?.isSubscription == true {
            checkDate(entry, "expires_date", `where`)
            #expect(["true", "false"].contains(entry["is_trial_period"] as? String), "\(`where`).is_trial_period")
            #expect(entry["is_in_intro_offer_period"] as? String == "false")
        } else {
            #expect(entry["expires_date"] == nil && entry["is_trial_period"] == nil, "\(`where`): no subscription fields on \(String(describing: entry["product_id"]))")
        }
        if product?.autoRenewable != nil {
            #expect(matches(Self.digits, entry["web_order_line_item_id"]), "\(`where`).web_order_line_item_id")
        }
        if entry["cancellation_date"] != nil {
            checkDate(entry, "cancellation_date", `where`)
            #expect(entry["is_upgraded"] as? String == "true" || ["0", "1"].contains(entry["cancellation_reason"] as? String), "\(`where`).cancellation_reason")
        }
    }

    /// The account's subscriptions are told only with the shared secret, whichever receipt asks:
    /// an older one without a subscription (the empty one from the account's creation) got
    /// `latest_receipt_info`, `pending_renewal_info` and a freshly signed `latest_receipt` without it.
    @Test func subscriptionDataNeedsTheSecretWhateverReceiptAsks() async throws {
        let running = try RunningServer(environment: .sandbox, sharedSecret: secret)
        let client = try await running.newClient()
        let older = try await client.receipt()
        _ = try await client.buy(monthly, quantity: 1)
        let (http, without) = try post(running, body(older.bytes))
        #expect(http == 200 && without["status"] as? Int == 21004, "\(without)")
        #expect(without["latest_receipt_info"] == nil && without["latest_receipt"] == nil && without["pending_renewal_info"] == nil)
        let (_, with) = try post(running, body(older.bytes, password: secret))
        #expect(with["status"] as? Int == 0 && (with["latest_receipt_info"] as? [Any])?.count == 1, "\(with)")
        // A receipt whose account never had a subscription needs no secret.
        let plain = try await running.newClient()
        _ = try await plain.buy(hints10, quantity: 1)
        #expect(try post(running, body(try await plain.receipt().bytes)).json["status"] as? Int == 0)
    }

    /// What the service signs, it verifies: a receipt near the largest it signs (10 MB: before,
    /// one of 10,000 renewals, 9 MB, got the server's own 413) is taken
    /// by /verifyReceipt; one past it is not signed, with a sentence.
    @Test func theLargestReceiptSignedIsOneItVerifies() async throws {
        let running = try RunningServer(environment: .sandbox, sharedSecret: secret)
        let key = try ServiceKey.loadOrCreate(at: running.server.configuration.dataFolder + "/" + AccountService.keyName)
        let signer = ReceiptSigner(key: key, catalog: running.server.catalog, environment: .sandbox)
        func payload(_ count: Int) -> ReceiptPayload {
            ReceiptPayload(
                bundleIdentifier: running.server.catalog.bundleIdentifier, creationDate: 1_796_000_000_000,
                transactions: (0..<count).map { index in
                    ReceiptPayload.Transaction(
                        id: String(format: "%016x", index + 1), productID: hints10.rawValue, quantity: 1, state: "finished",
                        purchaseDate: 1_796_000_000_000 + Int64(index), revocationDate: nil, price: "0.99", currency: "USD", storefront: "USA")
                }, environment: .sandbox)
        }
        // As many transactions as make 10 MB, and as many as pass the largest receipt.
        let each = try signer.sign(payload(1000)).bytes.count / 1000
        let large = try signer.sign(payload((10 << 20) / each))
        #expect(large.bytes.count > 8 << 20 && large.bytes.count <= ReceiptSigner.maxReceiptSize, "\(large.bytes.count)")
        let file = running.directory.file("large-request.json")
        try Data(body(large.bytes).utf8).write(to: URL(fileURLWithPath: file))
        // 10 MB to check, beside the rest of the suite on two cores: a minute's room, not curl's usual 10 s.
        let answer = try running.curl([
            "--max-time", "120", "-X", "POST", "-H", "Content-Type: application/json", "-H", "Expect:", "--data-binary", "@" + file, running.url + "/verifyReceipt",
        ])
        #expect(answer.status == 200, "\(answer.status)")
        #expect(answer.body.contains(#""status":0"#), "\(answer.body.prefix(300))")
        #expect(throws: ServiceError.self) { try signer.sign(payload(ReceiptSigner.maxReceiptSize / each + 1000)) }
    }

    /// A body past what /verifyReceipt takes is answered in Apple's words (status 21002, the
    /// environment), with HTTP 413: before, a bare plain-text 413 no verifyReceipt client reads.
    @Test func anOversizedBodyGetsApplesStatus() throws {
        let running = try RunningServer(environment: .sandbox, sharedSecret: secret)
        let file = running.directory.file("oversized-request.json")
        try Data(body(Array(repeating: 0x41, count: ReceiptSigner.verifyRequestLimit)).utf8).write(to: URL(fileURLWithPath: file))
        let answer = try running.curl(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@" + file, running.url + "/verifyReceipt"])
        #expect(answer.status == 413, "\(answer.status)")
        let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        #expect(json?["status"] as? Int == 21002, "\(answer.body.prefix(300))")
        #expect(json?["environment"] as? String == "Sandbox", "\(answer.body.prefix(300))")
        // Elsewhere an oversized body is still the plain 413.
        let other = try running.curl(["-X", "POST", "--data-binary", "@" + file, running.url + "/v1/accounts"])
        #expect(other.status == 413 && !other.body.contains("21002"), "\(other.status) \(other.body.prefix(200))")
    }

    /// A receipt signed before a refund verifies as the ledger stands now: status 0, and the
    /// refunded purchase with its `cancellation_date` (before: as if nothing had happened).
    @Test func aReceiptSignedBeforeARefundShowsTheRefund() async throws {
        let running = try RunningServer(environment: .sandbox, sharedSecret: secret)
        let client = try await running.newClient()
        guard case .purchased(let bought) = try await client.buy(ios, quantity: 1) else { throw ServiceError(.wrongState, "not bought") }
        _ = try await client.buy(hints10, quantity: 1)
        let before = try await client.receipt()
        func entry(_ json: [String: Any]) -> [String: Any]? {
            ((json["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]])?.first { $0["transaction_id"] as? String == bought.id.number }
        }
        let clean = try post(running, body(before.bytes)).json
        #expect(clean["status"] as? Int == 0 && entry(clean)?["cancellation_date_ms"] == nil, "\(clean)")
        _ = try await client.refund(bought.id)
        let after = try post(running, body(before.bytes)).json
        #expect(after["status"] as? Int == 0, "\(after)")
        let refunded = try #require(entry(after), "\(after)")
        #expect(refunded["cancellation_date_ms"] is String && refunded["cancellation_date"] is String, "\(refunded)")
        // The client reads it back as a revoked purchase.
        let verdict = await HTTPPackService.verifyReceipt(before.bytes, at: running.url, password: nil)
        #expect(verdict.status == .valid && verdict.payload?.transactions.first { $0.id == bought.id.rawValue }?.revocationDate != nil)
    }

    @Test(arguments: [ReceiptEnvironment.sandbox, .production])
    func everyFieldHasApplesTypeAndFormat(_ environment: ReceiptEnvironment) async throws {
        let running = try RunningServer(environment: environment, sharedSecret: secret)
        let (client, receipt) = try await everyKindOfPurchase(signedBy: running)
        let catalog = try await client.fetchCatalog()
        let (http, json) = try post(running, body(receipt.bytes, password: secret))
        #expect(http == 200)
        #expect(json["status"] as? Int == 0, "\(json)")
        #expect(json["environment"] as? String == (environment == .sandbox ? "Sandbox" : "Production"))
        #expect(Set(json.keys).isSubset(of: ["status", "environment", "receipt", "latest_receipt", "latest_receipt_info", "pending_renewal_info"]))
        let body = try #require(json["receipt"] as? [String: Any])
        #expect(body["receipt_type"] as? String == (environment == .sandbox ? "ProductionSandbox" : "Production"))
        #expect(body["bundle_id"] as? String == "com.hangmanpacks.hangman")
        #expect(body["application_version"] is String && body["original_application_version"] is String)
        for date in ["receipt_creation_date", "request_date", "original_purchase_date"] { checkDate(body, date, "receipt") }
        let inApp = try #require(body["in_app"] as? [[String: Any]])
        // Every completed purchase, finished consumables included (Apple drops those: see the README).
        let completed = receipt.payload.transactions.filter { ["purchased", "delivered", "finished"].contains($0.state) }
        #expect(inApp.compactMap { $0["transaction_id"] as? String } == completed.map { TransactionID.number(ofRawValue: $0.id) }, "Apple's ids are numbers")
        for (index, entry) in inApp.enumerated() { checkInApp(entry, catalog: catalog, "in_app[\(index)]") }
        #expect(inApp.first { $0["product_id"] as? String == hints10.rawValue }?["quantity"] as? String == "3")
        #expect(inApp.first { $0["product_id"] as? String == hard.rawValue }?["cancellation_reason"] as? String == "0", "the refund")
        #expect(inApp.contains { $0["is_upgraded"] as? String == "true" && $0["product_id"] as? String == monthly.rawValue }, "the upgrade")
        #expect(inApp.first { $0["product_id"] as? String == monthly.rawValue }?["is_trial_period"] as? String == "true")
        // Subscriptions: the latest receipt, every period newest first, the renewal state.
        let latest = try #require(json["latest_receipt"] as? String)
        #expect(Base64.decode(latest).map { !$0.isEmpty } == true)
        let periods = try #require(json["latest_receipt_info"] as? [[String: Any]])
        #expect(periods.count == 3)
        #expect(periods.allSatisfy { entry in
            (entry["product_id"] as? String).flatMap(ProductID.init(rawValue:)).flatMap { catalog.product($0)?.autoRenewable } != nil
        })
        let times = periods.compactMap { ($0["purchase_date_ms"] as? String).flatMap { Int64($0) } }
        #expect(times == times.sorted(by: >), "newest first")
        for (index, entry) in periods.enumerated() { checkInApp(entry, catalog: catalog, "latest_receipt_info[\(index)]") }
        let renewals = try #require(json["pending_renewal_info"] as? [[String: Any]])
        #expect(renewals.count == 2)
        for renewal in renewals {
            #expect(Set(renewal.keys).isSubset(of: [
                "product_id", "original_transaction_id", "auto_renew_product_id", "auto_renew_status", "is_in_billing_retry_period",
                "grace_period_expires_date", "grace_period_expires_date_ms", "grace_period_expires_date_pst", "expiration_intent",
            ]))
            #expect(["0", "1"].contains(renewal["auto_renew_status"] as? String) && ["0", "1"].contains(renewal["is_in_billing_retry_period"] as? String))
        }
        let live = try #require(renewals.first { $0["product_id"] as? String == yearly.rawValue })
        #expect(live["auto_renew_status"] as? String == "1" && live["auto_renew_product_id"] as? String == monthly.rawValue, "the downgrade waits")
        // exclude-old-transactions: the latest period of each subscription only.
        let (_, newest) = try post(running, self.body(receipt.bytes, password: secret, excludeOld: true))
        #expect((newest["latest_receipt_info"] as? [[String: Any]])?.count == 2)
    }

    @Test func theStatusesApplesClientsKnow() async throws {
        let sandbox = try RunningServer(environment: .sandbox, sharedSecret: secret)
        let production = try RunningServer(environment: .production, sharedSecret: secret)
        let (client, receipt) = try await everyKindOfPurchase(on: sandbox)
        let plain = try await sandbox.newClient()
        _ = try await plain.buy(hints10, quantity: 1)
        let packsOnly = try await plain.receipt()
        func status(_ running: RunningServer, _ body: String, method: String = "POST") throws -> (Int, Int?, [String: Any]) {
            let (http, json) = try post(running, body, method: method)
            return (http, json["status"] as? Int, json)
        }
        #expect(try status(sandbox, self.body(receipt.bytes, password: secret)).1 == 0)
        #expect(try status(sandbox, self.body(packsOnly.bytes)).1 == 0, "no subscription, no secret needed")
        #expect(try status(sandbox, "not json").1 == 21000)
        #expect(try status(sandbox, #"{"password":"x"}"#).1 == 21000)
        #expect(try status(sandbox, self.body(receipt.bytes), method: "GET").1 == 21000)
        #expect(try status(sandbox, #"{"receipt-data":"!!!not base64"}"#).1 == 21002)
        #expect(try status(sandbox, #"{"receipt-data":"bm90IGEgcmVjZWlwdA=="}"#).1 == 21002)
        var changed = receipt.bytes
        // Not the last character before base64's padding: some of its bits are no part of the
        // bytes. The padding may follow a line break (a plist's <data> is written in lines).
        func beforePadding(_ index: Int) -> Bool {
            changed[(index + 1)...].first { !" \t\r\n".utf8.contains($0) } == UInt8(ascii: "=")
        }
        if let index = changed.indices.dropFirst(changed.count / 2).dropLast().first(where: { changed[$0] == UInt8(ascii: "A") && !beforePadding($0) }) {
            changed[index] = UInt8(ascii: "B")
        }
        #expect(try status(sandbox, self.body(changed, password: secret)).1 == 21003)
        #expect(try status(sandbox, self.body(receipt.bytes)).1 == 21004, "a subscription needs the secret")
        #expect(try status(sandbox, self.body(receipt.bytes, password: "wrong")).1 == 21004)
        let wrongPlace = try status(production, self.body(receipt.bytes, password: secret))
        #expect(wrongPlace.0 == 200 && wrongPlace.1 == 21007 && wrongPlace.2["environment"] as? String == "Production")
        // 21010 (the account is not this service's) has its own test: aReceiptIsTiedToItsAccount.
        _ = client
    }
}

/// A receipt-validation client written for Apple's endpoint (itunes-iap, pinned in
/// Tests/AppleClient/requirements.txt), pointed at the servers and otherwise unchanged.
@Suite struct AppleClientTests {
    static let python = HangmanBinary.packageRoot.appendingPathComponent(".build/apple-client/bin/python").path
    static let script = HangmanBinary.packageRoot.appendingPathComponent("Tests/AppleClient/verify.py").path

    private func verify(_ receipt: Receipt, production: RunningServer, sandbox: RunningServer, password: String?) throws -> [String: Any] {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.python),
            "the Apple client's Python environment is missing: run Tests/AppleClient/setup ('make test' does)")
        let file = production.directory.file("receipt.b64")
        try Base64.encode(receipt.bytes).write(toFile: file, atomically: true, encoding: .utf8)
        let result = try ExternalProcess.run(Self.python, [Self.script, production.url, sandbox.url, file] + (password.map { [$0] } ?? []), killAfter: 60)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout) \(result.stderr)")
    }

    @Test func productionFirstThenTheSandboxAndEveryPurchaseFromInApp() async throws {
        let production = try RunningServer(environment: .production, sharedSecret: secret)
        let sandbox = try RunningServer(environment: .sandbox, sharedSecret: secret)
        let (_, receipt) = try await everyKindOfPurchase(on: sandbox)
        let answer = try verify(receipt, production: production, sandbox: sandbox, password: secret)
        #expect(answer["status"] as? Int == 0 && answer["environment"] as? String == "Sandbox", "\(answer)")
        let inApp = try #require(answer["in_app"] as? [[String: Any]])
        let completed = receipt.payload.transactions.filter { ["purchased", "delivered", "finished"].contains($0.state) }
        #expect(inApp.compactMap { $0["transaction_id"] as? String } == completed.map { TransactionID.number(ofRawValue: $0.id) })
        #expect(inApp.compactMap { $0["product_id"] as? String } == completed.map(\.productID))
        #expect(inApp.compactMap { $0["quantity"] as? Int } == completed.map(\.quantity), "the client read quantity as a number")
        for (entry, transaction) in zip(inApp, completed) {
            #expect((entry["purchase_date_ms"] as? String).flatMap { Int64($0) } == transaction.purchaseDate)
            #expect((entry["expires_date_ms"] as? String).flatMap { Int64($0) } == transaction.expiresDate)
            #expect((entry["cancellation_date"] != nil) == (transaction.revocationDate != nil))
        }
        #expect((answer["latest_receipt_info"] as? [[String: Any]])?.count == 3)
        // A production receipt is answered by production at once.
        let (_, productionReceipt) = try await everyKindOfPurchase(signedBy: production)
        let direct = try verify(productionReceipt, production: production, sandbox: sandbox, password: secret)
        #expect(direct["status"] as? Int == 0 && direct["environment"] as? String == "Production", "\(direct)")
        // Without the shared secret, a subscription's receipt is refused as Apple refuses it.
        #expect(try verify(receipt, production: production, sandbox: sandbox, password: nil)["status"] as? Int == 21004)
    }
}

/// Apple's three forms of a date, daylight saving included, against the system's time zone data.
@Suite struct AppleDateTests {
    @Test(arguments: [
        ("2026-01-15 12:00:00", "2026-01-15 04:00:00"), ("2026-07-01 12:00:00", "2026-07-01 05:00:00"),
        ("2026-03-08 09:59:59", "2026-03-08 01:59:59"), ("2026-03-08 10:00:00", "2026-03-08 03:00:00"),
        ("2026-11-01 08:59:59", "2026-11-01 01:59:59"), ("2026-11-01 09:00:00", "2026-11-01 01:00:00"),
        ("2028-02-29 23:30:00", "2028-02-29 15:30:00"), ("2026-12-31 23:59:59", "2026-12-31 15:59:59"),
    ])
    func gmtMillisecondsAndPacificTime(_ utc: String, _ pacific: String) throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let instant = try #require(formatter.date(from: utc))
        let milliseconds = Int64(instant.timeIntervalSince1970 * 1000) + 123
        let date = AppleDate(milliseconds)
        #expect(date.gmt == utc + " Etc/GMT")
        #expect(date.milliseconds == String(milliseconds))
        #expect(date.pst == pacific + " America/Los_Angeles")
        formatter.timeZone = TimeZone(identifier: "America/Los_Angeles")
        #expect(formatter.string(from: instant) == pacific, "the system's zone data agrees")
    }
}
