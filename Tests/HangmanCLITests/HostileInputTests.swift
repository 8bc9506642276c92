import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SystemCalls
import Testing
import TestSupport

/// Issue 12, bullet 2: nothing the program reads can block it or lead it out of the home.
/// A FIFO is read with the built binary and a time limit: a regression would hang, not fail.
@Suite struct NothingReadBlocksOrLeadsOutTests {
    private func fifo(_ path: String) throws {
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try #require(mkfifo(path, 0o600) == 0)
    }

    private func binary(_ world: PlayerWorld, _ arguments: [String], input: String? = nil) throws -> ProcessResult {
        try HangmanBinary.run(
            arguments, environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs], input: input.map { Array($0.utf8) },
            killAfter: 30)
    }

    @Test func aFIFONamedLikeAPackArchiveMakesItsProductUnavailableAndNothingHangs() async throws {
        let world = try await PlayerWorld()
        try fifo(world.packs + "/fruit.wordpack")
        for arguments in [["hints"], ["products"], ["packs"], ["play", "--plain"]] {
            let result = try binary(world, arguments, input: "quit\n")
            #expect(!result.wasSignaled && result.status == 0, "\(arguments): \(result.status) \(result.stderr)")
        }
        let products = try binary(world, ["products", "--wide"])
        #expect(products.stdout.contains("unavailable: its pack fruit.wordpack cannot be used"), "\(products.stdout)")
        #expect(products.stdout.contains("is a FIFO (named pipe)"), "\(products.stdout)")
    }

    @Test func aFIFOAsTheCatalogIsRefusedByType() async throws {
        let world = try await PlayerWorld()
        try fifo(world.packs + "/Catalog.plist")
        let result = try binary(world, ["hints"])
        #expect(!result.wasSignaled)
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(world.packs)/Catalog.plist is a FIFO (named pipe), not a regular file"), "\(result.stderr)")
    }

    @Test func aPacksFolderThatIsAFIFOIsRefused() async throws {
        let world = try await PlayerWorld()
        let path = world.scratch.path + "/pipe"
        try fifo(path)
        let result = try HangmanBinary.run(["hints", "--home", world.home, "--packs", path], killAfter: 30)
        #expect(result.status == 66)
        #expect(result.stderr.contains("the packs folder \(path) is a FIFO (named pipe), not a folder"), "\(result.stderr)")
    }

    @Test func aFIFOAsAReceiptOrAKeyIsRefusedByType() async throws {
        let world = try await PlayerWorld()
        let path = world.scratch.path + "/pipe"
        try fifo(path)
        let receipt = try binary(world, ["receipt", "verify", path])
        #expect(receipt.status == 65 && !receipt.wasSignaled)
        #expect(receipt.stderr.contains("\(path) is a FIFO (named pipe), not a regular file"), "\(receipt.stderr)")
        let key = try binary(world, ["pack", "verify", "--key", path, world.packs + "/base.wordpack"])
        #expect(key.status == 65 && !key.wasSignaled)
        #expect(key.stderr.contains(path) && key.stderr.contains("FIFO"), "\(key.stderr)")
    }

    @Test func aLinkedDeviceDatabaseIsNotFollowedOutOfTheHome() async throws {
        let world = try await PlayerWorld()
        let outside = world.scratch.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: world.home + "/device", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: world.home + "/device/device.sqlite", withDestinationPath: outside + "/device.sqlite")
        let result = try await world.hangman("packs")
        #expect(result.status == 74)
        #expect(result.stderr.contains("\(world.home)/device/device.sqlite: it is a symbolic link, not a regular file"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty, "a database was made outside the home")
    }

    @Test func aLinkedServiceKeyIsRefused() async throws {
        let world = try await PlayerWorld()
        let outside = try world.scratch.write("outside.key", "not the service's key\n")
        try FileManager.default.createDirectory(atPath: world.home + "/account", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: world.home + "/account/service-signing.key", withDestinationPath: outside)
        let result = try await world.hangman("hints")
        #expect(result.status == 74)
        #expect(result.stderr.contains("service-signing.key is a symbolic link, not a regular file"), "\(result.stderr)")
    }

    @Test func aStateFolderThatIsAFileIsNamed() async throws {
        let world = try await PlayerWorld()
        let file = try world.scratch.write("not-a-folder", "x")
        let result = try await CLI.run(["hints", "--home", file, "--packs", world.packs])
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot make the account folder \(file)/account: \(file) is a regular file, not a folder"), "\(result.stderr)")
        #expect(!result.stderr.contains("CocoaError"))
    }

    @Test func databasesAndKeysAreMade0600() async throws {
        let world = try await PlayerWorld()
        _ = try await world.hangman("packs")
        for file in ["account/account.sqlite", "account/service-signing.key", "device/device.sqlite"] {
            let mode = try FileManager.default.attributesOfItem(atPath: world.home + "/" + file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file): \(String(mode ?? 0, radix: 8))")
        }
    }

    @Test(arguments: [
        (["--home", ""], [String: String](), "option '--home' cannot be empty"),
        (["--packs", ""], [:], "option '--packs' cannot be empty"),
        ([], ["HANGMAN_HOME": ""], "HANGMAN_HOME is set but empty"),
        ([], ["HANGMAN_PACKS": ""], "HANGMAN_PACKS is set but empty"),
    ])
    func anEmptyPathIsAUsageError(arguments: [String], environment: [String: String], says: String) async throws {
        let world = try await PlayerWorld()
        var variables = ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs]
        variables.merge(environment) { _, new in new }
        let result = try await CLI.run(["hints"] + arguments, environment: variables)
        #expect(result.status == 64)
        #expect(result.stderr.contains(says), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/account") && !FileManager.default.fileExists(atPath: "/device"))
    }

    @Test func anEmptyHOMEWithNothingElseIsAUsageError() async throws {
        try #require(ProcessInfo.processInfo.environment["HANGMAN_HOME"] == nil, "the test needs HANGMAN_HOME unset")
        let world = try await PlayerWorld()
        let result = try await CLI.run(["hints", "--packs", world.packs], environment: ["HOME": "", "XDG_DATA_HOME": ""])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("HOME is set but empty"), "\(result.stderr)")
    }
}

