import PropertyList

/// A theme pack's art: the gallows as drawings, one per stage of lives lost (`stages`: nothing
/// lost, then one step more each, the last the game lost), each at most 12 lines by 20 columns,
/// and a small version of each (at most 4 lines) for short windows. The game maps any number of
/// lives onto the stages, as it does for the stick figure it draws without a theme.
///
/// `frames.plist` at the top of the pack: `{name, Frames: [7 strings], SmallFrames: [7 strings]}`,
/// each string the drawing's lines joined by `\n`. A drawing is rectangular (every line as wide
/// as the others, every drawing of a set the same size) and printable ASCII: no tab, no escape
/// sequence, nothing a terminal would act on.
public struct ThemeFrames: Sendable, Equatable {
    /// The file that holds them, at the top of a theme pack.
    public static let fileName = "frames.plist"
    /// Drawings in a set: the stages of a game, from no life lost to lost.
    public static let stages = 7
    /// The largest drawing: lines of a full one, lines of a small one (narrow terminals), columns of either.
    public static let maxLines = 12, maxSmallLines = 4, maxColumns = 20

    /// The theme's name, as its player chooses it (`robot`).
    public var name: String
    /// `stages` drawings, each its lines.
    public var frames: [[String]]
    /// `stages` smaller drawings, for a screen too short for `frames`.
    public var smallFrames: [[String]]

    /// A theme named `name` with its drawings, full and small.
    public init(name: String, frames: [[String]], smallFrames: [[String]]) {
        self.name = name
        self.frames = frames
        self.smallFrames = smallFrames
    }

    /// The drawing for `misses` of `lives` (small: the short windows' version).
    public func frame(misses: Int, lives: Int, small: Bool = false) -> [String] {
        (small ? smallFrames : frames)[Self.stage(misses: misses, lives: lives)]
    }

    /// The stage a game is at: lives lost mapped onto the drawings (a game lost is the last).
    public static func stage(misses: Int, lives: Int) -> Int {
        lives <= 0 ? stages - 1 : max(0, min(stages - 1, (misses * (stages - 1) + lives - 1) / lives))
    }

    /// Reads and checks `frames.plist`, collecting every problem; `nil` when it cannot be used.
    static func parse(_ value: PropertyList, entry: String, problems: inout [PackProblem]) -> ThemeFrames? {
        guard case .dictionary(let dict) = value else {
            problems.append(PackProblem(.badTheme, entry: entry, "the theme's root is \(value.typeName), expected a dictionary {name, Frames, SmallFrames}"))
            return nil
        }
        let before = problems.count
        var name = "Theme"
        if case .string(let text)? = dict["name"], !text.isEmpty { name = text }
        func drawings(_ key: String, maxLines: Int) -> [[String]] {
            guard case .array(let items)? = dict[key] else {
                problems.append(PackProblem(.badTheme, entry: entry, "'\(key)' is missing or not an array of \(stages) drawings"))
                return []
            }
            if items.count != stages {
                problems.append(PackProblem(
                    .badTheme, entry: entry, "'\(key)' has \(items.count) drawings: a theme has \(stages), one for each stage from no life lost to lost"))
            }
            var sets: [[String]] = []
            for (index, item) in items.prefix(stages).enumerated() {
                guard case .string(let text) = item else {
                    problems.append(PackProblem(.badTheme, entry: entry, "\(key)[\(index)] is \(item.typeName), expected a string"))
                    continue
                }
                if let problem = drawingProblem(text, maxLines: maxLines) {
                    problems.append(PackProblem(.badTheme, entry: entry, "\(key)[\(index)] \(problem)"))
                    continue
                }
                sets.append(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            }
            if let first = sets.first, sets.contains(where: { $0.count != first.count || $0[0].utf8.count != first[0].utf8.count }) {
                problems.append(PackProblem(.badTheme, entry: entry, "the drawings of '\(key)' differ in size: every one is as many lines by as many columns as the first"))
            }
            return sets
        }
        let frames = drawings("Frames", maxLines: maxLines)
        let small = drawings("SmallFrames", maxLines: maxSmallLines)
        guard problems.count == before else { return nil }
        return ThemeFrames(name: name, frames: frames, smallFrames: small)
    }

    /// What is wrong with one drawing, or `nil`: 1 to `maxLines` lines, all as wide (1 to 20
    /// columns), printable ASCII only.
    static func drawingProblem(_ text: String, maxLines: Int) -> String? {
        if let bad = text.unicodeScalars.first(where: { $0 != "\n" && !(0x20...0x7E).contains($0.value) }) {
            return "holds U+\(String(bad.value, radix: 16, uppercase: true)): a drawing is printable ASCII only (no tab, no escape sequence)"
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count > maxLines { return "has \(lines.count) lines: at most \(maxLines)" }
        let width = lines[0].utf8.count
        if width == 0 || width > maxColumns { return "is \(width) columns wide: 1 to \(maxColumns)" }
        if let other = lines.firstIndex(where: { $0.utf8.count != width }) {
            return "is not rectangular: line \(other + 1) is \(lines[other].utf8.count) columns, the first \(width) (pad with spaces)"
        }
        return nil
    }
}
