import Base64
import Foundation
import PackServiceWire
import Signing
import Seller
import Testing
import TestSupport

/// The wire's JSON writer: what it writes any JSON reader reads back as the same value, keys in
/// byte order, strings escaped, an absent optional absent.
@Suite struct WireJSONEncoderTests {
    private func text(_ value: some Encodable) throws -> String {
        String(decoding: try WireJSONEncoder.encode(value), as: UTF8.self)
    }

    /// Decoded by Foundation's reader, from this writer's bytes and from Foundation's writer's: one value.
    private func readsBack<T: Codable & Equatable>(_ value: T) throws {
        let ours = try WireJSONEncoder.encode(value)
        let decoded = try JSONDecoder().decode(T.self, from: Data(ours))
        #expect(decoded == value, "\(String(decoding: ours, as: UTF8.self))")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try JSONDecoder().decode(T.self, from: encoder.encode(value)) == decoded)
    }

    /// `--json`'s form of the writer: pretty, and what could act on a terminal escaped in strings
    /// (DEL, C1, bidirectional controls), the same JSON to any reader.
    @Test func prettyAndTerminalSafe() throws {
        struct Document: Encodable { var name: String; var items: [Int]; var empty: [Int] }
        let value = Document(name: "a\u{7F}b\u{9B}c\u{202E}d\u{2069}e\u{2014}f", items: [1, 2], empty: [])
        let text = String(decoding: try WireJSONEncoder.encode(value, pretty: true, terminalSafe: true), as: UTF8.self)
        #expect(text == "{\n  \"empty\" : [],\n  \"items\" : [\n    1,\n    2\n  ],\n  \"name\" : \"a\\u007fb\\u009bc\\u202ed\\u2069e\u{2014}f\"\n}")
        let decoded = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(decoded?["name"] as? String == value.name)
        #expect(try WireJSONEncoder.encode(value) == Array(#"{"empty":[],"items":[1,2],"name":"a\#u{7F}b\#u{9B}c\#u{202E}d\#u{2069}e\#u{2014}f"}"#.utf8), "the wire's bytes unchanged")
    }

