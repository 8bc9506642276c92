import Foundation
import Messages
import HangmanGame
@testable import hangman
import Testing
import TestSupport

/// The game's own words in German, French, Spanish and Brazilian Portuguese: every string the
/// program marks is in every catalog, each catalog passes gettext's own check, plural rules are
/// each language's, and the board fits 40 to 200 columns in every language.
@Suite struct MessageCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let languages = ["de": "de_DE.UTF-8", "fr": "fr_FR.UTF-8", "es": "es_ES.UTF-8", "pt_BR": "pt_BR.UTF-8"]

    /// What the program marks, as xgettext would find it: `L10n.text("...")` and
    /// `L10n.plural("...", "...")` in its sources, outside comments.
    static func marked() throws -> [(id: String, plural: String?)] {
        let pattern = try NSRegularExpression(pattern: #"L10n\.(text|plural)\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*"((?:[^"\\]|\\.)*)")?"#)
        var found: [(String, String?)] = []
        let sources = root.appendingPathComponent("Sources")
        for case let file as String in FileManager.default.enumerator(atPath: sources.path)! where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for match in pattern.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                let part = { (index: Int) -> String? in Range(match.range(at: index), in: code).map { String(code[$0]).replacingOccurrences(of: "\\\"", with: "\"") } }
                guard let id = part(2) else { continue }
                let plural = part(1) == "plural" ? part(3) : nil
                if !found.contains(where: { $0.0 == id }) { found.append((id, plural)) }
            }
        }
        return found
    }

    @Test func theProgramMarksItsGameWords() throws {
        let marked = try Self.marked()
        #expect(marked.count >= 25, "\(marked)")
        #expect(marked.contains { $0.id == "You won! The word was %s." })
    }

    @Test(arguments: languages.keys.sorted())
    func everyCatalogHasEveryMarkedString(file: String) throws {
        let catalog = try MessageCatalog(poFile: Self.root.appendingPathComponent("Localization/\(file).po").path)
        for (id, plural) in try Self.marked() {
            let forms = catalog.messages[id]
            #expect(forms != nil && forms?.allSatisfy { !$0.isEmpty } == true, "\(file).po misses \"\(id)\"")
            if plural != nil { #expect((forms?.count ?? 0) >= 2, "\(file).po has no plural forms for \"\(id)\"") }
        }
    }

    /// gettext's own check of each catalog: its header, its plural forms, and every translation's
    /// placeholders against the English ones (`#, c-format`).
    @Test(arguments: languages.keys.sorted())
    func gettextChecksEveryCatalog(file: String) throws {
        let result = try ExternalProcess.run("/usr/bin/msgfmt", ["--check", "-o", "/dev/null", Self.root.appendingPathComponent("Localization/\(file).po").path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func pluralRulesAreEachLanguages() throws {
        let english = try PluralRule.parse("n != 1")
        let french = try PluralRule.parse("n > 1")
        #expect([0, 1, 2].map(english) == [1, 0, 1] && [0, 1, 2].map(french) == [0, 0, 1])
        let polish = try PluralRule.parse("(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)")
        #expect([1, 2, 5, 12, 22, 25].map(polish) == [0, 1, 2, 2, 1, 2])
        #expect(throws: PluralRule.Malformed.self) { try PluralRule.parse("n ? ") }
        #expect(L10n.format("%2$s, %1$s: %d%%", ["a", "b"]) == "b, a: b%")
    }

    /// The reader's locale chooses: French counts 0 as one, English as many; C is English.
    @Test func theReadersLocaleChoosesTheCatalog() {
        let text = { (environment: [String: String], count: Int) in
            ReaderLocale(environment: environment).reading { L10n.plural("%d hint left.", "%d hints left.", count) }
        }
        #expect(text(["LANG": "fr_FR.UTF-8"], 0) == "0 indice restant.")
        #expect(text(["LANG": "fr_FR.UTF-8"], 2) == "2 indices restants.")
        #expect(text(["LANG": "de_DE.UTF-8"], 1) == "1 Hinweis übrig.")
        #expect(text(["LANG": "pt_BR.UTF-8"], 3) == "Restam 3 dicas.")
        #expect(text(["LANG": "C"], 0) == "0 hints left.")
        #expect(text(["LC_ALL": "es_ES.UTF-8", "LANG": "de_DE.UTF-8"], 1) == "Te queda 1 pista.")
    }

    /// The board in every language at 40, 80 and 200 columns: no line longer than the width,
    /// and the words are the language's.
    @Test(arguments: languages.values.sorted())
    func theBoardFitsInEveryLanguage(locale: String) {
        ReaderLocale(environment: ["LANG": locale]).reading {
            var won = Game(word: "Donaudampfschifffahrt", language: "de", lives: 6)
            for letter in "donaupmfschitr" { won.guess(String(letter)) }
            for width in [40, 80, 200] {
                for view in [ScreenLayoutTests.view(), GameView(game: won.board, packName: "Wörter des Alltags", category: "Lange Wörter", hints: 3)] {
                    let lines = GameLayout.lines(view, width: width)
                    for line in lines { #expect(line.text.count <= width, "\(locale) \(width): \(line.text)") }
                    #expect(!lines.contains { $0.text.hasPrefix("Lives:") || $0.text.hasPrefix("Used:") }, "\(locale): \(lines.map(\.text))")
                }
            }
        }
    }
}
