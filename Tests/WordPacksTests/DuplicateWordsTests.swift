import Testing
@testable import WordPacks

@Suite struct DuplicateWordsTests {
    @Test(arguments: [0, 1, 2])
    func tinyInputs(_ count: Int) {
        #expect(DuplicateWords.find(in: Array(repeating: "same", count: count)).count == max(0, count - 1))
    }

    /// Against the obvious dictionary search, on words drawn from a tiny alphabet so that repeats
    /// (by case and by normalisation too) are frequent.
    @Test(arguments: [1, 2, 3, 4])
    func agreesWithADictionarySearch(_ seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let pieces = ["a", "B", "\u{E9}", "e\u{301}", "\u{C9}", "\u{F1}", "n"]
        let words = (0..<3000).map { _ in
            (0..<Int.random(in: 2...4, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "a" }.joined()
        }
        var firstSeen: [String: Int] = [:]
        var expected: [DuplicateWords.Duplicate] = []
        for (index, word) in words.enumerated() {
            let key = String(decoding: word._nfcCodeUnits, as: UTF8.self).lowercased()
            if let first = firstSeen[key] {
                expected.append(.init(index: index, firstIndex: first))
            } else {
                firstSeen[key] = index
            }
        }
        #expect(!expected.isEmpty)
        #expect(DuplicateWords.find(in: words) == expected)
    }
}

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct RadixSortTests {
    @Test(arguments: [0, 1, 4096, 4097, 100_000])
    func sortsLikeTheStandardLibrary(_ count: Int) {
        var generator = SplitMix64(seed: UInt64(count) + 7)
        var keys = (0..<count).map { index in index % 5 == 0 ? UInt64(index % 3) : generator.next() }
        let expected = keys.sorted()
        DuplicateWords.radixSort(&keys)
        #expect(keys == expected)
    }
}
