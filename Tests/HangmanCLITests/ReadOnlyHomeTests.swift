import Foundation
import Testing
import TestSupport

/// A home this user may not write: every command that must write says which folder, why and what
/// to do (74), and what only reads still works. The binary runs as a user without the right to
/// write: as itself when the tests are not run as root, else as `nobody` through `setpriv`, since
/// root may write to a read-only folder.
@Suite struct ReadOnlyHomeTests {
    /// Runs `hangman arguments` as a user that is not the home's owner's equal: nobody (65534)
    /// when the tests run as root.
    static func runUnprivileged(_ arguments: [String], home: String) throws -> ProcessResult {
        let environment = ["HANGMAN_HOME": home, "COLUMNS": "200"]
        if getuid() != 0 { return try HangmanBinary.run(arguments, environment: environment) }
        return try ExternalProcess.run(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", HangmanBinary.path] + arguments,
            environment: environment)
    }

    static func chmod(_ mode: String, _ path: String) throws {
        let result = try ExternalProcess.run("/bin/chmod", ["-R", mode, path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aHomeThatCannotBeWrittenIsNamedWithWhatToDo() throws {
        let scratch = try Scratch()
        let home = scratch.file("home")
        let made = try HangmanBinary.run(["packs"], environment: ["HANGMAN_HOME": home])
        #expect(made.status == 0, "\(made.stderr)")
        try Self.chmod("a-w,a+rX", home)
        defer { try? Self.chmod("u+w", home) }

        for command in [["play", "--plain"], ["buy", "com.hangmanpacks.hints.10", "--yes"], ["store", "payments", "off"], ["reset", "--yes"]] {
            let result = try Self.runUnprivileged(command, home: home)
            #expect(result.status == 74, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("error: cannot write to the home \(home): this user may not write to \(home)"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("'chmod -R u+w \(home)'") && result.stderr.contains("--home DIR or HANGMAN_HOME"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(command): \(result.stderr)")
        }
        // Reading needs no write: the packs and the products are listed.
        let packs = try Self.runUnprivileged(["packs"], home: home)
        #expect(packs.status == 0, "\(packs.stderr)")
        #expect(packs.stdout.contains("Everyday English"))
        // Nothing was deleted by the refused reset.
        #expect(FileManager.default.fileExists(atPath: home + "/device/device.sqlite"))
    }

    @Test func aHomeThatCannotBeMadeNamesTheFolderThatRefuses() throws {
        let scratch = try Scratch()
        let locked = scratch.file("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        try Self.chmod("a-w,a+rX", locked)
        defer { try? Self.chmod("u+w", locked) }

        let home = locked + "/deep/hangman"
        let result = try Self.runUnprivileged(["packs"], home: home)
        #expect(result.status == 74, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("cannot write to the home \(home): this user may not write to \(locked) "), "\(result.stderr)")
        #expect(result.stderr.contains("Let this user write to \(locked), or choose another home"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: locked + "/deep"))
    }
}
