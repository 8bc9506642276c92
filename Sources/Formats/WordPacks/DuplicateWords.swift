import LetterFolding
import SystemCalls

/// Finds words that the game cannot tell apart: the same `LetterFolding.foldedWord` form in the
/// pack's language.
///
/// A hash set over the lists' own bytes: nothing is copied, and an all-ASCII word is folded (A-Z to
/// a-z, eight bytes at a time) and hashed in place. The words are first partitioned by hash, so
/// that each partition's set fits in the CPU's cache (one set for a million words missed the cache
/// on nearly every word, and took twice the time). Each slot keeps 32 bits of its word's hash, so a
/// probe reads another word only when those match. Hashes are seeded per process; a run of probes
/// longer than any honest list makes starts the search again with the standard library's SipHash,
/// so crafted collisions cost time in proportion to the words, not to their square.
enum DuplicateWords {
    /// A word that repeats an earlier one.
    struct Duplicate: Equatable {
        /// Position of the repeat, and of the first occurrence, in the sequence searched.
        var index: Int
        var firstIndex: Int
    }

    /// Every repeat in `words` under `folding`, in order of position.
    static func find(in words: [String], folding: LetterFolding) -> [Duplicate] {
        find(in: [WordList(path: "", name: "", format: .xml, words: words.map { PackWord($0) })], folding: folding)
    }

    /// Every repeat in the words of `lists`, one after another, under `folding`, in order of position.
    static func find(in lists: [WordList], folding: LetterFolding) -> [Duplicate] {
        let words = WordSequence(lists)
        guard words.count > 1 else { return [] }
        // Slots hold a position in 32 bits; no pack comes near, but a caller's own limits might.
        guard words.count < Int(UInt32.max / 2) else { return dictionarySearch(words, folding: folding) }
        if let found = search(words, folding: folding, hasher: SeededWordHash(seed: processSeed)) { return found }
        return search(words, folding: folding, hasher: SipWordHash(), maxProbes: .max) ?? []
    }

    /// The hash of `word`'s folded form, as the search computes it.
    static func foldedHash(_ word: String, folding: LetterFolding) -> UInt64 {
        var text = word
        return text.withUTF8 { bytes in foldedHash(bytes, folding: folding, hasher: SeededWordHash(seed: processSeed)) }
    }

    /// Longest run of occupied slots a probe may walk before the search is redone with SipHash:
    /// at the table's load of two thirds, honest lists stay far below it.
    static let maxProbes = 256

