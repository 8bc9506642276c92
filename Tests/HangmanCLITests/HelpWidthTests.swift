import Foundation
@testable import hangman
import Testing
import TestSupport

/// Every help page fits the width it is written for and breaks only between words; the manual
/// page renders within 80 columns (its own test, ManualAndCompletionTests).
@Suite struct HelpWidthTests {
    @Test(arguments: [40, 80, 200])
    func everyHelpPageFitsAndKeepsItsWords(_ width: Int) async throws {
        var pages: [(String, String)] = [("hangman", try await CLI.run(["--help"], environment: ["COLUMNS": String(width)]).stdout)]
        for command in Hangman.commands {
            let result = try await CLI.run(command.path + ["--help"], environment: ["COLUMNS": String(width)])
            #expect(result.status == 0, "\(command.path)")
            pages.append((command.path.joined(separator: " "), result.stdout))
        }
        for (name, page) in pages {
            for line in page.split(separator: "\n") { #expect(line.count <= width, "\(name) at \(width): \(line)") }
        }
        // Every word of every option's help and every overview is whole on the page.
        for command in Hangman.commands {
            let page = try #require(pages.first { $0.0 == command.path.joined(separator: " ") }?.1)
            let tokens = Set(page.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
            for text in [command.spec.overview] + command.spec.options.map(\.help) {
                for word in text.split(separator: " ") where word.count < width / 2 {
                    #expect(tokens.contains(String(word)), "\(command.path) at \(width): '\(word)' was split")
                }
            }
        }
    }

    /// The question before a purchase shows the product's description broken between words.
    @Test func theDescriptionBeforeAPurchaseIsWrappedBetweenWords() async throws {
        let scratch = try Scratch()
        let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path
        let asked = try await CLI.run(
            ["buy", "monthly", "--home", scratch.file("home"), "--packs", packs], environment: ["COLUMNS": "40", "LC_ALL": "C.UTF-8"], input: "n\n",
            terminal: true)
        #expect(asked.status == 1, "\(asked.stdout)\(asked.stderr)")
        let lines = asked.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("Hangman Pass (monthly): Every word") }, "\(asked.stdout)")
        // Every line up to the question's last (the answer and what follows it share that line here).
        let asking = lines.prefix { !$0.contains("[y/N]") }
        for line in asking { #expect(line.count <= 40, "\(line)") }
        #expect(asking.count >= 4, "the description and the question take several lines at 40 columns: \(asked.stdout)")
        #expect(asked.stdout.contains("cancel)? [y/N] "), "\(asked.stdout)")
    }
}
