import Foundation
import Testing
import WordPacks

/// Theme packs (the gallows as art) and a word pack's daily list, as `pack build` and `pack
/// verify` take them: what they accept, and every refusal.
@Suite struct ThemeAndDailyListTests {
    static let themeManifest = Fixture.manifest(id: "com.example.theme.box", extra: "<key>Kind</key><string>Theme</string>")

    /// Seven drawings of `lines` lines by `width` columns, the k-th with k marks.
    static func drawings(lines: Int, width: Int) -> [String] {
        (0..<7).map { stage in
            (0..<lines).map { line in
                let row = line == lines - 1 ? String(repeating: "#", count: min(stage, width)) : ""
                return row.padding(toLength: width, withPad: " ", startingAt: 0)
            }.joined(separator: "\n")
        }
    }

    static func frames(_ frames: [String] = drawings(lines: 8, width: 14), small: [String] = drawings(lines: 3, width: 10), name: String = "Box") -> [UInt8] {
        func array(_ items: [String]) -> String { "<array>" + items.map { "<string>\(Fixture.escape($0))</string>" }.joined() + "</array>" }
        return Fixture.xml("<dict><key>name</key><string>\(name)</string><key>Frames</key>\(array(frames))<key>SmallFrames</key>\(array(small))</dict>")
    }

    /// A theme built and read back, or what the build refused.
    struct Outcome {
        var pack: WordPack?
        var problems: [PackProblem]
        var isValid: Bool { pack != nil && problems.isEmpty }
    }

    static func theme(_ frames: [UInt8], extra: [(String, [UInt8])] = []) -> Outcome {
        let source = Fixture.source([("Info.plist", themeManifest), ("frames.plist", frames)] + extra)
        do {
            let read = PackVerifier().verify(try PackBuilder().build(source).bytes)
            return Outcome(pack: read.pack, problems: read.problems)
        } catch {
            return Outcome(pack: nil, problems: error.problems)
        }
    }

    @Test func aThemeBuildsVerifiesAndKeepsItsDrawings() throws {
        let result = Self.theme(Self.frames())
        #expect(result.isValid, "\(result.problems)")
        let pack = try #require(result.pack)
        #expect(pack.manifest.kind == .theme && pack.lists.isEmpty && pack.wordCount == 0)
        let theme = try #require(pack.theme)
        #expect(theme.name == "Box" && theme.frames.count == 7 && theme.smallFrames.count == 7)
        #expect(theme.frame(misses: 0, lives: 6).last == String(repeating: " ", count: 14))
        #expect(theme.frame(misses: 6, lives: 6).last?.hasPrefix("######") == true)
        // Any number of lives maps onto the seven stages; a game lost is the last.
        #expect(ThemeFrames.stage(misses: 3, lives: 3) == 6 && ThemeFrames.stage(misses: 1, lives: 10) == 1 && ThemeFrames.stage(misses: 0, lives: 0) == 6)
        #expect(theme.frame(misses: 1, lives: 6, small: true).count == 3)
    }

    @Test func hostileDrawingsAreRefusedByName() {
        let good = Self.drawings(lines: 8, width: 14)
        var escape = good
        escape[2] = "\u{1B}[2J" + String(escape[2].dropFirst(4))
        var tab = good
        tab[1] = "\t" + String(tab[1].dropFirst())
        var ragged = good
        ragged[3] = ragged[3] + "x"
        var unicode = good
        unicode[0] = "☠" + String(unicode[0].dropFirst())
        let cases: [(String, [UInt8])] = [
            ("an escape sequence", Self.frames(escape)), ("a tab", Self.frames(tab)), ("a ragged line", Self.frames(ragged)),
            ("a character past ASCII", Self.frames(unicode)), ("six drawings", Self.frames(Array(good.prefix(6)))),
            ("eight drawings", Self.frames(good + [good[6]])), ("13 lines", Self.frames(Self.drawings(lines: 13, width: 14))),
            ("21 columns", Self.frames(Self.drawings(lines: 8, width: 21))), ("a small version of 5 lines", Self.frames(small: Self.drawings(lines: 5, width: 10))),
            ("drawings of two sizes", Self.frames(Array(good.prefix(3)) + Self.drawings(lines: 9, width: 14).suffix(4))),
            ("no SmallFrames", Fixture.xml("<dict><key>Frames</key><array>" + good.map { "<string>\($0)</string>" }.joined() + "</array></dict>")),
            ("an array root", Fixture.xml("<array><string>x</string></array>")),
        ]
        for (what, frames) in cases {
            let result = Self.theme(frames)
            #expect(!result.isValid && result.problems.contains { $0.kind == .badTheme }, "\(what): \(result.problems)")
        }
        let withWords = Self.theme(Self.frames(), extra: [("words.plist", Fixture.wordList(Fixture.animals))])
        #expect(withWords.problems.contains { $0.kind == .badTheme && $0.entry?.hasSuffix("words.plist") == true }, "\(withWords.problems)")
        let noFrames = Self.refusal([("Info.plist", Self.themeManifest)])
        #expect(noFrames.contains { $0.kind == .badTheme }, "\(noFrames)")
        let unknownKind = Self.refusal([
            ("Info.plist", Fixture.manifest(extra: "<key>Kind</key><string>Sticker</string>")), ("words.plist", Fixture.wordList(Fixture.animals)),
        ])
        #expect(unknownKind.contains { $0.kind == .badKind }, "\(unknownKind)")
    }