    private static let processSeed: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }()

    /// Words per partition: a partition's table (twelve bytes a word) stays in the CPU's cache.
    static let wordsPerPartition = 4096

    /// Two passes over the words: the first counts how many fall in each partition (by the top bits
    /// of their hash), the second writes each word's position and low hash bits into its partition,
    /// in order; then each partition is searched with a small hash set that stays in cache. A
    /// partition lists its words in order, so the set keeps each folded form's first occurrence.
    /// With a second core, each pass takes half of the words on each (the second half's entries
    /// written after the first half's in every partition, so the order holds), and the search
    /// half of the partitions.
    private static func search<Hash: WordHash>(
        _ words: WordSequence, folding: LetterFolding, hasher: Hash, maxProbes: Int = maxProbes
    ) -> [Duplicate]? {
        let partitionBits = max(0, Int.bitWidth - (words.count / wordsPerPartition).leadingZeroBitCount)
        let partitions = 1 << partitionBits
        // A word's partition depends on its first eight bytes only (folded): enough to spread
        // words, and cheap enough that the first pass, which only counts, costs little. Words
        // with the same folded form have the same first bytes once folded, so they meet.
        func partition(_ word: UnsafeBufferPointer<UInt8>) -> Int {
            guard partitionBits > 0 else { return 0 }
            return Int(hasher.hash(firstGroupOf: word, folding: folding) >> UInt64(64 - partitionBits))
        }
        let halves = words.count >= wordsForTwoThreads ? [0..<words.count / 2, words.count / 2..<words.count] : [0..<words.count]
        func count(_ half: Int) -> [Int] {
            var counts = [Int](repeating: 0, count: partitions)
            counts.withUnsafeMutableBufferPointer { counts in
                words.forEachWord(in: halves[half]) { _, word in counts[partition(word)] += 1 }
            }
            return counts
        }
        let counts: [[Int]]
        if halves.count == 1 {
            counts = [count(0)]
        } else {
            let (first, second) = Parallel.both({ count(0) }, { count(1) })
            counts = [first, second]
        }
        // Where each partition starts, and where each half writes its first entry in it.
        var starts = [Int](repeating: 0, count: partitions + 1)
        var next = [[Int]](repeating: [], count: halves.count)
        for part in 0..<partitions {
            var at = starts[part]
            for half in halves.indices {
                next[half].append(at)
                at += counts[half][part]
            }
            starts[part + 1] = at
        }
        // An entry: the whole folded form's hash, low 32 bits, then the word's position. Every
        // slot is written once by the scatter (the counts add up to the words), so the array
        // starts uninitialized: its pages are first touched by the thread that fills them.
        let entries = [UInt64](unsafeUninitializedCapacity: words.count) { entries, initialized in
            func scatter(_ half: Int) {
                var next = next[half]
                next.withUnsafeMutableBufferPointer { next in
                    words.forEachWord(in: halves[half]) { index, word in
                        let target = partition(word)
                        entries[next[target]] = foldedHash(word, folding: folding, hasher: hasher) << 32 | UInt64(index)
                        next[target] += 1
                    }
                }
            }
            if halves.count == 1 { scatter(0) } else { _ = Parallel.both({ scatter(0) }, { scatter(1) }) }
            initialized = words.count
        }
        // The partitions searched in two sets of about as many words each.
        let found: [[Duplicate]?] = entries.withUnsafeBufferPointer { entries in
            func search(_ partitions: Range<Int>) -> [Duplicate]? {
                searchPartitions(partitions, entries: entries, starts: starts, words: words, folding: folding, maxProbes: maxProbes)
            }
            guard halves.count > 1 else { return [search(0..<partitions)] }
            let (first, second) = Parallel.both({ search(0..<partitions / 2) }, { search(partitions / 2..<partitions) })
            return [first, second]
        }
        var duplicates: [Duplicate] = []
        for group in found {
            guard let group else { return nil }
            duplicates += group
        }
        duplicates.sort { $0.index < $1.index }
        return duplicates
    }

    /// Words from which the search runs on two threads (where the machine has two cores): below,
    /// a thread's start is not worth it.
    static let wordsForTwoThreads = 65_536

    /// The repeats in `partitions`, each searched with a hash set of its own; `nil` when a probe
    /// ran past `maxProbes`.
    private static func searchPartitions(
        _ partitions: Range<Int>, entries: UnsafeBufferPointer<UInt64>, starts: [Int], words: WordSequence, folding: LetterFolding,
        maxProbes: Int
    ) -> [Duplicate]? {
        var duplicates: [Duplicate] = []
        let largest = partitions.map { starts[$0 + 1] - starts[$0] }.max() ?? 0
        var table = [UInt64](repeating: 0, count: largest + largest / 2 + 1)
        let completed = table.withUnsafeMutableBufferPointer { table -> Bool in
            for part in partitions {
                let members = UnsafeBufferPointer(rebasing: entries[starts[part]..<starts[part + 1]])
                guard !members.isEmpty else { continue }
                let capacity = members.count + members.count / 2 + 1
                UnsafeMutableBufferPointer(rebasing: table[0..<capacity]).update(repeating: 0)
                for entry in members {
                    let tag = entry >> 32
                    var slot = Int((tag &* UInt64(capacity)) >> 32)
                    var probes = 0
                    var isRepeat = false
                    // A slot holds an entry with its position plus one, so that 0 is free.
                    while table[slot] != 0 {
                        let other = table[slot]
                        if other >> 32 == tag {
                            let first = Int(other & 0xFFFF_FFFF) - 1
                            let index = Int(entry & 0xFFFF_FFFF)
                            if words.withWord(index, { word in words.withWord(first) { sameFoldedForm(word, $0, folding: folding) } }) {
                                duplicates.append(Duplicate(index: index, firstIndex: first))
                                isRepeat = true
                                break
                            }
                        }
                        probes += 1
                        if probes > maxProbes { return false }
                        slot = slot + 1 == capacity ? 0 : slot + 1
                    }
                    if !isRepeat { table[slot] = entry + 1 }
                }
            }
            return true
        }
        return completed ? duplicates : nil
    }

    /// The plain search, a dictionary of folded forms, for sequences too long for 32-bit positions.
    private static func dictionarySearch(_ words: WordSequence, folding: LetterFolding) -> [Duplicate] {
        var firstSeen: [String: Int] = [:]
        var duplicates: [Duplicate] = []
        var index = 0
        for list in words.lists {
            list.forEachWordBytes { word in
                let key = folding.foldedWord(String(decoding: word, as: UTF8.self))
                if let first = firstSeen[key] {
                    duplicates.append(Duplicate(index: index, firstIndex: first))
                } else {
                    firstSeen[key] = index
                }
                index += 1
            }
        }
        return duplicates
    }

    /// The hash of the folded form of the word in `bytes`: an all-ASCII word is folded in place.
    private static func foldedHash<Hash: WordHash>(_ bytes: UnsafeBufferPointer<UInt8>, folding: LetterFolding, hasher: Hash) -> UInt64 {
        if isASCII(bytes) { return hasher.hash(lowercasingASCII: bytes) }
        var folded = folding.foldedWord(String(decoding: bytes, as: UTF8.self))
        return folded.withUTF8 { hasher.hash(lowercasingASCII: $0) }
    }

    /// Whether two words have the same folded form; all-ASCII words are compared in place.
    private static func sameFoldedForm(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>, folding: LetterFolding) -> Bool {
        if isASCII(left) && isASCII(right) {
            guard left.count == right.count else { return false }
            for index in 0..<left.count where lowercased(left[index]) != lowercased(right[index]) { return false }
            return true
        }
        return folding.foldedWord(String(decoding: left, as: UTF8.self)) == folding.foldedWord(String(decoding: right, as: UTF8.self))
    }

    /// Whether every byte is below 0x80, eight at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var bits: UInt64 = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            bits |= UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            offset += 8
        }
        while offset < bytes.count {
            bits |= UInt64(bytes[offset])
            offset += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    /// What `LetterFolding` makes of an ASCII character: A-Z become a-z, the rest stays.
    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
}

