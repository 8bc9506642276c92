import CivilCalendar
import Device
import Messages
import PackServiceClient
import PackServiceWire
import TerminalText

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
        options: [HomeContext.options[0], HomeContext.serviceOption, HomeContext.caFileOption],
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
        case ("revoke"?, nil): throw CommandFailure.usage(L10n.text("'account token revoke' needs the token's ID: see 'hangman account tokens'"))
        case (let other?, _): throw CommandFailure.usage(L10n.text("'account token' takes revoke <ID> or rotate, not '%s'", other))
        default: throw CommandFailure.usage(L10n.text("'account token' takes revoke <ID> or rotate"))
        }
        return Options(action: action, store: HomeOptions(parsed))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        var account = try await ServiceAccount.open(options.store, context: context)
        switch options.action {
        case .print:
            context.out("\(account.credentials.token)")
        case .revoke(let id):
            try await account.client.revokeToken(id)
            context.out(TerminalText(escaping: L10n.text("Revoked token %s: the device that held it is signed out of the account.", id)))
        case .rotate:
            let made = try await account.client.rotateToken()
            try account.credentials.replaceToken(with: made.token, folder: account.folder)
            context.out(TerminalText(escaping: L10n.text("This device has a new token (%s); the old one no longer works.", made.tokenID)))
        }
        return .ok
    }
}

