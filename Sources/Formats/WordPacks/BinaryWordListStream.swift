import PropertyList

/// Reads a binary (`bplist00`) word list as it inflates, keeping only its words.
///
/// A binary list's offset table comes last, so a reader that starts from it must hold the whole
/// file. This one reads the objects in the order they come, expecting the layout in which this
/// project's writer and Python's `plistlib` write a plain list: the root (an array, or a
/// dictionary of `name` and `words`), the dictionary's keys and name, the array, then its words,
/// each object once and in order. It checks the offset table and the trailer against what it read
/// as they arrive, so a list it reads through gives exactly what `BinaryWordListScanner` gives.
///
/// Where the file departs from that layout (a word with a clue, a shared string, objects in
/// another order, a table or trailer that disagrees, a file cut short), it puts the bytes it has
/// read back together (it knows them exactly from what it kept), collects the rest, and the list
/// is walked whole by `BinaryWordListScanner`, as it was before. A word the rules refuse makes it
/// give up, as the scanner does, for the decoder to explain.
struct BinaryWordListStream {
    private let limits: PropertyListLimits
    /// The file's size, from the archive's header: where the table and the trailer must be.
    private let size: Int
    /// The most bytes of words the walk takes from a file this size (`wordBudget`).
    private let budget: Int

    /// Bytes received and not read yet; `pending[0]` is the file's byte at `position`.
    private var pending: [UInt8] = []
    private var position = 0
    private var step = Step.header

    /// Every byte read before the array's references, as it came: header, root, keys, name, the
    /// array's own header.
    private var prefix: [UInt8] = []
    /// Where each object before the words starts.
    private var prefixStarts: [Int] = []
    /// The root dictionary's entry count (0 for an array root).
    private var rootEntries = 0
    private var referenceSize = 0
    private var name: String?
    private var wordCount = 0
    private var firstWord = 0
    private var referencesRead = 0
    private var words = PackedWords()
    /// How many bytes each word took in the file, 255 for that many or more (then counted again
    /// from the word): the offset table is checked against them.
    private var lengths: [UInt8] = []
    /// Where the first word starts, and the offset table's entries read so far.
    private var wordsStart = 0
    private var tableStart = 0
    private var entrySize = 0
    private var entriesRead = 0
    /// The start of the object whose table entry comes next, and the word it belongs to.
    private var nextStart = 0
    private var nextWord = 0

    /// The file's bytes, once it departed from the layout: the rest is collected whole.
    private var whole: [UInt8]?
    private var gaveUp = false
    /// It departed from the layout, and the list was or will be walked whole.
    private(set) var putBack = false

    /// An object longer than this before the words is left to the walk: names and keys are short.
    private static let maxPrefixObject = 1 << 16

    private enum Step: Equatable {
        case header
        /// Object number `n` of those before the words: the root, keys, name, array.
        case object(Int)
        case references
        case words
        case table
        case trailer
        case done
    }

    init(limits: PropertyListLimits, size: Int) {
        self.limits = limits
        self.size = size
        budget = BinaryWordListScanner.wordBudget(fileSize: size)
    }

    mutating func feed(_ block: UnsafeRawBufferPointer) {
        if gaveUp { return }
        if whole != nil {
            whole!.append(contentsOf: block)
            return
        }
        pending.append(contentsOf: block)
        var read = 0
        pending.withUnsafeBufferPointer { bytes in
            read = advance(bytes)
        }
        if whole == nil && !gaveUp {
            pending.removeFirst(read)
            position += read
        }
    }

    /// The list, when the whole file has come; `nil` when the walk or this reader gave up.
    mutating func finish() -> (name: String?, words: PackedWords)? {
        if gaveUp { return nil }
        if whole == nil && (step != .done || position + pending.count != size) { putBackBytes() }
        if let whole {
            self.whole = nil
            return whole.withUnsafeBufferPointer { BinaryWordListScanner.scan($0, limits: limits) }
        }
        lengths = []
        return (name, words)
    }

    // MARK: - Reading in order

