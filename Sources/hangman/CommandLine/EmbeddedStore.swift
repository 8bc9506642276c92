import Device
import FoundationEssentials
import Messages
import Seller
import SystemCalls
import TerminalText

/// The embedded store (the sandbox `make play` uses) as the executable supplies it to the home,
/// which decides whether to use it: the catalog in a packs folder, the account under the home.
/// The one place outside `serve` and `catalog` where the command line sees the seller's store.
enum EmbeddedStore {
    /// The embedded store: the catalog in the packs folder, the account under the home.
    static func open(
        packs named: String?, home: Home, context: CommandContext
    ) throws -> (service: any PackService & StoreTestControls, catalog: Catalog) {
        // The folder named (--packs, HANGMAN_PACKS) is this home's from then on: a later command
        // without it finds the packs it bought from. One whose folder is gone falls back, saying so.
        let given = try named ?? HomeContext.variable("HANGMAN_PACKS", context.environment)
        var remembered = given == nil ? home.rememberedPacksFolder : nil
        if let folder = remembered, !FileSystem.exists(atPath: folder + "/" + Catalog.fileName) {
            context.error(TerminalText(escaping: L10n.text("note: the packs folder this home bought from, %s, has no catalog now: using the default one", folder)))
            remembered = nil
        }
        let packs = try packsFolder(given ?? remembered, context: context)
        if let given, given != home.rememberedPacksFolder { home.rememberPacksFolder(given) }
        let catalog: Catalog
        do {
            catalog = try Catalog.load(folder: packs)
        } catch {
            for problem in error.problems { context.error("\(problem)") }
            throw error.isMissing ? CommandFailure.missing(L10n.text("no catalog in %s", packs)) : CommandFailure.invalid(L10n.text("the catalog in %s is invalid", packs))
        }
        // The embedded account is made by the first command, in the player's region's storefront.
        let service = try EmbeddedPackService(
            catalog: catalog, packsFolder: packs, accountFolder: home.accountFolder, clock: context.clock,
            preferredStorefront: ReaderLocale.regionStorefront(context.environment), crash: context.crash)
        return (service, catalog)
    }

    /// The packs folder: `--packs`, else `HANGMAN_PACKS`, else the checkout's `Packs/`. It must be
    /// a folder: anything else is refused before anything in it is read.
    static func packsFolder(_ named: String?, context: CommandContext) throws -> String {
        guard let packs = try named ?? HomeContext.variable("HANGMAN_PACKS", context.environment) ?? checkoutPacks() else {
            throw CommandFailure.missing(L10n.text("no packs folder: pass --packs DIR or set HANGMAN_PACKS to a folder with Catalog.plist"))
        }
        let kind: FileKind?
        do {
            kind = try FileSystem.status(atPath: packs, followingLinks: true)?.kind
        } catch {
            throw CommandFailure.missing(L10n.text("cannot use the packs folder: %s", error))
        }
        switch kind {
        case .directory?: return packs
        case let kind?: throw CommandFailure.missing(L10n.text("the packs folder %s is %s, not a folder", packs, kind))
        case nil: throw CommandFailure.missing(L10n.text("no packs folder %s: pass --packs DIR or set HANGMAN_PACKS to a folder with Catalog.plist", packs))
        }
    }

    /// The `Packs/` folder of the checkout this binary was built in, the one 'make install' put
    /// beside it, or the current directory's.
    private static func checkoutPacks() -> String? {
        if let shipped = ShippedFolder.path("Packs", holding: Catalog.fileName) { return shipped }
        let here = FileManager.default.currentDirectoryPath + "/Packs"
        return FileManager.default.fileExists(atPath: here + "/" + Catalog.fileName) ? here : nil
    }
}