/// Issue 12, bullet 3: nothing is overwritten that is not a regular file, unless `-o -` asked
/// for standard output.
@Suite struct OutputsNeverReplaceSpecialFilesTests {
    @Test(arguments: ["fifo", "link", "folder"])
    func receiptAndArchiveOutputsLeaveASpecialFileAlone(kind: String) async throws {
        let world = try await PlayerWorld()
        let path = world.scratch.path + "/out"
        let target = try world.scratch.write("target", "kept")
        switch kind {
        case "fifo": try #require(mkfifo(path, 0o600) == 0)
        case "link": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        default: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        let before = try FileSystem.status(atPath: path, followingLinks: false)?.kind
        let receipt = try await world.hangman("receipt", "-o", path)
        let archive = try await CLI.run(["pack", "build", world.scratch.path + "/src/\(PlayerWorld.fruit)-1.0", "-o", path])
        for result in [receipt, archive] {
            #expect(result.status == 73, "\(result.stderr)")
            #expect(result.stderr.contains("\(path): it is "), "\(result.stderr)")
            #expect(result.stderr.contains("pass -o - for standard output"), "\(result.stderr)")
        }
        #expect(try FileSystem.status(atPath: path, followingLinks: false)?.kind == before)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "kept")
    }

    /// `receipt -o /dev/full`, run as root, replaced the device node with a file. As root a node
    /// made for the test stands in for it; otherwise `/dev/full` itself, which a user cannot replace.
    @Test func aDeviceNodeIsNotReplaced() async throws {
        let world = try await PlayerWorld()
        var path = "/dev/full"
        if getuid() == 0 {
            path = world.scratch.path + "/full"
            let fullDevice = dev_t((1 << 8) | 7)  // major 1, minor 7
            try #require(mknod(path, S_IFCHR | 0o666, fullDevice) == 0)
        }
        let result = try await world.hangman("receipt", "-o", path)
        #expect(result.status == 73)
        #expect(result.stderr.contains("it is a character device, not a regular file"), "\(result.stderr)")
        #expect(try FileSystem.status(atPath: path, followingLinks: false)?.kind == .characterDevice)
    }

    @Test func dashMeansStandardOutput() async throws {
        let world = try await PlayerWorld()
        let receipt = try await world.hangman("receipt", "-o", "-")
        #expect(receipt.status == 0)
        #expect(receipt.stdout.hasPrefix("<?xml"), "\(receipt.stdout.prefix(80))")
        #expect(!FileManager.default.fileExists(atPath: world.scratch.path + "/-"))
        let archive = try await CLI.run(["pack", "build", world.scratch.path + "/src/\(PlayerWorld.fruit)-1.0", "-o", "-"])
        #expect(archive.status == 0, "\(archive.stderr)")
        #expect(archive.stdout.unicodeScalars.first?.value == 0x1F, "a gzip stream starts with 1F 8B")
        #expect(archive.stderr.contains("standard output: \(PlayerWorld.fruit) 1.0"), "\(archive.stderr)")
    }

    @Test func aMissingOutputFolderIsASentenceNotADump() async throws {
        let world = try await PlayerWorld()
        let result = try await world.hangman("receipt", "-o", "/nonexistent/receipt.plist")
        #expect(result.status == 73)
        #expect(result.stderr == "error: cannot write the receipt to /nonexistent/receipt.plist: No such file or directory\n")
    }
}

/// Issue 12, bullet 5: every write is checked; a failed one ends the command with 74.
@Suite struct FailedWritesTests {
    @Test func aFullDiskOnStandardOutputIs74() async throws {
        let world = try await PlayerWorld()
        let result = try await CLI.run(["receipt"], environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs], outputRefused: .noSpace)
        #expect(result.status == 74)
        #expect(result.stderr.contains("error: cannot write to standard output: No space left on device"), "\(result.stderr)")
    }

