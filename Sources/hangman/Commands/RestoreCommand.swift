import CivilCalendar
import Device
import Messages
import PackServiceAPI
import TerminalText

/// `hangman restore`
enum RestoreCommand: Command {
    static let spec = CommandSpec(
        name: "hangman restore",
        overview: "Restore every pack the account owns (never hints). Safe to run any number of times.",
        usage: ["hangman restore [--json]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document.")] + HomeContext.options,
        discussion: """
            A pack whose archive is unavailable at the store is skipped with a warning; every other
            pack is restored. A pack the seller no longer publishes (off sale with its archive
            gone, or out of the catalog) stays owned, and is named with nothing to install.
            Exit status: 0 every owned pack that is published restored; 69 one or more of them
            unavailable now (run it again later).
            """)

    static func options(_ parsed: ParsedArguments) -> ListingOptions { ListingOptions(parsed) }

    static func run(_ options: ListingOptions, context: CommandContext) async throws -> ExitCode {
        let session = try await PlayerContext.open(options.store, context: context)
        let catalog = session.catalog
        let report = try await session.player.restore { id in ProgressBar.forInstall(of: id, catalog: catalog, context: context) }
        for (_, error) in report.unavailable {
            context.error(TerminalText(escaping: L10n.text("warning: not restored: %s", error)))
        }
        for (_, reason) in report.withdrawn {
            context.error(TerminalText(escaping: L10n.text("note: not restored: %s", reason)))
        }
        let code: ExitCode = report.unavailable.isEmpty ? .ok : .storeRefused
        if options.json {
            context.out(JSONText.encode(report.restored.map { EntitlementJSON($0.entitlement) } + report.features.map(EntitlementJSON.init)))
            return code
        }
        if report.restored.isEmpty && report.unavailable.isEmpty && report.withdrawn.isEmpty && report.features.isEmpty {
            context.out(TerminalText(escaping: L10n.text("Nothing to restore: this account owns no packs.")))
        }
        for entitlement in report.features {
            context.out(
                TerminalText(
                    escaping: L10n.text(
                        "Restored %s (%s), purchased %s.", StoreText.productName(entitlement.productID, catalog: catalog), entitlement.productID.rawValue,
                        StoreText.date(entitlement.grantedDate))))
        }
        for (entitlement, outcome) in report.restored {
            context.out(
                TerminalText(
                    escaping: L10n.text(
                        "Restored %s (%s), purchased %s:", StoreText.productName(entitlement.productID, catalog: catalog), entitlement.productID.rawValue,
                        StoreText.date(entitlement.grantedDate)) + " ") + session.describe(outcome, entitlement.productID))
        }
        return code
    }
}

struct EntitlementJSON: Encodable {
    var productID: String
    var transactionID: String
    var purchaseDate: String
    var revocationDate: String?

    init(_ entitlement: Entitlement) {
        productID = entitlement.productID.rawValue
        transactionID = entitlement.transactionID.number
        purchaseDate = ISO8601.string(entitlement.grantedDate)
        revocationDate = entitlement.revokedDate.map { ISO8601.string($0) }
    }
}
