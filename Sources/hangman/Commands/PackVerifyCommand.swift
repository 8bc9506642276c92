import Signing
import WordPacks

/// `hangman pack verify FILE...`
enum PackVerifyCommand: Command {
    static let spec = CommandSpec(
        name: "hangman pack verify",
        overview: "Verify .wordpack archives in memory, reporting every problem, one line each.",
        usage: ["hangman pack verify [--json] [--key <PUBKEY>] [--require-signature] <FILE>..."],
        arguments: [.init(name: "<FILE>", help: "A pack archive (tar, plain or compressed once with gzip/bzip2/xz/zstd, or zip).", arity: .oneOrMore)],
        options: [
            .init(names: ["--json"], value: nil, help: "Print one JSON document instead of lines."),
            .init(names: ["--key"], value: "PUBKEY", help: "Public key file (from 'pack keygen') that signatures must come from."),
            .init(names: ["--require-signature"], value: nil, help: "Refuse a pack that is not signed."),
        ],
        discussion: """
            Nothing is written to disk. Each problem is printed as 'FILE: ENTRY: what is wrong'.
            A name, summary, category or clue with a control or format character (an escape
            sequence, a bidi override) is a problem too, as 'pack build' and 'catalog add' refuse it.
            Exit status: 0 all packs are valid, 65 a pack is invalid, 66 a file is missing, 64 bad usage.
            """)

    struct Options {
        var files: [String]
        var key: String?
        var requireSignature: Bool
        var json: Bool
    }

    static func options(_ parsed: ParsedArguments) -> Options {
        Options(files: parsed.texts("<FILE>"), key: parsed.value("--key"), requireSignature: parsed.has("--require-signature"), json: parsed.has("--json"))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        var verifier = PackVerifier()
        if let keyPath = options.key {
            verifier.trustedKeys = [try SigningPublicKey.read(fileAt: keyPath)]
        }
        verifier.requireSignature = options.requireSignature

        var reports: [PackReportJSON] = []
        var code = ExitCode.ok
        for path in options.files {
            var result = verifier.verify(fileAt: path)
            // What a player would be shown is held to the authors' rule too.
            if let pack = result.pack { result.problems += PackTextRule.problems(in: pack) }
            if result.problems.contains(where: { $0.kind == .missingFile }) {
                code = .noInput
            } else if !result.isValid && code == .ok {
                code = .dataError
            }
            if options.json {
                reports.append(PackReportJSON(file: path, result))
                continue
            }
            if result.isValid, let pack = result.pack {
                context.out("\(path): ok: \(PackText.oneLine(pack))")
            } else {
                for problem in result.problems {
                    context.out("\(path): \(problem)")
                }
            }
        }
        if options.json {
            context.out(JSONText.encode(VerifyReportJSON(valid: code == .ok, packs: reports)))
        }
        return code
    }
}
