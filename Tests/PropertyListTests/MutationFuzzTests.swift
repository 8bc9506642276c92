import Foundation
import HangmanGame
import PropertyList
import Testing

/// Damaged documents must decode or throw, never crash or hang; where Foundation and we both
/// decode a damaged list of simple values, we must agree.
@Suite struct MutationFuzzTests {
    static func corpus() throws -> [[UInt8]] {
        let simpleLists: [PropertyList] = [
            .array([.string("apple"), .string("ñandú"), .integer(42), .integer(-7), .boolean(true), .string("a&b")]),
            .array((0..<12).map { .string("word\($0)") }),
            .array([.integer(1), .integer(300), .integer(70_000), .integer(1 << 40), .boolean(false), .string("")]),
        ]
        var documents: [[UInt8]] = []
        for list in simpleLists {
            documents += [PropertyListEncoding.xml(list), PropertyListEncoding.binary(list)]
            documents += [try FoundationBridge.encode(list, format: .xml), try FoundationBridge.encode(list, format: .binary)]
        }
        var random = RandomPropertyLists(seed: 2024)
        for _ in 0..<6 {
            let value = random.tree()
            documents.append(PropertyListEncoding.xml(value))
            documents.append(PropertyListEncoding.binary(value))
            documents.append(try FoundationBridge.encode(value, format: .binary))
        }
        return documents
    }

    static func mutate(_ document: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = document
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            guard !bytes.isEmpty else { break }
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: bytes[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
            case 1: bytes[index] = UInt8.random(in: 0...255, using: &generator)
            case 2: bytes.removeSubrange(index...)
            case 3: bytes.insert(contentsOf: (0..<Int.random(in: 1...8, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }, at: index)
            case 4: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...16, using: &generator)))
            default: bytes[index] = [0x00, 0x0F, 0x3C, 0x3E, 0x26, 0x2F, 0xFF, 0x7F, 0x80, 0xAF, 0xDF][Int.random(in: 0..<11, using: &generator)]
            }
        }
        return bytes
    }

    static func isSimpleList(_ value: PropertyList) -> Bool {
        guard let items = value.arrayValue else { return false }
        return items.allSatisfy { item in
            switch item {
            case .string, .integer, .boolean: true
            default: false
            }
        }
    }

    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func mutatedDocumentsDecodeOrThrow(seed: UInt64) throws {
        let documents = try Self.corpus()
        var generator = SeededGenerator(seed: seed)
        var decoded = 0
        var thrown = 0
        var compared = 0
        for _ in 0..<2_000 {
            let document = documents[Int.random(in: 0..<documents.count, using: &generator)]
            let mutated = Self.mutate(document, using: &generator)
            do {
                let ours = try PropertyListDecoding.decode(mutated).value
                decoded += 1
                if Self.isSimpleList(ours), let theirs = try? FoundationBridge.decode(mutated), Self.isSimpleList(theirs) {
                    compared += 1
                    #expect(ours.isIdentical(to: theirs), "\(mutated)")
                }
            } catch {
                thrown += 1
                #expect(!error.message.isEmpty)
            }
        }
        #expect(decoded + thrown == 2_000)
        #expect(thrown > 0)
        #expect(compared > 0)
    }

    @Test(arguments: [21, 22] as [UInt64])
    func randomBytesAfterTheMagicThrow(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<1_000 {
            let magic = Bool.random(using: &generator) ? Array("bplist00".utf8) : Array("<plist>".utf8)
            let tail = (0..<Int.random(in: 0..<120, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            do {
                _ = try PropertyListDecoding.decode(magic + tail)
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }
}
