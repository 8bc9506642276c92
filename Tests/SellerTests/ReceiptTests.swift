import Foundation
import PropertyList
import Signing
import Seller
import Testing
import WordPacks

@Suite struct ReceiptTests {
    /// An account with a pack, two hint purchases (one refunded) and a failed purchase.
    private func accountWithHistory() throws -> (StoreAccount, AccountService) {
        let account = try StoreAccount()
        let service = try account.service()
        _ = try service.buy(StoreFixture.animals, quantity: 1)
        let hints = try #require(try service.buy(StoreFixture.hints10, quantity: 2).purchasedTransaction)
        _ = try service.buy(StoreFixture.hints100, quantity: 1)
        _ = try service.refund(hints.id)
        try service.setControls(StoreControls(failPurchases: true))
        _ = try service.buy(StoreFixture.fruit, quantity: 1)
        try service.reset()
        return (account, service)
    }

    /// The receipt file's fields and its decoded payload.
    private func open(_ bytes: [UInt8]) throws -> (outer: [String: PropertyList], payload: [String: PropertyList]) {
        let outer = try #require(try PropertyListDecoding.decode(bytes).value.dictionaryValue)
        let payloadBytes = try #require(outer["Payload"]?.dataValue)
        let payload = try #require(try PropertyListDecoding.decode(payloadBytes).value.dictionaryValue)
        return (outer, payload)
    }

    /// A receipt file with `payload`, signed by `key` (or carrying `signature` as is).
    private func file(payload: [String: PropertyList], key: SigningKey?, signature: [UInt8]? = nil, keyID: String = "0000000000000000") -> [UInt8] {
        let payloadBytes = PropertyListEncoding.xml(.dictionary(payload))
        return PropertyListEncoding.xml(.dictionary([
            "Algorithm": .string("Ed25519"), "KeyID": .string(key?.publicKey.keyID ?? keyID),
            "Payload": .data(payloadBytes), "Signature": .data(signature ?? key?.sign(payloadBytes) ?? []),
        ]))
    }

    private func serviceKey(_ account: StoreAccount) throws -> SigningKey {
        try SigningKey(fileContents: String(decoding: try Data(contentsOf: URL(fileURLWithPath: account.keyPath)), as: UTF8.self))
    }

    private func transactions(_ payload: [String: PropertyList]) throws -> [[String: PropertyList]] {
        let items = payload["Transactions"]?.arrayValue?.compactMap { $0.dictionaryValue }
        return try #require(items)
    }

