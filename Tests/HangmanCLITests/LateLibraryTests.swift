import Foundation
import Testing
import TestSupport

/// Whether this process may hide a file from a child: a mount namespace of its own.
private let canHideFiles: Bool = {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
    let probe = try? ExternalProcess.run("/usr/bin/unshare", ["--mount", "sh", "-c", "mount --bind /dev/null /etc/hostname"])
    return probe?.status == 0
}()

/// The libraries only some commands need are loaded when first used: a game plays on a machine
/// where they cannot be loaded, and a command that needs one says which and ends with 69. Each
/// library is hidden from the process by a mount namespace of its own (`unshare --mount`, a bind
/// of /dev/null over the file), which needs root; the suite is off where that is refused.
@Suite(.enabled(if: canHideFiles, "unshare --mount (root) is refused here"))
struct LateLibraryTests {
    static let late = ["libpq.so.5", "libmicrohttpd.so.12", "libcurl.so.4", "libgnutls.so.30", "libarchive.so.13", "libicui18n.so.72"]

    /// Where the loader finds each library (`ldconfig -p`).
    static func paths(_ libraries: [String]) throws -> [String] {
        let cache = try ExternalProcess.run("/sbin/ldconfig", ["-p"]).stdout
        return try libraries.map { name in
            let line = cache.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + " ") }
            return try #require(line.flatMap { $0.components(separatedBy: "=> ").last }, "\(name) is not installed")
        }
    }

    /// `hangman arguments` with `libraries` hidden.
    static func without(_ libraries: [String], _ arguments: [String], home: String, input: String = "") throws -> ProcessResult {
        let hide = try paths(libraries).map { "mount --bind /dev/null '\($0)'" }.joined(separator: " && ")
        let command = ([HangmanBinary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try ExternalProcess.run(
            "/usr/bin/unshare", ["--mount", "sh", "-c", "\(hide) && exec \(command)"],
            environment: ["HANGMAN_HOME": home, "LANG": "C"], input: Array(input.utf8), killAfter: 60)
    }

    @Test func aGamePlaysWithoutThemAndTheServerSaysWhichIsMissing() throws {
        let scratch = try TemporaryDirectory()
        let home = scratch.file("home")
        // The home made, its base pack installed, with every library there.
        let made = try HangmanBinary.run(["play", "--plain", "--new"], environment: ["HANGMAN_HOME": home], input: Array("quit\n".utf8))
        #expect(made.status == 0, "\(made.stderr)")
        // Then a game without them: its first line is the board's.
        let played = try Self.without(Self.late, ["play", "--plain", "--new"], home: home, input: "e\nquit\n")
        #expect(played.status == 0 && played.stdout.hasPrefix("GAME ") && played.stdout.contains("\nSAVED"), "\(played.stdout)\(played.stderr)")
        // A server on PostgreSQL needs libpq: said, with the loader's reason, and 69.
        let served = try Self.without(
            ["libpq.so.5"], ["serve", "--listen", "127.0.0.1:0", "--data", scratch.file("data"), "--database", "host=/nonexistent dbname=none"], home: home)
        #expect(served.status == 69 && served.stderr.contains("libpq.so.5 is needed for this and cannot be loaded"), "\(served.stderr)")
        // Verifying a pack needs libarchive.
        let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path
        let archive = try #require(try FileManager.default.contentsOfDirectory(atPath: packs).first { $0.hasSuffix(".wordpack") })
        let verified = try Self.without(["libarchive.so.13"], ["pack", "verify", packs + "/" + archive], home: home)
        #expect(verified.status == 69 && verified.stderr.contains("libarchive.so.13 is needed for this"), "\(verified.stderr)")
    }
}
