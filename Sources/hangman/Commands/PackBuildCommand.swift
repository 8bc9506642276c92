import FoundationEssentials
import Signing
import WordPacks
import TerminalText

/// `hangman pack build DIR -o FILE`
enum PackBuildCommand: Command {
    static let spec = CommandSpec(
        name: "hangman pack build",
        overview: "Verify a pack's source folder, then write its .wordpack archive deterministically.",
        usage: ["hangman pack build <DIR> --output <FILE> [--sign <KEYFILE>]"],
        arguments: [.init(name: "<DIR>", help: "The pack's source folder: Info.plist and *.plist word lists.")],
        options: [
            .init(names: ["--output", "-o"], value: "FILE", help: "Where to write the archive (a regular file, replaced atomically; - for standard output)."),
            .init(names: ["--sign"], value: "KEYFILE", help: "Secret key file (from 'pack keygen') to sign the pack with."),
        ],
        discussion: """
            The same folder always gives the same bytes. The archived Info.plist gets WordCount and
            the SHA-256 and size of every other file (Files); with --sign, Signature.plist is added.
            With -o -, the archive goes to standard output and the summary to standard error.
            Exit status: 0 built, 65 the folder is not a valid pack, 66 no such folder, 73 cannot write
            (or the output is a device, FIFO, socket or link, which is left as it is).
            """)

    struct Options {
        var folder: String
        var output: String
        var signingKey: String?
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        Options(
            folder: try parsed.required(parsed.value("<DIR>"), "<DIR>", of: "pack build"),
            output: try parsed.required(parsed.value("--output"), "--output <FILE>", of: "pack build"), signingKey: parsed.value("--sign"))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let (folder, output) = (options.folder, options.output)
        if output != "-", isInside(output, folder: folder) {
            throw CommandFailure.usage("the output '\(output)' is inside the source folder '\(folder)'; write it beside the folder")
        }
        var builder = PackBuilder()
        if let keyPath = options.signingKey {
            builder.signingKey = try SigningKey.read(fileAt: keyPath)
        }
        let built: PackBuilder.Output
        do {
            built = try builder.build(folder: folder)
        } catch {
            for problem in error.problems { context.error("\(folder): \(problem)") }
            if error.problems.contains(where: { $0.kind == .missingFile }) {
                throw CommandFailure.missing("no such folder '\(folder)'")
            }
            throw CommandFailure.invalid("\(folder) is not a valid pack (\(error.problems.count) problem\(error.problems.count == 1 ? "" : "s")); nothing was written")
        }
        let summary: TerminalText = "\(output == "-" ? "standard output" : output): \(PackText.oneLine(built.pack)), \(built.archive.size) bytes, sha256 \(built.archive.sha256.hex)"
        if output == "-" {
            context.outBytes(built.bytes)
            context.error(summary)
        } else {
            try OutputFile.write(built.bytes, to: output, what: "the archive")
            context.out(summary)
        }
        return .ok
    }

    /// Whether `path` would land inside `folder`.
    private static func isInside(_ path: String, folder: String) -> Bool {
        let base = URL(filePath: folder).standardizedFileURL.path
        let target = URL(filePath: path).standardizedFileURL.path
        return target.hasPrefix(base.hasSuffix("/") ? base : base + "/")
    }
}