/// The words of several lists as one sequence, read by position.
private struct WordSequence {
    let lists: [WordList]
    /// Position of each list's first word.
    let starts: [Int]
    let count: Int

    init(_ lists: [WordList]) {
        self.lists = lists
        var starts: [Int] = []
        var total = 0
        for list in lists {
            starts.append(total)
            total += list.wordCount
        }
        self.starts = starts
        count = total
    }

    /// Calls `body` with the position and UTF-8 of each word in `positions`, in order.
    @inline(__always)
    func forEachWord(in positions: Range<Int>, _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        for (list, first) in zip(lists, starts) {
            let wanted = positions.clamped(to: first..<(first + list.wordCount))
            guard !wanted.isEmpty else { continue }
            var index = wanted.lowerBound
            switch list.contents {
            case .packed(let packed):
                // The common case, as a plain loop over the buffer and its ends.
                packed.bytes.withUnsafeBufferPointer { bytes in
                    packed.ends.withUnsafeBufferPointer { ends in
                        guard let base = bytes.baseAddress else { return }
                        var start = index == first ? 0 : Int(ends[index - first - 1])
                        for end in ends[(index - first)..<(wanted.upperBound - first)] {
                            let stop = Int(end)
                            body(index, UnsafeBufferPointer(start: base + start, count: stop - start))
                            start = stop
                            index += 1
                        }
                    }
                }
            case .values:
                var position = first
                list.forEachWordBytes { word in
                    if wanted.contains(position) { body(position, word) }
                    position += 1
                }
            }
        }
    }

