internal import CICU
import Synchronization

/// Unicode TR39's spoof checks through ICU's spoof checker, for names people read: the skeleton
/// two look-alike names share (`uspoof_getSkeletonUTF8`), whether a name mixes scripts, numbers
/// of several systems, or holds invisible marks (`uspoof_check2UTF8`, restricted to one script
/// and the common characters beside it), and NFKC with case folded (`unorm2_normalize`).
public enum Confusables {
    /// What is wrong with a name as TR39 sees it.
    public struct Problems: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Letters of more than one script (Latin with Cyrillic, say).
        public static let mixedScripts = Problems(rawValue: HP_SPOOF_MIXED_SCRIPTS)
        /// Invisible characters, or one mark twice on a letter.
        public static let invisible = Problems(rawValue: HP_SPOOF_INVISIBLE)
        /// Digits of more than one numbering system.
        public static let mixedNumbers = Problems(rawValue: HP_SPOOF_MIXED_NUMBERS)
    }

    /// The TR39 skeleton of `text`: two names with one skeleton look alike (`rn` and `m`, Latin
    /// `a` and Cyrillic `а`). `nil` when ICU cannot make one.
    public static func skeleton(_ text: String) -> String? {
        checker.withLock { checker -> String? in
            guard let pointer = checker.pointer else { return nil }
            let input = Array(text.utf8).map { CChar(bitPattern: $0) }
            var capacity = max(64, input.count * 4)
            for _ in 0..<3 {
                var out = [CChar](repeating: 0, count: capacity)
                let length = hp_spoof_skeleton(pointer, input, Int32(input.count), &out, Int32(capacity))
                guard length >= 0 else { return nil }
                if Int(length) > capacity {
                    capacity = Int(length) + 1
                    continue
                }
                return String(decoding: out.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            return nil
        }
    }

    /// The checks `text` fails (empty when it passes); `nil` when ICU cannot check it.
    public static func problems(_ text: String) -> Problems? {
        checker.withLock { checker -> Problems? in
            guard let pointer = checker.pointer else { return nil }
            let input = Array(text.utf8).map { CChar(bitPattern: $0) }
            let bits = hp_spoof_check(pointer, input, Int32(input.count))
            return bits < 0 ? nil : Problems(rawValue: bits)
        }
    }

    /// `text` in NFKC with case folded: fullwidth, mathematical and circled letters become the
    /// letters they are drawn from, and case goes. `nil` when ICU cannot normalize it.
    public static func compatibilityFolded(_ text: String) -> String? {
        let input = Array(text.utf16)
        var capacity = max(16, input.count * 3)
        for _ in 0..<3 {
            var out = [UInt16](repeating: 0, count: capacity)
            let length = hp_nfkc_casefold(input, Int32(input.count), &out, Int32(capacity))
            guard length >= 0 else { return nil }
            if Int(length) > capacity {
                capacity = Int(length) + 1
                continue
            }
            return String(decoding: out.prefix(Int(length)), as: UTF16.self)
        }
        return nil
    }

    /// One checker for the process, used under a lock (ICU's checker checks one text at a time).
    private static let checker = Mutex(Checker())

    private struct Checker: ~Copyable {
        let pointer: UnsafeMutableRawPointer?

        init() { pointer = hp_spoof_open() }

        deinit { hp_spoof_close(pointer) }
    }
}
