import Signing

/// `hangman pack keygen`
enum PackKeygenCommand: Command {
    static let spec = CommandSpec(
        name: "hangman pack keygen",
        overview: "Make an Ed25519 key pair for signing packs: NAME.key (secret, mode 0600) and NAME.pub.",
        usage: ["hangman pack keygen [--output <NAME>] [--force]"],
        options: [
            .init(names: ["--output", "-o"], value: "NAME", help: "Path of the pair without extension (default: pack-signing)."),
            .init(names: ["--force"], value: nil, help: "Replace existing key files."),
        ],
        discussion: """
            Sign with 'hangman pack build DIR -o FILE --sign NAME.key'; check with
            'hangman pack verify --key NAME.pub FILE'. Keep NAME.key secret.
            """)

    struct Options {
        /// The key files' path without `.key` and `.pub`.
        var base: String
        var force: Bool
    }

    static func options(_ parsed: ParsedArguments) -> Options {
        Options(base: parsed.value("--output") ?? "pack-signing", force: parsed.has("--force"))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let base = options.base
        let key = SigningKey.generate()
        try key.write(secretKeyTo: base + ".key", publicKeyTo: base + ".pub", replace: options.force)
        context.out("wrote \(base).key (secret) and \(base).pub; key id \(key.publicKey.keyID)")
        return .ok
    }
}
