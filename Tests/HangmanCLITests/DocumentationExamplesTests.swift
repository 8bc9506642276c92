import Foundation
import Testing
import TestSupport

/// Every shell example of README.md and docs/ is run against the built binary, line by line, in a
/// scratch folder of its page (a copy of `Packs/`, `HOME` there, the binary first on `PATH`), and
/// its exit status checked: 0, or the status its comment starts with (`# exit 77: ...`); a
/// transcript's `$ ` lines are run too, their output shown for the reader. A block
/// that needs a server says so before it (`<!-- example: server -->`: a sandbox server with test
/// controls is started for it); a block that cannot run here says why
/// (`<!-- example: not run: REASON -->`). The operator's paths (`/var/lib/hangman`, `/srv/hangman`)
/// are the scratch folder's, ports are free ones on 127.0.0.1, and a `hangman serve` that serves is
/// started, awaited until it listens, and stopped at the end of its block.
@Suite(.serialized) struct DocumentationExamplesTests {
    struct Block {
        var page: String
        var index: Int
        var marker: String?
        var lines: [String]
    }

    /// The `sh` blocks of a page, each with the marker comment right before it.
    static func blocks(of page: String) throws -> [Block] {
        let text = try String(contentsOf: HangmanBinary.packageRoot.appendingPathComponent(page), encoding: .utf8)
        var blocks: [Block] = []
        var inside = false, current: [String] = [], marker: String?, previous = ""
        var transcript = false
        for line in text.components(separatedBy: "\n") {
            if !inside, line.hasPrefix("```") {
                // A `sh` block is commands; any other block's `$ ` lines are (a transcript).
                inside = true
                transcript = line != "```sh"
                current = []
                let trimmed = previous.trimmingCharacters(in: .whitespaces)
                marker = trimmed.hasPrefix("<!-- example:") ? String(trimmed.dropFirst("<!-- example:".count).dropLast("-->".count)).trimmingCharacters(in: .whitespaces) : nil
            } else if inside, line.hasPrefix("```") {
                inside = false
                if !current.isEmpty { blocks.append(Block(page: page, index: blocks.count, marker: marker, lines: current)) }
            } else if inside {
                if !transcript {
                    current.append(line)
                } else if line.hasPrefix("$ ") {
                    current.append(String(line.dropFirst(2)))
                }
            }
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { previous = line }
        }
        return blocks
    }

    /// Commands of a block: continuation lines joined, each with its comment apart.
    static func commands(_ lines: [String]) -> [(command: String, comment: String)] {
        var joined: [String] = []
        var pending = ""
        for line in lines {
            if line.hasSuffix("\\") {
                pending += String(line.dropLast()) + " "
                continue
            }
            joined.append(pending + line)
            pending = ""
        }
        return joined.compactMap { line in
            let parts = line.components(separatedBy: "   #")
            let twoSpaces = parts.count > 1 ? parts : line.components(separatedBy: "  #")
            let command = twoSpaces[0].trimmingCharacters(in: .whitespaces)
            let comment = twoSpaces.dropFirst().joined(separator: "#").trimmingCharacters(in: .whitespaces)
            return command.isEmpty ? nil : (command, comment)
        }
    }

    static let pages = ["README.md", "docs/playing.md", "docs/operating.md", "docs/app-developers.md", "docs/selling.md", "docs/content-authors.md"]