    @Test func receiptListsEveryTransactionAndVerifies() throws {
        let (account, service) = try accountWithHistory()
        let receipt = try service.receipt()
        let verification = service.verifyReceipt(receipt.bytes, password: nil)
        #expect(verification.status == .valid)
        #expect(verification.status.rawValue == 0)
        #expect(verification.payload == receipt.payload)
        let (outer, payload) = try open(receipt.bytes)
        #expect(outer["Algorithm"] == .string("Ed25519"))
        #expect(outer["KeyID"] == .string(try serviceKey(account).publicKey.keyID))
        #expect(payload["BundleIdentifier"] == .string(StoreFixture.bundleID))
        let listed = try transactions(payload)
        let history = try service.transactions()
        #expect(listed.map { $0["TransactionIdentifier"]?.stringValue } == history.map(\.id.rawValue))
        #expect(listed.map { $0["ProductIdentifier"]?.stringValue } == [
            "com.example.words.animals", "com.example.hints.10", "com.example.hints.100", "com.example.words.fruit",
        ])
        #expect(listed.map { $0["Quantity"]?.integerValue } == [1, 2, 1, 1])
        #expect(listed.map { $0["State"]?.stringValue } == ["finished", "finished", "finished", "failed"])
        #expect(listed.map { $0["PurchaseDate"]?.integerValue } == history.map(\.purchaseDate))
        #expect(listed.map { $0["RevocationDate"]?.integerValue } == history.map(\.revocationDate))
        #expect(listed[1]["RevocationDate"] != nil)
        // Another process of the same account, with the same key, accepts it.
        #expect(try account.service().verifyReceipt(receipt.bytes, password: nil).status == .valid)
    }

    /// Opening the service (every command does) makes a missing key but reads none: a damaged key
    /// is found, and named, where a receipt is signed or checked.
    @Test func theKeyIsReadOnlyForReceipts() throws {
        let account = try StoreAccount()
        _ = try account.service()
        #expect(FileManager.default.fileExists(atPath: account.keyPath))
        try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: account.keyPath))
        let service = try account.service()
        _ = try service.buy(StoreFixture.animals, quantity: 1)
        #expect(throws: ServiceError.self) { try service.receipt() }
        let verification = service.verifyReceipt(Array("anything".utf8), password: nil)
        #expect(verification.status == .notAuthenticated)
        #expect(verification.message.contains("service key"), "\(verification.message)")
    }

    @Test(arguments: Engine.allCases) func theKeyIsMadeOnceAndPrivate(engine: Engine) throws {
        let account = try StoreAccount(engine: engine)
        let first = try account.service().receipt()
        let attributes = try FileManager.default.attributesOfItem(atPath: account.keyPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let keyBefore = try Data(contentsOf: URL(fileURLWithPath: account.keyPath))
        let second = try account.service()
        #expect(try Data(contentsOf: URL(fileURLWithPath: account.keyPath)) == keyBefore)
        #expect(second.verifyReceipt(first.bytes, password: nil).status == .valid)
        // No temporary key files left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: account.accountFolder).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func aProductAddedWithoutResigningIsNotAuthenticated() throws {
        let (account, service) = try accountWithHistory()
        let receipt = try service.receipt()
        let (outer, payload) = try open(receipt.bytes)
        var forged = payload
        forged["Transactions"] = .array(try transactions(payload).map(PropertyList.dictionary) + [.dictionary([
            "TransactionIdentifier": .string("feedfacefeedface"), "ProductIdentifier": .string("com.example.words.fruit"),
            "Quantity": .integer(1), "State": .string("finished"), "PurchaseDate": .integer(1_800_000_000_000),
        ])])
        let bytes = file(payload: forged, key: nil, signature: outer["Signature"]?.dataValue)
        let verification = service.verifyReceipt(bytes, password: nil)
        #expect(verification.status == .notAuthenticated)
        #expect(verification.status.rawValue == 21003)
        #expect(verification.payload == nil)
        withExtendedLifetime(account) {}  // its folder holds the key, read on first use
    }

    @Test func aChangedDateIsNotAuthenticated() throws {
        let (account, service) = try accountWithHistory()
        let (outer, payload) = try open(try service.receipt().bytes)
        var items = try transactions(payload)
        items[0]["PurchaseDate"] = .integer((items[0]["PurchaseDate"]?.integerValue ?? 0) - 86_400_000)
        var forged = payload
        forged["Transactions"] = .array(items.map(PropertyList.dictionary))
        #expect(service.verifyReceipt(file(payload: forged, key: nil, signature: outer["Signature"]?.dataValue), password: nil).status == .notAuthenticated)
        // Removing a refund's date is a change too.
        var unrefunded = try transactions(payload)
        unrefunded[1]["RevocationDate"] = nil
        forged["Transactions"] = .array(unrefunded.map(PropertyList.dictionary))
        #expect(service.verifyReceipt(file(payload: forged, key: nil, signature: outer["Signature"]?.dataValue), password: nil).status == .notAuthenticated)
        withExtendedLifetime(account) {}  // its folder holds the key, read on first use
    }

    @Test func aFlippedSignatureBitIsNotAuthenticated() throws {
        let (account, service) = try accountWithHistory()
        let (outer, payload) = try open(try service.receipt().bytes)
        var signature = try #require(outer["Signature"]?.dataValue)
        signature[10] ^= 0x01
        #expect(service.verifyReceipt(file(payload: payload, key: nil, signature: signature), password: nil).status == .notAuthenticated)
        withExtendedLifetime(account) {}  // its folder holds the key, read on first use
    }

    @Test func anotherKeysSignatureIsNotAuthenticated() throws {
        let (account, service) = try accountWithHistory()
        let (_, payload) = try open(try service.receipt().bytes)
        let forger = SigningKey.generate()
        let verification = service.verifyReceipt(file(payload: payload, key: forger), password: nil)
        #expect(verification.status == .notAuthenticated)
        #expect(verification.message.contains("signed by another key"))
        // Even claiming the store's key id.
        let claimed = try open(try service.receipt().bytes).outer["KeyID"]?.stringValue ?? ""
        let payloadBytes = PropertyListEncoding.xml(.dictionary(payload))
        let lying = PropertyListEncoding.xml(.dictionary([
            "Algorithm": .string("Ed25519"), "KeyID": .string(claimed), "Payload": .data(payloadBytes), "Signature": .data(forger.sign(payloadBytes)),
        ]))
        #expect(service.verifyReceipt(lying, password: nil).status == .notAuthenticated)
        withExtendedLifetime(account) {}  // its folder holds the key, read on first use
    }

    @Test(arguments: Engine.allCases) func anotherAccountsReceiptIsNotAuthenticated(engine: Engine) throws {
        let (account, service) = try accountWithHistory()
        let otherAccount = try StoreAccount(engine: engine)
        let other = try otherAccount.service()
        _ = try other.buy(StoreFixture.animals, quantity: 1)
        #expect(service.verifyReceipt(try other.receipt().bytes, password: nil).status == .notAuthenticated)
        withExtendedLifetime((account, otherAccount)) {}  // their folders hold the keys, read on first use
    }

    @Test func anotherBundleIsNotAuthenticated() throws {
        let (account, service) = try accountWithHistory()
        var (_, payload) = try open(try service.receipt().bytes)
        payload["BundleIdentifier"] = .string("com.example.othergame")
        let verification = service.verifyReceipt(file(payload: payload, key: try serviceKey(account)), password: nil)
        #expect(verification.status == .notAuthenticated)
        #expect(verification.message == "the receipt is for 'com.example.othergame', not '\(StoreFixture.bundleID)'")
    }

    @Test func anUnknownProductIsMalformedEvenWhenSigned() throws {
        let (account, service) = try accountWithHistory()
        var (_, payload) = try open(try service.receipt().bytes)
        var items = try transactions(payload)
        items[0]["ProductIdentifier"] = .string("com.example.words.secret")
        payload["Transactions"] = .array(items.map(PropertyList.dictionary))
        let verification = service.verifyReceipt(file(payload: payload, key: try serviceKey(account)), password: nil)
        #expect(verification.status == .malformed)
        #expect(verification.status.rawValue == 21002)
        #expect(verification.message.contains("product 'com.example.words.secret' is not in the catalog"))
    }

    @Test func aRepeatedTransactionIsMalformedEvenWhenSigned() throws {
        let (account, service) = try accountWithHistory()
        var (_, payload) = try open(try service.receipt().bytes)
        var items = try transactions(payload)
        items.append(items[0])
        payload["Transactions"] = .array(items.map(PropertyList.dictionary))
        let verification = service.verifyReceipt(file(payload: payload, key: try serviceKey(account)), password: nil)
        #expect(verification.status == .malformed)
        #expect(verification.message == "transaction \(TransactionID.number(ofRawValue: items[0]["TransactionIdentifier"]?.stringValue ?? "")) appears twice")
    }

    @Test func aSignedPayloadWithoutItsFieldsIsMalformed() throws {
        let (account, service) = try accountWithHistory()
        var (_, payload) = try open(try service.receipt().bytes)
        payload["CreationDate"] = nil
        #expect(service.verifyReceipt(file(payload: payload, key: try serviceKey(account)), password: nil).status == .malformed)
    }

    @Test(arguments: ["garbage", "empty", "truncated", "array", "no-signature", "short-signature", "other-algorithm"])
    func malformedFiles(_ kind: String) throws {
        let (account, service) = try accountWithHistory()
        let good = try service.receipt().bytes
        let (outer, payload) = try open(good)
        let key = try serviceKey(account)
        let bytes: [UInt8]
        switch kind {
        case "garbage": bytes = (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        case "empty": bytes = []
        case "truncated": bytes = Array(good.prefix(good.count / 2))
        case "array": bytes = PropertyListEncoding.xml(.array([.string("receipt")]))
        case "no-signature":
            var fields = outer
            fields["Signature"] = nil
            bytes = PropertyListEncoding.xml(.dictionary(fields))
        case "short-signature": bytes = file(payload: payload, key: nil, signature: Array(key.sign([1, 2, 3]).prefix(63)))
        default:
            var fields = outer
            fields["Algorithm"] = .string("RSA")
            bytes = PropertyListEncoding.xml(.dictionary(fields))
        }
        let verification = service.verifyReceipt(bytes, password: nil)
        #expect(verification.status == .malformed, "\(kind): \(verification.status) \(verification.message)")
        #expect(verification.payload == nil)
    }
}
