import Device
import Store
import WordPacks

/// `hangman packs`
enum PacksCommand: Command {
    static let spec = CommandSpec(
        name: "hangman packs",
        overview: "Every pack in one table: base or paid, price, installed version, and its state.",
        usage: ["hangman packs [--json]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document.")] + StoreContext.options,
        discussion: "States: installed, update available, purchased (not installed), locked (not purchased), revoked (refunded).")

    struct Row: Encodable {
        var productID: String
        var name: String
        var kind: String
        var price: String
        var words: Int
        var installedVersion: String?
        var availableVersion: String?
        var state: String
    }

    static func run(_ arguments: ParsedArguments, console: Console) throws(CommandFailure) -> ExitCode {
        guard arguments.positionals.isEmpty else { throw .usage("'packs' takes no arguments") }
        let context = try DeviceContext.open(arguments, console: console)
        let service = context.store.service
        let installed = Dictionary(
            try deviceCall { () throws(DeviceError) in try context.device.installedPacks() }.map { ($0.productID, $0) }, uniquingKeysWith: { a, _ in a })
        let entitlements = Dictionary(
            try storeCall { () throws(StoreError) in try service.entitlements() }.map { ($0.productID, $0) }, uniquingKeysWith: { a, _ in a })
        let versions = PackVersions(catalog: context.catalog)
        var rows: [Row] = []
        for base in context.catalog.basePacks {
            let here = installed[base.productID]
            let state = here == nil ? "not installed" : versions.isNewer(base.productID, than: here) ? "update available" : "installed"
            rows.append(Row(productID: base.productID.rawValue, name: base.displayName, kind: "base", price: "free",
                words: base.wordCount, installedVersion: here?.contentVersion.text, availableVersion: versions[base.productID], state: state))
        }
        for product in context.catalog.products where !product.isConsumable {
            let here = installed[product.id]
            let owned = entitlements[product.id]
            let state: String
            if let owned, !owned.isActive {
                state = "revoked"
            } else if owned == nil {
                state = "locked"
            } else if here == nil {
                state = "purchased, not installed"
            } else {
                state = versions.isNewer(product.id, than: here) ? "update available" : "installed"
            }
            rows.append(Row(productID: product.id.rawValue, name: product.displayName, kind: "paid", price: product.price,
                words: product.wordCount ?? 0, installedVersion: here?.contentVersion.text, availableVersion: versions[product.id], state: state))
        }
        if arguments.has("--json") {
            console.out(JSONText.encode(rows))
            return .ok
        }
        var table = [["PACK", "NAME", "KIND", "PRICE", "WORDS", "INSTALLED", "STATE"]]
        for row in rows {
            table.append([row.productID, row.name, row.kind, row.price, PackText.grouped(row.words), row.installedVersion ?? "-", row.state])
        }
        console.out(StoreText.table(table))
        return .ok
    }
}

/// Whether the catalog offers a newer version than the one installed.
struct PackVersions {
    let catalog: Catalog

    subscript(id: ProductID) -> String? { catalog.contentVersion(of: id)?.text }

    func isNewer(_ id: ProductID, than installed: InstalledPack?) -> Bool {
        guard let installed, let available = catalog.contentVersion(of: id) else { return false }
        return available > installed.contentVersion
    }
}
