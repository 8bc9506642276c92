import PropertyList
import SystemCalls

/// Reads a binary (`bplist00`) word list straight into `PackedWords`, walking its objects in
/// place: no value tree, no `String` per ASCII word.
///
/// Like `XMLWordListScanner`, it takes only what it is sure `PropertyListDecoding` followed by
/// `WordList.parse` would take without a problem (a root array of words, or a dictionary with
/// `words` and an optional `name`; a word is an ASCII or UTF-16 string, or a dictionary with `word`
/// and `clue`), and gives up on anything else, for the decoder to explain.
struct BinaryWordListScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: PropertyListLimits
    private let offsetIntSize: Int
    private let objectRefSize: Int
    private let objectCount: Int
    private let offsetTableStart: Int
    private let topObject: Int
    private var objects = 0
    private var words = PackedWords()

    /// Scans `bytes`; `nil` when the scanner gives up.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, limits: PropertyListLimits) -> (name: String?, words: PackedWords)? {
        guard var scanner = BinaryWordListScanner(bytes, limits: limits) else { return nil }
        return scanner.scan()
    }

    private init?(_ bytes: UnsafeBufferPointer<UInt8>, limits: PropertyListLimits) {
        self.bytes = bytes
        self.limits = limits
        // The trailer, checked as the decoder checks it.
        let trailer = bytes.count - 32
        guard trailer >= 9, bytes.starts(with: "bplist00".utf8) else { return nil }
        offsetIntSize = Int(bytes[trailer + 6])
        objectRefSize = Int(bytes[trailer + 7])
        let count = Self.unsigned(bytes, at: trailer + 8, size: 8)
        let top = Self.unsigned(bytes, at: trailer + 16, size: 8)
        let tableStart = Self.unsigned(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetIntSize), (1...8).contains(objectRefSize),
            tableStart >= 9, tableStart < UInt64(trailer), count >= 1, count < UInt64(UInt32.max), top < count
        else { return nil }
        let (tableSize, overflow) = count.multipliedReportingOverflow(by: UInt64(offsetIntSize))
        guard !overflow, tableSize <= UInt64(trailer) - tableStart else { return nil }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTableStart = Int(tableStart)
    }

    private mutating func scan() -> (name: String?, words: PackedWords)? {
        guard let root = container(topObject), limits.maxDepth >= 1, count(1) else { return nil }
        var name: String?
        let array: Container
        if root.isDictionary {
            var words: Container?
            var sawName = false
            for index in 0..<root.count {
                guard let keyRef = reference(root, index), let key = string(keyRef), count(1),
                    let valueRef = reference(root, root.count + index)
                else { return nil }
                if isKey(key, "words"), words == nil {
                    guard let found = container(valueRef), !found.isDictionary, found.count > 0, limits.maxDepth >= 2, count(1) else { return nil }
                    words = found
                } else if isKey(key, "name"), !sawName {
                    sawName = true
                    guard let value = string(valueRef), count(1), let text = withBytes(value, { text, _ in Self.listName(text) }) else { return nil }
                    name = text
                } else {
                    return nil
                }
            }
            guard let words else { return nil }
            array = words
        } else {
            guard root.count > 0 else { return nil }
            array = root
        }
        let itemDepth = root.isDictionary ? 3 : 2
        let budget = Self.wordBudget(fileSize: bytes.count)
        // Room for every word at once, not grown (and copied) by doubling: the words' bytes are at
        // most the object area's, unless objects are shared, and then they only grow once more.
        words.reserve(words: array.count, bytes: min(budget, offsetTableStart))
        guard array.count >= Self.itemsForTwoThreads, Parallel.hasSecondCore else {
            return scanItems(0..<array.count, of: array, depth: itemDepth, budget: budget) ? (name, words) : nil
        }
        // Two halves at once (where the machine has two cores), the second appended to the first:
        // the objects and bytes each half counts are added up against the same limits.
        let middle = array.count / 2
        var second = self
        second.objects = 0
        second.words = PackedWords()
        second.words.reserve(words: array.count - middle, bytes: min(budget, offsetTableStart))
        let (firstDone, secondDone) = Parallel.both(
            { scanItems(0..<middle, of: array, depth: itemDepth, budget: budget) },
            { second.scanItems(middle..<array.count, of: array, depth: itemDepth, budget: budget) })
        guard firstDone, secondDone, count(second.objects), words.bytes.count + second.words.bytes.count <= budget else { return nil }
        words.append(contentsOf: second.words)
        return (name, words)
    }

    /// Items whose word lists pass for this many, or more, are read on two threads.
    static let itemsForTwoThreads = 65_536

    /// Reads the words of `array`'s items in `items` into `words`; false when it gives up.
    private mutating func scanItems(_ items: Range<Int>, of array: Container, depth itemDepth: Int, budget: Int) -> Bool {
        for index in items {
            guard let itemRef = reference(array, index) else { return false }
            if let text = string(itemRef) {
                guard count(1), append(text, budget: budget) else { return false }
                continue
            }
            guard let item = container(itemRef), item.isDictionary, itemDepth <= limits.maxDepth, count(1) else { return false }
            var word: StringObject?
            var clue: String?
            var sawClue = false
            for entry in 0..<item.count {
                guard let keyRef = reference(item, entry), let key = string(keyRef), count(1),
                    let valueRef = reference(item, item.count + entry), let value = string(valueRef), count(1)
                else { return false }
                if isKey(key, "word"), word == nil {
                    word = value
                } else if isKey(key, "clue"), !sawClue {
                    sawClue = true
                    guard let text = makeString(value), text.count <= WordList.maximumClueLength else { return false }
                    clue = text
                } else {
                    return false
                }
            }
            guard let word, append(word, budget: budget) else { return false }
            if let clue { words.setClueOfLastWord(clue) }
        }
        return true
    }

    // MARK: - Objects

    private struct Container {
        var isDictionary: Bool
        var count: Int
        /// Where the object references start; a dictionary lists its keys' references, then its values'.
        var references: Int
    }

    /// A string object: where its ASCII bytes are in the file, or its UTF-16 converted to UTF-8.
    private enum StringObject {
        case ascii(Range<Int>)
        case converted([UInt8], isASCII: Bool)

        var byteCount: Int {
            switch self {
            case .ascii(let range): range.count
            case .converted(let bytes, _): bytes.count
            }
        }
    }

    /// Calls `body` with the UTF-8 of `string` and whether it is all ASCII.
    private func withBytes<R>(_ string: StringObject, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> R) -> R {
        switch string {
        case .ascii(let range):
            return body(UnsafeBufferPointer(rebasing: bytes[range]), true)
        case .converted(let text, let isASCII):
            return text.withUnsafeBufferPointer { body($0, isASCII) }
        }
    }

    private func isKey(_ string: StringObject, _ name: StaticString) -> Bool {
        withBytes(string) { text, _ in
            text.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
    }

    private mutating func count(_ values: Int) -> Bool {
        objects += values
        return objects <= limits.maxObjects
    }

    private func offset(of object: Int) -> Int? {
        let offset = Self.unsigned(bytes, at: offsetTableStart + object * offsetIntSize, size: offsetIntSize)
        guard offset >= 8, offset < UInt64(offsetTableStart) else { return nil }
        return Int(offset)
    }

    /// Reference `index` of a container, checked against the number of objects.
    private func reference(_ container: Container, _ index: Int) -> Int? {
        let reference = Self.unsigned(bytes, at: container.references + index * objectRefSize, size: objectRefSize)
        return reference < UInt64(objectCount) ? Int(reference) : nil
    }

    /// The element count after a marker, and where the elements start.
    private func length(marker: UInt8, at offset: Int) -> (count: Int, start: Int)? {
        let nibble = Int(marker & 0x0F)
        guard nibble == 0x0F else { return (nibble, offset + 1) }
        let intMarker = offset + 1
        guard intMarker < offsetTableStart else { return nil }
        let integer = bytes[intMarker]
        guard integer >> 4 == 0x1, integer & 0x0F <= 3 else { return nil }
        let size = 1 << Int(integer & 0x0F)
        guard intMarker + 1 + size <= offsetTableStart else { return nil }
        let count = Self.unsigned(bytes, at: intMarker + 1, size: size)
        guard count <= UInt64(offsetTableStart) else { return nil }
        return (Int(count), intMarker + 1 + size)
    }

    /// Whether `count` units of `unit` bytes from `start` lie inside the object area.
    private func fits(start: Int, count: Int, unit: Int) -> Bool {
        let (size, overflow) = count.multipliedReportingOverflow(by: unit)
        return !overflow && start <= offsetTableStart && size <= offsetTableStart - start
    }

    private func container(_ object: Int) -> Container? {
        guard let offset = offset(of: object) else { return nil }
        let marker = bytes[offset]
        guard marker >> 4 == 0xA || marker >> 4 == 0xD, let (count, start) = length(marker: marker, at: offset) else { return nil }
        let isDictionary = marker >> 4 == 0xD
        guard fits(start: start, count: isDictionary ? 2 * count : count, unit: objectRefSize) else { return nil }
        return Container(isDictionary: isDictionary, count: count, references: start)
    }

    /// The string `object`, when it is one the decoder reads without a problem.
    private func string(_ object: Int) -> StringObject? {
        guard let offset = offset(of: object) else { return nil }
        let marker = bytes[offset]
        switch marker >> 4 {
        case 0x5:
            guard let (count, start) = length(marker: marker, at: offset), fits(start: start, count: count, unit: 1) else { return nil }
            let text = UnsafeBufferPointer(rebasing: bytes[start..<(start + count)])
            guard !text.contains(where: { $0 >= 0x80 }) else { return nil }
            return .ascii(start..<(start + count))
        case 0x6:
            guard let (count, start) = length(marker: marker, at: offset), fits(start: start, count: count, unit: 2),
                let (text, isASCII) = Self.utf16String(UnsafeBufferPointer(rebasing: bytes[start..<(start + 2 * count)]))
            else { return nil }
            return .converted(text, isASCII: isASCII)
        default:
            return nil
        }
    }

    /// A UTF-16 string object's units (big-endian, two bytes each) as UTF-8, and whether every unit
    /// is ASCII; `nil` when a surrogate is unpaired, which the decoder refuses.
    static func utf16String(_ bytes: UnsafeBufferPointer<UInt8>) -> (utf8: [UInt8], isASCII: Bool)? {
        let count = bytes.count / 2
        var units: [UInt16] = []
        units.reserveCapacity(count)
        var expectLow = false
        for index in 0..<count {
            let unit = UInt16(bytes[2 * index]) << 8 | UInt16(bytes[2 * index + 1])
            let isLow = (0xDC00...0xDFFF).contains(unit)
            guard expectLow == isLow else { return nil }
            expectLow = (0xD800...0xDBFF).contains(unit)
            units.append(unit)
        }
        guard !expectLow else { return nil }
        return (Array(String(decoding: units, as: UTF16.self).utf8), units.allSatisfy { $0 < 0x80 })
    }

    private mutating func append(_ word: StringObject, budget: Int) -> Bool {
        guard words.bytes.count + word.byteCount <= budget else { return false }
        let kept = withBytes(word) { text, isASCII in WordRules.isKept(text, isASCII: isASCII) }
        guard kept else { return false }
        // Appended outside `withBytes`, which reads `self`.
        switch word {
        case .ascii(let range): words.append(UnsafeBufferPointer(rebasing: bytes[range]))
        case .converted(let text, _): text.withUnsafeBufferPointer { words.append($0) }
        }
        return true
    }

    /// The most bytes of words taken from a list file of `fileSize` bytes. Each word's bytes come
    /// from the file: with shared objects they could add up to more than it holds, and only a list
    /// of duplicates does that; the decoder reports those.
    static func wordBudget(fileSize: Int) -> Int {
        min(PackedWords.maxBytes, 2 * fileSize)
    }

    /// A list's `name`, when the decoder takes it: UTF-8 that is not all blank.
    static func listName(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        guard let text = String(validating: utf8, as: UTF8.self), !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }

    private func makeString(_ value: StringObject) -> String? {
        withBytes(value) { text, _ in String(validating: text, as: UTF8.self) }
    }

    static func unsigned(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}
