import FoundationEssentials
import Store
import WordPacks

/// The state directory and the packs folder, resolved once per command, and the service opened on them.
struct StoreContext {
    /// The options every store command takes.
    static let options: [CommandSpec.Option] = [
        .init(names: ["--home"], value: "DIR", help: "State directory (default: $HANGMAN_HOME, else $XDG_DATA_HOME/hangman, else ~/.local/share/hangman)."),
        packsOption,
    ]

    /// `--packs DIR`, alone for the commands that need no state directory.
    static let packsOption = CommandSpec.Option(
        names: ["--packs"], value: "DIR", help: "Packs folder with Catalog.plist (default: $HANGMAN_PACKS, else the checkout's Packs/).")

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
        let environment = context.environment
        let home = arguments.value("--home") ?? nonEmpty(environment["HANGMAN_HOME"]) ?? defaultHome(environment)
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

    /// The packs folder: `--packs`, else `HANGMAN_PACKS`, else the checkout's `Packs/`.
    static func packsFolder(_ arguments: ParsedArguments, context: CommandContext) throws -> String {
        guard let packs = arguments.value("--packs") ?? nonEmpty(context.environment["HANGMAN_PACKS"]) ?? checkoutPacks() else {
            throw CommandFailure.missing("no packs folder: pass --packs DIR or set HANGMAN_PACKS to a folder with Catalog.plist")
        }
        return packs
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    private static func defaultHome(_ environment: [String: String]) -> String {
        if let data = nonEmpty(environment["XDG_DATA_HOME"]) { return data + "/hangman" }
        return (nonEmpty(environment["HOME"]) ?? ".") + "/.local/share/hangman"
    }

    /// The `Packs/` folder of the checkout this binary was built in (it lives in `.build/<config>/`),
    /// or of the current directory.
    private static func checkoutPacks() -> String? {
        var candidates: [String] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var folder = URL(filePath: executable).deletingLastPathComponent()
            for _ in 0..<5 {
                candidates.append(folder.appending(path: "Packs").path)
                folder = folder.deletingLastPathComponent()
            }
        }
        candidates.append(FileManager.default.currentDirectoryPath + "/Packs")
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/" + Catalog.fileName) }
    }
}
