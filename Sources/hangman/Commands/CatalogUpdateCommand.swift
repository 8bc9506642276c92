import Seller
import TerminalText

/// `hangman catalog update [--packs DIR]`
enum CatalogUpdateCommand: Command {
    static let spec = CommandSpec(
        name: "hangman catalog update",
        overview: "Record every pack archive's SHA-256 and size in Catalog.plist, and raise CatalogVersion when anything changed.",
        usage: ["hangman catalog update [--packs <DIR>] [--downloads <DIR>]"],
        options: [
            HomeContext.packsOption,
            .init(
                names: ["--downloads"], value: "DIR",
                help: "Also copy every archive into DIR as <SHA-256>.wordpack, for a static file server ('serve --downloads-url'); a file already there is never replaced."),
        ],
        discussion: """
            Run it after changing any archive in the packs folder ('make packs' does): a player's
            installer refuses an archive whose SHA-256 or size is not the one the catalog records.
            Loading a catalog never hashes archives. Base packs are written as {Pack, SHA256, Size}
            entries. The catalog is replaced atomically, and only when something changed.
            With --downloads, every archive is published under its content address for nginx to
            serve: a new version is a new name, so no bytes a player is downloading are replaced.
            Exit status: 0 updated or up to date, 65 an archive is missing or the catalog is invalid
            (nothing is written), 66 no catalog, 73 cannot write the catalog or the downloads.
            """)

    static func options(_ parsed: ParsedArguments) -> (packs: String?, downloads: String?) { (parsed.value("--packs"), parsed.value("--downloads")) }

    /// The folders given with `--packs` and `--downloads`, if they were.
    static func run(_ options: (packs: String?, downloads: String?), context: CommandContext) async throws -> ExitCode {
        let packs = try EmbeddedStore.packsFolder(options.packs, context: context)
        let path = packs + "/" + Catalog.fileName
        let update: CatalogUpdate
        do {
            update = try CatalogPublisher(folder: packs).update()
        } catch {
            throw failure(error, packs: packs, context: context)
        }
        for change in update.changes {
            var line: TerminalText = "\(change.file): sha256 \(change.record.sha256), \(PackText.grouped(change.record.size)) bytes"
            if let old = change.previousSHA256 {
                line = line + " (was \(old)\(change.previousSize.map { ", \(PackText.grouped($0)) bytes" } ?? ""))"
            } else {
                line = line + " (recorded)"
            }
            context.out(line)
        }
        let catalog = update.catalog
        let archives = Set(catalog.basePacks.map(\.file) + catalog.products.compactMap { product -> String? in
            if case .nonConsumable(let file) = product.kind { file } else { nil }
        }).count
        if update.wroteCatalog {
            let was = update.previousVersion.map { " (was \($0))" } ?? ""
            context.out("\(path): CatalogVersion \(update.version)\(was), \(archives) archives, storefronts \(catalog.storefrontCodes.joined(separator: ", ")).")
        } else {
            context.out("\(path) is up to date: CatalogVersion \(update.version), \(archives) archives.")
        }
        if let downloads = options.downloads {
            do {
                let published = try CatalogPublisher(folder: packs).publishArchives(of: catalog, to: downloads)
                context.out("\(downloads): \(published.published) archives by SHA-256, \(published.new) new.")
            } catch {
                throw failure(error, packs: packs, context: context)
            }
        }
        return .ok
    }

    /// A publishing step's refusal: its problems on standard error, and the exit status its kind means.
    static func failure(_ error: CatalogError, packs: String, context: CommandContext) -> CommandFailure {
        if error.kind != .missing { for problem in error.problems { context.error(TerminalText(escaping: problem)) } }
        switch error.kind {
        case .missing: return CommandFailure.missing(error.problems.first ?? "no catalog in \(packs)")
        case .invalid: return CommandFailure.invalid("the catalog in \(packs) was not changed")
        case .cannotWrite: return CommandFailure.cannotCreate("cannot write in \(packs)")
        }
    }
}
