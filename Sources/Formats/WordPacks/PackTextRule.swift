/// The rule for the text a pack shows a player (its name, summary, licence, attribution,
/// categories and clues): no control character, no line or paragraph separator, no bidi control
/// and no other format character but the joiners some scripts need (U+200C, U+200D). Such a
/// character can rewrite a terminal (an escape sequence), reorder what a player reads (U+202E),
/// or hide text; every place that shows pack text escapes it too, and this rule keeps authors
/// from publishing it at all: `pack build`, `pack verify` and `catalog add` apply it (theme
/// drawings have a stricter one of their own, printable ASCII).
public enum PackTextRule {
    /// The first character of `text` the rule refuses, if any.
    public static func unsafeScalar(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: true
            case .format: scalar.value != 0x200C && scalar.value != 0x200D
            default: false
            }
        }
    }

    /// Every place in `pack` whose text the rule refuses, a problem each (at most one per field,
    /// and at most `limit` in all).
    public static func problems(in pack: WordPack, limit: Int = 20) -> [PackProblem] {
        var problems: [PackProblem] = []
        func check(_ text: String?, _ what: String, entry: String?) {
            guard problems.count < limit, let text, let scalar = unsafeScalar(in: text) else { return }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            problems.append(PackProblem(
                .unsafeText, entry: entry,
                "\(what) holds U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex), a control or format character a player's screen would act on or hide: remove it"))
        }
        let manifest = pack.manifest
        check(manifest.displayName, "DisplayName", entry: "Info.plist")
        check(manifest.summary, "Summary", entry: "Info.plist")
        check(manifest.license, "License", entry: "Info.plist")
        check(manifest.attribution, "Attribution", entry: "Info.plist")
        for list in pack.lists {
            check(list.name, "the list's name", entry: list.path)
            // Word by word without a String of each word (a million-word list stays in its buffer).
            list.forEachWord { word, clue in
                guard problems.count < limit, let clue, unsafeScalar(in: clue) != nil else { return }
                check(clue, "the clue of '\(printable(String(decoding: word, as: UTF8.self)))'", entry: list.path)
            }
        }
        return problems
    }
}
