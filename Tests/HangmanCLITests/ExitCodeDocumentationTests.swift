import Foundation
@testable import hangman
import Testing
import TestSupport

/// One table of exit codes: `--help` and the manual page are made from `ExitCode.table`, and the
/// README's table must say the same, row for row.
@Suite struct ExitCodeDocumentationTests {
    @Test func theReadmesTableIsTheOneTable() throws {
        let readme = try String(contentsOf: HangmanBinary.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        // The section's table only (other tables have numbered rows too: verifyReceipt's statuses).
        let section = try #require(readme.components(separatedBy: "\n## Exit codes\n").last?.components(separatedBy: "\n## ").first)
        let rows = section.split(separator: "\n").compactMap { line -> (Int32, String)? in
            guard let match = line.wholeMatch(of: #/\| (\d+) \| (.*) \|/#), let code = Int32(match.1) else { return nil }
            return (code, String(match.2))
        }
        #expect(rows.map(\.0) == ExitCode.table.map(\.code.rawValue))
        for (row, entry) in zip(rows, ExitCode.table) {
            #expect(row.1 == entry.meaning, "README's row \(row.0) differs from ExitCode.table")
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
}