    /// What `pack build` refuses in a source, every problem.
    static func refusal(_ files: [(String, [UInt8])]) -> [PackProblem] {
        do {
            _ = try PackBuilder().build(Fixture.source(files))
            return []
        } catch {
            return error.problems
        }
    }

    /// A daily list is one of the pack's word lists that `DailyList` names: played and counted
    /// like the others, its words told apart from every other list's (a reader from before
    /// `DailyList` finds nothing new in such a pack).
    @Test func aDailyListIsOneOfThePacksLists() throws {
        let source = Fixture.source([
            ("Info.plist", Fixture.manifest(extra: "<key>DailyList</key><string>daily.plist</string>")),
            ("words.plist", Fixture.wordList(Fixture.animals)), ("daily.plist", Fixture.wordList(["walrus", "beaver"], name: "Common Words")),
        ])
        let built = try PackBuilder().build(source)
        let pack = try #require(PackVerifier().verify(built.bytes).pack)
        #expect(pack.wordCount == Fixture.animals.count + 2 && pack.manifest.wordCount == pack.wordCount)
        #expect(pack.dailyList?.words.map(\.text) == ["walrus", "beaver"] && pack.dailyList?.name == "Common Words")
        #expect(pack.lists.map(\.path) == ["daily.plist", "words.plist"])

        func refusal(_ files: [(String, [UInt8])], _ daily: String = "daily.plist") -> [PackProblem] {
            Self.refusal([("Info.plist", Fixture.manifest(extra: "<key>DailyList</key><string>\(daily)</string>"))] + files)
        }
        let twice = refusal([("words.plist", Fixture.wordList(Fixture.animals)), ("daily.plist", Fixture.wordList(["horse", "walrus"]))])
        #expect(twice.contains { $0.kind == .duplicateWord && $0.message.contains("horse") }, "\(twice)")
        let missing = refusal([("words.plist", Fixture.wordList(Fixture.animals))])
        #expect(missing.contains { $0.kind == .badDailyList }, "\(missing)")
        let outside = refusal([("words.plist", Fixture.wordList(Fixture.animals))], "../daily.plist")
        #expect(outside.contains { $0.kind == .badDailyList }, "\(outside)")
        let notAList = refusal([("words.plist", Fixture.wordList(Fixture.animals))], "notes.txt")
        #expect(notAList.contains { $0.kind == .badDailyList }, "\(notAList)")
    }

    /// A theme's drawings are covered by its manifest's `Files` (and so by its signature) like any
    /// file: drawings added after the build are refused.
    @Test func aThemesDrawingsAreInItsFiles() throws {
        let built = try PackBuilder().build(Fixture.source([("Info.plist", Self.themeManifest), ("frames.plist", Self.frames())]))
        #expect(built.pack.manifest.files?["frames.plist"] != nil)
        let manifest = Fixture.manifest(id: "com.example.theme.box", extra: "<key>Kind</key><string>Theme</string><key>Files</key><dict/>")
        let added = try Fixture.archive([.file("box/Info.plist", manifest), .file("box/frames.plist", Self.frames())])
        let result = PackVerifier().verify(added)
        #expect(result.problems.contains { $0.kind == .fileNotListed && $0.entry?.hasSuffix("frames.plist") == true }, "\(result.problems)")
    }
}