    @Test func theBinaryWritingToDevFullExits74() async throws {
        let world = try await PlayerWorld()
        let out = try shell("HANGMAN_HOME='\(world.home)' HANGMAN_PACKS='\(world.packs)' '\(HangmanBinary.path)' receipt > /dev/full 2>/dev/null; echo $?")
        #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "74")
    }

    /// A reader that has gone (`hangman packs | head -1`): SIGPIPE would kill the process; the
    /// write fails instead, and the command ends quietly with 141, as `git log | head` does
    /// (before: "cannot write to standard output: Broken pipe", 74). Its state is as it was.
    @Test func aClosedPipeIsAQuietEnd() async throws {
        let world = try await PlayerWorld()
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let errors = world.scratch.path + "/stderr"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: HangmanBinary.path)
        process.arguments = ["packs"]
        process.environment = ProcessInfo.processInfo.environment.merging(["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs]) { _, new in new }
        process.standardOutput = pipe.fileHandleForWriting
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "an exit, not a signal")
        #expect(process.terminationStatus == 141)
        let said = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(!said.contains("error:") && !said.contains("Broken pipe"), "\(said)")
    }

    /// A game whose screen reaches nobody stops before it reads a line: no hint is spent unseen.
    @Test func aGameStopsAtAFailedWriteBeforeSpendingAHint() async throws {
        let world = try await PlayerWorld()
        _ = try await world.hangman("buy", PlayerWorld.hints)
        let result = try await CLI.run(
            ["play", "--plain"], environment: ["HANGMAN_HOME": world.home, "HANGMAN_PACKS": world.packs], input: "?\n?\n?\n", outputRefused: .noSpace)
        #expect(result.status == 74)
        let hints = try await world.hangman("hints")
        #expect(hints.stdout == "10 hints\n")
    }
}

/// Issue 12, bullet 6: a damaged or truncated state database is named, kept, and what to do is said.
@Suite struct DamagedStateTests {
    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func anEmptyAccountDatabaseIsNotANewAccount() async throws {
        let world = try await PlayerWorld()
        _ = try await world.hangman("buy", PlayerWorld.hints)
        let database = world.home + "/account/account.sqlite"
        try Data().write(to: URL(fileURLWithPath: database))
        let result = try await world.hangman("hints")
        #expect(result.status == 74)
        #expect(result.stdout.isEmpty, "no balance is made up: \(result.stdout)")
        #expect(result.stderr.contains("the account database \(database) is damaged (the file is empty (0 bytes)"), "\(result.stderr)")
        #expect(result.stderr.contains("restore it from a backup"), "\(result.stderr)")
        #expect(try bytes(database).isEmpty, "left as it is")
    }

    @Test func aTruncatedAccountDatabaseIsKept() async throws {
        let world = try await PlayerWorld()
        for _ in 0..<3 { _ = try await world.hangman("buy", PlayerWorld.hints) }
        let database = world.home + "/account/account.sqlite"
        let whole = try bytes(database)
        try #require(whole.count > 8192)
        try whole.prefix(8192).write(to: URL(fileURLWithPath: database))
        let result = try await world.hangman("transactions")
        #expect(result.status == 74)
        #expect(result.stderr.contains("the account database \(database) is damaged"), "\(result.stderr)")
        #expect(try bytes(database) == whole.prefix(8192))
    }

    @Test func aDamagedDeviceDatabaseSaysHowToStartOver() async throws {
        let world = try await PlayerWorld()
        _ = try await world.hangman("packs")
        let database = world.home + "/device/device.sqlite"
        try Data(String(repeating: "not a database ", count: 500).utf8).write(to: URL(fileURLWithPath: database))
        let result = try await world.hangman("play", "--plain")
        #expect(result.status == 74)
        #expect(result.stderr.contains("the device database \(database) is damaged"), "\(result.stderr)")
        #expect(result.stderr.contains("'hangman reset --yes' deletes it"), "\(result.stderr)")
        let reset = try await world.hangman("reset", "--yes")
        #expect(reset.status == 0)
        #expect(try await world.hangman("packs").status == 0)
    }
}
