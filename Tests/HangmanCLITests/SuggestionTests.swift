@testable import hangman
import Testing

/// Mistyped commands and options get the likely name; `help COMMAND` shows that command's page.
@Suite struct SuggestionTests {
    @Test(arguments: [
        (["plya"], "unknown command 'plya': did you mean 'play'?"),
        (["instal"], "unknown command 'instal': did you mean 'install'?"),
        (["play", "--lifes", "3"], "unknown option '--lifes' for 'hangman play': did you mean '--lives'?"),
        (["pack", "buidl"], "did you mean 'pack build'?"),
    ])
    func aTypoGetsTheLikelyName(_ arguments: [String], _ message: String) async throws {
        let result = try await CLI.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aWordFarFromEveryNameGetsNoSuggestion() async throws {
        let result = try await CLI.run(["xylophone"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: unknown command 'xylophone'\n"), "\(result.stderr)")
    }

    @Test(arguments: [(["help", "play"], "USAGE: hangman play"), (["help", "pack", "build"], "USAGE: hangman pack build"), (["help"], "SUBCOMMANDS:")])
    func helpNamesACommand(_ arguments: [String], _ page: String) async throws {
        let result = try await CLI.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.contains(page), "\(result.stdout)")
    }

    @Test(arguments: [("play", "play", 0), ("plya", "play", 1), ("instal", "install", 1), ("lifes", "lives", 1), ("abc", "xyz", 3)])
    func distanceCountsEditsWithSwaps(_ a: String, _ b: String, _ expected: Int) {
        #expect(Suggestion.distance(Array(a), Array(b)) == expected)
    }
}
