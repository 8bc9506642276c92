import LetterFolding

/// Finds words that the game cannot tell apart: the same `LetterFolding.foldedWord` form in the
/// pack's language.
///
/// Sorting 64-bit hashes of the folded forms, then confirming equal hashes with the folded strings,
/// keeps a million words to one flat array instead of a dictionary of strings (a dictionary took
/// 1.4 s of a 2.2 s verify of 1,000,000 words here; this takes about 0.1 s).
enum DuplicateWords {
    /// A word that repeats an earlier one.
    struct Duplicate: Equatable {
        /// Position of the repeat, and of the first occurrence, in the sequence searched.
        var index: Int
        var firstIndex: Int
    }

    /// Every repeat in `words` under `folding`, in order of position.
    static func find(in words: [String], folding: LetterFolding) -> [Duplicate] {
        guard words.count > 1 else { return [] }
        // One UInt64 per word: the hash's top bits above the word's index, so a plain integer
        // sort groups equal hashes with their words in order.
        let indexBits = max(1, Int.bitWidth - (words.count - 1).leadingZeroBitCount)
        let indexMask = (UInt64(1) << indexBits) - 1
        var keys: [UInt64] = []
        keys.reserveCapacity(words.count)
        for (index, word) in words.enumerated() {
            keys.append((foldedHash(word, folding: folding) & ~indexMask) | UInt64(index))
        }
        radixSort(&keys)
        let keyed = keys.map { (hash: $0 & ~indexMask, index: Int($0 & indexMask)) }

        var duplicates: [Duplicate] = []
        var start = 0
        while start < keyed.count {
            var end = start + 1
            while end < keyed.count && keyed[end].hash == keyed[start].hash { end += 1 }
            if end - start > 1 {
                // Same hash: group by the folded form itself, so that a hash collision is no duplicate.
                var firstOf: [String: Int] = [:]
                for item in keyed[start..<end] {
                    let index = item.index
                    let folded = folding.foldedWord(words[index])
                    if let first = firstOf[folded] {
                        duplicates.append(Duplicate(index: index, firstIndex: first))
                    } else {
                        firstOf[folded] = index
                    }
                }
            }
            start = end
        }
        return duplicates.sorted { $0.index < $1.index }
    }

    /// FNV-1a over the UTF-8 of the folded form; ASCII words are folded byte by byte without a copy
    /// (every language folds an ASCII letter to its lower case and keeps the other ASCII characters).
    static func foldedHash(_ word: String, folding: LetterFolding) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let ascii = word.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes {
                if byte >= 0x80 { return false }
                let lower = byte &- 0x41 < 26 ? byte | 0x20 : byte
                hash = (hash ^ UInt64(lower)) &* 0x100_0000_01b3
            }
            return true
        }
        if ascii == true { return hash }
        hash = 0xcbf2_9ce4_8422_2325
        for byte in folding.foldedWord(word).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }

    /// Sorts 64-bit keys in four passes of 16 bits (least significant first): linear time, where
    /// the standard library's merge sort took an eighth of a 1,000,000-word verification.
    static func radixSort(_ keys: inout [UInt64]) {
        guard keys.count > 4096 else {
            keys.sort()
            return
        }
        var buffer = [UInt64](repeating: 0, count: keys.count)
        var counts = [Int](repeating: 0, count: 65536)
        for shift in stride(from: 0, to: 64, by: 16) {
            for index in counts.indices { counts[index] = 0 }
            for key in keys { counts[Int((key >> UInt64(shift)) & 0xFFFF)] += 1 }
            var total = 0
            for index in counts.indices {
                let count = counts[index]
                counts[index] = total
                total += count
            }
            for key in keys {
                let bucket = Int((key >> UInt64(shift)) & 0xFFFF)
                buffer[counts[bucket]] = key
                counts[bucket] += 1
            }
            swap(&keys, &buffer)
        }
    }
}
