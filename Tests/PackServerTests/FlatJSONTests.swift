import Foundation
@testable import PackServiceWire
import Testing

/// The request reader's fast path: what it takes, it reads as Foundation's decoder does; what it
/// does not, it leaves to the general path, which says what is wrong.
@Suite struct FlatJSONTests {
    private struct Sample: Codable, Equatable {
        var name: String
        var count: Int
        var small: Int8?
        var flag: Bool?
        var ratio: Double?
        var product: ProductID?
    }

    /// Foundation's answer for `text` as `T`, nil when it refuses it.
    private func foundation<T: Decodable>(_ type: T.Type, _ text: String) -> T? {
        try? JSONDecoder().decode(type, from: Data(text.utf8))
    }

    @Test func theRequestsTheServerReadsMostAreTakenAndReadAsFoundationReadsThem() throws {
        let spend = #"{"key":"spend-1a2b"}"#
        #expect(FlatJSON.decode(HintSpendRequest.self, from: Array(spend.utf8)) == HintSpendRequest(key: "spend-1a2b"))
        let purchase = #" { "productID" : "com.hangmanpacks.hints.10", "quantity": 3 }"# + "\n"
        let read = FlatJSON.decode(PurchaseRequest.self, from: Array(purchase.utf8))
        #expect(read != nil && read == foundation(PurchaseRequest.self, purchase))
        #expect(FlatJSON.decode(Sample.self, from: Array(#"{"name":"a","count":0,"flag":null,"ratio":-4}"#.utf8)) == Sample(name: "a", count: 0, ratio: -4))
        // Minus zero goes the general way, where a Double keeps its sign.
        #expect(FlatJSON.parse(Array(#"{"ratio":-0}"#.utf8)) == nil)
        #expect(try Wire.decode(Sample.self, from: Array(#"{"name":"a","count":0,"ratio":-0}"#.utf8)).ratio?.sign == .minus)
    }

    /// Every document here, through the fast path and through Foundation: where the fast path
    /// answers, Foundation answers the same; where Foundation refuses, so does the fast path.
    @Test func whereItAnswersFoundationAnswersTheSame() throws {
        let documents = [
            #"{"name":"x","count":1}"#, #"{"count":1,"name":"x","extra":[1,{"a":2}]}"#, #"{"name":"x","count":1.0}"#,
            #"{"name":"x","count":1e2}"#, #"{"name":"x","count":01}"#, #"{"name":"x","count":-}"#, #"{"name":"x","count":9223372036854775807}"#,
            #"{"name":"x","count":99999999999999999999}"#, #"{"name":"x","count":1,"small":300}"#, #"{"name":"x","count":1,"small":-128}"#,
            #"{"name":"x","count":1,"name":"y"}"#, #"{"name":"x\u0079","count":1}"#, #"{"name":"é","count":1}"#, #"{"name":"a\"b","count":1}"#,
            #"{"name":"x","count":"1"}"#, #"{"name":null,"count":1}"#, #"{"name":"x","count":1,"flag":true}"#, #"{"name":"x","count":1,"flag":tru}"#,
            #"{"name":"x","count":1,"flag":1}"#, #"{"name":"x","count":1,"product":"com.x.y"}"#, #"{"name":"x","count":1,"product":"nodot"}"#,
            #"{"name":"x","count":1,}"#, #"{"name":"x","count":1} x"#, #"{"name":"x" "count":1}"#, #"{"name":"x","count":1"#, "", "{}", "[]",
            #"{"name":"x","count":1,"ratio":16777217}"#, "\u{FEFF}{\"name\":\"x\",\"count\":1}", "{\"name\":\"tab\there\",\"count\":1}",
            #"{"name":"x","count":1,"ratio":-9007199254740993}"#, #"  {"name" :"x" , "count":  7 }  "#,
        ]
        var taken = 0
        for document in documents {
            let fast = FlatJSON.decode(Sample.self, from: Array(document.utf8))
            let general = foundation(Sample.self, document)
            if let fast {
                taken += 1
                #expect(fast == general, "\(document): \(fast) against \(String(describing: general))")
            }
            // Through the wire's own entry point: the same answer as Foundation's, or a refusal.
            let wire = try? Wire.decode(Sample.self, from: Array(document.utf8))
            if !document.contains(#""name":"x","count":1,"name""#) { #expect(wire == general, "\(document)") }
        }
        // Taken: the plain one, small -128, flag true, a valid product, 16777217 as a Double, the spaced one.
        #expect(taken == 6, "the fast path took \(taken) of \(documents.count)")
    }

    @Test func aKeyGivenTwiceIsStillRefusedAndNamed() {
        #expect(FlatJSON.parse(Array(#"{"key":"a","key":"b"}"#.utf8)) == nil)
        #expect(throws: ServiceError.self) { try Wire.decode(HintSpendRequest.self, from: Array(#"{"key":"a","key":"b"}"#.utf8)) }
    }

    @Test func nothingMalformedIsTaken() {
        for text in ["{", "}", #"{"a"}"#, #"{"a":}"#, #"{"a":1,,"b":2}"#, #"{"a":"\#u{01}"}"#, "{\"a\":\"x", #"{"a":00}"#, #"{"a":--1}"#, "nul", #"{"a":nulls}"#] {
            #expect(FlatJSON.parse(Array(text.utf8)) == nil, "\(text)")
        }
    }
}
