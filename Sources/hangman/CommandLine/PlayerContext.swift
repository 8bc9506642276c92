import Device
import Messages
import PackServiceAPI
import TerminalText
import WordPacks

/// The device's state beside the store: the player's session, opened for the commands that
/// install or play.
struct PlayerContext {
    let store: HomeContext
    private(set) var player: Player
    /// Whether what earlier commands left is finished already (`start(context:)` ran).
    let started: Bool

    var device: DeviceDatabase { player.device }
    var catalog: Catalog { player.catalog }

    /// Opens the store and the device, then finishes what earlier commands left: a first run
    /// installs the base packs; a pack bought, approved or resolved since is installed now.
    /// `starting: false` leaves that to the command (`start(context:)` when not `started`), which
    /// does it after a request whose answer carries the account's statement (`buy`). A device's
    /// first start is never left: it takes stock of what the account owned before it.
    static func open(_ options: HomeOptions, context: CommandContext, quietOffline: Bool = false, starting: Bool = true) async throws -> PlayerContext {
        let store = try await HomeContext.open(options, context: context, quietOffline: quietOffline)
        let device = try Home(folder: store.home).openDevice()
        var player = Player(service: store.service, catalog: store.catalog, device: device, clock: context.clock)
        player.readerLanguage = ReaderLocale.current.language
        let starts = try starting || !device.hasDeliveryBaseline()
        let session = PlayerContext(store: store, player: player, started: starts)
        if starts { try await session.start(context: context) }
        return session
    }

    /// Finishes what earlier commands left (``Player/start(progress:)``), saying what it did.
    func start(context: CommandContext) async throws {
        let player = self.player
        let session = self
        let report = try await player.start { id in ProgressBar.forInstall(of: id, catalog: player.catalog, context: context) }
        for base in player.catalog.unavailableBasePacks {
            context.error(TerminalText(escaping: L10n.text("warning: the base pack %s: it is not installed until the store publishes it again", base.reason)))
        }
        for id in report.basePacks {
            let name = player.catalog.basePack(id).map { "\($0.displayName) (" + L10n.plural("%s word", "%s words", $0.wordCount, shown: PackText.grouped($0.wordCount)) + ")" }
                ?? id.rawValue
            context.error(TerminalText(escaping: L10n.text("Installed the base pack %s.", name)))
        }
        for id in report.delivered {
            context.error(TerminalText(escaping: L10n.text("Delivered %s, bought earlier: it is installed and ready to play.", session.name(id))))
        }
        for (id, pass) in report.opened {
            context.error(TerminalText(escaping: L10n.text("Installed %s, opened by %s: it is ready to play while the subscription lasts.", session.name(id), session.name(pass))))
        }
        for (id, error) in report.undelivered {
            context.error(TerminalText(escaping: L10n.text("warning: %s is bought but could not be installed (the next command tries again): %s", session.name(id), error)))
        }
    }

    /// The product `name` names in the catalog this session holds; one it does not know is looked
    /// for once more in the service's newer catalog (a product published a moment ago), which
    /// this session then takes.
    mutating func resolve(_ name: ProductName) async throws -> ProductID {
        func known(_ catalog: Catalog, _ id: ProductID) -> Bool {
            catalog.products.contains { $0.id == id } || catalog.basePacks.contains { $0.productID == id }
        }
        do {
            let id = try name.resolve(in: catalog)
            guard !known(catalog, id), let newer = await player.withNewerCatalog() else { return id }
            player = newer
            return try name.resolve(in: catalog)
        } catch {
            guard let newer = await player.withNewerCatalog() else { throw error }
            player = newer
            return try name.resolve(in: catalog)
        }
    }

    /// The display name of a pack, in the reader's language when the catalog has it (one name per line, never two).
    func name(_ id: ProductID) -> String {
        catalog.product(id).map(ReaderLocale.current.name) ?? catalog.basePack(id)?.displayName ?? id.rawValue
    }

    /// Installs a pack, drawing a progress bar on a terminal (standard error), nothing otherwise.
    func install(_ id: ProductID, context: CommandContext) async throws -> InstallOutcome {
        let bar = ProgressBar.forInstall(of: id, catalog: catalog, context: context)
        return try await player.install(id, progress: bar)
    }

    /// `Installed iOS Words 1.0 (197 words).` and the like.
    func describe(_ outcome: InstallOutcome, _ id: ProductID) -> TerminalText {
        let name = name(id)
        let words = (try? device.installedPacks().first { $0.productID == id }?.wordCount).flatMap { $0 }.map {
            " (" + L10n.plural("%s word", "%s words", $0, shown: PackText.grouped($0)) + ")"
        } ?? ""
        let text: String =
            switch outcome {
            case .installed(let version): L10n.text("Installed %s %s%s.", name, "\(version)", words)
            case .updated(let old, let new): L10n.text("Updated %s from %s to %s%s.", name, "\(old)", "\(new)", words)
            case .alreadyInstalled(let version): L10n.text("%s %s is already installed: nothing to do.", name, "\(version)")
            }
        return TerminalText(escaping: text)
    }
}
