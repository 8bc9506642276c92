/// The words of one list in one buffer: their UTF-8 bytes one after another and where each ends,
/// with the few clues beside them. A million words take their bytes plus four bytes each, where an
/// array of `PackWord` takes 32 bytes a word plus a heap object for every word longer than 15 bytes.
struct PackedWords: Sendable {
    private(set) var bytes: [UInt8] = []
    /// `ends[i]` is the end of word `i` in `bytes`; it starts where word `i - 1` ends.
    private(set) var ends: [UInt32] = []
    /// The words that have a clue, in increasing order, and their clues.
    private(set) var clueIndices: [UInt32] = []
    private(set) var clues: [String] = []

    /// The most bytes a list may hold: offsets are 32-bit.
    static let maxBytes = Int(UInt32.max)

    init() {}

    init(_ words: [PackWord]) {
        for word in words {
            var text = word.text
            text.withUTF8 { append($0) }
            if let clue = word.clue { setClueOfLastWord(clue) }
        }
    }

    var count: Int { ends.count }

    /// The UTF-8 of word `index`, valid during the call.
    @inline(__always)
    func withWord<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let start = index == 0 ? 0 : Int(ends[index - 1])
        let end = Int(ends[index])
        return try bytes.withUnsafeBufferPointer { buffer in
            try body(UnsafeBufferPointer(rebasing: buffer[start..<end]))
        }
    }

    func word(_ index: Int) -> String {
        withWord(index) { String(decoding: $0, as: UTF8.self) }
    }

    func clue(_ index: Int) -> String? {
        guard !clueIndices.isEmpty else { return nil }
        var low = 0
        var high = clueIndices.count
        let target = UInt32(index)
        while low < high {
            let middle = (low + high) / 2
            if clueIndices[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low < clueIndices.count && clueIndices[low] == target ? clues[low] : nil
    }

    /// Makes room for `count` more bytes of words, so that a list read in blocks is not copied as it grows.
    mutating func reserve(bytes count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    /// Makes room for `words` more words of `bytes` bytes in all (an upper bound costs address
    /// space, not memory: the pages past the words are never touched).
    mutating func reserve(words: Int, bytes count: Int) {
        reserve(bytes: count)
        ends.reserveCapacity(ends.count + words)
    }

    /// Appends a word; the caller has checked that the bytes stay under `maxBytes`.
    mutating func append(_ word: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: word)
        ends.append(UInt32(truncatingIfNeeded: bytes.count))
    }

    /// Appends `other`'s words, and their clues, after these; the caller has checked that the
    /// bytes stay under `maxBytes`.
    mutating func append(contentsOf other: PackedWords) {
        let offset = UInt32(truncatingIfNeeded: bytes.count)
        let before = UInt32(truncatingIfNeeded: ends.count)
        bytes.append(contentsOf: other.bytes)
        ends.append(contentsOf: other.ends.lazy.map { $0 &+ offset })
        clueIndices.append(contentsOf: other.clueIndices.lazy.map { $0 &+ before })
        clues.append(contentsOf: other.clues)
    }

    mutating func setClueOfLastWord(_ clue: String) {
        clueIndices.append(UInt32(truncatingIfNeeded: ends.count - 1))
        clues.append(clue)
    }

    /// Releases what capacity the words do not use.
    mutating func shrink() {
        if bytes.capacity > bytes.count + bytes.count / 8 { bytes = Array(bytes) }
        if ends.capacity > ends.count + ends.count / 8 { ends = Array(ends) }
    }
}
