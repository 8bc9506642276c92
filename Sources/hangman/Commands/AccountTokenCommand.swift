import PackServiceClient

/// `hangman account token`
enum AccountTokenCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account token",
        overview: "Print this home's account token (a second device joins the account with it).",
        usage: ["hangman account token [--home <DIR>]"],
        options: [HomeContext.options[0]],
        discussion: "Anyone with the token can spend the account's hints: keep it secret.")

    static func options(_ parsed: ParsedArguments) -> HomeOptions { HomeOptions(parsed) }

    static func run(_ options: HomeOptions, context: CommandContext) async throws -> ExitCode {
        let home = try HomeContext.homeFolder(options, context: context)
        guard let credentials = try ServiceCredentials.load(folder: home + "/account") else {
            throw CommandFailure(code: .notEntitled, message: "no account in \(home): run 'hangman account create --service URL'")
        }
        context.out("\(credentials.token)")
        return .ok
    }
}
