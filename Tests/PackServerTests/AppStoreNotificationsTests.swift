import AppStore
import Foundation
import PackServiceClient
import PackServiceWire
import Testing
import TestSupport

/// Server Notifications V2 and the rest of the App Store Server API, with the built binary and a
/// developer's backend written with Apple's own Python library (`Tests/AppleClient/backend.py`):
/// every notification and transaction is verified with the service's root.
@Suite(.serialized) struct AppStoreNotificationsTests {
    static let python = AppStoreServerAPITests.python
    static let backend = AppStoreServerAPITests.backend
    static let issuer = AppStoreServerAPITests.issuer
    static let kid = "2X9R4HXF34"
    static let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path

    /// A receiver of notifications (Apple's verifier on each), answering 500 to the first `failFirst`.
    final class Receiver {
        let process: ExternalProcess
        let url: String
        let out: String

        init(_ directory: TemporaryDirectory, root: String, bundle: String, failFirst: Int, name: String = "received") async throws {
            out = directory.file(name + ".jsonl")
            let portFile = directory.file(name + ".port")
            let started = try ExternalProcess(AppStoreNotificationsTests.python, [AppStoreNotificationsTests.backend, "receive", root, bundle, portFile, out, String(failFirst)])
            process = started
            var port: String?
            _ = eventually(within: 20) {
                port = try? String(contentsOfFile: portFile, encoding: .utf8)
                return port != nil || !started.isRunning
            }
            guard let port else { throw ServiceError(.unavailable, "the receiver did not start: \(started.errorSoFar)") }
            url = "http://127.0.0.1:\(port)/notifications"
        }

        deinit { _ = process.kill() }

        /// Every POST received so far, in order.
        var posts: [[String: Any]] {
            ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        /// The notifications answered 200, as "TYPE/SUBTYPE".
        var delivered: [String] {
            posts.filter { $0["answered"] as? Int == 200 }.map { "\($0["type"] as? String ?? "?")/\($0["subtype"] as? String ?? "")" }
        }
    }

    /// What each test starts from: a data folder, the root certificate its server signs with (as
    /// DER, for Apple's verifier), an API key pair made by Apple's library, and the bundle.
    struct Stage {
        let directory: TemporaryDirectory
        let keys: TemporaryDirectory
        let data: String
        let root: String
        let bundle = "com.hangmanpacks.hangman"

        /// `apiKeys`: make the key pair (a test with no backend asking needs none).
        init(apiKeys: Bool = true) throws {
            directory = try TemporaryDirectory()
            keys = try TemporaryDirectory()
            if apiKeys {
                #expect(try ExternalProcess.run(AppStoreNotificationsTests.python, [AppStoreNotificationsTests.backend, "keygen", keys.path]).status == 0)
            }
            data = directory.file("data")
            let printed = try ExternalProcess.run(HangmanBinary.path, ["serve", "--data", data, "--print-root-certificate"])
            let rootPEM = try directory.write("root.pem", Array(printed.stdout.utf8))
            root = directory.file("root.der")
            #expect(try ExternalProcess.run("/usr/bin/openssl", ["x509", "-in", rootPEM, "-outform", "DER", "-out", root]).status == 0)
        }
    }

    /// The built binary's server; its URL once it listens.
    static func serve(_ data: String, packs: String = packs, extra: [String]) async throws -> (ExternalProcess, String) {
        let process = try ExternalProcess(HangmanBinary.path, [
            "serve", "--listen", "127.0.0.1:0", "--data", data, "--environment", "sandbox", "--test-controls", "--packs", packs,
            "--requests-per-minute", "0",
        ] + extra)
        var url: String?
        _ = eventually(within: 20) {
            let line = process.outputSoFar
            if let range = line.range(of: "listening on ") { url = String(line[range.upperBound...].prefix { !$0.isNewline }).trimmingCharacters(in: .whitespaces) }
            return url != nil || !process.isRunning
        }
        guard let url else { throw ServiceError(.unavailable, "the server did not start: \(process.wait(killAfter: 0).stderr)") }
        return (process, url)
    }

    static func backend(_ command: String, _ url: String, keys: TemporaryDirectory, bundle: String, root: String, _ arguments: [String]) throws -> String {
        let result = try ExternalProcess.run(python, [backend, command, url, keys.path, kid, issuer, bundle, root] + arguments)
        guard result.status == 0 else { throw ServiceError(.invalidRequest, "backend \(command): \(result.stdout)\(result.stderr)") }
        return result.stdout
    }

    static func json(_ text: String) -> Any? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// The shipped catalog and archives, copied into `directory/packs` for a test that changes them.
    static func copyPacks(into directory: TemporaryDirectory) throws -> String {
        let packs = directory.file("packs")
        try FileManager.default.createDirectory(atPath: packs, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.packs) where file == "Catalog.plist" || file.hasSuffix(".wordpack") {
            try FileManager.default.copyItem(atPath: Self.packs + "/" + file, toPath: packs + "/" + file)
        }
        return packs
    }

