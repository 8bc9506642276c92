import PackServiceClient

/// `hangman account show`
enum AccountShowCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account show",
        overview: "Show this home's account: its id, its service and the pinned key's fingerprint.",
        usage: ["hangman account show [--home <DIR>]"],
        options: [StoreContext.options[0]])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let home = try StoreContext.homeFolder(arguments, context: context)
        guard let credentials = try ServiceCredentials.load(folder: home + "/account") else {
            throw CommandFailure(code: .notEntitled, message: "no account in \(home): run 'hangman account create --service URL'")
        }
        context.out("account  \(credentials.accountID)")
        context.out("service  \(credentials.service)")
        context.out("key      ed25519 \(credentials.publicKey.keyID)")
        return .ok
    }
}
