import Device
import Messages
import PackServiceAPI
import PackServiceClient
import Synchronization
import SystemCalls
import TerminalText

/// Where a command's store is: `--home`, `--packs` and `--service` as given (each may be
/// absent: the environment and the home decide then). Read once from the command line.
struct HomeOptions: Sendable {
    var home: String?
    var packs: String?
    var service: String?
    /// `--ca-file`: a certificate authority to trust for the pack server's HTTPS.
    var caFile: String?

    init(_ parsed: ParsedArguments) {
        home = parsed.value("--home")
        packs = parsed.value("--packs")
        service = parsed.value("--service")
        caFile = parsed.value("--ca-file")
    }

    /// The certificate authority to trust for the pack server's HTTPS: `--ca-file`, else
    /// `HANGMAN_CA_FILE` (libcurl's side also reads `SSL_CERT_FILE`).
    func authorities(_ context: CommandContext) -> String? {
        caFile ?? context.environment["HANGMAN_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// The options of a command that lists what the store or the device holds: where, and `--json`.
struct ListingOptions: Sendable {
    var store: HomeOptions
    var json: Bool
    /// Every column whole, however wide (`--wide`); otherwise the table fits the output's width.
    var wide: Bool

    init(_ parsed: ParsedArguments) {
        store = HomeOptions(parsed)
        json = parsed.has("--json")
        wide = parsed.has("--wide")
    }

    /// `--wide`, for a listing's options.
    static let wideOption = CommandSpec.Option(
        names: ["--wide"], value: nil, help: "Every column whole, however wide (without it the table fits the terminal, 80 columns in a pipe).")
}

/// The options of a command that does one of several things (`hints spend`, `store approve TX`):
/// the action read from its words, `--json`, and where the store is.
struct ActionOptions<Action> {
    var action: Action
    var json: Bool
    var wide: Bool
    var store: HomeOptions

    init(_ action: Action, _ parsed: ParsedArguments) {
        self.action = action
        json = parsed.has("--json")
        wide = parsed.has("--wide")
        store = HomeOptions(parsed)
    }
}

/// The options of a command about one product (`install ios`): the product as typed, and where
/// the store is.
struct ProductOptions {
    var product: ProductName
    var store: HomeOptions

    init(_ parsed: ParsedArguments, command: String) throws {
        product = try parsed.required(parsed.productName("<PRODUCT_ID>"), "<PRODUCT_ID>", of: command)
        store = HomeOptions(parsed)
    }
}

/// The home, resolved once per command, and the store it opened.
struct HomeContext {
    /// The options every store command takes.
    static let options: [CommandSpec.Option] = [
        .init(names: ["--home"], value: "DIR", help: "State directory (default: $HANGMAN_HOME, else $XDG_DATA_HOME/hangman, else ~/.local/share/hangman)."),
        packsOption,
        serviceOption,
        caFileOption,
    ]

    /// `--ca-file FILE`: a private certificate authority for the pack server's HTTPS.
    static let caFileOption = CommandSpec.Option(
        names: ["--ca-file"], value: "FILE",
        help: "A certificate authority (PEM) to trust for the pack server's HTTPS, besides the system's (default: $HANGMAN_CA_FILE, else $SSL_CERT_FILE).")

    /// `--service URL`: a pack server instead of the embedded sandbox store.
    static let serviceOption = CommandSpec.Option(
        names: ["--service"], value: "URL", help: "The address of the home's pack server, when not the last used (default: $HANGMAN_SERVICE; the home's account from 'hangman account create' decides the service).")

    /// `--packs DIR`, alone for the commands that need no state directory.
    static let packsOption = CommandSpec.Option(
        names: ["--packs"], value: "DIR", help: "Packs folder with Catalog.plist (default: $HANGMAN_PACKS, else the checkout's or the installed Packs/).")

    let home: String
    /// The service every command talks to, through the boundary only, as the home chose it.
    let service: any PackService & StoreTestControls
    /// The catalog the store opened with.
    private let openedCatalog: Catalog
    /// Why the pack server could not be reached when the store opened.
    private let openedOffline: ServiceError?

    /// The service's catalog: a pack server's client that found a newer one since the command
    /// began (its first answer says so) holds that one.
    var catalog: Catalog { service.heldCatalog ?? openedCatalog }
    /// Why the pack server cannot be reached, when it cannot (found when the store opened, or by
    /// a request since): the home plays from what it last signed.
    var offline: ServiceError? { openedOffline ?? service.offlineReason }

    /// The account's folder: kept when the device's state is deleted.
    var accountFolder: String { Home(folder: home).accountFolder }

    /// Resolves the home and what the command names, lets the home open its store, and reports
    /// on standard error what opening it did: purchases a crash left unfinished, completed now,
    /// and, unless `quietOffline` (a game says it on its own screen), that the server is offline.
    static func open(_ options: HomeOptions, context: CommandContext, quietOffline: Bool = false) async throws -> HomeContext {
        let home = Home(folder: try homeFolder(options, context: context))
        let request = try storeRequest(options, context: context)
        if let wait = context.environment["HANGMAN_MAX_WAIT"], Int(wait).map({ $0 < 0 }) ?? true {
            throw CommandFailure.usage(L10n.text("HANGMAN_MAX_WAIT is the seconds a command may wait when the pack server asks it to (0 or more), not '%s'", wait.prefix(40)))
        }
        // The catalog the events name products from, once the store is open.
        let names = Mutex<Catalog?>(nil)
        let events: @Sendable (ServiceEvent) -> Void = { event in
            switch event {
            case .waiting(let seconds, let total, let reason):
                // Said once the waits come to more than a second: a short one passes unremarked.
                if total > 1 { context.error(TerminalText(escaping: L10n.text("waiting %s s, as the pack server asks: %s", seconds, reason))) }
            case .recovered(let transactions):
                guard let catalog = names.withLock({ $0 }) else { return }
                for transaction in transactions {
                    context.error(TerminalText(escaping: L10n.text("completed an unfinished purchase: %s", StoreText.transactionLine(transaction, catalog: catalog))))
                }
            case .offline(let error):
                if !quietOffline { Self.warnOffline(error, context: context) }
            case .note(let note):
                context.error(TerminalText(escaping: L10n.text("note: %s.", note)))
            }
        }
        let trusted = context.environment["HANGMAN_TRUST_ADDRESS"].map(ServiceCredentials.normalized)
        let confirm = { (address: String) -> Bool in
            if trusted == address { return true }
            guard Question.canAsk(context) else { return false }
            return Question.ask(
                "The server at \(address) proves this home's service key, but the service names no address of its own: a relay could do that too. Send this home's token to \(address)?",
                context: context)
        }
        let opened = try await home.openStore(
            naming: request, clock: context.clock, caFile: options.authorities(context), events: events, confirmAddress: confirm
        ) {
            try EmbeddedStore.open(packs: options.packs, home: home, context: context)
        }
        names.withLock { $0 = opened.catalog }
        for transaction in opened.recovered {
            context.error(TerminalText(escaping: L10n.text("completed an unfinished purchase: %s", StoreText.transactionLine(transaction, catalog: opened.catalog))))
        }
        if let note = opened.note { context.error(TerminalText(escaping: L10n.text("note: %s.", note))) }
        if let offline = opened.offline, !quietOffline { warnOffline(offline, context: context) }
        return HomeContext(home: home.folder, service: opened.service, openedCatalog: opened.catalog, openedOffline: opened.offline)
    }

    /// The server cannot be reached: said once, where the command found out.
    private static func warnOffline(_ offline: ServiceError, context: CommandContext) {
        context.error(TerminalText(escaping: L10n.text("warning: playing offline with the packs installed here, and hints and purchases wait for the server: %s", offline.message)))
    }

    /// The store the command line names besides the home's own: `--service` (or
    /// `HANGMAN_SERVICE`), or `--packs` for the embedded store. Never both.
    static func storeRequest(_ options: HomeOptions, context: CommandContext) throws -> Home.Request {
        let url = try serviceURL(options, context: context)
        if let packs = options.packs {
            if let url {
                throw CommandFailure.usage(L10n.text("--packs names the embedded store and --service (or HANGMAN_SERVICE) the pack server at %s: give one", url))
            }
            return .embedded(packs: packs)
        }
        return url.map(Home.Request.service) ?? .none
    }

    /// The state directory: `--home`, else `HANGMAN_HOME`, else `$XDG_DATA_HOME/hangman`, else
    /// `$HOME/.local/share/hangman`. A variable set to nothing is a mistake, not a wish for the
    /// default (an empty home would put the state at `/account`); `XDG_DATA_HOME` is the exception
    /// its specification makes: empty means unset.
    /// The context keeps it, so that a failure to write it can say which folder and why.
    static func homeFolder(_ options: HomeOptions, context: CommandContext) throws -> String {
        let folder = try resolvedHomeFolder(options, environment: context.environment)
        context.homeInUse.record(folder)
        return folder
    }

    private static func resolvedHomeFolder(_ options: HomeOptions, environment: [String: String]) throws -> String {
        if let home = options.home { return home }
        if let home = try variable("HANGMAN_HOME", environment) { return home }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/hangman" }
        guard let user = try variable("HOME", environment) else {
            throw CommandFailure.usage(L10n.text("no state directory: HOME is not set; pass --home DIR or set HANGMAN_HOME"))
        }
        return user + "/.local/share/hangman"
    }

    /// `--service`, else `HANGMAN_SERVICE`, else none (the embedded store).
    static func serviceURL(_ options: HomeOptions, context: CommandContext) throws -> String? {
        if let url = options.service { return url }
        return try variable("HANGMAN_SERVICE", context.environment)
    }

    /// The variable's value; set but empty is a usage error.
    static func variable(_ name: String, _ environment: [String: String]) throws -> String? {
        guard let value = environment[name] else { return nil }
        guard !value.isEmpty else {
            throw CommandFailure.usage(L10n.text("%s is set but empty: unset it, or set it to a folder", name))
        }
        return value
    }
}

extension HomeContext {
    /// The service for what the account's games keep (the daily word, leaderboards, a display
    /// name): the pack server, or for the daily word the embedded store's own; refused, saying
    /// why, offline. What the embedded store keeps on no board it refuses itself, with a sentence.
    func games(for what: String) throws -> any GameService {
        if let games = service.dailyWords { return games }
        throw CommandFailure(
            code: .storeRefused, message: L10n.text("%s is kept by the pack server, which cannot be reached now: %s", what, offline?.message ?? L10n.text("no answer")))
    }
}