    @Test(arguments: pages)
    func everyExampleRunsAsWritten(_ page: String) throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: HangmanBinary.packageRoot.appendingPathComponent("Packs").path, toPath: scratch.file("Packs"))
        // The classic sample's folder of one word list, for the content author's walk-through.
        try FileManager.default.createDirectory(atPath: scratch.file("EasyWords"), withIntermediateDirectories: true)
        try wordsXML(["apple", "bread", "chair"]).write(toFile: scratch.file("EasyWords/words.plist"), atomically: true, encoding: .utf8)
        let binaries = URL(fileURLWithPath: HangmanBinary.path).deletingLastPathComponent().path
        var ran = 0
        var ports: [String: Int] = [:]
        // The page's sandbox server, started for its first block that asks for one, kept for the
        // page's other blocks (a home bound to it stays bound).
        var pageServer: ExternalProcess?
        defer { _ = pageServer?.kill() }
        var service: String?
        for block in try Self.blocks(of: page) {
            if let marker = block.marker, marker.hasPrefix("not run") { continue }
            var background: [ExternalProcess] = []
            defer { for process in background { _ = process.kill() } }
            let markers = (block.marker ?? "").components(separatedBy: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            if markers.contains("server"), pageServer == nil {
                let server = try ExternalProcess(HangmanBinary.path, [
                    "serve", "--listen", "127.0.0.1:0", "--data", scratch.file("page-server"), "--packs", scratch.file("Packs"), "--environment", "sandbox",
                    "--test-controls", "--requests-per-minute", "0",
                ])
                pageServer = server
                service = try Self.listening(server)
            }
            // What the block takes for granted, done first (`setup: CMD, CMD`).
            let setup = markers.filter { $0.hasPrefix("setup:") }.flatMap { $0.dropFirst("setup:".count).components(separatedBy: ",") }
                .map { (command: $0.trimmingCharacters(in: .whitespaces), comment: "", isSetup: true) }
            for (command, comment, isSetup) in setup + Self.commands(block.lines).map({ ($0.command, $0.comment, false) }) {
                var line = command
                    .replacingOccurrences(of: "/var/lib/hangman", with: scratch.file("data"))
                    .replacingOccurrences(of: "/srv/hangman", with: scratch.file("data"))
                    .replacingOccurrences(of: "0.0.0.0:", with: "127.0.0.1:")
                    .replacingOccurrences(of: "--api-issuer ISSUER", with: "--api-issuer 57246542-96fe-1a63-e053-0824d011072a")
                    .replacingOccurrences(of: "serve ... ", with: "serve --data \(scratch.file("data")) --listen 127.0.0.1:0 ")
                    .replacingOccurrences(of: "/etc/hangman", with: scratch.file("etc"))
                    .replacingOccurrences(of: "--packs DIR", with: "--packs Packs")
                    // What a reader copies from an earlier answer, read from it here.
                    .replacingOccurrences(of: "HANGMAN_TOKEN=hp1....", with: "HANGMAN_TOKEN=$(hangman account token --home ~/ana-laptop)")
                    .replacingOccurrences(
                        of: "revoke TOKEN_ID",
                        with: #"revoke $(hangman account tokens --json --home ~/ana-tablet | python3 -c 'import json,sys; print([t["tokenID"] for t in json.load(sys.stdin) if t["thisDevice"]][0])')"#)
                    .replacingOccurrences(
                        of: "--revoke-admin-token ADMIN_ID", with: "--revoke-admin-token $(hangman serve --data \(scratch.file("data")) --list-admin-tokens | head -1 | cut -d' ' -f1)")
                    .replacingOccurrences(of: "Bearer hpa1....", with: "Bearer $(hangman serve --data \(scratch.file("data")) --admin-token)")
                if line.hasSuffix(" TX") || line.contains(" TX ") {
                    // The home the line names, when it names one.
                    let home = line.firstMatch(of: #/--home (\S+)/#).map { " --home " + $0.1 } ?? ""
                    line = line.replacingOccurrences(
                        of: " TX", with: #" $(hangman transactions --json"# + home + #" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["transactionID"])')"#)
                }
                if let service {
                    line = line.replacingOccurrences(of: "http://127.0.0.1:8080", with: service).replacingOccurrences(of: "--service URL", with: "--service \(service)")
                }
                for port in ["8080", "8081", "8090"] where line.contains("127.0.0.1:\(port)") {
                    if ports[port] == nil { ports[port] = try Self.freePort() }
                    line = line.replacingOccurrences(of: "127.0.0.1:\(port)", with: "127.0.0.1:\(ports[port]!)")
                }
                let expected = comment.wholeMatch(of: #/exit (\d+)\b.*/#).flatMap { Int32($0.1) } ?? 0
                // `home: ~/cai`: the block's commands use that home.
                let home = markers.first { $0.hasPrefix("home:") }.map { $0.dropFirst("home:".count).trimmingCharacters(in: .whitespaces) }
                    .map { $0.replacingOccurrences(of: "~", with: scratch.path) } ?? scratch.file("home")
                let environment = [
                    "HOME": scratch.path, "PATH": binaries + ":/usr/bin:/bin", "HANGMAN_HOME": home, "HANGMAN_PACKS": scratch.file("Packs"),
                    "LC_ALL": "en_US.UTF-8", "TERM": "dumb",
                ]
                // A server that serves runs beside the block's other lines until the block ends.
                if line.hasPrefix("hangman serve"), !["--make-api-key", "--print-root-certificate", "--admin-token", "--list-admin-tokens", "--revoke-admin-token"].contains(where: line.contains) {
                    let server = try ExternalProcess("/bin/sh", ["-c", "exec " + line], environment: environment, directory: scratch.path)
                    background.append(server)
                    _ = try Self.listening(server)
                    ran += 1
                    continue
                }
                let result = try ExternalProcess.run("/bin/sh", ["-c", line], environment: environment, directory: scratch.path, input: [], killAfter: 60)
                #expect(result.status == expected, "\(page) block \(block.index): \(command)\n→ exit \(result.status), not \(expected)\n\(result.stdout.suffix(400))\(result.stderr.suffix(600))")
                if !isSetup { ran += 1 }
            }
        }
        #expect(ran > 0, "\(page) has examples that run")
        print("\(page): \(ran) example lines run")
    }

    /// The server's `listening on URL`, once it says it (10 s at most).
    static func listening(_ server: ExternalProcess) throws -> String {
        var said = ""
        let pid = server.processIdentifier
        _ = eventually(within: 10) {
            said = (try? String(contentsOfFile: "/proc/\(pid)/fd/1", encoding: .utf8)) ?? ""
            return said.contains("listening on ") || !server.isRunning
        }
        guard let range = said.range(of: "listening on ") else {
            throw FixtureError(message: "the server did not listen: \(server.errorSoFar)")
        }
        return String(said[range.upperBound...].prefix { !$0.isNewline })
    }

    static func freePort() throws -> Int {
        let found = try shell("python3 -c 'import socket; s=socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])'")
        return Int(found.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
