import Foundation
import PackServiceWire
import Testing
import TestSupport

/// A JSON object with a key given twice could mean one thing to one reader and another to the
/// next: every document on the wire is refused when it has one, and only then.
@Suite struct DuplicateJSONKeyTests {
    private struct Pair: Decodable { var a: Inner; var b: Inner }
    private struct Inner: Decodable { var k: Int }
    private struct Named: Decodable { var name: String; var quantity: Int }

    @Test(arguments: [
        #"{"productID":"com.hangmanpacks.hints.10","productID":"com.hangmanpacks.words.ios","quantity":1}"#,
        #"{"productID":"com.hangmanpacks.hints.10","quantity":1,"\u0071uantity":5}"#,
    ])
    func aKeyGivenTwiceIsRefused(_ json: String) {
        let error = #expect(throws: ServiceError.self) { _ = try Wire.decode(PurchaseRequest.self, from: Array(json.utf8)) }
        #expect(error?.message.contains("appears twice") == true, "\(error?.message ?? "")")
    }

    @Test func theSameKeyInTwoObjectsAndInsideValuesIsFine() throws {
        #expect(try Wire.decode(Pair.self, from: Array(#"{"a":{"k":1},"b":{"k":2}}"#.utf8)).b.k == 2)
        #expect(try Wire.decode([Inner].self, from: Array(#"[{"k":1},{"k":2}]"#.utf8)).count == 2)
        // A key's text inside a value is not a key.
        let named = try Wire.decode(Named.self, from: Array(#"{"name":"a \"quantity\": 2","quantity":1}"#.utf8))
        #expect(named.quantity == 1)
    }

    @Test func theServerRefusesAPurchaseWithAKeyGivenTwice() async throws {
        let running = try RunningServer()
        let client = try await running.newClient()
        let answer = try running.curl([
            "-X", "POST", "-H", "Authorization: Bearer \(client.credentials.token)", "-H", "Idempotency-Key: k1", "-H", "Content-Type: application/json",
            "--data", #"{"productID":"com.hangmanpacks.hints.10","quantity":1,"quantity":10}"#, running.url + "/v1/purchases",
        ])
        #expect(answer.status == 400, "\(answer)")
        #expect(try await client.hintBalance() == 0)
    }
}

/// What a malformed document gets back: the field and what is wrong with it, in words (before:
/// Swift's dump of the DecodingError, coding paths and all).
@Suite struct DecodingErrorWordsTests {
    @Test(arguments: [
        (#"{"productID":"x""#, "it is not JSON"),
        (#"{"quantity":"two","productID":"com.hangmanpacks.hints.10"}"#, "'quantity' is not a whole number"),
        (#"{}"#, "'productID' is missing"),
        (#"[1]"#, "the document is not an object"),
        (#"{"productID":"com.hangmanpacks.hints.10","quantity":null}"#, "'quantity' is null, where a whole number is expected"),
    ])
    func aMalformedRequestIsSaidInWords(_ body: String, _ words: String) {
        do {
            _ = try Wire.decode(PurchaseRequest.self, from: Array(body.utf8))
            Issue.record("decoded \(body)")
        } catch {
            #expect(error.message == "not a valid PurchaseRequest document: \(words)", "\(error.message)")
            #expect(!error.message.contains("CodingKeys") && !error.message.contains("Context("))
        }
    }
}
