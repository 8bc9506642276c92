import Device
import PackServiceAPI
import PackServiceClient

/// `hangman account create --service URL`
enum AccountCreateCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account create",
        overview: "Make an account on a pack server and keep its token under the home.",
        usage: ["hangman account create --service <URL> [--home <DIR>]"],
        options: [HomeContext.serviceOption, HomeContext.options[0]],
        discussion: """
            The home then belongs to that service: every command uses it, with or without --service.
            Exit status: 0 made, 69 the service cannot be reached, 65 its key is malformed, 73 the home
            has an account (on a pack server, or on the embedded store).
            """)

    static func options(_ parsed: ParsedArguments) -> HomeOptions { HomeOptions(parsed) }

    static func run(_ options: HomeOptions, context: CommandContext) async throws -> ExitCode {
        guard let url = try HomeContext.serviceURL(options, context: context) else {
            throw CommandFailure.usage("'account create' needs --service <URL> (or HANGMAN_SERVICE)")
        }
        let home = Home(folder: try HomeContext.homeFolder(options, context: context))
        if home.hasEmbeddedAccount {
            throw CommandFailure.cannotCreate(
                "this home (\(home.folder)) already plays on the embedded store, and a home belongs to one store: use another --home (or HANGMAN_HOME) for the pack server")
        }
        let credentials = try await HTTPPackService.createAccount(at: url)
        let saved = Result { () throws(StoreError) in try credentials.save(folder: home.accountFolder) }
        if case .failure(let error) = saved {
            throw error.kind == .wrongState ? CommandFailure.cannotCreate(error.message) : CommandFailure(error)
        }
        context.out("Made account \(credentials.accountID) on \(credentials.service).")
        context.out("The service's key is pinned: ed25519 \(credentials.publicKey.keyID). Answers signed by any other key are refused.")
        context.out("Every command with this home now uses it; another address of the same service is accepted once its server proves this key.")
        return .ok
    }
}
