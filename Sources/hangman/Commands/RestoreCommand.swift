import Device
import Store

/// `hangman restore`
enum RestoreCommand: Command {
    static let spec = CommandSpec(
        name: "hangman restore",
        overview: "Restore every pack the account owns (never hints). Safe to run any number of times.",
        usage: ["hangman restore [--json]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document.")] + StoreContext.options)

    static func run(_ arguments: ParsedArguments, console: Console) throws(CommandFailure) -> ExitCode {
        guard arguments.positionals.isEmpty else { throw .usage("'restore' takes no arguments") }
        let context = try DeviceContext.open(arguments, console: console)
        let service = context.store.service
        let restored = try storeCall { () throws(StoreError) in try service.restore() }
        var outcomes: [String] = []
        for entitlement in restored {
            outcomes.append(context.describe(try context.install(entitlement.productID, console: console), entitlement.productID))
        }
        if arguments.has("--json") {
            console.out(JSONText.encode(restored.map(EntitlementJSON.init)))
            return .ok
        }
        if restored.isEmpty {
            console.out("Nothing to restore: this account owns no packs.")
        }
        for (entitlement, outcome) in zip(restored, outcomes) {
            console.out("Restored \(StoreText.productName(entitlement.productID, catalog: service.catalog)) (\(entitlement.productID)), purchased \(StoreText.date(entitlement.grantedDate)): \(outcome)")
        }
        return .ok
    }
}

struct EntitlementJSON: Encodable {
    var productID: String
    var transactionID: String
    var grantedDate: Int64
    var revokedDate: Int64?

    init(_ entitlement: Entitlement) {
        productID = entitlement.productID.rawValue
        transactionID = entitlement.transactionID.rawValue
        grantedDate = entitlement.grantedDate
        revokedDate = entitlement.revokedDate
    }
}