    /// StoreKit's `appAccountToken` purchase option reaches the backend in every signed
    /// transaction of the purchase (a renewal's too) and in its notifications; Apple's Set App
    /// Account Token replaces it, for the original transaction only, with Apple's errors.
    @Test func anAppAccountTokenReachesTheBackendAndTheBackendSetsIt() async throws {
        let stage = try Stage()
        let (directory, keys, data, root, bundle) = (stage.directory, stage.keys, stage.data, stage.root, stage.bundle)
        let receiver = try await Receiver(directory, root: root, bundle: bundle, failFirst: 0)
        let (server, url) = try await Self.serve(data, extra: [
            "--notification-url", receiver.url, "--api-issuer", Self.issuer, "--api-key", "\(Self.kid)=\(keys.file("public.pem"))",
        ])
        defer { _ = server.kill() }
        let player = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        func ask(_ command: String, _ arguments: String...) throws -> ProcessResult {
            try ExternalProcess.run(Self.python, [Self.backend, command, url, keys.path, Self.kid, Self.issuer, bundle, root] + arguments)
        }
        let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
        guard case .purchased(let monthly) = try await player.buy(
                ProductID(rawValue: "com.hangmanpacks.pass.monthly")!, quantity: 1, options: PurchaseOptions(appAccountToken: token)),
            case .purchased(let hints) = try await player.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1)
        else { throw ServiceError(.wrongState, "not bought") }
        _ = try await player.advanceClock(by: StoreDuration(40, .day))
        let renewal = try #require(try await player.transactions().last { $0.originalTransactionID == monthly.id && $0.id != monthly.id })
        for id in [monthly.id, renewal.id] {
            let read = try ask("transaction", id.number)
            let fields = try #require(Self.json(read.stdout) as? [String: Any], "\(read.stdout)\(read.stderr)")
            #expect(fields["appAccountToken"] as? String == token, "\(fields)")
        }
        let plain = try #require(Self.json(try ask("transaction", hints.id.number).stdout) as? [String: Any])
        #expect(plain["appAccountToken"] == nil, "\(plain)")
        let told = eventually(within: 30) { Set(receiver.delivered).isSuperset(of: ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW/"]) }
        #expect(told, "\(receiver.delivered)")
        let subscriptionPosts = receiver.posts.filter { ["SUBSCRIBED", "DID_RENEW"].contains($0["type"] as? String ?? "") }
        #expect(!subscriptionPosts.isEmpty && subscriptionPosts.allSatisfy { $0["appAccountToken"] as? String == token }, "\(subscriptionPosts)")

        // Set App Account Token: the original's id, a UUID; the renewal carries the new one too.
        let replaced = "00000000-0000-4000-8000-0000000000aa"
        let set = try ask("set-app-account-token", monthly.id.number, replaced)
        #expect(set.status == 0 && set.stdout.contains("\"set\": true"), "\(set.stdout)\(set.stderr)")
        let after = try #require(Self.json(try ask("transaction", renewal.id.number).stdout) as? [String: Any])
        #expect(after["appAccountToken"] as? String == replaced, "\(after)")
        #expect(try ask("set-app-account-token", renewal.id.number, replaced).stdout == "error 400 4000187\n", "a renewal's id is not the original's")
        #expect(try ask("set-app-account-token", hints.id.number, "not-a-uuid").stdout == "error 400 4000183\n")
        #expect(try ask("set-app-account-token", "1234567890123456", replaced).stdout == "error 404 4040010\n")
    }

    /// A refund from request to outcome, told to the backend and verified by Apple's library:
    /// the request (CONSUMPTION_REQUEST with its reason), the backend's consumption answer, the
    /// App Store's decision (REFUND, or REFUND_DECLINED), and a granted refund reversed
    /// (REFUND_REVERSED: the hints come back, once; the pack is owned again).
    @Test func aRefundGoesFromRequestToOutcomeAndTheBackendHearsEachStep() async throws {
        let stage = try Stage()
        let (directory, keys, data, root, bundle) = (stage.directory, stage.keys, stage.data, stage.root, stage.bundle)
        let receiver = try await Receiver(directory, root: root, bundle: bundle, failFirst: 0)
        let admin = try ExternalProcess.run(HangmanBinary.path, ["serve", "--data", data, "--admin-token"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let (server, url) = try await Self.serve(data, extra: [
            "--notification-url", receiver.url, "--api-issuer", Self.issuer, "--api-key", "\(Self.kid)=\(keys.file("public.pem"))",
            "--admin-listen", "127.0.0.1:0",
        ])
        defer { _ = server.kill() }
        let player = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        func ask(_ command: String, _ arguments: String...) throws -> ProcessResult {
            try ExternalProcess.run(Self.python, [Self.backend, command, url, keys.path, Self.kid, Self.issuer, bundle, root] + arguments)
        }
        let ios = ProductID(rawValue: "com.hangmanpacks.words.ios")!
        guard case .purchased(let hints) = try await player.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1),
            case .purchased(let pack) = try await player.buy(ios, quantity: 1)
        else { throw ServiceError(.wrongState, "not bought") }
        #expect(try await player.refundCase(hints.id) == nil)

        // The customer asks; asking again is the same request, told once.
        let asked = try await player.requestRefund(hints.id, reason: .unintendedPurchase)
        #expect(asked.state == .requested && asked.reason == .unintendedPurchase)
        #expect(try await player.requestRefund(hints.id, reason: .other) == asked)
        _ = try await player.requestRefund(pack.id, reason: .unsatisfiedWithPurchase)
        let requested = eventually(within: 30) { receiver.posts.filter { $0["type"] as? String == "CONSUMPTION_REQUEST" }.count == 2 }
        #expect(requested, "\(receiver.delivered)")
        let requests = receiver.posts.filter { $0["type"] as? String == "CONSUMPTION_REQUEST" }
        #expect(Set(requests.compactMap { $0["consumptionRequestReason"] as? String }) == ["UNINTENDED_PURCHASE", "UNSATISFIED_WITH_PURCHASE"], "\(requests)")
        #expect(requests.contains { $0["transactionId"] as? String == hints.id.number }, "\(requests)")

        // The backend answers with Apple's library; the decision keeps what it said.
        let sent = try ask("consumption-v2", hints.id.number, "DELIVERED", "25000", "DECLINE")
        #expect(sent.status == 0, "\(sent.stdout)\(sent.stderr)")
        let granted = try await player.decideRefund(hints.id, .grant)
        #expect(granted.refundCase.state == .granted && granted.hints == 10 && granted.transaction.revocationDate != nil)
        #expect(granted.refundCase.consumption?.contains("\"consumptionPercentage\": 25000") == true, "\(granted.refundCase)")
        #expect(try await player.hintBalance() == 0)
        // The same decision again changes nothing.
        #expect(try await player.decideRefund(hints.id, .grant).hints == 0)
        #expect(try await player.hintBalance() == 0)
        let declined = try await player.decideRefund(pack.id, .decline)
        #expect(declined.refundCase.state == .declined && declined.transaction.revocationDate == nil)
        #expect(try await player.entitlements().contains { $0.productID == ios && $0.revokedDate == nil })
        await #expect(throws: ServiceError.self) { _ = try await player.requestRefund(pack.id, reason: .other) }
        await #expect(throws: ServiceError.self) { _ = try await player.decideRefund(pack.id, .reverse) }

        // Reversed: the hints come back once; the refund history forgets it.
        let reversed = try await player.decideRefund(hints.id, .reverse)
        #expect(reversed.refundCase.state == .reversed && reversed.hints == 10 && reversed.transaction.revocationDate == nil)
        #expect(try await player.decideRefund(hints.id, .reverse).hints == 0)
        #expect(try await player.hintBalance() == 10)
        await #expect(throws: ServiceError.self) { _ = try await player.refund(hints.id) }
        let told = eventually(within: 30) { Set(receiver.delivered).isSuperset(of: ["REFUND/", "REFUND_DECLINED/", "REFUND_REVERSED/"]) }
        #expect(told, "\(receiver.delivered)")
        let posts = receiver.posts
        #expect(posts.allSatisfy { $0["refused"] == nil }, "Apple's verifier took every one: \(posts)")
        #expect(posts.filter { $0["type"] as? String == "REFUND" }.map { $0["transactionId"] as? String } == [hints.id.number])
        // The seller's dashboard lists both requests, the backend's consumption answer on the decided one.
        let said = server.outputSoFar
        let dashboard = try #require(said.range(of: "dashboard on ").map { String(said[$0.upperBound...].prefix { !$0.isNewline }) }, "\(said)")
        let page = try ExternalProcess.run("/usr/bin/curl", ["-sS", "-H", "Authorization: Bearer \(admin)", dashboard + "/refunds"]).stdout
        #expect(page.contains(hints.id.number) && page.contains(pack.id.number) && page.contains("UNSATISFIED_WITH_PURCHASE"), "\(page)")
        #expect(page.contains("&quot;consumptionPercentage&quot;: 25000") && page.contains("reversed") && page.contains("declined"), "\(page)")
        #expect(posts.contains { $0["type"] as? String == "REFUND_DECLINED" && $0["transactionId"] as? String == pack.id.number && $0["revoked"] as? Bool == false })
        #expect(posts.contains { $0["type"] as? String == "REFUND_REVERSED" && $0["transactionId"] as? String == hints.id.number && $0["revoked"] as? Bool == false })
        #expect(try ask("refunds", hints.id.number).stdout.contains(hints.id.number) == false, "a reversed refund is no refund")
    }

    /// StoreKit's introductory offer eligibility, signed by the backend with Apple's
    /// `IntroductoryOfferEligibilitySignatureCreator`: it decides the trial in place of the App
    /// Store's rule, once per signature; a forged, foreign, stale, replayed or misdirected one is
    /// refused with StoreKit's invalidOfferSignature, and nothing is charged.
    @Test func theBackendsSignedWordDecidesTheTrialOnce() async throws {
        let stage = try Stage()
        let (keys, data, root, bundle) = (stage.keys, stage.data, stage.root, stage.bundle)
        let stranger = try TemporaryDirectory()
        #expect(try ExternalProcess.run(Self.python, [Self.backend, "keygen", stranger.path]).status == 0)
        let (server, url) = try await Self.serve(data, extra: ["--api-issuer", Self.issuer, "--api-key", "\(Self.kid)=\(keys.file("public.pem"))"])
        defer { _ = server.kill() }
        func sign(_ command: String, _ arguments: String..., keys folder: TemporaryDirectory? = nil) throws -> String {
            let made = try ExternalProcess.run(Self.python, [Self.backend, command, url, (folder ?? keys).path, Self.kid, Self.issuer, bundle, root] + arguments)
            #expect(made.status == 0, "\(made.stderr)")
            return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
        let player = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        let other = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        let app = try await player.appTransaction().id.number
        func buy(_ jws: String, _ client: HTTPPackService? = nil) async throws -> PurchaseOutcome {
            try await (client ?? player).buy(monthly, quantity: 1, options: PurchaseOptions(introductoryOfferEligibility: jws))
        }
        func refused(_ jws: String, _ says: String, _ client: HTTPPackService? = nil) async {
            let error = await #expect(throws: ServiceError.self) { _ = try await buy(jws, client) }
            #expect(error?.message.contains("invalidOfferSignature") == true && error?.message.contains(says) == true, "\(String(describing: error))")
        }
        let now = Int64(Date().timeIntervalSince1970)
        func claims(_ changes: [String: Any]) throws -> String {
            var made: [String: Any] = [
                "iss": Self.issuer, "aud": "introductory-offer-eligibility", "bid": bundle, "iat": now, "nonce": UUID().uuidString.lowercased(),
                "productId": monthly.rawValue, "allowIntroductoryOffer": true, "transactionId": app,
            ]
            for (key, value) in changes { made[key] = value }
            return String(decoding: try JSONSerialization.data(withJSONObject: made), as: UTF8.self)
        }
        // Hostile signatures first: each refused, nothing bought.
        await refused(try sign("sign-intro", monthly.rawValue, "false", app, keys: stranger), "is not key")
        await refused(try sign("sign-intro", "com.hangmanpacks.pass.yearly", "false", app), "signed for com.hangmanpacks.pass.yearly")
        await refused(try sign("sign-intro", monthly.rawValue, "false", try await other.appTransaction().id.number), "not one of this customer's")
        await refused(try sign("sign-raw", try claims(["iat": now - 2 * 86_400])), "more than a day ago")
        await refused(try sign("sign-raw", try claims(["aud": "promotional-offer"])), "audience")
        await refused(try sign("sign-raw", try claims(["bid": "com.example.other"])), "bundle id")
        await refused(try sign("sign-raw", try claims(["nonce": "not-a-uuid"])), "nonce")
        await refused("e30.e30.e30", "not a JWT")
        #expect(try await player.transactions().isEmpty, "nothing was charged")

        // The backend withholds the trial this account would have had: the first period is paid.
        let withheld = try sign("sign-intro", monthly.rawValue, "false", app)
        guard case .purchased(let paid) = try await buy(withheld) else { throw ServiceError(.wrongState, "not bought") }
        #expect(paid.isTrial == false && (paid.price?.minorUnits ?? 0) > 0, "\(paid)")
        // Replayed, by this account again (a new purchase, once the first has lapsed) or by another: refused.
        _ = try await player.setAutoRenew(monthly, on: false)
        _ = try await player.advanceClock(by: StoreDuration(40, .day))
        await refused(withheld, "used already")
        await refused(withheld, "not one of this customer's", other)
        // The other account, allowed: its trial, as the rule would give.
        let allowed = try sign("sign-intro", monthly.rawValue, "true", try await other.appTransaction().id.number)
        guard case .purchased(let trial) = try await buy(allowed, other) else { throw ServiceError(.wrongState, "not bought") }
        #expect(trial.isTrial && trial.price?.minorUnits == 0, "\(trial)")
    }

    /// A promotional offer of the catalog, signed by the backend with Apple's
    /// `PromotionalOfferV2SignatureCreator`, brings a lapsed subscriber back at its price for the
    /// periods it covers, then the plan's; its transactions say so in Apple's fields. A new
    /// customer and an offer the catalog does not declare are refused with StoreKit's errors.
    @Test func aPromotionalOfferBringsALapsedSubscriberBackAtItsPrice() async throws {
        let stage = try Stage()
        let (keys, data, root, bundle) = (stage.keys, stage.data, stage.root, stage.bundle)
        let (server, url) = try await Self.serve(data, extra: ["--api-issuer", Self.issuer, "--api-key", "\(Self.kid)=\(keys.file("public.pem"))"])
        defer { _ = server.kill() }
        func ask(_ command: String, _ arguments: String...) throws -> String {
            let made = try ExternalProcess.run(Self.python, [Self.backend, command, url, keys.path, Self.kid, Self.issuer, bundle, root] + arguments)
            #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
            return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
        let player = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        func buy(_ jws: String) async throws -> PurchaseOutcome {
            try await player.buy(monthly, quantity: 1, options: PurchaseOptions(promotionalOffer: jws))
        }
        // Without a transaction of the customer's, a signature could serve anyone: refused.
        let anyone = await #expect(throws: ServiceError.self) { _ = try await buy(try ask("sign-promo", monthly.rawValue, "comeback-3-months")) }
        #expect(anyone?.message.contains("invalidOfferSignature: it does not say transactionId") == true, "\(String(describing: anyone))")
        // A new customer: not eligible.
        let app = try await player.appTransaction().id.number
        let early = await #expect(throws: ServiceError.self) { _ = try await buy(try ask("sign-promo", monthly.rawValue, "comeback-3-months", app)) }
        #expect(early?.message.contains("ineligibleForOffer") == true, "\(String(describing: early))")
        // Subscribed, then lapsed.
        guard case .purchased(let first) = try await player.buy(monthly, quantity: 1) else { throw ServiceError(.wrongState, "not bought") }
        _ = try await player.setAutoRenew(monthly, on: false)
        _ = try await player.advanceClock(by: StoreDuration(10, .day))
        #expect(try await player.subscriptions().first?.state == .expired)
        let unknown = await #expect(throws: ServiceError.self) { _ = try await buy(try ask("sign-promo", monthly.rawValue, "half-off-forever", first.id.number)) }
        #expect(unknown?.message.contains("invalidOfferIdentifier") == true, "\(String(describing: unknown))")
        // Back at the offer's price: three months at $0.99, then $2.99.
        guard case .purchased(let back) = try await buy(try ask("sign-promo", monthly.rawValue, "comeback-3-months", first.id.number)) else {
            throw ServiceError(.wrongState, "not bought with the offer")
        }
        #expect(back.price?.minorUnits == 99 && back.promotionalOffer == "comeback-3-months" && !back.isTrial, "\(back)")
        let signed = try #require(Self.json(try ask("transaction", back.id.number)) as? [String: Any])
        #expect(signed["offerType"] as? Int == 2 && signed["offerIdentifier"] as? String == "comeback-3-months", "\(signed)")
        #expect(signed["offerDiscountType"] as? String == "PAY_AS_YOU_GO" && signed["offerPeriod"] as? String == "P3M", "\(signed)")
        for _ in 0..<3 { _ = try await player.advanceClock(by: StoreDuration(1, .month)) }
        let periods = try await player.transactions().filter { $0.originalTransactionID == back.id }
        #expect(periods.map { $0.price?.minorUnits } == [99, 99, 99, 299], "\(periods.map { ($0.price, $0.promotionalOffer) })")
        #expect(periods.map(\.promotionalOffer) == ["comeback-3-months", "comeback-3-months", "comeback-3-months", nil])
    }

    /// Offer codes made by the seller's command and redeemed over HTTP by two players: the
    /// subscription starts under the code's offer (Apple's offerType 3 in the signed transaction,
    /// OFFER_REDEEMED verified by Apple's library), a retry answers the same purchase, and the
    /// other player is refused the code; a pack's code gives it free.
    @Test(arguments: [false, true]) func anOfferCodeIsRedeemedOnceAndTheBackendHearsIt(onPostgreSQL: Bool) async throws {
        let stage = try Stage()
        let (directory, keys, data, root, bundle) = (stage.directory, stage.keys, stage.data, stage.root, stage.bundle)
        let packs = try Self.copyPacks(into: directory)
        func codes(_ arguments: String...) throws -> [String] {
            let output = directory.file("codes-\(arguments[0])")
            let made = try ExternalProcess.run(HangmanBinary.path, ["catalog", "offer-codes"] + arguments + ["-o", output, "--packs", packs])
            #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
            return try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        let monthlyCodes = try codes("monthly", "--offer", "comeback-3-months", "--count", "2")
        let packCodes = try codes("hard", "--count", "1")
        let receiver = try await Receiver(directory, root: root, bundle: bundle, failFirst: 0)
        let database = onPostgreSQL ? try FreshDatabase(on: try TestPostgreSQL.shared()) : nil
        let (server, url) = try await Self.serve(data, packs: packs, extra: [
            "--notification-url", receiver.url, "--api-issuer", Self.issuer, "--api-key", "\(Self.kid)=\(keys.file("public.pem"))",
        ] + (database.map { ["--database", $0.connectionString] } ?? []))
        defer { _ = server.kill() }
        func ask(_ command: String, _ arguments: String...) throws -> String {
            let made = try ExternalProcess.run(Self.python, [Self.backend, command, url, keys.path, Self.kid, Self.issuer, bundle, root] + arguments)
            #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
            return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let alice = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        let bob = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        guard case .purchased(let started) = try await alice.redeem(offerCode: monthlyCodes[0]) else { throw ServiceError(.wrongState, "not redeemed") }
        #expect(started.price?.minorUnits == 99 && started.promotionalOffer == "comeback-3-months" && started.offerCode == "comeback-3-months", "\(started)")
        if case .purchased(let again) = try await alice.redeem(offerCode: monthlyCodes[0].lowercased()) { #expect(again.id == started.id) } else { Issue.record("no retry") }
        let taken = await #expect(throws: ServiceError.self) { _ = try await bob.redeem(offerCode: monthlyCodes[0]) }
        #expect(taken?.kind == .wrongState && taken?.message.contains("redeemed already") == true, "\(String(describing: taken))")
        let signed = try #require(Self.json(try ask("transaction", started.id.number)) as? [String: Any])
        #expect(signed["offerType"] as? Int == 3 && signed["offerIdentifier"] as? String == "comeback-3-months", "\(signed)")
        #expect(signed["offerDiscountType"] as? String == "PAY_AS_YOU_GO" && signed["offerPeriod"] as? String == "P3M", "\(signed)")
        guard case .purchased(let pack) = try await bob.redeem(offerCode: packCodes[0]) else { throw ServiceError(.wrongState, "the pack's code was not redeemed") }
        let packSigned = try #require(Self.json(try ask("transaction", pack.id.number)) as? [String: Any])
        #expect(packSigned["offerType"] as? Int == 3 && packSigned["offerIdentifier"] as? String == "hard-2" && packSigned["price"] as? Int == 0, "\(packSigned)")
        let told = eventually(within: 30) { Set(receiver.delivered).isSuperset(of: ["OFFER_REDEEMED/INITIAL_BUY", "ONE_TIME_CHARGE/"]) }
        #expect(told, "\(receiver.delivered)")
    }

    /// A price the seller raised for subscribers, published and read at SIGHUP: each subscriber
    /// is told at the next renewal (PRICE_INCREASE PENDING, charged the old price, the renewal
    /// info's priceIncreaseStatus 0); one consents (ACCEPTED, then renewed at the new price), the
    /// other does not and the subscription ends (EXPIRED PRICE_INCREASE, expirationIntent 3).
    @Test(arguments: [false, true]) func aRaisedPriceIsToldConsentedToOrEndsTheSubscription(onPostgreSQL: Bool) async throws {
        let stage = try Stage()
        let (directory, keys, data, root, bundle) = (stage.directory, stage.keys, stage.data, stage.root, stage.bundle)
        let packs = try Self.copyPacks(into: directory)
        let receiver = try await Receiver(directory, root: root, bundle: bundle, failFirst: 0)
        let database = onPostgreSQL ? try FreshDatabase(on: try TestPostgreSQL.shared()) : nil
        let (server, url) = try await Self.serve(data, packs: packs, extra: [
            "--notification-url", receiver.url, "--api-issuer", Self.issuer, "--api-key", "\(Self.kid)=\(keys.file("public.pem"))",
        ] + (database.map { ["--database", $0.connectionString] } ?? []))
        defer { _ = server.kill() }
        let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
        let alice = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        let bob = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        guard case .purchased(let kept) = try await alice.buy(monthly, quantity: 1), case .purchased(let lost) = try await bob.buy(monthly, quantity: 1) else {
            throw ServiceError(.wrongState, "not subscribed")
        }
        // The seller raises the price, publishes, and the server reads it.
        let catalogURL = URL(fileURLWithPath: packs + "/Catalog.plist")
        var catalog = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: catalogURL), format: nil) as? [String: Any])
        var products = catalog["Products"] as? [[String: Any]] ?? []
        for index in products.indices where products[index]["ProductIdentifier"] as? String == monthly.rawValue {
            var prices = products[index]["Prices"] as? [String: Any] ?? [:]
            prices["USA"] = "3.49"
            products[index]["Prices"] = prices
        }
        catalog["Products"] = products
        try PropertyListSerialization.data(fromPropertyList: catalog, format: .xml, options: 0).write(to: catalogURL)
        #expect(try ExternalProcess.run(HangmanBinary.path, ["catalog", "update", "--packs", packs]).status == 0)
        kill(server.processIdentifier, SIGHUP)
        #expect(eventually { server.errorSoFar.contains("SIGHUP: serving catalog version") }, "\(server.errorSoFar)")
        let pending = try #require(try await alice.subscriptions().first?.priceIncrease)
        #expect(pending.price.minorUnits == 349 && !pending.consented)
        for player in [alice, bob] { _ = try await player.advanceClock(by: StoreDuration(1, .month)) }
        #expect(eventually(within: 30) { receiver.delivered.filter { $0 == "PRICE_INCREASE/PENDING" }.count == 2 }, "\(receiver.delivered)")
        let statuses = try #require(Self.json(try ExternalProcess.run(Self.python, [Self.backend, "statuses", url, keys.path, Self.kid, Self.issuer, bundle, root, kept.id.number]).stdout) as? [[String: Any]])
        let renewal = ((statuses.first?["lastTransactions"] as? [[String: Any]])?.first?["renewal"] as? [String: Any]) ?? [:]
        #expect(renewal["priceIncreaseStatus"] as? Int == 0, "\(statuses)")
        let consented = try await alice.consentToPriceIncrease(monthly)
        #expect(consented.priceIncrease?.consented == true)
        for player in [alice, bob] { _ = try await player.advanceClock(by: StoreDuration(1, .month)) }
        let alicePrices = try await alice.transactions().filter { $0.originalTransactionID == kept.id }.map { $0.price?.minorUnits }
        #expect(alicePrices.suffix(2) == [299, 349], "\(alicePrices)")
        let bobEnded = try #require(try await bob.subscriptions().first)
        #expect(bobEnded.endReason == "price-increase" && bobEnded.state == .expired, "\(bobEnded)")
        #expect(try await bob.transactions().filter { $0.originalTransactionID == lost.id }.count == 2, "no third period charged")
        #expect(eventually(within: 30) { Set(receiver.delivered).isSuperset(of: ["PRICE_INCREASE/ACCEPTED", "EXPIRED/PRICE_INCREASE"]) }, "\(receiver.delivered)")
        let expired = receiver.posts.first { $0["type"] as? String == "EXPIRED" && $0["subtype"] as? String == "PRICE_INCREASE" }
        #expect(expired?["expirationIntent"] as? Int == 3, "\(String(describing: expired))")
    }

    /// Every notification `store notify` causes reaches the backend, in order, each verified by
    /// Apple's library: one account walked through a purchase, a subscription's life, its
    /// failures and its refunds, each step the change that tells it.
    @Test(arguments: [false, true]) func everyNotificationIsCausedOnDemand(onPostgreSQL: Bool) async throws {
        let stage = try Stage(apiKeys: false)
        let (directory, data, root, bundle) = (stage.directory, stage.data, stage.root, stage.bundle)
        let receiver = try await Receiver(directory, root: root, bundle: bundle, failFirst: 0)
        let database = onPostgreSQL ? try FreshDatabase(on: try TestPostgreSQL.shared()) : nil
        let (server, url) = try await Self.serve(data, extra: ["--notification-url", receiver.url] + (database.map { ["--database", $0.connectionString] } ?? []))
        defer { _ = server.kill() }
        let player = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        let walk: [(String, String?, [String])] = [
            ("ONE_TIME_CHARGE", nil, ["ONE_TIME_CHARGE/"]),
            ("SUBSCRIBED", nil, ["SUBSCRIBED/INITIAL_BUY"]),
            ("DID_RENEW", nil, ["DID_RENEW/"]),
            ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"]),
            ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED", ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED"]),
            ("DID_CHANGE_RENEWAL_PREF", "UPGRADE", ["DID_CHANGE_RENEWAL_PREF/UPGRADE"]),
            ("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE", ["DID_CHANGE_RENEWAL_PREF/DOWNGRADE"]),
            ("RENEWAL_EXTENDED", nil, ["RENEWAL_EXTENDED/"]),
            ("DID_FAIL_TO_RENEW", "GRACE_PERIOD", ["DID_FAIL_TO_RENEW/GRACE_PERIOD"]),
            ("DID_RENEW", "BILLING_RECOVERY", ["DID_RENEW/BILLING_RECOVERY"]),
            ("EXPIRED", "VOLUNTARY", ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY"]),
            ("SUBSCRIBED", "RESUBSCRIBE", ["SUBSCRIBED/RESUBSCRIBE"]),
            ("EXPIRED", "BILLING_RETRY", ["DID_FAIL_TO_RENEW/GRACE_PERIOD", "EXPIRED/BILLING_RETRY"]),
            ("CONSUMPTION_REQUEST", nil, ["CONSUMPTION_REQUEST/"]),
            ("REFUND_DECLINED", nil, ["CONSUMPTION_REQUEST/", "REFUND_DECLINED/"]),
            ("REFUND_REVERSED", nil, ["CONSUMPTION_REQUEST/", "REFUND/", "REFUND_REVERSED/"]),
            ("REFUND", nil, ["REFUND/"]),
            ("TEST", nil, ["TEST/"]),
        ]
        var expected: [String] = []
        for (type, subtype, told) in walk {
            let cause = try await player.causeNotification(type, subtype: subtype)
            #expect(cause.type == type && (subtype == nil || cause.subtype == subtype), "\(cause)")
            expected += told
            let heard = eventually(within: 30) { receiver.delivered.count >= expected.count }
            #expect(heard && receiver.delivered == expected, "after \(type) \(subtype ?? ""): \(receiver.delivered)")
            if !heard { break }
        }
        #expect(receiver.posts.allSatisfy { $0["refused"] == nil }, "Apple's verifier took every one: \(receiver.posts.filter { $0["refused"] != nil })")
        // What the account's state does not allow is refused, and nothing changes.
        let refused = await #expect(throws: ServiceError.self) { _ = try await player.causeNotification("SUBSCRIBED", subtype: "INITIAL_BUY") }
        #expect(refused?.kind == .wrongState, "\(String(describing: refused))")
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers through Apple's library: the
    /// request is answered at once and carried out in the background; a server killed in the
    /// middle of it leaves it to the next, and each subscriber is extended once (a trial's
    /// failure told once); the status counts them, and RENEWAL_EXTENSION SUMMARY tells the end.
    @Test(arguments: [false, true]) func aMassExtensionReachesEverySubscriberOnceThroughAKill(onPostgreSQL: Bool) async throws {
        let stage = try Stage()
        let (directory, keys, data, root, bundle) = (stage.directory, stage.keys, stage.data, stage.root, stage.bundle)
        let receiver = try await Receiver(directory, root: root, bundle: bundle, failFirst: 0)
        let database = onPostgreSQL ? try FreshDatabase(on: try TestPostgreSQL.shared()) : nil
        let extra = [
            "--notification-url", receiver.url, "--api-issuer", Self.issuer, "--api-key", "\(Self.kid)=\(keys.file("public.pem"))", "--requests-per-minute", "0",
        ] + (database.map { ["--database", $0.connectionString] } ?? [])
        let (first, url) = try ServeProcess.start(data: data, port: 0, crashAt: nil, extra: ["--test-controls"] + extra)
        let port = Int(url.split(separator: ":").last ?? "") ?? 0
        func ask(_ command: String, _ arguments: String...) throws -> String {
            let made = try ExternalProcess.run(Self.python, [Self.backend, command, url, keys.path, Self.kid, Self.issuer, bundle, root] + arguments)
            #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
            return made.stdout
        }
        let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
        // Three paying subscribers, one in its trial, one with none.
        var paying: [HTTPPackService] = []
        for _ in 0..<3 {
            let player = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
            _ = try await player.buy(monthly, quantity: 1)
            _ = try await player.advanceClock(by: StoreDuration(10, .day))
            paying.append(player)
        }
        let trial = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        _ = try await trial.buy(monthly, quantity: 1)
        _ = try await HTTPPackService.createAccount(at: url)
        var before: [Int64] = []
        for player in paying { before.append(try #require(try await player.subscriptions().first?.expiresDate)) }
        _ = first.wait(killAfter: 0)

        // A server that dies inside the extension, after its first account.
        let (dying, _) = try ServeProcess.start(data: data, port: port, crashAt: "in-mass-extension", extra: extra)
        let asked = try ask("mass-extend", monthly.rawValue, "5", "spring-gift")
        #expect(asked.contains("\"requestIdentifier\": \"spring-gift\""), "\(asked)")
        #expect(try ask("mass-extend", monthly.rawValue, "5", "spring-gift") == asked, "the same request again is the same request")
        let died = await dying.finished()
        #expect(died.wasSignaled && died.status == 9, "\(died.stderr)")

        // The next server takes it up once the dead one's hold is over, and finishes it.
        let (again, _) = try ServeProcess.start(data: data, port: port, crashAt: nil, extra: ["--test-controls"] + extra)
        defer { _ = again.wait(killAfter: 0) }
        var status: [String: Any] = [:]
        let complete = eventually(within: 60) {
            status = ((try? ask("mass-status", monthly.rawValue, "spring-gift")).flatMap { Self.json($0) } as? [String: Any]) ?? [:]
            return status["complete"] as? Bool == true
        }
        #expect(complete, "\(status)\n\(again.errorSoFar)")
        #expect(status["succeededCount"] as? Int == 3 && status["failedCount"] as? Int == 1, "\(status)")
        for (player, was) in zip(paying, before) {
            #expect(try await player.subscriptions().first?.expiresDate == was + 5 * 86_400_000, "extended once")
        }
        // Each told, whichever outbox it waits in (the summary in the service's, the others in the accounts').
        let told = eventually(within: 30) {
            let delivered = receiver.delivered
            return delivered.contains("RENEWAL_EXTENSION/SUMMARY") && delivered.filter { $0 == "RENEWAL_EXTENDED/" }.count >= 3
                && delivered.contains("RENEWAL_EXTENSION/FAILURE")
        }
        #expect(told, "\(receiver.delivered)")
        #expect(receiver.delivered.filter { $0 == "RENEWAL_EXTENDED/" }.count == 3, "\(receiver.delivered)")
        #expect(receiver.delivered.filter { $0 == "RENEWAL_EXTENSION/FAILURE" }.count == 1, "\(receiver.delivered)")
        #expect(receiver.posts.allSatisfy { $0["refused"] == nil }, "Apple's verifier took every one: \(receiver.posts)")
        // Apple's errors for a request it would refuse.
        let unknown = try ExternalProcess.run(Self.python, [Self.backend, "mass-extend", url, keys.path, Self.kid, Self.issuer, bundle, root, "com.example.none", "5", "x"])
        #expect(unknown.stdout == "error 400 4000023\n", "\(unknown.stdout)\(unknown.stderr)")
        let missing = try ExternalProcess.run(Self.python, [Self.backend, "mass-status", url, keys.path, Self.kid, Self.issuer, bundle, root, monthly.rawValue, "nope"])
        #expect(missing.stdout == "error 400 4000011\n", "\(missing.stdout)\(missing.stderr)")
    }

    /// `hangman receipt app-transaction`: the account's app transaction as StoreKit's
    /// `AppTransaction.shared` gives it, which Apple's verifier takes; the embedded store has none.
    @Test func theSignedAppTransactionIsApplesAndTheCommandPrintsIt() async throws {
        let stage = try Stage()
        let (directory, keys, data, root) = (stage.directory, stage.keys, stage.data, stage.root)
        let (server, url) = try await Self.serve(data, extra: [])
        defer { _ = server.kill() }
        let home = directory.file("home")
        let environment = ["HANGMAN_HOME": home, "HANGMAN_PACKS": Self.packs]
        #expect(try ExternalProcess.run(HangmanBinary.path, ["account", "create", "--service", url], environment: environment).status == 0)
        let shown = try ExternalProcess.run(HangmanBinary.path, ["receipt", "app-transaction"], environment: environment)
        let jws = shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(shown.status == 0 && jws.split(separator: ".").count == 3, "\(shown.stdout)\(shown.stderr)")
        let verified = try ExternalProcess.run(Self.python, [Self.backend, "verify-app-transaction", url, keys.path, Self.kid, Self.issuer, "com.hangmanpacks.hangman", root, jws])
        let fields = try #require(Self.json(verified.stdout) as? [String: Any], "\(verified.stdout)\(verified.stderr)")
        let json = try #require(Self.json(try ExternalProcess.run(HangmanBinary.path, ["receipt", "app-transaction", "--json"], environment: environment).stdout) as? [String: Any])
        let app = try #require(json["appTransaction"] as? [String: Any])
        #expect(fields["appTransactionId"] as? String == app["appTransactionId"] as? String && app["appTransactionId"] != nil, "\(fields)\n\(app)")
        let embedded = try ExternalProcess.run(HangmanBinary.path, ["receipt", "app-transaction"], environment: ["HANGMAN_HOME": directory.file("embedded"), "HANGMAN_PACKS": Self.packs])
        #expect(embedded.status == 69 && embedded.stderr.contains("comes from a pack server"), "\(embedded.stderr)")
    }

    /// Every kind of purchase told to a receiver that fails its first answer: the retry carries
    /// the same notificationUUID; the backend reads history (paged), statuses, refunds, extends a
    /// subscription, sends consumption data, asks a test notification and the notification history.
    @Test func everyChangeIsToldAndTheBackendReadsItAll() async throws {
        let stage = try Stage()
        let (directory, keys, data, root, bundle) = (stage.directory, stage.keys, stage.data, stage.root, stage.bundle)
        let receiver = try await Receiver(directory, root: root, bundle: bundle, failFirst: 1)
        let (server, url) = try await Self.serve(data, extra: [
            "--notification-url", receiver.url, "--notification-retry", "1s,1s,2s", "--api-issuer", Self.issuer,
            "--api-key", "\(Self.kid)=\(keys.file("public.pem"))",
        ])
        defer { _ = server.kill() }
        let player = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        func ask(_ command: String, _ arguments: String...) throws -> String {
            try Self.backend(command, url, keys: keys, bundle: bundle, root: root, arguments)
        }
        guard case .purchased(let hints) = try await player.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1),
            case .purchased(let pack) = try await player.buy(ProductID(rawValue: "com.hangmanpacks.words.ios")!, quantity: 1),
            case .purchased(let monthly) = try await player.buy(ProductID(rawValue: "com.hangmanpacks.pass.monthly")!, quantity: 1)
        else { throw ServiceError(.wrongState, "not bought") }
        _ = try await player.advanceClock(by: StoreDuration(40, .day))
        _ = try await player.refund(pack.id)
        let original = monthly.id.number
        let extended = try #require(Self.json(try ask("extend", original, "7")) as? [String: Any])
        #expect(extended["success"] as? Bool == true && extended["originalTransactionId"] as? String == original, "\(extended)")
        guard case .purchased = try await player.buy(ProductID(rawValue: "com.hangmanpacks.pass.yearly")!, quantity: 1) else {
            throw ServiceError(.wrongState, "no upgrade")
        }
        let expected = [
            "ONE_TIME_CHARGE/", "ONE_TIME_CHARGE/", "SUBSCRIBED/INITIAL_BUY", "DID_RENEW/", "REFUND/", "RENEWAL_EXTENDED/", "DID_CHANGE_RENEWAL_PREF/UPGRADE",
        ]
        // Told, each: every notification received was delivered in the end (the first on its retry).
        let told = eventually(within: 30) {
            let posts = receiver.posts
            let delivered = Set(posts.filter { $0["answered"] as? Int == 200 }.compactMap { $0["uuid"] as? String })
            return receiver.delivered.count >= expected.count && Set(receiver.delivered).isSuperset(of: expected)
                && posts.allSatisfy { ($0["uuid"] as? String).map(delivered.contains) ?? false }
        }
        #expect(told, "delivered: \(receiver.delivered)\n\(server.errorSoFar)")
        let posts = receiver.posts
        #expect(posts.allSatisfy { $0["refused"] == nil && $0["version"] as? String == "2.0" }, "Apple's verifier took every one: \(posts)")
        // The first answer failed: the same notification came again, under the same UUID, and was not delivered twice.
        let first = try #require(posts.first)
        #expect(first["answered"] as? Int == 500)
        #expect(posts.filter { $0["uuid"] as? String == first["uuid"] as? String }.map { $0["answered"] as? Int } == [500, 200], "\(posts)")
        // The retry is the first attempt's payload, byte for byte.
        #expect(Set(posts.filter { $0["uuid"] as? String == first["uuid"] as? String }.compactMap { $0["body"] as? String }).count == 1, "\(posts)")
        let deliveredUUIDs = posts.filter { $0["answered"] as? Int == 200 }.compactMap { $0["uuid"] as? String }
        #expect(Set(deliveredUUIDs).count == deliveredUUIDs.count, "each delivered once")
        #expect(posts.contains { $0["type"] as? String == "REFUND" && $0["revoked"] as? Bool == true && $0["productId"] as? String == "com.hangmanpacks.words.ios" })
        // Its status is "as of the signedDate" (Apple's words), that is when it was sent: active (1),
        // or expired (2) when it left after the upgrade replaced the monthly plan.
        #expect(posts.contains { $0["type"] as? String == "DID_RENEW" && $0["originalTransactionId"] as? String == original && [1, 2].contains($0["status"] as? Int) })
        #expect(eventually(within: 5) { server.errorSoFar.contains("attempt 1: UNSUCCESSFUL_HTTP_RESPONSE_CODE HTTP 500, failed, next attempt in 1 s") }, "\(server.errorSoFar)")

        // History v2, page by page (the hints, the pack, the pass's periods, the upgrade), and by type.
        let anyID = hints.id.number
        let pages = try ask("history", anyID).split(separator: "\n").compactMap { Self.json(String($0)) as? [String: Any] }
        let history = pages.flatMap { ($0["transactions"] as? [[String: Any]]) ?? [] }
        #expect(history.count >= 5 && history.first?["transactionId"] as? String == anyID, "\(pages)")
        let consumables = try ask("history", anyID, "CONSUMABLE").split(separator: "\n").compactMap { Self.json(String($0)) as? [String: Any] }
        #expect(consumables.flatMap { ($0["transactions"] as? [[String: Any]]) ?? [] }.map { $0["productId"] as? String } == ["com.hangmanpacks.hints.10"])
        let refunds = try ask("refunds", anyID)
        #expect(refunds.contains(pack.id.number) && !refunds.contains(anyID), "\(refunds)")
        // Statuses: the upgraded pass expired, the yearly one active.
        let statuses = try #require(Self.json(try ask("statuses", anyID)) as? [[String: Any]])
        let items = statuses.flatMap { ($0["lastTransactions"] as? [[String: Any]]) ?? [] }
        #expect(statuses.first?["group"] as? String == "pass" && Set(items.compactMap { $0["status"] as? Int }) == [1, 2], "\(statuses)")
        // Consumption data for the consumable (202); refused for the pack, as Apple refuses it.
        #expect(try ask("consumption", anyID).contains("\"sent\": true"))
        #expect(throws: ServiceError.self) { try ask("consumption", pack.id.number) }
        // A test notification, and its status once attempted.
        let test = try #require(Self.json(try ask("test-notification")) as? [String: Any])
        #expect(test["type"] as? String == "TEST" && (test["attempts"] as? [String])?.isEmpty == false, "\(test)")
        // The history of one customer's notifications, each with its attempts.
        let told2 = try #require(Self.json(try ask("notification-history", "0", String(Int64.max / 2), anyID)) as? [[String: Any]])
        #expect(told2.count >= expected.count && told2.contains { ($0["attempts"] as? [String]) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS"] }, "\(told2)")
        // A key revoked: its file removed, SIGHUP, and the backend's next request is 401.
        try FileManager.default.removeItem(atPath: keys.file("public.pem"))
        kill(server.processIdentifier, SIGHUP)
        #expect(eventually { server.errorSoFar.contains("App Store Server API keys: none") }, "\(server.errorSoFar)")
        #expect(throws: ServiceError.self) { _ = try ask("statuses", anyID) }
        let refused = try ExternalProcess.run(Self.python, [Self.backend, "statuses", url, keys.path, Self.kid, Self.issuer, bundle, root, anyID])
        #expect(refused.stdout == "error 401 None\n", "\(refused.stdout)\(refused.stderr)")
    }

    /// A server killed (SIGKILL) with notifications due loses none: the one started after it on
    /// the data folder sends them; and two servers of one folder send each notification once.
    @Test func aKilledServerLosesNoNotificationAndTwoSendEachOnce() async throws {
        let stage = try Stage(apiKeys: false)
        let (directory, data, root) = (stage.directory, stage.data, stage.root)
        // A receiver that is not there yet: every attempt fails until it is.
        let closed = "http://127.0.0.1:9/notifications"
        let (first, url) = try await Self.serve(data, extra: ["--notification-url", closed, "--notification-retry", "1s,1s,1s,1s,1s,1s,1s,1s,1s,1s"])
        let player = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: url))
        for _ in 0..<3 { _ = try await player.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1) }
        #expect(eventually(within: 20) { first.errorSoFar.contains("NO_RESPONSE") }, "\(first.errorSoFar)")
        _ = first.kill()
        let receiver = try await Receiver(directory, root: root, bundle: "com.hangmanpacks.hangman", failFirst: 0)
        let (second, _) = try await Self.serve(data, extra: ["--notification-url", receiver.url, "--notification-retry", "1s"])
        defer { _ = second.kill() }
        let (third, urlC) = try await Self.serve(data, extra: ["--notification-url", receiver.url, "--notification-retry", "1s"])
        defer { _ = third.kill() }
        #expect(eventually(within: 30) { receiver.delivered.count >= 3 }, "\(receiver.posts)\n\(second.errorSoFar)")
        // Three more through the third server, while both send.
        let moved = HTTPPackService(credentials: { var c = player.credentials; c.service = urlC; return c }())
        for _ in 0..<3 { _ = try await moved.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1) }
        #expect(eventually(within: 30) { receiver.delivered.count >= 6 }, "\(receiver.posts)")
        let uuids = receiver.posts.compactMap { $0["uuid"] as? String }
        #expect(uuids.count == 6 && Set(uuids).count == 6, "each told once: \(receiver.posts)")
        #expect(receiver.delivered == Array(repeating: "ONE_TIME_CHARGE/", count: 6))
    }

    /// Two servers on one PostgreSQL database: each notification is sent by one of them, once;
    /// a server killed with notifications due leaves them to the other.
    @Test func twoServersOnPostgreSQLSendEachNotificationOnce() async throws {
        let database = try FreshDatabase(on: try TestPostgreSQL.shared())
        let stage = try Stage(apiKeys: false)
        let (directory, data, root) = (stage.directory, stage.data, stage.root)
        // The first server sends to nowhere, and is killed with its notifications due.
        let (first, urlA) = try await Self.serve(data, extra: [
            "--database", database.connectionString, "--notification-url", "http://127.0.0.1:9/n", "--notification-retry", "1s,1s,1s,1s,1s,1s,1s,1s",
        ])
        let player = HTTPPackService(credentials: try await HTTPPackService.createAccount(at: urlA))
        for _ in 0..<2 { _ = try await player.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1) }
        // A second attempt: the first one is recorded (the log line comes before the record).
        #expect(eventually(within: 20) { first.errorSoFar.contains("attempt 2: NO_RESPONSE") }, "\(first.errorSoFar)")
        _ = first.kill()
        let receiver = try await Receiver(directory, root: root, bundle: "com.hangmanpacks.hangman", failFirst: 0)
        let options = ["--database", database.connectionString, "--notification-url", receiver.url, "--notification-retry", "1s"]
        let (second, urlB) = try await Self.serve(data, extra: options)
        defer { _ = second.kill() }
        let (third, urlC) = try await Self.serve(data, extra: options)
        defer { _ = third.kill() }
        for url in [urlB, urlC, urlB, urlC] {
            let at = HTTPPackService(credentials: { var c = player.credentials; c.service = url; return c }())
            _ = try await at.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1)
        }
        #expect(eventually(within: 40) { receiver.delivered.count >= 6 }, "\(receiver.posts)\n\(second.errorSoFar)\n\(third.errorSoFar)")
        let uuids = receiver.posts.compactMap { $0["uuid"] as? String }
        #expect(uuids.count == 6 && Set(uuids).count == 6, "each told once: \(receiver.posts)")
        // The first server tried each at least once (every second until it was killed); the
        // servers' logs are written in batches, so their lines are waited for.
        let sent = { (2...12).contains { attempt in (second.errorSoFar + third.errorSoFar).contains("attempt \(attempt): SUCCESS") } }
        #expect(eventually(within: 5) { sent() }, "the killed server's notifications, sent by another: \(second.errorSoFar + third.errorSoFar)")
    }
}
