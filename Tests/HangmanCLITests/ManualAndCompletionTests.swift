import Foundation
@testable import hangman
import TestSupport
import Testing

/// The man page and the bash, zsh and fish completions are generated from the command list:
/// each is checked by the tool that reads it, and completes what a person would type.
@Suite struct ManualAndCompletionTests {
    /// A folder whose `hangman` is the built binary, for the shells to call back.
    final class ShellWorld {
        let scratch: Scratch
        init() throws {
            scratch = try Scratch()
            try FileManager.default.createDirectory(atPath: scratch.path + "/bin", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: scratch.path + "/bin/hangman", withDestinationPath: HangmanBinary.path)
        }

        var environment: [String: String] {
            [
                "PATH": scratch.path + "/bin:/usr/bin:/bin", "HANGMAN_HOME": scratch.path + "/home",
                "HANGMAN_PACKS": HangmanBinary.packageRoot.appendingPathComponent("Packs").path, "HOME": scratch.path,
            ]
        }

        func script(_ shell: String) async throws -> String {
            let result = try await CLI.run(["completion", shell])
            #expect(result.status == 0, "\(result.stderr)")
            return try scratch.write("completion.\(shell)", result.stdout)
        }
    }

    @Test(arguments: [("bash", ["-n"]), ("zsh", ["-n"]), ("fish", ["--no-execute"])])
    func theShellAcceptsItsScript(_ shell: String, _ check: [String]) async throws {
        let world = try ShellWorld()
        let path = try await world.script(shell)
        let result = try ExternalProcess.run("/usr/bin/" + shell, check + [path], environment: world.environment)
        #expect(result.status == 0, "\(shell): \(result.stderr)")
    }

    /// What the bash completion offers after `words` (the last one being typed).
    private func bashOffers(_ words: [String], in world: ShellWorld) async throws -> (offered: Set<String>, stderr: String) {
        let path = try await world.script("bash")
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source '\(path)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMPREPLY=()
            _hangman
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try ExternalProcess.run("/usr/bin/bash", ["-c", program], environment: world.environment)
        return (Set(result.stdout.split(separator: "\n").map(String.init)), result.stderr)
    }

    @Test(arguments: [
        (["hangman", "pl"], ["play"]),
        (["hangman", "pack", "b"], ["build"]),
        (["hangman", "buy", ""], ["ios", "hard", "es", "removeads", "--yes", "--quantity"]),
        (["hangman", "play", "--pack", ""], ["ios", "hard", "es"]),
        (["hangman", "play", "--li"], ["--lives"]),
        (["hangman", "store", "pay"], ["payments"]),
        (["hangman", "settings", ""], ["languages", "payments"]),
        (["hangman", "help", "se"], ["serve", "settings"]),
    ])
    func bashCompletesWhatAPersonTypes(_ words: [String], _ expected: [String]) async throws {
        let (offered, stderr) = try await bashOffers(words, in: try ShellWorld())
        #expect(offered.isSuperset(of: expected), "\(words): \(offered.sorted()) \(stderr)")
        let typed = words.last ?? ""
        #expect(offered.allSatisfy { $0.hasPrefix(typed) }, "\(offered)")
    }

