import WordPacks

/// `hangman pack inspect FILE`
enum PackInspectCommand: Command {
    static let spec = CommandSpec(
        name: "hangman pack inspect",
        overview: "Show a pack's manifest, word count per list, languages, length spread, size and SHA-256.",
        usage: ["hangman pack inspect [--json] <FILE>"],
        arguments: [.init(name: "<FILE>", help: "A pack archive.")],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document.")],
        discussion: "Exit status: 0 a valid pack, 65 an invalid one (its problems are listed), 66 no such file.")

    struct Options {
        var path: String
        var json: Bool
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        Options(path: try parsed.required(parsed.value("<FILE>"), "<FILE>", of: "pack inspect"), json: parsed.has("--json"))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let path = options.path
        let result = PackVerifier().verify(fileAt: path)
        if result.problems.contains(where: { $0.kind == .missingFile }) {
            throw CommandFailure.missing("\(path): no such file")
        }
        if options.json {
            context.out(JSONText.encode(PackReportJSON(file: path, result, details: true)))
        } else {
            context.out(PackText.inspection(path: path, result))
        }
        return result.isValid ? .ok : .dataError
    }
}
