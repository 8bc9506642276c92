import PackServiceAPI
import PackServiceClient

/// `hangman account create --service URL`
enum AccountCreateCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account create",
        overview: "Make an account on a pack server and keep its token under the home.",
        usage: ["hangman account create --service <URL> [--home <DIR>]"],
        options: [StoreContext.serviceOption, StoreContext.options[0]],
        discussion: "Exit status: 0 made, 69 the service cannot be reached, 65 its key is malformed, 73 the home has an account.")

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let url = try StoreContext.serviceURL(arguments, context: context) else {
            throw CommandFailure.usage("'account create' needs --service <URL> (or HANGMAN_SERVICE)")
        }
        let home = try StoreContext.homeFolder(arguments, context: context)
        let credentials = try await HTTPPackService.createAccount(at: url)
        let saved = Result { () throws(StoreError) in try credentials.save(folder: home + "/account") }
        if case .failure(let error) = saved {
            throw error.kind == .wrongState ? CommandFailure.cannotCreate(error.message) : CommandFailure(error)
        }
        context.out("Made account \(credentials.accountID) on \(credentials.service).")
        context.out("The service's key is pinned: ed25519 \(credentials.publicKey.keyID). Answers signed by any other key are refused.")
        context.out("Use it with --service \(credentials.service) or HANGMAN_SERVICE=\(credentials.service).")
        return .ok
    }
}