    /// After `--pack`, and for `install`, `uninstall` and `update`, only packs are offered: no
    /// hints, passes or features.
    @Test(arguments: [["hangman", "play", "--pack", ""], ["hangman", "install", ""], ["hangman", "uninstall", ""]])
    func packsAreOfferedWherePacksAreMeant(_ words: [String]) async throws {
        let world = try ShellWorld()
        let (offered, stderr) = try await bashOffers(words, in: world)
        #expect(offered.isSuperset(of: ["ios", "hard", "es", "base"]), "\(words): \(offered.sorted()) \(stderr)")
        #expect(offered.isDisjoint(with: ["10", "100", "removeads", "monthly", "30days"]), "\(words): \(offered.sorted())")
        let fish = try ExternalProcess.run(
            "/usr/bin/fish", ["-c", "source '\(try await world.script("fish"))'; complete -C '\(words.joined(separator: " "))'"], environment: world.environment)
        let fishOffered = Set(fish.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") })
        #expect(fishOffered.isSuperset(of: ["ios", "hard", "es"]) && fishOffered.isDisjoint(with: ["10", "monthly"]), "\(words): \(fishOffered.sorted())")
    }

    @Test(arguments: [
        ("hangman pa", ["pack", "packs"]),
        ("hangman pack v", ["verify"]),
        ("hangman buy ", ["ios", "hard", "es"]),
        ("hangman play --l", ["--lives"]),
        ("hangman store ", ["approve", "payments", "clear"]),
    ])
    func fishCompletesWhatAPersonTypes(_ line: String, _ expected: [String]) async throws {
        let world = try ShellWorld()
        let path = try await world.script("fish")
        let result = try ExternalProcess.run("/usr/bin/fish", ["-c", "source '\(path)'; complete -C '\(line)'"], environment: world.environment)
        let offered = Set(result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") })
        #expect(offered.isSuperset(of: expected), "\(line): \(offered.sorted()) \(result.stderr)")
    }

    @Test func theManualPageFormatsCleanlyAndNamesEveryCommand() async throws {
        let scratch = try Scratch()
        let page = try await CLI.run(["man"]).stdout
        let path = try scratch.write("hangman.1", page)
        let warnings = try ExternalProcess.run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", path])
        #expect(warnings.status == 0 && warnings.stderr.isEmpty, "\(warnings.stderr)")
        let rendered = try ExternalProcess.run("/usr/bin/man", ["-l", path], environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"]).stdout
        for section in ["NAME", "SYNOPSIS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"] {
            #expect(rendered.contains("\n\(section)\n"), "no \(section)")
        }
        for command in Hangman.commands {
            // A hyphen in a name is roff's \- (offer-codes).
            #expect(page.contains(".SS " + command.path.joined(separator: " ").replacingOccurrences(of: "-", with: "\\-")), "no section for \(command.path)")
        }
        // Justified and wrapped: compared with every run of spaces and line breaks as one space.
        let flowing = rendered.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(flowing.contains("not entitled: the pack is not purchased"), "\(rendered.prefix(400))")
        #expect(rendered.contains("--pack PRODUCT_ID"))
        // No line of the rendered page is wider than the terminal it was made for, narrow or wide.
        #expect(rendered.split(separator: "\n").allSatisfy { $0.count <= 80 })
        for width in [40, 200] {
            let page = try ExternalProcess.run("/usr/bin/man", ["-l", path], environment: ["MANWIDTH": String(width), "MANPAGER": "cat", "PAGER": "cat"]).stdout
            let long = page.split(separator: "\n").filter { $0.count > width }
            #expect(long.isEmpty, "at \(width): \(long)")
        }
    }

    @Test func troffControlCharactersInTextAreEscaped() {
        #expect(ManualPage.escaped(".TH evil") == "\\&.TH evil")
        #expect(ManualPage.escaped("'quoted") == "\\&'quoted")
        #expect(ManualPage.escaped("a\\b") == "a\\eb")
        #expect(ManualPage.escaped("--yes") == "\\-\\-yes")
    }

    @Test func anUnknownShellIsAUsageErrorWithASuggestion() async throws {
        let result = try await CLI.run(["completion", "bsh"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("did you mean 'bash'"), "\(result.stderr)")
    }

    /// `make install`'s layout: PREFIX/bin/hangman finds PREFIX/share/hangman/Packs.
    @Test func anInstalledBinaryFindsItsPacks() throws {
        let scratch = try Scratch()
        let prefix = scratch.path + "/prefix"
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix + "/share/hangman", withIntermediateDirectories: true)
        // Copied by cp, not by this process: a write descriptor of the copy open here could be
        // inherited by a process another test starts meanwhile, and running the copy would then
        // fail with ETXTBSY ("Text file busy").
        #expect(try ExternalProcess.run("/bin/cp", [HangmanBinary.path, prefix + "/bin/hangman"]).status == 0)
        try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: prefix + "/share/hangman/Packs")
        // Prices in euros in the installed catalog only: the output says which catalog was read.
        let catalog = prefix + "/share/hangman/Packs/Catalog.plist"
        let text = try String(contentsOfFile: catalog, encoding: .utf8).replacingOccurrences(of: "<string>USD</string>", with: "<string>EUR</string>")
        try text.write(toFile: catalog, atomically: true, encoding: .utf8)
        let result = try ExternalProcess.run(
            prefix + "/bin/hangman", ["products"], environment: ["HANGMAN_HOME": scratch.path + "/home", "LC_ALL": "C"], directory: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("€1.99"), "\(result.stdout)")
    }
}

/// `make install` leaves bsdgames' `hangman(6)` its name, and `make play` says how to play next
/// (read from make's dry run: what it would do, not a release build in a test).
@Suite struct MakefileTests {
    static func dryRun(_ target: String, _ variables: [String] = []) throws -> String {
        let run = try ExternalProcess.run("/usr/bin/make", ["-n", "-C", HangmanBinary.packageRoot.path, target] + variables, killAfter: 60)
        try #require(run.status == 0, "\(run.stderr)")
        return run.stdout
    }

    @Test func installNamesTheManualPageHangmanPacks() throws {
        let steps = try Self.dryRun("install", ["DESTDIR=/nonexistent", "PREFIX=/usr"])
        #expect(steps.contains("/nonexistent/usr/share/man/man1/hangman-packs.1"), "\(steps)")
        #expect(!steps.contains("man1/hangman.1"), "\(steps)")
    }

    @Test func playSaysHowToPlayNext() throws {
        let steps = try Self.dryRun("play")
        #expect(steps.contains("make install PREFIX=~/.local") && steps.contains("/usr/games"), "\(steps)")
    }
}
