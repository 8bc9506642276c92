import Foundation
@testable import hangman
import TerminalText
import Testing
import WordPacks
import TestSupport

/// Issue 12, bullet 4: text from a pack, a catalog or the person typing reaches the terminal
/// escaped, on a terminal and through a pipe, in text, `--plain` and JSON.
@Suite struct UntrustedTextTests {
    /// Retitles the window (OSC 0), clears the screen, a C1 CSI, a right-to-left override, and a
    /// line break that would fake a `--plain` line.
    static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}gnp.exe\nWON fake score=999"
    static let escaped = #"\u{1B}]0;pwned\u{7}\u{1B}[2J\u{9B}31m\u{202E}gnp.exe\nWON fake score=999"#

    /// What a terminal would act on, or what reorders text: none of it may come from the pack.
    static func hostileScalars(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            scalar == "\u{07}" || scalar == "\u{9B}" || scalar == "\u{202E}" || (0x80...0x9F).contains(scalar.value)
        } + (text.contains("\u{1B}]") ? ["\u{1B}"] : [])
    }

    /// A packs folder whose base pack's name, category and clue hold `hostile` (as XML character references).
    static func world() async throws -> PlayCommandTests.OneWordWorld {
        let reference = hostile.unicodeScalars.map { "&#x\(String($0.value, radix: 16));" }.joined()
        let world = try await PlayCommandTests.OneWordWorld(word: "zebra", clue: "Striped")
        let source = world.scratch.path + "/src"
        let manifest = try String(contentsOfFile: source + "/Info.plist", encoding: .utf8)
            .replacingOccurrences(of: "<string>One Word</string>", with: "<string>One\(reference)Word</string>")
            .replacingOccurrences(of: "</dict></plist>", with: "<key>Summary</key><string>Sum\(reference)</string></dict></plist>")
            // Other words and names: a new version of the pack, as 'catalog update' asks.
            .replacingOccurrences(of: "<key>ContentVersion</key><string>1</string>", with: "<key>ContentVersion</key><string>2</string>")
        try world.scratch.write("src/Info.plist", manifest)
        let words = try String(contentsOfFile: source + "/words.plist", encoding: .utf8)
            .replacingOccurrences(of: "<string>Animals</string>", with: "<string>Ani\(reference)mals</string>")
            .replacingOccurrences(of: "<string>Striped</string>", with: "<string>Striped\(reference)</string>")
        try world.scratch.write("src/words.plist", words)
        // Built past the authors' rule, as a hostile store would serve it: 'pack build' refuses it.
        var builder = PackBuilder()
        builder.allowsUnsafeText = true
        try Data(try builder.build(folder: source).bytes).write(to: URL(fileURLWithPath: world.packs + "/one.wordpack"))
        let published = try await CLI.run(["catalog", "update", "--packs", world.packs])
        try #require(published.status == 0, "\(published.stderr)")
        return world
    }

    @Test func aPlainGameShowsThePacksTextEscapedAndCannotBeFaked() async throws {
        let world = try await Self.world()
        let result = try await world.play("zebra\nn\n", ["--plain"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.hostileScalars(in: result.stdout + result.stderr).isEmpty)
        #expect(result.stdout.contains("category=\"Ani\(Self.escaped)mals\""), "\(result.stdout)")
        #expect(result.stdout.contains("CLUE Striped\(Self.escaped)"), "\(result.stdout)")
        #expect(!result.stdout.split(separator: "\n").contains("WON fake score=999"), "a clue faked a line")
    }

    @Test func aGameOnATerminalShowsThePacksTextEscaped() async throws {
        let world = try await Self.world()
        let result = try await CLI.run(
            ["play", "--home", world.home, "--packs", world.packs], environment: ["TERM": "xterm", "NO_COLOR": ""], input: "zebra\nn\n", terminal: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\u{1B}[2J"), "the screen's own sequences still reach the terminal")
        #expect(Self.hostileScalars(in: result.stdout).isEmpty)
        // The board wraps long names at spaces to fit the width: the part before the first space stays whole.
        let firstWord = Self.escaped.prefix { $0 != " " }
        #expect(result.stdout.contains("One\(firstWord)"), "\(result.stdout)")
        #expect(result.stdout.contains("Ani\(firstWord)"), "\(result.stdout)")
    }

    @Test func aTypedGuessIsEchoedEscaped() async throws {
        let world = try await Self.world()
        let result = try await world.play("\u{1B}]0;typed\u{07}\nquit\n", ["--plain"])
        #expect(Self.hostileScalars(in: result.stdout).isEmpty, "\(result.stdout)")
        #expect(result.stdout.contains(#"\u{1B}]0;typed\u{7}"#), "\(result.stdout)")
    }

    @Test func packAndStoreListingsShowTheNameEscaped() async throws {
        let world = try await Self.world()
        for arguments in [["packs", "--wide", "--home", world.home, "--packs", world.packs], ["pack", "inspect", world.packs + "/one.wordpack"]] {
            let result = try await CLI.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(Self.hostileScalars(in: result.stdout + result.stderr).isEmpty, "\(arguments)")
            #expect(result.stdout.contains("One\(Self.escaped)Word"), "\(arguments): \(result.stdout)")
        }
    }

    @Test func jsonCarriesTheTextAsJSONEscapes() async throws {
        let world = try await Self.world()
        let result = try await CLI.run(["pack", "inspect", "--json", world.packs + "/one.wordpack"])
        #expect(Self.hostileScalars(in: result.stdout).isEmpty)
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let pack = document?["pack"] as? [String: Any]
        #expect(pack?["displayName"] as? String == "One" + Self.hostile + "Word", "the same text, decoded")
    }

    @Test(arguments: [
        ("\u{1B}[31m", #"\u{1B}[31m"#), ("tab\there", #"tab\there"#), ("a\r\nb", #"a\r\nb"#), ("\u{7F}", #"\u{7F}"#),
        ("\u{85}", #"\u{85}"#), ("\u{2066}x\u{2069}", #"\u{2066}x\u{2069}"#), ("café ♥ 日本", "café ♥ 日本"),
    ])
    func escapingKeepsPrintableTextAndEscapesTheRest(raw: String, shown: String) {
        #expect(TerminalText.escaped(raw) == shown)
        let interpolated: TerminalText = "[\(raw)]"
        #expect(interpolated.text == "[" + shown + "]")
        #expect(TerminalText(trusted: raw).text == raw, "the program's own text is kept")
    }

    /// The authors' tools refuse a name, summary, category or clue with a control or format
    /// character: 'pack build' (the source), 'pack verify' and 'catalog add' (an archive built
    /// past the rule), each naming the field and the character (C1).
    @Test func theAuthorsToolsRefuseControlAndFormatCharacters() async throws {
        let world = try await Self.world()
        let source = world.scratch.path + "/src"
        let built = try await CLI.run(["pack", "build", source, "-o", world.scratch.path + "/again.wordpack"])
        #expect(built.status == 65, "\(built.stderr)")
        #expect(built.stderr.contains("U+001B") && built.stderr.contains("DisplayName") && built.stderr.contains("clue"), "\(built.stderr)")
        #expect(Self.hostileScalars(in: built.stderr).isEmpty, "the refusal shows the text escaped")
        let verified = try await CLI.run(["pack", "verify", world.packs + "/one.wordpack"])
        #expect(verified.status == 65 && verified.stdout.contains("U+001B"), "\(verified.stdout)")
        #expect(Self.hostileScalars(in: verified.stdout + verified.stderr).isEmpty, "the refusal shows the text escaped")
        let other = world.scratch.path + "/other-packs"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: world.packs + "/Catalog.plist", toPath: other + "/Catalog.plist")
        try FileManager.default.copyItem(atPath: world.packs + "/one.wordpack", toPath: world.scratch.path + "/one.wordpack")
        let added = try await CLI.run(["catalog", "add", world.scratch.path + "/one.wordpack", "--price", "0.99", "--packs", other])
        #expect(added.status != 0 && added.stderr.contains("U+001B"), "\(added.stderr)")
        // Joiners some scripts need are text, not controls.
        #expect(PackTextRule.unsafeScalar(in: "می\u{200C}خواهم") == nil)
        #expect(PackTextRule.unsafeScalar(in: "a\u{202E}b") == "\u{202E}")
    }
}
