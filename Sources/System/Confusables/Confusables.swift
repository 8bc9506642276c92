internal import CICU
import Synchronization

/// Unicode TR39's spoof checks through ICU's spoof checker (`uspoof_*`), for names people read:
/// the skeleton two look-alike names share (`uspoof_getSkeletonUTF8`), and whether a name mixes
/// scripts, numbers of several systems, or holds invisible marks (`uspoof_check2UTF8`, restricted
/// to one script, the common characters beside it).
public enum Confusables {
    /// What is wrong with a name as TR39 sees it.
    public struct Problems: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Letters of more than one script (Latin with Cyrillic, say).
        public static let mixedScripts = Problems(rawValue: HP_USPOOF_RESTRICTION_LEVEL)
        /// Invisible characters, or one mark twice on a letter.
        public static let invisible = Problems(rawValue: HP_USPOOF_INVISIBLE)
        /// Digits of more than one numbering system.
        public static let mixedNumbers = Problems(rawValue: HP_USPOOF_MIXED_NUMBERS)
    }

    /// The TR39 skeleton of `text`: two names with one skeleton look alike (`Ana` and Cyrillic
    /// `Аnа`, `rn` and `m`). `nil` when ICU cannot make one (it has no memory, or the text is
    /// not UTF-8 it reads).
    public static func skeleton(_ text: String) -> String? {
        checker.withLock { checker -> String? in
            guard let checker = checker.pointer else { return nil }
            let input = Array(text.utf8)
            var capacity = max(64, input.count * 4)
            for _ in 0..<3 {
                var status = U_ZERO_ERROR
                var out = [CChar](repeating: 0, count: capacity)
                let length = input.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { hp_uspoof_getSkeletonUTF8(checker, $0.baseAddress, Int32($0.count), &out, Int32(capacity), &status) }
                }
                if status == U_BUFFER_OVERFLOW_ERROR {
                    capacity = Int(length) + 1
                    continue
                }
                guard hp_u_failure(status) == 0, length >= 0 else { return nil }
                return String(decoding: out.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            return nil
        }
    }

    /// `text` in NFKC with case folded (`unorm2_getNFKCCasefoldInstance`): fullwidth, mathematical
    /// and circled letters become the letters they are drawn from, and case goes. `nil` when ICU
    /// cannot normalize it.
    public static func compatibilityFolded(_ text: String) -> String? {
        var status = U_ZERO_ERROR
        guard let normalizer = hp_unorm2_nfkcCasefold(&status), hp_u_failure(status) == 0 else { return nil }
        let input = Array(text.utf16)
        var capacity = max(16, input.count * 3)
        for _ in 0..<3 {
            status = U_ZERO_ERROR
            var out = [UInt16](repeating: 0, count: capacity)
            let length = hp_unorm2_normalize(normalizer, input, Int32(input.count), &out, Int32(capacity), &status)
            if status == U_BUFFER_OVERFLOW_ERROR {
                capacity = Int(length) + 1
                continue
            }
            guard hp_u_failure(status) == 0, length >= 0 else { return nil }
            return String(decoding: out.prefix(Int(length)), as: UTF16.self)
        }
        return nil
    }

    /// The checks `text` fails; empty when it passes, or when ICU cannot check it (`nil`).
    public static func problems(_ text: String) -> Problems? {
        checker.withLock { checker -> Problems? in
            guard let checker = checker.pointer else { return nil }
            let input = Array(text.utf8)
            var status = U_ZERO_ERROR
            let result = input.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { hp_uspoof_checkUTF8(checker, $0.baseAddress, Int32($0.count), &status) }
            }
            guard hp_u_failure(status) == 0 else { return nil }
            return Problems(rawValue: result).intersection([.mixedScripts, .invisible, .mixedNumbers])
        }
    }

    /// One checker for the process, used under a lock (ICU's checker is not to be shared by threads
    /// while it checks).
    private static let checker = Mutex(Checker())

    private struct Checker: ~Copyable {
        let pointer: OpaquePointer?

        init() {
            var status = U_ZERO_ERROR
            let made = hp_uspoof_open(&status)
            guard hp_u_failure(status) == 0, let made else {
                pointer = nil
                return
            }
            hp_uspoof_setChecks(made, HP_USPOOF_RESTRICTION_LEVEL | HP_USPOOF_INVISIBLE | HP_USPOOF_MIXED_NUMBERS, &status)
            hp_uspoof_setRestrictionLevel(made, HP_USPOOF_SINGLE_SCRIPT_RESTRICTIVE)
            pointer = hp_u_failure(status) == 0 ? made : nil
        }

        deinit { if let pointer { hp_uspoof_close(pointer) } }
    }
}