    @Test func smallDocumentsAreExactlyWhatFoundationWritesWithSortedKeys() throws {
        let statement = HintSpendStatement(
            accountID: "0123456789abcdef", key: "spend-1", spend: HintSpend(balance: 9, wasAlreadySpent: false), issued: 1_796_000_000_000)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try WireJSONEncoder.encode(statement) == Array(try encoder.encode(statement)))
        #expect(try text(statement) == #"{"accountID":"0123456789abcdef","balance":9,"issued":1796000000000,"key":"spend-1","wasAlreadySpent":false}"#)
        #expect(try text(HintBalance(hints: 3)) == #"{"hints":3}"#)
        #expect(try text(StorefrontRequest(storefront: nil)) == "{}", "an absent optional is an absent key")
        #expect(try text([3, -1]) == "[3,-1]")
        #expect(try text([String: Int]()) == "{}")
    }

    @Test func stringsAreEscapedAndKeysSortedByTheirBytes() throws {
        #expect(try text(["q": "say \"hi\"\\ now\n\t\r\u{8}\u{c}\u{1}\u{1f}"]) == #"{"q":"say \"hi\"\\ now\n\t\r\b\f\u0001\u001f"}"#)
        #expect(try text(["name": "Schwere Wörter / 難しい"]) == "{\"name\":\"Schwere Wörter / 難しい\"}")
        #expect(try text(["b": 1, "a": 2, "B": 3, "a10": 4, "a2": 5]) == #"{"B":3,"a":2,"a10":4,"a2":5,"b":1}"#)
        #expect(try text(["é": 1, "z": 2]) == "{\"z\":2,\"é\":1}")
        let parsed = try JSONSerialization.jsonObject(with: Data(try WireJSONEncoder.encode(["q": "\u{0}\u{7f}\"\\"])))
        #expect((parsed as? [String: String])?["q"] == "\u{0}\u{7f}\"\\")
    }

    @Test func numbersAreJSONNumbers() throws {
        #expect(try text([Int64.min, Int64.max]) == "[-9223372036854775808,9223372036854775807]")
        #expect(try text([UInt64.max]) == "[18446744073709551615]")
        #expect(try text([1.0, 0.5, -2.25]) == "[1,0.5,-2.25]")
        #expect(throws: EncodingError.self) { try WireJSONEncoder.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try WireJSONEncoder.encode(["x": Double.infinity]) }
    }

    /// A key written twice keeps its last value, once.
    @Test func aKeyWrittenTwiceIsWrittenOnce() throws {
        struct Twice: Encodable {
            enum Key: CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var first = encoder.container(keyedBy: Key.self)
                try first.encode(1, forKey: .a)
                try first.encode(2, forKey: .b)
                var second = encoder.container(keyedBy: Key.self)
                try second.encode(3, forKey: .a)
            }
        }
        #expect(try text(Twice()) == #"{"a":3,"b":2}"#)
    }

    /// A document the pinned key did not sign says what is wrong with it: another key it claims,
    /// or a signature that does not match under the pinned key's own name (before: "not signed
    /// by its pinned key X (signed by X)").
    @Test func aDocumentThePinnedKeyDidNotSignSaysWhy() throws {
        let pinned = SigningKey.generate()
        let other = SigningKey.generate()
        let foreign = try SignedDocument(signing: HintBalance(hints: 1), with: other)
        let claimed = #expect(throws: ServiceError.self) { try foreign.open(HintBalance.self, trusting: pinned.publicKey) }
        #expect(claimed?.message.contains("it claims key \(other.publicKey.keyID)") == true, "\(claimed?.message ?? "")")
        var altered = try SignedDocument(signing: HintBalance(hints: 1), with: pinned)
        altered.payload = Base64.encode(Array(#"{"hints":99}"#.utf8))
        let forged = #expect(throws: ServiceError.self) { try altered.open(HintBalance.self, trusting: pinned.publicKey) }
        #expect(forged?.message.contains("its signature does not match") == true, "\(forged?.message ?? "")")
        #expect(forged?.message.contains("signed by \(pinned.publicKey.keyID)") == false)
    }

    /// The server's documents read back whole: the shipped catalog (prices, localizations,
    /// subscriptions, passes: nested objects, dictionaries, enums with values), a signed
    /// document, a purchase's outcome and a transaction list.
    @Test func theServersDocumentsReadBackAsTheSameValues() throws {
        let catalog = try Catalog.load(folder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path)
        try readsBack(CatalogDocument(catalog: catalog, issued: 1, expires: 2))
        let key = SigningKey.generate()
        let signed = try SignedDocument(signing: HintBalance(hints: 1), with: key)
        try readsBack(signed)
        #expect(try signed.open(HintBalance.self, trusting: key.publicKey) == HintBalance(hints: 1))
        for unlocks in [PassUnlocks.allPacks, .packs([ProductID(rawValue: "com.hangmanpacks.ios")!])] {
            try readsBack(unlocks)
        }
        let folder = try TemporaryDirectory()
        let service = try AccountService(
            catalog: catalog, packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, accountFolder: folder.path, signingKey: key)
        let outcome = try service.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 2, requestKey: "k")
        try readsBack(outcome)
        try readsBack(try service.transactions())
        try readsBack(try service.entitlements())
    }

    /// A purchase's outcome is named on the wire (`"outcome":"purchased"`, what it carries under
    /// its own key), not Swift's enum coding (`{"purchased":{"_0":...}}`), which still decodes.
    @Test func aPurchaseOutcomeIsNamedNotSwiftsEnumCoding() throws {
        let catalog = try Catalog.load(folder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path)
        let folder = try TemporaryDirectory()
        let service = try AccountService(
            catalog: catalog, packsFolder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, accountFolder: folder.path,
            signingKey: SigningKey.generate())
        let outcome = try service.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1, requestKey: "k")
        guard case .purchased(let transaction) = outcome else {
            Issue.record("not purchased: \(outcome)")
            return
        }
        let wire = try text(outcome)
        #expect(wire.hasPrefix(#"{"outcome":"purchased","transaction":{"#), "\(wire)")
        #expect(!wire.contains("_0"))
        let older = #"{"purchased":{"_0":"# + (try text(transaction)) + "}}"
        #expect(try JSONDecoder().decode(PurchaseOutcome.self, from: Data(older.utf8)) == outcome)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PurchaseOutcome.self, from: Data(#"{"outcome":"stolen"}"#.utf8)) }
    }
}
