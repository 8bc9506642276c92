import Archive
import Foundation
import HangmanGame
import PropertyList
import Testing
@testable import WordPacks

/// The streaming word-list readers against the decoder they stand in for: whatever they accept,
/// `PropertyListDecoding` followed by `WordList.parse` must accept with no problem and make the same
/// list; whatever they give up on, the verifier reads again with the decoder.
@Suite struct StreamingWordListTests {
    /// What the decoder makes of a list file: the list, or `nil` when it reports any problem.
    static func reference(_ bytes: [UInt8], path: String = "words.plist") -> WordList? {
        guard let decoded = try? PropertyListDecoding.decode(bytes) else { return nil }
        var problems: [PackProblem] = []
        let list = WordList.parse(decoded.value, format: decoded.format, path: path, entry: path, maxProblems: 20, problems: &problems)
        return problems.isEmpty ? list : nil
    }

    /// What the streaming reader makes of a list file fed in blocks of `blockSize` bytes.
    static func streamed(_ bytes: [UInt8], blockSize: Int, path: String = "words.plist") -> WordList? {
        var reader = StreamingWordList(limits: .default, expectedSize: bytes.count)
        feed(bytes, blockSize: blockSize) { reader.feed($0) }
        guard let read = reader.finish() else { return nil }
        return WordList(path: path, name: read.name ?? WordList.defaultName(path: path), format: read.format, contents: .packed(read.words))
    }

