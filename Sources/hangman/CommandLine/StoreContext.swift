import FoundationEssentials
import PackServiceClient
import Store
import SystemCalls
import WordPacks

/// The state directory and the packs folder, resolved once per command, and the service opened on them.
struct StoreContext {
    /// The options every store command takes.
    static let options: [CommandSpec.Option] = [
        .init(names: ["--home"], value: "DIR", help: "State directory (default: $HANGMAN_HOME, else $XDG_DATA_HOME/hangman, else ~/.local/share/hangman)."),
        packsOption,
        serviceOption,
    ]

    /// `--service URL`: a pack server instead of the embedded sandbox store.
    static let serviceOption = CommandSpec.Option(
        names: ["--service"], value: "URL", help: "A pack server ('hangman serve') instead of the embedded store (default: $HANGMAN_SERVICE; needs 'hangman account create').")

    /// `--packs DIR`, alone for the commands that need no state directory.
    static let packsOption = CommandSpec.Option(
        names: ["--packs"], value: "DIR", help: "Packs folder with Catalog.plist (default: $HANGMAN_PACKS, else the checkout's or the installed Packs/).")

    let home: String
    let packs: String
    /// The service every command talks to, through the boundary only. This is the one place
    /// that chooses it: the embedded store, on the packs folder and the account under the home.
    let service: any PackService & StoreTestControls
    /// The service's catalog, fetched once.
    let catalog: Catalog

    /// The account's folder: kept when the device's state is deleted.
    var accountFolder: String { home + "/account" }

    /// Resolves the folders, loads the catalog, opens the account and completes any purchase a
    /// crash left unfinished (reported on standard error).
    static func open(_ arguments: ParsedArguments, context: CommandContext) async throws -> StoreContext {
        let home = try homeFolder(arguments, context: context)
        if let url = try serviceURL(arguments, context: context) {
            return try await openRemote(url, home: home, context: context)
        }
        let packs = try packsFolder(arguments, context: context)
        let catalog: Catalog
        do {
            catalog = try Catalog.load(folder: packs)
        } catch {
            for problem in error.problems { context.error("\(problem)") }
            throw error.isMissing ? CommandFailure.missing("no catalog in \(packs)") : CommandFailure.invalid("the catalog in \(packs) is invalid")
        }
        let service = try EmbeddedPackService(catalog: catalog, packsFolder: packs, accountFolder: home + "/account", clock: context.clock, crash: context.crash)
        for transaction in try service.recoverUnfinished() {
            context.error("completed an unfinished purchase: \(StoreText.transactionLine(transaction, catalog: catalog))")
        }
        return StoreContext(home: home, packs: packs, service: service, catalog: catalog)
    }

    /// A pack server's store, through the account made on it with `hangman account create`.
    private static func openRemote(_ url: String, home: String, context: CommandContext) async throws -> StoreContext {
        let folder = home + "/account"
        guard let credentials = try ServiceCredentials.load(folder: folder) else {
            throw CommandFailure(code: .notEntitled, message: "no account on \(url) in \(home): run 'hangman account create --service \(url)'")
        }
        guard credentials.service == ServiceCredentials.normalized(url) else {
            throw CommandFailure.usage("the account in \(home) is on \(credentials.service), not \(url): use another --home, or that service")
        }
        let service = HTTPPackService(
            credentials: credentials, statePath: folder + "/service-catalog-version", downloadFolder: folder + "/downloads", clock: context.clock)
        let fetched: Result<Catalog, StoreError>
        do { fetched = .success(try await service.fetchCatalog()) } catch { fetched = .failure(error) }
        let catalog: Catalog
        switch fetched {
        case .success(let value):
            catalog = value
        case .failure(let error):
            // Offline: the packs already installed and owned still play, from what the server last signed.
            guard error.kind == .unavailable, let offline = OfflinePackService(credentials: credentials, folder: folder, reason: error.message) else {
                throw error
            }
            context.error("warning: \(error.message); playing offline with the packs installed here (hints and purchases need the server)")
            return StoreContext(home: home, packs: "", service: offline, catalog: try offline.fetchCatalog())
        }
        for transaction in try await service.recoverUnfinished() {
            context.error("completed an unfinished purchase: \(StoreText.transactionLine(transaction, catalog: catalog))")
        }
        return StoreContext(home: home, packs: "", service: service, catalog: catalog)
    }

    /// The state directory: `--home`, else `HANGMAN_HOME`, else `$XDG_DATA_HOME/hangman`, else
    /// `$HOME/.local/share/hangman`. A variable set to nothing is a mistake, not a wish for the
    /// default (an empty home would put the state at `/account`); `XDG_DATA_HOME` is the exception
    /// its specification makes: empty means unset.
    static func homeFolder(_ arguments: ParsedArguments, context: CommandContext) throws -> String {
        let environment = context.environment
        if let home = arguments.value("--home") { return home }
        if let home = try variable("HANGMAN_HOME", environment) { return home }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/hangman" }
        guard let user = try variable("HOME", environment) else {
            throw CommandFailure.usage("no state directory: HOME is not set; pass --home DIR or set HANGMAN_HOME")
        }
        return user + "/.local/share/hangman"
    }

    /// `--service`, else `HANGMAN_SERVICE`, else none (the embedded store).
    static func serviceURL(_ arguments: ParsedArguments, context: CommandContext) throws -> String? {
        if let url = arguments.value("--service") { return url }
        return try variable("HANGMAN_SERVICE", context.environment)
    }

    /// The packs folder: `--packs`, else `HANGMAN_PACKS`, else the checkout's `Packs/`. It must be
    /// a folder: anything else is refused before anything in it is read.
    static func packsFolder(_ arguments: ParsedArguments, context: CommandContext) throws -> String {
        guard let packs = try arguments.value("--packs") ?? variable("HANGMAN_PACKS", context.environment) ?? checkoutPacks() else {
            throw CommandFailure.missing("no packs folder: pass --packs DIR or set HANGMAN_PACKS to a folder with Catalog.plist")
        }
        let kind: FileKind?
        do {
            kind = try FileSystem.status(atPath: packs, followingLinks: true)?.kind
        } catch {
            throw CommandFailure.missing("cannot use the packs folder: \(error)")
        }
        switch kind {
        case .directory?: return packs
        case let kind?: throw CommandFailure.missing("the packs folder \(packs) is \(kind), not a folder")
        case nil: throw CommandFailure.missing("no packs folder \(packs): pass --packs DIR or set HANGMAN_PACKS to a folder with Catalog.plist")
        }
    }

    /// The variable's value; set but empty is a usage error.
    private static func variable(_ name: String, _ environment: [String: String]) throws -> String? {
        guard let value = environment[name] else { return nil }
        guard !value.isEmpty else {
            throw CommandFailure.usage("\(name) is set but empty: unset it, or set it to a folder")
        }
        return value
    }

    /// The `Packs/` folder of the checkout this binary was built in (it lives in `.build/<config>/`),
    /// the one 'make install' put beside it (`PREFIX/bin/hangman`, `PREFIX/share/hangman/Packs`),
    /// or the current directory's.
    private static func checkoutPacks() -> String? {
        var candidates: [String] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var folder = URL(filePath: executable).deletingLastPathComponent()
            for _ in 0..<5 {
                candidates.append(folder.appending(path: "Packs").path)
                candidates.append(folder.appending(path: "share/hangman/Packs").path)
                folder = folder.deletingLastPathComponent()
            }
        }
        candidates.append(FileManager.default.currentDirectoryPath + "/Packs")
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/" + Catalog.fileName) }
    }
}
