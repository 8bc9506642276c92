import CivilCalendar
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

/// `hangman account token [revoke <ID> | rotate]`
enum AccountTokenCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account token",
        overview: "Print this device's account token, revoke another device's, or rotate this device's.",
        usage: ["hangman account token [--home <DIR>]", "hangman account token revoke <ID> [--home <DIR>]", "hangman account token rotate [--home <DIR>]"],
        arguments: [
            .init(name: "<ACTION>", help: "revoke <ID> (a token 'hangman account tokens' lists) or rotate (a new token here, the old one revoked).", arity: .optional),
            .init(name: "<ID>", help: "The token to revoke.", arity: .optional),
        ],
        options: [HomeContext.options[0], HomeContext.caFileOption],
        discussion: "Anyone with the token can spend the account's hints: keep it secret. A second device joins with 'hangman account login', which makes a token of its own.")

    enum Action: Equatable {
        case print
        case revoke(String)
        case rotate
    }

    struct Options {
        var action: Action
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        let action: Action
        switch (parsed.value("<ACTION>"), parsed.value("<ID>")) {
        case (nil, nil): action = .print
        case ("rotate"?, nil): action = .rotate
        case ("revoke"?, let id?): action = .revoke(id)
        case ("revoke"?, nil): throw CommandFailure.usage("'account token revoke' needs the token's ID: see 'hangman account tokens'")
        case (let other?, _): throw CommandFailure.usage("'account token' takes revoke <ID> or rotate, not '\(other)'")
        default: throw CommandFailure.usage("'account token' takes revoke <ID> or rotate")
        }
        return Options(action: action, store: HomeOptions(parsed))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        var account = try ServiceAccount.open(options.store, context: context)
        switch options.action {
        case .print:
            context.out("\(account.credentials.token)")
        case .revoke(let id):
            try await account.client.revokeToken(id)
            context.out("Revoked token \(id): the device that held it is signed out of the account.")
        case .rotate:
            let made = try await account.client.rotateToken()
            try account.credentials.replaceToken(with: made.token, folder: account.folder)
            context.out("This device has a new token (\(made.tokenID)); the old one no longer works.")
        }
        return .ok
    }
}

/// `hangman account tokens [--json]`
enum AccountTokensCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account tokens",
        overview: "List the account's tokens, one per device: when each was made and last used, this device's marked.",
        usage: ["hangman account tokens [--json] [--home <DIR>]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document."), HomeContext.options[0], HomeContext.caFileOption],
        discussion: "Never a secret: a token's ID is the start of its digest. 'hangman account token revoke ID' signs a device out.")

    struct Options {
        var json: Bool
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) -> Options { Options(json: parsed.has("--json"), store: HomeOptions(parsed)) }

    struct TokenJSON: Encodable {
        var tokenID: String
        var createdDate: String
        var lastUsedDate: String?
        var revokedDate: String?
        var thisDevice: Bool
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let account = try ServiceAccount.open(options.store, context: context)
        let tokens = try await account.client.tokens()
        if options.json {
            context.out(JSONText.encode(tokens.map {
                TokenJSON(
                    tokenID: $0.tokenID, createdDate: ISO8601.string($0.createdDate), lastUsedDate: $0.lastUsedDate.map { ISO8601.string($0) },
                    revokedDate: $0.revokedDate.map { ISO8601.string($0) }, thisDevice: $0.current)
            }))
            return .ok
        }
        // Times short (today's without the date): the table fits 80 columns.
        let now = context.clock.now()
        func time(_ milliseconds: Int64) -> String { StoreText.shortTime(milliseconds, now: now) }
        var rows = [["TOKEN", "MADE", "LAST USED", "STATE"]]
        for token in tokens {
            let state = token.revokedDate.map { "revoked \(time($0))" } ?? (token.current ? "this device" : "live")
            rows.append([token.tokenID, time(token.createdDate), token.lastUsedDate.map(time) ?? "-", state])
        }
        context.out(StoreText.table(rows, fit: context.tableWidth(wide: false).map { StoreText.Fit(width: $0, drop: [2, 1], flexible: [3]) }))
        return .ok
    }
}
