import Device
import Messages
import PackServiceAPI
import PackServiceClient
import PackServiceWire
import TerminalText

/// `hangman account create --service URL`
enum AccountCreateCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account create",
        overview: "Make an account on a pack server and keep its token under the home.",
        usage: ["hangman account create --service <URL> [--storefront <CODE>] [--device <NAME>] [--yes] [--home <DIR>] [--ca-file <FILE>]"],
        options: [
            HomeContext.serviceOption,
            .init(
                names: ["--storefront"], value: "CODE",
                help: "The account's App Store storefront, whose prices and currency it pays: USA, GBR, DEU, FRA, ESP, MEX, JPN, BRA... (default: the region of LC_ALL, LC_MONETARY or LANG when the store sells there, else USA)."),
            AccountSetUp.deviceOption,
            AccountSetUp.yesOption,
            HomeContext.options[0],
            HomeContext.caFileOption,
        ],
        discussion: """
            The home then belongs to that service: every command uses it, with or without --service.
            The storefront belongs to the account, on every device; 'hangman account storefront'
            changes it for future purchases.
            A home that plays on the embedded store (as 'make play' makes it) joins too: its
            settings, statistics and games on this device come along, and what was bought on the
            embedded store (a sandbox) stays with that store, set aside in the account folder's
            embedded-store; this is said first, and asked on a terminal (--yes: not asked).
            This device's token is listed under its host name, or the name --device gives.
            Exit status: 0 made, 1 not joined (the question answered no), 64 a storefront the store does not sell in or a device name that is not one, 69 the service cannot be
            reached, 65 its key is malformed, 73 the home has an account (on a pack server, or on
            the embedded store).
            """)

    struct Options {
        var home: HomeOptions
        var storefront: String?
        var device: String?
        var yes: Bool
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        let storefront = parsed.value("--storefront")?.uppercased()
        if let storefront, !Storefront.isKnown(storefront) {
            throw CommandFailure.usage(L10n.text("'%s' is not an App Store storefront: an ISO 3166 alpha-3 code, like USA, DEU or JPN", storefront))
        }
        return Options(home: HomeOptions(parsed), storefront: storefront, device: try AccountSetUp.deviceName(parsed), yes: parsed.has("--yes"))
    }

    static func run(_ all: Options, context: CommandContext) async throws -> ExitCode {
        let options = all.home
        guard let url = try HomeContext.serviceURL(options, context: context) else {
            throw CommandFailure.usage(L10n.text("'account create' needs --service <URL> (or HANGMAN_SERVICE)"))
        }
        let home = Home(folder: try HomeContext.homeFolder(options, context: context))
        let authorities = options.authorities(context)
        guard let leaving = try await AccountSetUp.leavesEmbeddedStore(home, yes: all.yes, context: context) else { return .declined }
        let credentials = try await AccountSetUp.refusingASecondStore { () async throws(PlayerError) in
            try await home.createAccount(
                at: url, storefront: all.storefront, preferred: ReaderLocale.regionStorefront(context.environment), deviceName: all.device, caFile: authorities,
                leavingEmbeddedStore: leaving)
        }
        context.out(TerminalText(escaping: L10n.text("Made account %s on %s.", credentials.accountID, credentials.service)))
        context.out(TerminalText(escaping: L10n.text("The service's key is pinned: ed25519 %s. Answers signed by any other key are refused.", credentials.publicKey.keyID)))
        context.out(TerminalText(escaping: L10n.text("Every command with this home now uses it; another address of the same service is accepted once its server proves this key.")))
        return .ok
    }
}
