import Foundation
@testable import hangman
import Testing
import TestSupport

/// One table of exit codes: `--help` and the manual page are made from `ExitCode.table`, and the
/// documentation's table (docs/exit-codes.md) must say the same, row for row.
@Suite struct ExitCodeDocumentationTests {
    @Test func theReadmesTableIsTheOneTable() throws {
        let section = try String(contentsOf: HangmanBinary.packageRoot.appendingPathComponent("docs/exit-codes.md"), encoding: .utf8)
        let rows = section.split(separator: "\n").compactMap { line -> (Int32, String)? in
            guard let match = line.wholeMatch(of: #/\| (\d+) \| (.*) \|/#), let code = Int32(match.1) else { return nil }
            return (code, String(match.2))
        }
        #expect(rows.map(\.0) == ExitCode.table.map(\.code.rawValue))
        for (row, entry) in zip(rows, ExitCode.table) {
            #expect(row.1 == entry.meaning, "docs/exit-codes.md's row \(row.0) differs from ExitCode.table")
        }
    }

    @Test func helpAndTheManualPageListEveryCode() async throws {
        let help = try await CLI.run(["--help"])
        let manual = try await CLI.run(["man"])
        for (code, meaning) in ExitCode.table {
            #expect(help.stdout.contains("\n  \(code.rawValue)"), "--help lacks \(code.rawValue)")
            #expect(manual.stdout.contains(".B \(code.rawValue)\n"), "the manual page lacks \(code.rawValue)")
            let firstWords = meaning.replacingOccurrences(of: "`", with: "").split(separator: " ").prefix(3).joined(separator: " ")
            #expect(help.stdout.contains(firstWords), "--help lacks '\(firstWords)'")
        }
        // Wrapped at 100 columns.
        #expect(help.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }

    /// The front page links a guide per reader, and every relative link of the documentation
    /// reaches a file of the checkout.
    @Test func everyLinkOfTheDocumentationReachesAFile() throws {
        let root = HangmanBinary.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        for guide in ["playing", "operating", "app-developers", "selling", "content-authors", "maintainers", "exit-codes"] {
            #expect(readme.contains("(docs/\(guide).md)"), "the front page links docs/\(guide).md")
        }
        let pages = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)).filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        for page in pages {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            let folder = root.appendingPathComponent(page).deletingLastPathComponent()
            for match in text.matches(of: #/\]\(([^)#:]+)(#[^)]*)?\)/#) {
                let target = folder.appendingPathComponent(String(match.1)).standardized.path
                #expect(FileManager.default.fileExists(atPath: target), "\(page) links \(match.1), which is not there")
            }
        }
    }
}

/// The operator's guide's table of limits is `serve`'s: every limit has its row, with the
/// default `serve --help` gives.
@Suite struct LimitsDocumentationTests {
    @Test func theGuidesLimitsAreServesLimits() throws {
        let guide = try String(contentsOf: HangmanBinary.packageRoot.appendingPathComponent("docs/operating.md"), encoding: .utf8)
        var documented: [String: String] = [:]
        for line in guide.split(separator: "\n") where line.hasPrefix("| `--") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            let options = cells[0].matches(of: #/`(--[a-z0-9-]+)/#).map { String($0.1) }
            let defaults = cells[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for (option, value) in zip(options, defaults) { documented[option] = value }
        }
        for limit in ServeCommand.Limit.allCases {
            let help = limit.option.help
            let given = try #require(help.firstMatch(of: #/\(default ([0-9]+)/#).map { String($0.1) }, "\(limit.rawValue): \(help)")
            #expect(documented[limit.rawValue] == given, "docs/operating.md gives \(limit.rawValue) the default \(documented[limit.rawValue] ?? "none"), serve --help \(given)")
        }
    }
}

/// The maintainer's guide's table of modules is `Package.swift`'s, row for row, and the player's
/// modules never reach the seller's.
@Suite struct ModuleTableTests {
    @Test func theGuidesModulesAreThePackagesModules() throws {
        let root = HangmanBinary.packageRoot
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var declared: [String: [String]] = [:]
        var order: [String] = []
        for match in manifest.matches(of: #/layer\("(\w+)", "(\w+)"(?:, \[([^\]]*)\])?/#) {
            let name = String(match.2)
            declared[name] = (match.3.map(String.init) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }.filter { !$0.isEmpty }
            order.append(name)
        }
        let executable = try #require(manifest.firstMatch(of: #/\.executableTarget\(name: "hangman", dependencies: \[([^\]]*)\]/#))
        declared["hangman"] = executable.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        let guide = try String(contentsOf: root.appendingPathComponent("docs/maintainers.md"), encoding: .utf8)
        var documented: [String: [String]] = [:]
        for row in guide.matches(of: #/\| \w+ \| `(\w+)` \| ([^|\n]*) \|/#) {
            documented[String(row.1)] = row.2 == "-" ? [] : row.2.matches(of: #/`(\w+)`/#).map { String($0.1) }
        }
        #expect(Set(documented.keys) == Set(declared.keys), "modules: guide \(documented.keys.sorted()), manifest \(declared.keys.sorted())")
        for (module, dependencies) in declared {
            #expect(documented[module] == dependencies, "\(module): the guide says \(documented[module] ?? []), the manifest \(dependencies)")
        }
        // What the player's modules reach, dependency after dependency: never the seller.
        func reach(_ module: String, _ seen: inout Set<String>) {
            for dependency in declared[module] ?? [] where seen.insert(dependency).inserted { reach(dependency, &seen) }
        }
        for player in ["Device", "PackServiceClient"] {
            var seen: Set<String> = []
            reach(player, &seen)
            #expect(!seen.contains("Seller") && !seen.contains("PackServer"), "\(player) reaches \(seen.sorted())")
        }
    }
}