    /// Reads what it can of `bytes` (the pending bytes); returns how many it read. Departing from
    /// the layout or giving up ends the reading.
    private mutating func advance(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var at = 0
        while whole == nil && !gaveUp {
            let available = bytes.count - at
            switch step {
            case .header:
                guard available >= 8 else { return at }
                guard bytes[0..<8].elementsEqual("bplist00".utf8), size >= 8 + 1 + 32 else { return departing(at) }
                prefix.append(contentsOf: bytes[0..<8])
                at = 8
                step = .object(0)
            case .object(let number):
                guard let read = readObject(number, UnsafeBufferPointer(rebasing: bytes[at...])) else { return gaveUp ? at : departing(at) }
                guard read > 0 else { return at }
                prefixStarts.append(position + at)
                prefix.append(contentsOf: bytes[at..<(at + read)])
                at += read
            case .references:
                let room = min(available / referenceSize, wordCount - referencesRead)
                for index in 0..<room {
                    let value = BinaryWordListScanner.unsigned(bytes, at: at + index * referenceSize, size: referenceSize)
                    guard value == UInt64(firstWord + referencesRead + index) else {
                        referencesRead += index
                        return departing(at + index * referenceSize)
                    }
                }
                referencesRead += room
                at += room * referenceSize
                if referencesRead == wordCount {
                    wordsStart = position + at
                    step = .words
                } else {
                    return at
                }
            case .words:
                guard let read = readWord(UnsafeBufferPointer(rebasing: bytes[at...])) else { return gaveUp ? at : departing(at) }
                guard read > 0 else { return at }
                at += read
                if words.count == wordCount { beginTable(at: position + at) }
            case .table:
                let room = min(available / entrySize, objectCount - entriesRead)
                for index in 0..<room {
                    let value = BinaryWordListScanner.unsigned(bytes, at: at + index * entrySize, size: entrySize)
                    guard value == UInt64(start(ofEntry: entriesRead)) else { return departing(at + index * entrySize) }
                    entriesRead += 1
                }
                at += room * entrySize
                if entriesRead == objectCount { step = .trailer } else { return at }
            case .trailer:
                guard available >= 32 else { return at }
                let trailer = UnsafeBufferPointer(rebasing: bytes[at..<(at + 32)])
                guard Int(trailer[6]) == entrySize, Int(trailer[7]) == referenceSize,
                    BinaryWordListScanner.unsigned(trailer, at: 8, size: 8) == UInt64(objectCount),
                    BinaryWordListScanner.unsigned(trailer, at: 16, size: 8) == 0,
                    BinaryWordListScanner.unsigned(trailer, at: 24, size: 8) == UInt64(tableStart),
                    available == 32
                else { return departing(at) }
                at += 32
                step = .done
            case .done:
                return available == 0 ? at : departing(at)
            }
        }
        return at
    }

    private var objectCount: Int { 1 + 2 * rootEntries + wordCount }

    /// Reads object `number` of those before the words: its length in bytes, 0 when more bytes
    /// must come first, `nil` when it is not the one the layout has there.
    private mutating func readObject(_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let header = Header(bytes) else { return bytes.count < Header.longest ? 0 : nil }
        let marker = bytes[0] >> 4
        if number == 0 {
            // The root: an array of words, or a dictionary of one or two entries. Its first
            // reference is 1, which gives the references' size.
            guard limits.maxDepth >= 1, marker == 0xA || marker == 0xD else { return nil }
            let references = marker == 0xD ? 2 * header.count : header.count
            guard references > 0, header.count <= 2 || marker == 0xA else { return nil }
            if referenceSize == 0 {
                guard let size = Self.sizeOfFirstReference(UnsafeBufferPointer(rebasing: bytes[header.length...])) else {
                    return bytes.count - header.length < 8 ? 0 : nil
                }
                referenceSize = size
            }
            if marker == 0xA {
                // The references are read as the words' are, with the words' checks.
                return words(count: header.count, firstWord: 1, header: header)
            }
            let length = header.length + references * referenceSize
            guard length <= bytes.count else { return 0 }
            for index in 0..<references
            where BinaryWordListScanner.unsigned(bytes, at: header.length + index * referenceSize, size: referenceSize) != UInt64(1 + index) {
                return nil
            }
            rootEntries = header.count
            step = .object(1)
            return length
        }
        // A dictionary root's keys (`name` then `words`, or `words`), its name, its array.
        let keys = rootEntries == 2 ? ["name", "words"] : ["words"]
        if number <= rootEntries || (rootEntries == 2 && number == 3) {
            guard marker == 0x5 || marker == 0x6 else { return nil }
            let length = header.length + header.count * (marker == 0x6 ? 2 : 1)
            guard length <= Self.maxPrefixObject else { return nil }
            guard length <= bytes.count else { return 0 }
            guard let text = Self.string(UnsafeBufferPointer(rebasing: bytes[0..<length]), header: header) else { return nil }
            if number <= rootEntries {
                guard text.elementsEqual(keys[number - 1].utf8) else { return nil }
            } else {
                guard let listName = text.withUnsafeBufferPointer(BinaryWordListScanner.listName) else { return nil }
                name = listName
            }
            step = .object(number + 1)
            return length
        }
        guard number == 2 * rootEntries, marker == 0xA, header.count > 0, limits.maxDepth >= 2 else { return nil }
        return words(count: header.count, firstWord: number + 1, header: header)
    }

