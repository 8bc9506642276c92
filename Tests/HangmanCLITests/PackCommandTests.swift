import Archive
import TestSupport
import Foundation
import Testing

@Suite struct PackCommandTests {
    private func sourceFolder(_ scratch: Scratch, words: [String] = ["apple", "banana", "cherry"]) async throws -> String {
        try scratch.write("src/Info.plist", manifestXML)
        try scratch.write("src/words.plist", wordsXML(words))
        return scratch.path + "/src"
    }

    @Test func buildThenVerify() async throws {
        let scratch = try Scratch()
        let source = try await sourceFolder(scratch)
        let build = try await CLI.run(["pack", "build", source, "-o", scratch.path + "/out.wordpack"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.contains("com.example.words.cli 1.0 \"CLI Words\", 3 words in 1 list"))
        let verify = try await CLI.run(["pack", "verify", scratch.path + "/out.wordpack"])
        #expect(verify.status == 0)
        #expect(verify.stdout == "\(scratch.path)/out.wordpack: ok: com.example.words.cli 1.0 \"CLI Words\", 3 words in 1 list\n")
    }

    @Test func buildTwiceGivesTheSameFile() async throws {
        let scratch = try Scratch()
        let source = try await sourceFolder(scratch)
        _ = try await CLI.run(["pack", "build", source, "-o", scratch.path + "/a.wordpack"])
        _ = try await CLI.run(["pack", "build", source, "--output=\(scratch.path)/b.wordpack"])
        let a = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/a.wordpack"))
        let b = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/b.wordpack"))
        #expect(!a.isEmpty && a == b)
    }

    @Test func invalidSourceExits65AndWritesNothing() async throws {
        let scratch = try Scratch()
        let source = try await sourceFolder(scratch, words: ["apple", "b4nana"])
        let build = try await CLI.run(["pack", "build", source, "-o", scratch.path + "/out.wordpack"])
        #expect(build.status == 65)
        #expect(build.stderr.contains("words.plist: word 2 'b4nana' contains '4'"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/out.wordpack"))
    }

    @Test func hostileArchiveExits65NamingItsCause() async throws {
        let scratch = try Scratch()
        let bytes = try ArchiveWriter().write([
            .file("p/Info.plist", Array(manifestXML.utf8)), .file("p/words.plist", Array(wordsXML(["apple", "pear"]).utf8)),
            ArchiveWriter.Entry("p/escape", .symbolicLink(target: "../../etc/passwd")),
        ])
        let file = try scratch.write("evil.wordpack", bytes)
        let verify = try await CLI.run(["pack", "verify", file])
        #expect(verify.status == 65)
        #expect(verify.stdout == "\(file): p/escape: symbolic link to '../../etc/passwd': links are not accepted\n")
        #expect(scratch.listing() == ["evil.wordpack"])
    }

    @Test func accentOnlyDuplicateInAnEnglishPackExits65() async throws {
        let scratch = try Scratch()
        let bytes = try ArchiveWriter().write([
            .file("p/Info.plist", Array(manifestXML.utf8)), .file("p/words.plist", Array(wordsXML(["cafe", "tea", "caf\u{E9}"]).utf8)),
        ])
        let file = try scratch.write("accents.wordpack", bytes)
        let verify = try await CLI.run(["pack", "verify", file])
        #expect(verify.status == 65)
        #expect(verify.stdout == "\(file): p/words.plist: duplicate word 'caf\u{E9}' (a game in en cannot tell it from 'cafe' earlier in this list)\n")
    }

    @Test func missingFileExits66() async throws {
        let verify = try await CLI.run(["pack", "verify", "/nonexistent/pack.wordpack"])
        #expect(verify.status == 66)
        #expect(verify.stdout.contains("/nonexistent/pack.wordpack: no such file"))
    }

    @Test func jsonReportsKindsForMachines() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("junk.wordpack", "not an archive at all")
        let verify = try await CLI.run(["pack", "verify", "--json", file])
        #expect(verify.status == 65)
        let document = try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any]
        let packs = document?["packs"] as? [[String: Any]]
        let problems = packs?.first?["problems"] as? [[String: Any]]
        #expect(document?["valid"] as? Bool == false)
        #expect(problems?.first?["kind"] as? String == "unsupported-format")
    }

    @Test func signedBuildVerifiesOnlyWithItsKey() async throws {
        let scratch = try Scratch()
        let source = try await sourceFolder(scratch)
        #expect(try await CLI.run(["pack", "keygen", "-o", scratch.path + "/mine"]).status == 0)
        #expect(try await CLI.run(["pack", "keygen", "-o", scratch.path + "/theirs"]).status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: scratch.path + "/mine.key")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let pack = scratch.path + "/signed.wordpack"
        #expect(try await CLI.run(["pack", "build", source, "-o", pack, "--sign", scratch.path + "/mine.key"]).status == 0)
        #expect(try await CLI.run(["pack", "verify", "--key", scratch.path + "/mine.pub", "--require-signature", pack]).status == 0)
        let wrong = try await CLI.run(["pack", "verify", "--key", scratch.path + "/theirs.pub", pack])
        #expect(wrong.status == 65)
        #expect(wrong.stdout.contains("signature-untrusted") || wrong.stdout.contains("not the trusted key"))
        let secretAsPublic = try await CLI.run(["pack", "verify", "--key", scratch.path + "/mine.key", pack])
        #expect(secretAsPublic.status == 65)
    }

    @Test func keygenRefusesToOverwrite() async throws {
        let scratch = try Scratch()
        #expect(try await CLI.run(["pack", "keygen", "-o", scratch.path + "/k"]).status == 0)
        let again = try await CLI.run(["pack", "keygen", "-o", scratch.path + "/k"])
        #expect(again.status == 73)
        #expect(again.stderr.contains("exists; pass --force"))
    }

    @Test func inspectShowsManifestListsAndDigest() async throws {
        let scratch = try Scratch()
        let source = try await sourceFolder(scratch)
        let pack = scratch.path + "/p.wordpack"
        _ = try await CLI.run(["pack", "build", source, "-o", pack])
        let inspect = try await CLI.run(["pack", "inspect", pack])
        #expect(inspect.status == 0)
        let digest = try shell("sha256sum '\(pack)'").prefix(64)
        #expect(inspect.stdout.contains("SHA-256       \(digest)"))
        #expect(inspect.stdout.contains("Product       com.example.words.cli"))
        #expect(inspect.stdout.contains("Things  3 words  words.plist (xml)"))
        #expect(inspect.stdout.contains("Lengths       5-6 letters"))
    }

    @Test(arguments: [
        (["pack", "verify"], "'pack verify' needs at least one <FILE>"),
        (["pack", "verify", "--frobnicate", "x"], "unknown option '--frobnicate'"),
        (["pack", "build", "dir"], "'pack build' needs --output <FILE>"),
        (["pack", "explode"], "unknown subcommand 'pack explode'"),
        (["fly"], "unknown command 'fly'"),
    ])
    func usageErrorsExit64(_ arguments: [String], _ message: String) async throws {
        let result = try await CLI.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message))
        #expect(result.stdout.isEmpty)
    }

    @Test func outputInsideTheSourceFolderIsRefused() async throws {
        let scratch = try Scratch()
        let source = try await sourceFolder(scratch)
        let result = try await CLI.run(["pack", "build", source, "-o", source + "/self.wordpack"])
        #expect(result.status == 64)
    }

    @Test(arguments: [["--help"], ["pack", "--help"], ["pack", "build", "--help"], ["pack", "verify", "-h"], ["pack", "inspect", "--help"], ["pack", "keygen", "--help"], ["pack", "init", "--help"]])
    func helpOnEveryCommand(_ arguments: [String]) async throws {
        let result = try await CLI.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        #expect(result.stdout.contains("USAGE: hangman"))
        #expect(result.stdout.contains("  -h, --help"))
    }

    @Test func rootHelpDocumentsExitCodes() async throws {
        let help = try await CLI.run(["--help"]).stdout
        for line in ["0   success", "64  usage error", "65  invalid data", "66  missing input", "73  an output file cannot be created"] {
            #expect(help.contains(line))
        }
    }

    @Test func version() async throws {
        let result = try await CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("hangman "))
    }
}

