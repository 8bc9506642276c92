import Device
import Store
import WordPacks

/// `hangman install PRODUCT_ID`
enum InstallCommand: Command {
    static let spec = CommandSpec(
        name: "hangman install",
        overview: "Install a pack the account owns (or a base pack) on this device.",
        usage: ["hangman install <PRODUCT_ID>"],
        arguments: [("<PRODUCT_ID>", "A pack from 'hangman packs'.")],
        options: StoreContext.options,
        discussion: """
            The archive's SHA-256 and size are checked against the ones the catalog recorded when it was
            published before the archive is read, the pack is verified in full, then imported in one
            transaction. Installing what is installed does nothing.
            Exit status: 0 installed, 77 not purchased, 65 the archive is invalid or not the one the
            catalog records, 64 unknown pack.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals.count == 1, let text = arguments.positionals.first else { throw CommandFailure.usage("'install' takes one <PRODUCT_ID>") }
        guard let id = ProductID(rawValue: text) else { throw CommandFailure.usage("'\(text)' is not a product identifier: see 'hangman packs'") }
        let session = try DeviceContext.open(arguments, context: context)
        context.out(session.describe(try session.install(id, context: context), id))
        return .ok
    }
}

/// `hangman update [PRODUCT_ID]`
enum UpdateCommand: Command {
    static let spec = CommandSpec(
        name: "hangman update",
        overview: "Install newer versions of installed packs; the old words stay playable until the new ones are in.",
        usage: ["hangman update [<PRODUCT_ID>]"],
        arguments: [("<PRODUCT_ID>", "One pack to update (default: every installed pack).")],
        options: StoreContext.options,
        discussion: "An older version than the one installed is refused (exit 65).")

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals.count <= 1 else { throw CommandFailure.usage("'update' takes at most one <PRODUCT_ID>") }
        var target: ProductID?
        if let text = arguments.positionals.first {
            guard let id = ProductID(rawValue: text) else { throw CommandFailure.usage("'\(text)' is not installed: see 'hangman packs'") }
            target = id
        }
        let session = try DeviceContext.open(arguments, context: context)
        let catalog = session.catalog
        // Without an argument: every installed pack still unlocked (a refunded one is skipped).
        let updated = try session.player.update(target) { id in ProgressBar.forInstall(of: id, catalog: catalog, context: context) }
        for (id, outcome) in updated {
            context.out(session.describe(outcome, id).replacingAlreadyInstalled())
        }
        return .ok
    }
}

extension String {
    fileprivate func replacingAlreadyInstalled() -> String {
        hasSuffix("is already installed: nothing to do.") ? String(dropLast("is already installed: nothing to do.".count)) + "is up to date." : self
    }
}

/// `hangman uninstall PRODUCT_ID`
enum UninstallCommand: Command {
    static let spec = CommandSpec(
        name: "hangman uninstall",
        overview: "Remove a pack from this device. The purchase stays: 'hangman install' brings it back.",
        usage: ["hangman uninstall <PRODUCT_ID>"],
        options: StoreContext.options)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals.count == 1, let text = arguments.positionals.first, let id = ProductID(rawValue: text) else {
            throw CommandFailure.usage("'uninstall' takes one <PRODUCT_ID>")
        }
        let session = try DeviceContext.open(arguments, context: context)
        if try session.device.uninstall(id) {
            let service = session.store.service
            let owned = try service.entitlements().contains { $0.productID == id && $0.isActive }
            let name = session.catalog.product(id)?.displayName ?? id.rawValue
            let isBase = session.catalog.basePack(id) != nil
            context.out("Uninstalled \(name). " + (owned || isBase ? "Run 'hangman install \(id)' to bring it back." : "It was refunded: 'hangman buy \(id)' gets it again."))
        } else {
            context.out("\(id) is not installed: nothing to do.")
        }
        return .ok
    }
}

/// `hangman reset --yes`
enum ResetCommand: Command {
    static let spec = CommandSpec(
        name: "hangman reset",
        overview: "Delete this device's state, as deleting the app would: installed packs, statistics.",
        usage: ["hangman reset --yes"],
        options: [.init(names: ["--yes"], value: nil, help: "Confirm.")] + StoreContext.options,
        discussion: "The account stays: purchases and hints. 'hangman restore' brings every pack back.")

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals.isEmpty else { throw CommandFailure.usage("'reset' takes no arguments") }
        guard arguments.has("--yes") else { throw CommandFailure.usage("'reset' deletes this device's packs and statistics: confirm with --yes") }
        let store = try StoreContext.open(arguments, context: context)
        let folder = DeviceContext.folder(home: store.home)
        try DeviceStore.erase(folder: folder)
        context.out("Deleted this device's state (\(folder)). Your purchases and hints are kept: run 'hangman restore' to bring your packs back.")
        return .ok
    }
}