    /// The words' array: its header is read, its references come next.
    private mutating func words(count: Int, firstWord: Int, header: Header) -> Int? {
        // Each word takes a reference and a byte at least: a count the file cannot hold is left to
        // the walk, before anything is set aside for it.
        guard count > 0, count <= size / (referenceSize + 1) else { return nil }
        wordCount = count
        self.firstWord = firstWord
        guard objectCount <= limits.maxObjects else {
            // The scanner would count past the limit: the decoder says so.
            gaveUp = true
            return nil
        }
        words.reserve(words: count, bytes: max(0, size - position))
        lengths.reserveCapacity(count)
        step = .references
        return header.length
    }

    /// Reads the next word: its length in bytes, 0 when more bytes must come first, `nil` when
    /// it departs from the layout or (with `gaveUp` set) the scanner would give up on it.
    private mutating func readWord(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let header = Header(bytes) else { return bytes.count < Header.longest ? 0 : nil }
        let marker = bytes[0] >> 4
        guard marker == 0x5 || marker == 0x6 else { return nil }
        let (payload, overflow) = header.count.multipliedReportingOverflow(by: marker == 0x6 ? 2 : 1)
        guard !overflow, payload <= size else { return nil }
        let length = header.length + payload
        guard length <= bytes.count else { return 0 }
        let object = UnsafeBufferPointer(rebasing: bytes[0..<length])
        if marker == 0x5 {
            let text = UnsafeBufferPointer(rebasing: object[header.length...])
            // Not ASCII: the scanner's string is no string, and it gives up.
            guard !text.contains(where: { $0 >= 0x80 }), WordRules.isKept(text, isASCII: true),
                words.bytes.count + text.count <= budget
            else { return giveUp() }
            words.append(text)
            lengths.append(UInt8(min(length, 255)))
            return length
        }
        guard let (text, isASCII) = BinaryWordListScanner.utf16String(UnsafeBufferPointer(rebasing: object[header.length...])) else { return giveUp() }
        // Letters that are all ASCII in UTF-16 could not be put back as they came.
        guard !isASCII else { return nil }
        let kept = text.withUnsafeBufferPointer { text in
            WordRules.isKept(text, isASCII: false) && words.bytes.count + text.count <= budget
        }
        guard kept else { return giveUp() }
        text.withUnsafeBufferPointer { words.append($0) }
        lengths.append(UInt8(min(length, 255)))
        return length
    }

    private mutating func giveUp() -> Int? {
        gaveUp = true
        words = PackedWords()
        lengths = []
        return nil
    }

    /// The words are read: the offset table starts here, its entries as wide as the room left
    /// for them says.
    private mutating func beginTable(at offset: Int) {
        tableStart = offset
        let room = size - 32 - offset
        guard room > 0, room % objectCount == 0, (1...8).contains(room / objectCount) else {
            putBackBytes(pendingFrom: offset - position)
            return
        }
        entrySize = room / objectCount
        nextStart = wordsStart
        step = .table
    }

    /// The offset of object `entry`, as the layout read puts it.
    private mutating func start(ofEntry entry: Int) -> Int {
        if entry < prefixStarts.count { return prefixStarts[entry] }
        let here = nextStart
        let length = lengths[nextWord]
        nextStart += length < 255 ? Int(length) : encodedLength(ofWord: nextWord)
        nextWord += 1
        return here
    }

    // MARK: - Putting the bytes back

    /// Departs at `offset` in the pending bytes: everything read is put back as it came, and the
    /// rest is collected whole.
    private mutating func departing(_ offset: Int) -> Int {
        putBackBytes(pendingFrom: offset)
        return offset
    }

