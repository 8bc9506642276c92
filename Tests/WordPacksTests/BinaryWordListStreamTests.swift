import Archive
import HangmanGame
import PropertyList
import Testing
@testable import WordPacks

/// The binary list read in the order its objects come: a plain list is read through, keeping only
/// its words; anything else is put back together and walked whole; either way the result is the
/// whole walk's (`BinaryWordListScanner`), in every block size.
@Suite struct BinaryWordListStreamTests {
    static func streamed(_ bytes: [UInt8], blockSize: Int) -> (list: (name: String?, words: PackedWords)?, putBack: Bool) {
        var reader = BinaryWordListStream(limits: .default, size: bytes.count)
        StreamingWordListTests.feed(bytes, blockSize: blockSize) { reader.feed($0) }
        let list = reader.finish()
        return (list, reader.putBack)
    }

    static func walked(_ bytes: [UInt8]) -> (name: String?, words: PackedWords)? {
        bytes.withUnsafeBufferPointer { BinaryWordListScanner.scan($0, limits: .default) }
    }

    static func same(_ left: (name: String?, words: PackedWords)?, _ right: (name: String?, words: PackedWords)?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (let left?, let right?):
            return left.name == right.name && left.words.bytes == right.words.bytes && left.words.ends == right.words.ends
                && left.words.clueIndices == right.words.clueIndices && left.words.clues == right.words.clues
        default: return false
        }
    }

    static let blockSizes = [1, 2, 3, 5, 8, 64, 4096, Int.max]

    static func words(_ count: Int, every nonASCII: Int = 7) -> [String] {
        (0..<count).map { index in
            var word = "w" + String(index, radix: 26).map { digit in
                Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(String(digit), radix: 26)!))
            }
            // A word of its own once folded: no other starts with x.
            if index % nonASCII == 3 { word = "x" + word.dropFirst() + "\u{E9}" }
            if index % 11 == 5 { word += String(repeating: "o", count: 20) }
            return word
        }
    }

    /// Plain lists of every shape the writers give, from one word to past 65,536 objects (wider
    /// references and table entries), with UTF-16 words and words long enough for a two-byte count.
    @Test(arguments: [1, 14, 15, 254, 255, 256, 300, 70_000])
    func plainListsAreReadThroughAndAgreeWithTheWalk(_ count: Int) throws {
        let words = Self.words(count).map { PropertyList.string($0) }
        for list in [PropertyList.array(words), .dictionary(["words": .array(words)]), .dictionary(["name": .string("Caf\u{E9} \(count)"), "words": .array(words)])] {
            let bytes = PropertyListEncoding.binary(list)
            let expected = try #require(Self.walked(bytes))
            for size in count > 1_000 ? [4096, 65_536] : Self.blockSizes {
                let found = Self.streamed(bytes, blockSize: size)
                #expect(!found.putBack, "\(count) words, block size \(size): read through")
                #expect(Self.same(found.list, expected), "\(count) words, block size \(size)")
            }
        }
    }

    /// A word that takes 255 bytes or more in the file (a letter under many marks, in UTF-16) is
    /// checked against the offset table all the same.
    @Test func aWordOfManyBytesIsReadThrough() throws {
        let long = "c" + "q" + String(repeating: "\u{301}", count: 140) + "t"
        let bytes = PropertyListEncoding.binary(.array([.string("dog"), .string(long), .string("cow")]))
        let expected = try #require(Self.walked(bytes))
        #expect(expected.words.count == 3)
        for size in Self.blockSizes {
            let found = Self.streamed(bytes, blockSize: size)
            #expect(!found.putBack, "block size \(size)")
            #expect(Self.same(found.list, expected), "block size \(size)")
        }
    }

    /// A list with clues, and one whose words are shared, depart from the layout: put back
    /// together, they read as the walk reads them.
    @Test func cluesAndSharedWordsArePutBackAndWalkedWhole() throws {
        let clued = PropertyList.array(Self.words(40).enumerated().map { index, word in
            index == 30 ? .dictionary(["word": .string(word), "clue": .string("the thirtieth")]) : .string(word)
        })
        let shared = PropertyList.array(Array(repeating: .string("cat"), count: 3))
        for (value, accepted) in [(clued, true), (shared, true)] {
            let bytes = PropertyListEncoding.binary(value)
            let expected = Self.walked(bytes)
            #expect((expected != nil) == accepted)
            for size in Self.blockSizes {
                let found = Self.streamed(bytes, blockSize: size)
                #expect(found.putBack, "block size \(size)")
                #expect(Self.same(found.list, expected), "block size \(size)")
            }
        }
    }

    /// A list whose objects come in an unusual order (the words first, the array last, as another
    /// writer may put them): the reader puts it back, the walk reads it, and a pack holding it
    /// verifies with its words.
    @Test func objectsInAnUnusualOrderFallBackToTheWalk() throws {
        let words = ["zebra", "caf\u{E9}", "apple", "ni\u{F1}o"]
        let bytes = Self.arrayLast(words)
        let expected = try #require(Self.walked(bytes))
        #expect(expected.words.count == 4)
        for size in Self.blockSizes {
            let found = Self.streamed(bytes, blockSize: size)
            #expect(found.putBack)
            #expect(Self.same(found.list, expected), "block size \(size)")
        }
        let archive = try Fixture.archive([.file("p/Info.plist", Fixture.manifest()), .file("p/words.plist", bytes)])
        let result = PackVerifier().verify(archive)
        #expect(result.isValid, "\(result.problems)")
        #expect(result.pack?.lists.first?.words.map(\.text) == words)
    }

    /// An array that claims more words than its file could hold (sixteen million in 50 bytes) is
    /// left to the walk, which refuses it, as it would refuse it whole.
    @Test func anArrayClaimingMoreWordsThanItsFileHoldsIsLeftToTheWalk() {
        var bytes = Array("bplist00".utf8) + [0xAF, 0x12, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01, 0x53] + Array("cat".utf8)
        let table = bytes.count
        bytes += [8, 19]
        bytes += [0, 0, 0, 0, 0, 0, 1, 4]
        for value in [UInt64(2), 0, UInt64(table)] {
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }
        #expect(Self.walked(bytes) == nil)
        for size in Self.blockSizes {
            let found = Self.streamed(bytes, blockSize: size)
            #expect(found.putBack && found.list == nil, "block size \(size)")
        }
        // It departs at the array's header, before its first reference is read.
        var reader = BinaryWordListStream(limits: .default, size: bytes.count)
        bytes[..<18].withUnsafeBytes { reader.feed($0) }
        #expect(reader.putBack)
    }

    /// A word the rules refuse makes the reader give up, as the walk does, for the decoder to explain.
    @Test func aRefusedWordGivesUp() {
        let bytes = PropertyListEncoding.binary(.array([.string("cat"), .string("r2d2"), .string("dog")]))
        #expect(Self.walked(bytes) == nil)
        for size in Self.blockSizes {
            #expect(Self.streamed(bytes, blockSize: size).list == nil)
        }
    }

    /// Damage anywhere (the references, a word, the table, the trailer, a file cut short or
    /// grown): whatever the reader makes of it is what the walk makes of the same bytes.
    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16])
    func damagedListsAgreeWithTheWalk(_ seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var readThrough = 0
        var putBack = 0
        let lists: [PropertyList] = [
            .array(Self.words(20).map { .string($0) }),
            .dictionary(["name": .string("N"), "words": .array(Self.words(300).map { .string($0) })]),
        ]
        for list in lists {
            let document = PropertyListEncoding.binary(list)
            for _ in 0..<300 {
                var damaged = document
                for _ in 0..<Int.random(in: 1...2, using: &generator) {
                    let index = Int.random(in: 0..<damaged.count, using: &generator)
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: damaged[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
                    case 1: damaged[index] = UInt8.random(in: 0...255, using: &generator)
                    case 2: damaged.removeSubrange(index...)
                    default: damaged.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                    }
                }
                let expected = Self.walked(damaged)
                let found = Self.streamed(damaged, blockSize: Int.random(in: 1...700, using: &generator))
                if found.putBack { putBack += 1 } else if found.list != nil { readThrough += 1 }
                if let list = found.list {
                    #expect(Self.same(list, expected), "\(damaged)")
                } else if found.putBack {
                    #expect(expected == nil)
                }
            }
        }
        #expect(readThrough > 0, "some damage leaves the layout whole (a changed letter)")
        #expect(putBack > 0)
    }

    /// `words` as a binary list with the array written last and the words before it.
    static func arrayLast(_ words: [String]) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for word in words {
            offsets.append(bytes.count)
            if word.utf8.allSatisfy({ $0 < 0x80 }) {
                bytes.append(0x50 | UInt8(word.utf8.count))
                bytes.append(contentsOf: word.utf8)
            } else {
                bytes.append(0x60 | UInt8(word.utf16.count))
                for unit in word.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            }
        }
        offsets.append(bytes.count)
        bytes.append(0xA0 | UInt8(words.count))
        bytes.append(contentsOf: words.indices.map { UInt8($0) })
        let table = bytes.count
        bytes.append(contentsOf: offsets.map { UInt8($0) })
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        for value in [UInt64(offsets.count), UInt64(words.count), UInt64(table)] {
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }
        return bytes
    }
}