    /// Hands `bytes` to `feed` in blocks of `blockSize`, as an archive's entry arrives.
    static func feed(_ bytes: [UInt8], blockSize: Int, _ feed: (UnsafeRawBufferPointer) -> Void) {
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + blockSize)
            bytes[offset..<end].withUnsafeBytes { feed($0) }
            offset = end
        }
    }

    static let blockSizes = [1, 2, 3, 7, 64, 4096, Int.max]

    static func checkAgreement(_ bytes: [UInt8], mustAccept: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = reference(bytes)
        for size in blockSizes {
            let found = streamed(bytes, blockSize: size)
            if let found {
                #expect(found == expected, "block size \(size): \(String(decoding: bytes.prefix(300), as: UTF8.self))", sourceLocation: sourceLocation)
            } else if mustAccept {
                Issue.record("block size \(size): gave up on a plain list", sourceLocation: sourceLocation)
            }
        }
    }

    static let words = ["cat", "Dog", "ice cream", "rock 'n' roll", "jack-o'-lantern", "caf\u{E9}", "ni\u{F1}o", "\u{4E2D}\u{6587}", "stra\u{DF}e", "\u{39A}\u{3CC}\u{3C3}\u{3BC}\u{3BF}\u{3C2}"]

    static var plainLists: [PropertyList] {
        let strings = words.map { PropertyList.string($0) }
        let withClues = words.enumerated().map { index, word -> PropertyList in
            index % 3 == 0 ? .dictionary(["word": .string(word), "clue": .string("A clue for \(word) <&>")]) : .string(word)
        }
        return [
            .array(strings),
            .dictionary(["name": .string("Animals"), "words": .array(strings)]),
            .dictionary(["words": .array(withClues)]),
            .dictionary(["name": .string("Mixed \u{2014} list"), "words": .array(withClues)]),
            .array([.dictionary(["word": .string("alpha")])]),
        ]
    }

    @Test func plainListsAreAcceptedAndAgreeInEveryBlockSize() {
        for list in Self.plainLists {
            Self.checkAgreement(PropertyListEncoding.xml(list), mustAccept: true)
            Self.checkAgreement(PropertyListEncoding.binary(list), mustAccept: true)
        }
    }

    /// Markup the decoder allows where the scanner must follow it: comments, processing
    /// instructions, entities, CDATA, attributes, blank space, the long end tag, a byte order mark.
    @Test(arguments: [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"x\"><plist version=\"1.0\"><array><string>cat</string><string>dog</string></array></plist>",
        "\u{FEFF}  <array>\n\t<string>cat</string>\n\t<string>dog</string>\n</array>\n",
        "<array><!-- a comment --><string>c<!-- inside -->at</string><?pi x?><string>d&#111;g</string></array><!-- after -->",
        "<array><string>&#x63;a&#116;</string><string><![CDATA[dog]]></string><string>rock &apos;n&apos; roll</string></array>",
        "<plist><dict><key>n&#97;me</key><string>  Pets </string><key>words</key><array><string>cat</string><string>dog</string></array></dict></plist>",
        "<plist  version='1.0' ><array ><string >cat</string ><string>dog</string  ></array></plist >",
        "<array><dict><key>clue</key><string>meows</string><key>word</key><string>cat</string></dict><string>dog</string></array>",
        "<?xml version='1.0' encoding='utf8'?><array><string>cat</string></array>",
    ])
    func markupTheDecoderAllowsIsFollowed(_ document: String) {
        Self.checkAgreement(Array(document.utf8), mustAccept: true)
    }

    /// Lists with a problem, or that the scanners do not take on: they give up, and the decoder explains.
    @Test(arguments: [
        "<array></array>", "<array/>", "<dict><key>name</key><string>x</string></dict>", "<array><string>x</string></array>",
        "<array><string>cat</string><integer>1</integer></array>",
        "<array><string>cat</string><string>cat2</string></array>", "<array><string>e\u{301}t\u{E9}</string></array>",
        "<array><string>cat</string>", "<array><string>cat</strin></array>", "<array><string>c&bogus;t</string></array>",
        "<?xml version=\"1.0\" encoding=\"UTF-16\"?><array><string>cat</string></array>", "<!DOCTYPE x [<!ENTITY a \"b\">]><array><string>cat</string></array>",
        "<array><string>cat</string></array><array/>", "<array><dict><key>word</key><string>cat</string><key>word</key><string>dog</string></dict></array>",
        "<array><dict><key>word</key><string>cat</string><key>clue</key><integer>3</integer></dict></array>",
        "<dict><key>name</key><string> </string><key>words</key><array><string>cat</string></array></dict>",
        "<plist/>", "text<array><string>cat</string></array>", "<array><string>cat</string>junk</array>",
    ])
    func troubleMakesTheScannerGiveUp(_ document: String) {
        let bytes = Array(document.utf8)
        #expect(Self.reference(bytes) == nil, "the decoder should see a problem")
        for size in Self.blockSizes {
            #expect(Self.streamed(bytes, blockSize: size) == nil, "block size \(size)")
        }
    }

    /// A key the lists do not use is no problem to the decoder; the scanner leaves such a list to it.
    @Test func aListWithAnotherKeyIsLeftToTheDecoder() throws {
        let list = Fixture.xml("<dict><key>words</key><array><string>cat</string><string>dog</string></array><key>extra</key><true/></dict>")
        #expect(Self.reference(list)?.wordCount == 2)
        #expect(Self.streamed(list, blockSize: 100) == nil)
        let result = PackVerifier().verify(try Fixture.archive([.file("p/Info.plist", Fixture.manifest()), .file("p/words.plist", list)]))
        #expect(result.isValid, "\(result.problems)")
        #expect(result.pack?.lists.first?.words == [PackWord("cat"), PackWord("dog")])
    }

    @Test func aLongClueOrAnInvalidWordInAWordDictionaryGivesUp() {
        let long = PropertyList.array([.dictionary(["word": .string("cat"), "clue": .string(String(repeating: "x", count: 501))])])
        let invalid = PropertyList.array([.dictionary(["word": .string("c4t")])])
        for value in [long, invalid] {
            for bytes in [PropertyListEncoding.xml(value), PropertyListEncoding.binary(value)] {
                #expect(Self.reference(bytes) == nil)
                #expect(Self.streamed(bytes, blockSize: 5) == nil)
            }
        }
    }

    /// Damaged lists: wherever the scanners accept one, the decoder agrees word for word.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func damagedListsNeverDisagree(_ seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var accepted = 0
        for list in Self.plainLists {
            for document in [PropertyListEncoding.xml(list), PropertyListEncoding.binary(list)] {
                for _ in 0..<150 {
                    let damaged = Self.damage(document, using: &generator)
                    let expected = Self.reference(damaged)
                    let found = Self.streamed(damaged, blockSize: Int.random(in: 1...40, using: &generator))
                    if let found {
                        accepted += 1
                        #expect(found == expected, "\(damaged)")
                    }
                }
            }
        }
        #expect(accepted > 0, "some damage leaves a valid list (a changed letter, say)")
    }

    static func damage(_ document: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = document
        let inserts: [[UInt8]] = ["<!-- x -->", " ", "&amp;", "<![CDATA[a]]>", "<?p?>", "</string>", "<key>word</key>", "\u{E9}", "\0"].map { Array($0.utf8) }
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            guard !bytes.isEmpty else { break }
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: bytes[index] = UInt8.random(in: 0x61...0x7A, using: &generator)
            case 1: bytes[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
            case 2: bytes.insert(contentsOf: inserts[Int.random(in: 0..<inserts.count, using: &generator)], at: index)
            case 3: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...6, using: &generator)))
            default: bytes.removeSubrange(index...)
            }
        }
        return bytes
    }

    /// A binary list whose one word is referenced a hundred thousand times would unpack to forty
    /// times its size: the scanner gives up at twice the file's size, and the decoder, which shares
    /// the string, reads the list (and the verifier reports the duplicates).
    @Test func sharedStringsInABinaryListDoNotMultiplyMemory() throws {
        let word = String(repeating: "q\u{301}", count: 2) + String(repeating: "b", count: 38)
        let bytes = PropertyListEncoding.binary(.array(Array(repeating: .string(word), count: 100_000)))
        #expect(bytes.count < 200_000, "the writer stores equal strings once")
        #expect(Self.reference(bytes)?.wordCount == 100_000)
        #expect(Self.streamed(bytes, blockSize: 65_536) == nil)
    }

    /// A binary list long enough to be walked in two halves at once reads as the decoder reads it:
    /// words with clues and words in UTF-16 in both halves, and the second half's clues on its own
    /// words; a bad word in the second half alone makes the scanner give up.
    @Test func aLongBinaryListReadInTwoHalvesAgreesWithTheDecoder() throws {
        let count = BinaryWordListScanner.itemsForTwoThreads * 2 + 3
        func word(_ index: Int) -> String {
            "w" + String(index, radix: 26).map { letter in Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(String(letter), radix: 26)!)) }
        }
        let items: [PropertyList] = (0..<count).map { index in
            if index % 9_999 == 0 { return .dictionary(["word": .string(word(index)), "clue": .string("clue \(index)")]) }
            if index % 7_777 == 0 { return .string(word(index) + "\u{E9}") }
            return .string(word(index))
        }
        let bytes = PropertyListEncoding.binary(.dictionary(["name": .string("Long"), "words": .array(items)]))
        let expected = try #require(Self.reference(bytes))
        let streamed = try #require(Self.streamed(bytes, blockSize: 65_536))
        #expect(streamed == expected)
        #expect(streamed.wordCount == count)
        let lastClued = count - 1 - (count - 1) % 9_999
        #expect(streamed.words[lastClued].clue == "clue \(lastClued)")
        #expect(streamed.clueCount == expected.clueCount)

        var damaged = items
        damaged[count - 5] = .string("r2d2")
        #expect(Self.streamed(PropertyListEncoding.binary(.array(damaged)), blockSize: 65_536) == nil)
        #expect(Self.reference(PropertyListEncoding.binary(.array(damaged))) == nil)
    }

    /// Every shipped word pack (a theme's drawings are no word list).
    @Test(arguments: ShippedPacksTests.names.filter { !$0.hasPrefix("theme-") })
    func shippedPacksReadTheSameStreamedAsDecoded(_ name: String) throws {
        let archive = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(ShippedPacksTests.packsFolder)/\(name).wordpack")))
        var lists: [String: [UInt8]] = [:]
        _ = ArchiveReader().read(archive) { file in
            if file.name.lastComponent.hasSuffix(".plist"), file.name.lastComponent != "Info.plist", file.name.lastComponent != "Signature.plist" {
                lists[file.name.path] = file.bytes
            }
        }
        #expect(!lists.isEmpty)
        for (path, bytes) in lists {
            let expected = try #require(Self.reference(bytes, path: path))
            #expect(Self.streamed(bytes, blockSize: 65_536, path: path) == expected, "\(path)")
            #expect(Self.streamed(bytes, blockSize: 13, path: path) == expected, "\(path)")
        }
        let verified = try #require(PackVerifier().verify(archive).pack)
        #expect(verified.lists.allSatisfy { if case .packed = $0.contents { true } else { false } }, "the shipped lists are read as they inflate")
    }

    /// A pack with one list the scanner takes and one it gives up on reports what the decoder
    /// reports, and keeps the good list's words.
    @Test func aPackMixingGoodAndBadListsIsReportedAsTheDecoderWould() throws {
        let bad = Fixture.xml("<array><string>fine</string><string>b4d</string><string>w0rse</string></array>")
        let archive = try Fixture.archive([
            .file("p/Info.plist", Fixture.manifest()), .file("p/a.plist", Fixture.wordList(["cat", "dog"])), .file("p/b.plist", bad),
        ])
        let result = PackVerifier().verify(archive)
        #expect(result.problems.map(\.kind) == [.invalidWord, .invalidWord])
        #expect(result.problems.map(\.entry) == ["p/b.plist", "p/b.plist"])
        #expect(result.pack?.lists.map(\.words) == [[PackWord("cat"), PackWord("dog")], [PackWord("fine")]])
    }
}
