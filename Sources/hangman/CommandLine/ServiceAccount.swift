import Device
import PackServiceClient
import PackServiceWire

/// This home's account on a pack server, for the commands that manage it: its credentials and a
/// client, or 77 when the home has none.
struct ServiceAccount {
    let folder: String
    var credentials: ServiceCredentials
    let client: HTTPPackService

    static func open(_ options: HomeOptions, context: CommandContext) throws -> ServiceAccount {
        let home = Home(folder: try HomeContext.homeFolder(options, context: context))
        guard let credentials = try ServiceCredentials.load(folder: home.accountFolder) else {
            throw CommandFailure(code: .notEntitled, message: "no account on a pack server in \(home.folder): run 'hangman account create --service URL' or 'hangman account login --service URL'")
        }
        return ServiceAccount(
            folder: home.accountFolder, credentials: credentials, client: HTTPPackService(credentials: credentials, caFile: options.authorities(context)))
    }
}
