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

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let path = arguments.value("<FILE>") else { throw CommandFailure.usage("'pack inspect' needs <FILE>") }
        let result = PackVerifier().verify(fileAt: path)
        if result.problems.contains(where: { $0.kind == .missingFile }) {
            throw CommandFailure.missing("\(path): no such file")
        }
        if arguments.has("--json") {
            context.out(JSONText.encode(PackReportJSON(file: path, result, details: true)))
        } else {
            context.out(PackText.inspection(path: path, result))
        }
        return result.isValid ? .ok : .dataError
    }
}