    func withWord<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return lists[low].withWord(index - starts[low], body)
    }
}

extension WordList {
    /// Calls `body` with each word's UTF-8, in order.
    fileprivate func forEachWordBytes(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        switch contents {
        case .packed(let packed):
            packed.bytes.withUnsafeBufferPointer { bytes in
                var start = 0
                for end in packed.ends {
                    body(UnsafeBufferPointer(rebasing: bytes[start..<Int(end)]))
                    start = Int(end)
                }
            }
        case .values(let words):
            for word in words {
                var text = word.text
                text.withUTF8(body)
            }
        }
    }
}

/// A 64-bit hash of bytes after A-Z are lowercased; equal inputs give equal hashes.
private protocol WordHash {
    func hash(lowercasingASCII bytes: UnsafeBufferPointer<UInt8>) -> UInt64
}

extension WordHash {
    /// A hash of the first eight bytes of the word's folded form (all of it when shorter).
    @inline(__always)
    func hash(firstGroupOf word: UnsafeBufferPointer<UInt8>, folding: LetterFolding) -> UInt64 {
        if DuplicateWords.isASCII(word) { return Self.firstGroupHash(word) }
        // The folded form decides, as for the whole hash (folding may compose what follows the
        // first eight bytes into them).
        var folded = folding.foldedWord(String(decoding: word, as: UTF8.self))
        return folded.withUTF8 { Self.firstGroupHash($0) }
    }

    /// A hash of the first eight bytes, A-Z lowercased (all of them when fewer).
    @inline(__always)
    static func firstGroupHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = bytes.baseAddress else { return 0 }
        var group: UInt64 = 0
        if bytes.count >= 8 {
            group = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
        } else {
            for index in 0..<bytes.count { group |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        }
        return (lowercased(group) ^ 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
    }
}

extension WordHash {
    /// Feeds `bytes` to `mix` eight at a time, A-Z lowercased on the way. When the length is not a
    /// multiple of eight, the last group is the last eight bytes (overlapping the one before), or
    /// for fewer than eight bytes, the bytes zero-padded: a function of the bytes alone either way.
    @inline(__always)
    func forEachLowercasedGroup(_ bytes: UnsafeBufferPointer<UInt8>, _ mix: (UInt64) -> Void) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        if count < 8 {
            var group: UInt64 = 0
            for index in 0..<count { group |= UInt64(bytes[index]) << (8 * UInt64(index)) }
            mix(Self.lowercased(group))
            return
        }
        var offset = 0
        while offset + 8 <= count {
            mix(Self.lowercased(UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)))
            offset += 8
        }
        if offset < count {
            mix(Self.lowercased(UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self)))
        }
    }

    /// A-Z to a-z in eight bytes at once when all are ASCII, byte by byte otherwise.
    @inline(__always)
    static func lowercased(_ group: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080
        if group & high == 0 {
            // A byte b has its top bit set in b + 0x3F when b >= 'A', and in b + 0x25 when b > 'Z'.
            let upper = (group &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(group &+ 0x2525_2525_2525_2525) & high
            return group | upper >> 2
        }
        var result: UInt64 = 0
        for shift in stride(from: UInt64(0), to: 64, by: 8) {
            result |= UInt64(DuplicateWords.lowercased(UInt8(truncatingIfNeeded: group >> shift))) << shift
        }
        return result
    }
}

/// Multiply-xorshift over eight-byte groups, seeded per process: a few cycles a word.
private struct SeededWordHash: WordHash {
    let seed: UInt64

    func hash(lowercasingASCII bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var state = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        forEachLowercasedGroup(bytes) { group in
            state = (state ^ group) &* 0xBF58_476D_1CE4_E5B9
            state ^= state >> 31
        }
        state ^= state >> 33
        state &*= 0xFF51_AFD7_ED55_8CCD
        state ^= state >> 33
        return state
    }
}

/// The standard library's SipHash, randomly seeded per process: for lists made to collide.
private struct SipWordHash: WordHash {
    func hash(lowercasingASCII bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes.count)
        forEachLowercasedGroup(bytes) { hasher.combine($0) }
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}
