import Device
import PackServiceClient
import PackServiceWire
import Messages

/// This home's account on a pack server, for the commands that manage it: its credentials and a
/// client, or 77 when the home has none.
struct ServiceAccount {
    let folder: String
    var credentials: ServiceCredentials
    let client: HTTPPackService

    /// At `--service` (or `HANGMAN_SERVICE`) when given: another address than the last used
    /// proves the pinned key first.
    static func open(_ options: HomeOptions, context: CommandContext) async throws -> ServiceAccount {
        let home = Home(folder: try HomeContext.homeFolder(options, context: context))
        guard let credentials = try ServiceCredentials.load(folder: home.accountFolder) else {
            throw CommandFailure(code: .notEntitled, message: L10n.text("no account on a pack server in %s: run 'hangman account create --service URL' or 'hangman account login --service URL'", home.folder))
        }
        let client = try await home.accountClient(credentials, at: try HomeContext.serviceURL(options, context: context), caFile: options.authorities(context))
        return ServiceAccount(folder: home.accountFolder, credentials: credentials, client: client)
    }
}