    /// Rebuilds the bytes read so far, exactly: the prefix as it came, the references and the
    /// words as the layout has them (each was checked to be so), the table's entries read, then
    /// the pending bytes from `pendingFrom` on.
    private mutating func putBackBytes(pendingFrom: Int = 0) {
        var bytes = prefix
        bytes.reserveCapacity(size)
        for index in 0..<referencesRead {
            BinaryPropertyListWriter.appendBigEndian(UInt64(firstWord + index), size: referenceSize, to: &bytes)
        }
        for index in 0..<words.count {
            words.withWord(index) { word in
                let ascii = !word.contains { $0 >= 0x80 }
                if ascii {
                    BinaryPropertyListWriter.appendHeader(0x50, count: word.count, to: &bytes)
                    bytes.append(contentsOf: word)
                } else {
                    let units = String(decoding: word, as: UTF8.self).utf16
                    BinaryPropertyListWriter.appendHeader(0x60, count: units.count, to: &bytes)
                    for unit in units { BinaryPropertyListWriter.appendBigEndian(UInt64(unit), size: 2, to: &bytes) }
                }
            }
        }
        nextStart = wordsStart
        nextWord = 0
        for entry in 0..<entriesRead {
            let offset = start(ofEntry: entry)
            BinaryPropertyListWriter.appendBigEndian(UInt64(offset), size: entrySize, to: &bytes)
        }
        bytes.append(contentsOf: pending[min(pendingFrom, pending.count)...])
        words = PackedWords()
        lengths = []
        pending = []
        prefix = []
        whole = bytes
        putBack = true
    }

    /// How many bytes word `index` took in the file: its header and its ASCII or UTF-16 units.
    private func encodedLength(ofWord index: Int) -> Int {
        words.withWord(index) { word in
            var units = 0
            var ascii = true
            for byte in word {
                // A UTF-16 unit per scalar, two for one past the Basic Multilingual Plane (four bytes in UTF-8).
                if byte & 0xC0 != 0x80 { units += 1 }
                if byte >= 0xF0 { units += 1 }
                if byte >= 0x80 { ascii = false }
            }
            if ascii { return BinaryPropertyListWriter.headerSize(count: word.count) + word.count }
            return BinaryPropertyListWriter.headerSize(count: units) + 2 * units
        }
    }

    // MARK: - Objects

    /// An object's header, read only when written as the writers write it (so that it can be
    /// put back): the marker, and the count in it or in the integer after it.
    private struct Header {
        var count: Int
        var length: Int
        static let longest = 1 + 1 + 8

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let marker = bytes.first else { return nil }
            let nibble = Int(marker & 0x0F)
            if nibble < 0x0F {
                count = nibble
                length = 1
            } else {
                guard bytes.count >= 2, bytes[1] >> 4 == 0x1, bytes[1] & 0x0F <= 3 else { return nil }
                let size = 1 << Int(bytes[1] & 0x0F)
                guard bytes.count >= 2 + size else { return nil }
                let value = BinaryWordListScanner.unsigned(bytes, at: 2, size: size)
                guard value < UInt64(Int32.max) else { return nil }
                count = Int(value)
                length = 2 + size
            }
            // The writers' header for this count is as long only when it is this one.
            guard length == BinaryPropertyListWriter.headerSize(count: count) else { return nil }
        }
    }

    /// A key's or a name's text, ASCII or UTF-16 as it came.
    private static func string(_ object: UnsafeBufferPointer<UInt8>, header: Header) -> [UInt8]? {
        let payload = UnsafeBufferPointer(rebasing: object[header.length...])
        if object[0] >> 4 == 0x5 {
            return payload.contains(where: { $0 >= 0x80 }) ? nil : Array(payload)
        }
        guard let (text, isASCII) = BinaryWordListScanner.utf16String(payload), !isASCII else { return nil }
        return text
    }

    /// The size of references whose first is 1: its last byte is 1, the ones before it 0.
    private static func sizeOfFirstReference(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        for size in 1...8 where size <= bytes.count {
            if bytes[size - 1] == 1 { return bytes[0..<(size - 1)].allSatisfy { $0 == 0 } ? size : nil }
            if bytes[size - 1] != 0 { return nil }
        }
        return nil
    }
}
