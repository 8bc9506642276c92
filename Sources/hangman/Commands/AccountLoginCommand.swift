import Device
import Messages
import PackServiceAPI
import PackServiceClient
import SystemCalls
import TerminalText

/// `hangman account login --service URL`
enum AccountLoginCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account login",
        overview: "Join, from this device, the account another device is on: its token makes one of this device's own.",
        usage: ["hangman account login --service <URL> [--device <NAME>] [--yes] [--home <DIR>] [--ca-file <FILE>]"],
        options: [HomeContext.serviceOption, AccountSetUp.deviceOption, AccountSetUp.yesOption, HomeContext.options[0], HomeContext.caFileOption],
        discussion: """
            The other device's token is read from HANGMAN_TOKEN, or asked for on a terminal
            ('hangman account token' prints it there). This device gets a token of its own, listed
            by 'hangman account tokens' under its host name (or --device NAME) and revoked alone;
            the other device's stays as it was. The
            service's key is pinned as 'account create' pins it. A device signed out (its token
            revoked from another device) signs in again the same way, keeping its packs and games.
            A home that plays on the embedded store joins as 'account create' has it join (--yes:
            not asked). Exit status: 0 joined, 1 not joined (the question answered no), 64 no
            token given or not a token, or a device name that is not one, 73 this home has an account already, 77 the service does
            not know the token, 69 the service cannot be reached.
            """)

    struct Options {
        var home: HomeOptions
        var device: String?
        var yes: Bool
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        Options(home: HomeOptions(parsed), device: try AccountSetUp.deviceName(parsed), yes: parsed.has("--yes"))
    }

    static func run(_ all: Options, context: CommandContext) async throws -> ExitCode {
        let options = all.home
        guard let url = try HomeContext.serviceURL(options, context: context) else {
            throw CommandFailure.usage(L10n.text("'account login' needs --service <URL> (or HANGMAN_SERVICE)"))
        }
        let home = Home(folder: try HomeContext.homeFolder(options, context: context))
        var token = context.environment["HANGMAN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if token == nil, context.inputIsTerminal {
            // A secret: read without echo, as ssh and sudo read a password.
            context.out("Token of a device already on the account ('hangman account token' prints it there; it is not shown as you type): ", terminator: "")
            let read = context.input == .standardInput ? RawTerminal.withoutEcho { LineReader(context.input).nextLine() } : LineReader(context.input).nextLine()
            context.out("")
            if case .line(let typed) = read {
                let trimmed = typed.trimmingSpaces
                token = trimmed.isEmpty ? nil : trimmed
            }
        }
        guard let token else {
            throw CommandFailure.usage(L10n.text("'account login' needs the token of a device already on the account: set HANGMAN_TOKEN, or run it on a terminal"))
        }
        let authorities = options.authorities(context)
        guard let leaving = try await AccountSetUp.leavesEmbeddedStore(home, yes: all.yes, context: context) else { return .declined }
        let credentials = try await AccountSetUp.refusingASecondStore { () async throws(PlayerError) in
            do throws(PlayerError) {
                return try await home.joinAccount(at: url, token: token, deviceName: all.device, caFile: authorities, leavingEmbeddedStore: leaving)
            } catch .store(let error) where error.kind == .unauthorized {
                // The token typed is the one refused: the advice to sign in again is this command.
                throw .store(ServiceError(
                    .notEntitled,
                    "the service at \(url) does not know that token (revoked, or its account closed): 'hangman account token' prints a live one on a device still on the account"))
            }
        }
        context.out(TerminalText(escaping: L10n.text("This device joined account %s on %s with a token of its own.", credentials.accountID, credentials.service)))
        context.out(TerminalText(escaping: L10n.text("The service's key is pinned: ed25519 %s. 'hangman account tokens' lists the account's devices.", credentials.publicKey.keyID)))
        return .ok
    }
}

