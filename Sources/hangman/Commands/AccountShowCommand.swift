import CivilCalendar
import Device
import Messages
import PackServiceClient

/// `hangman account show`
enum AccountShowCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account show",
        overview: "Show this home's account: its id, its storefront, its app transaction, its service's addresses (the last used first) and the pinned key's fingerprint.",
        usage: ["hangman account show [--home <DIR>]"],
        options: [HomeContext.options[0], HomeContext.serviceOption, HomeContext.caFileOption])

    static func options(_ parsed: ParsedArguments) -> HomeOptions { HomeOptions(parsed) }

    static func run(_ options: HomeOptions, context: CommandContext) async throws -> ExitCode {
        let home = Home(folder: try HomeContext.homeFolder(options, context: context))
        guard case .service(let credentials) = try home.binding() else {
            if home.hasEmbeddedAccount {
                context.out("store       the embedded store (no pack server): its account is in \(home.accountFolder)")
                context.out("storefront  \(try await storefront(options, context: context))")
                context.out("app         \(try await appTransaction(options, context: context))")
                return .ok
            }
            throw CommandFailure(code: .notEntitled, message: L10n.text("no account in %s: run 'hangman account create --service URL'", home.folder))
        }
        context.out("account     \(credentials.accountID)")
        context.out("storefront  \(try await storefront(options, context: context))")
        context.out("app         \(try await appTransaction(options, context: context))")
        context.out("service     \(credentials.service)  (the address last used)")
        for address in credentials.addresses.dropFirst() { context.out("            \(address)") }
        context.out("key         ed25519 \(credentials.publicKey.keyID)")
        return .ok
    }

    /// `2738163829101854 (since 2026-12-05)`: the account's app transaction, as StoreKit's
    /// `AppTransaction` has it (`appTransactionID`, `originalPurchaseDate`).
    static func appTransaction(_ options: HomeOptions, context: CommandContext) async throws -> String {
        let store = try await HomeContext.open(options, context: context)
        let app = try await store.service.appTransaction()
        return "\(app.id.number)  (the app transaction, since \(UTCDateTime(millisecondsSince1970: app.originalPurchaseDate).dateText))"
    }

    /// `DEU (EUR)`: the account's storefront and its currency, as the store says.
    static func storefront(_ options: HomeOptions, context: CommandContext) async throws -> String {
        let store = try await HomeContext.open(options, context: context)
        let code = try await store.service.storefront()
        return code + (store.catalog.currency(of: code).map { " (\($0))" } ?? "")
    }
}
