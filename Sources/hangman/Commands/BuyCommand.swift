import Device
import PackServiceAPI
import WordPacks

/// `hangman buy PRODUCT_ID`
enum BuyCommand: Command {
    static let spec = CommandSpec(
        name: "hangman buy",
        overview: "Buy a product: hints are credited, a pack is unlocked. Delivery happens exactly once.",
        usage: ["hangman buy <PRODUCT_ID> [--quantity <N>]"],
        arguments: [.init(name: "<PRODUCT_ID>", help: "A product from 'hangman products'.", kind: .productID)],
        options: [.init(names: ["--quantity"], value: "N", help: "How many (hints only, 1 to 10; default 1).", kind: .integer(1...10))] + StoreContext.options,
        discussion: """
            Exit status: 0 purchased (or already owned), 69 the store refused the payment,
            75 waiting for approval (ask to buy) or for the buyer (interrupted), 64 unknown product.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        guard let id = arguments.productID("<PRODUCT_ID>") else { throw CommandFailure.usage("'buy' needs <PRODUCT_ID>") }
        let quantity = arguments.integer("--quantity") ?? 1
        let session = try await DeviceContext.open(arguments, context: context)
        let catalog = session.catalog
        let result = try await session.player.buy(id, quantity: quantity, progress: ProgressBar.forInstall(of: id, catalog: catalog, context: context))
        let name = StoreText.productName(id, catalog: catalog)
        switch result {
        case .purchased(let transaction, let installed):
            let price = catalog.product(id)?.price ?? "?"
            context.out("Purchased \(name)\(quantity > 1 ? " x\(quantity)" : "") for \(price)\(quantity > 1 ? " each" : ""): transaction \(transaction.id).")
            if let installed {
                context.out("\(name) is unlocked. \(session.describe(installed, id))")
            } else {
                let service = session.store.service
                context.out("+\(transaction.hintsCredited) hints. Balance: \(try await service.hintBalance()) hints.")
            }
            return .ok
        case .alreadyOwned(let entitlement, let installed):
            context.out("You already own \(name) (since \(StoreText.date(entitlement.grantedDate))): nothing was charged.")
            if case .alreadyInstalled = installed {} else { context.out(session.describe(installed, id)) }
            return .ok
        case .failed(let transaction):
            context.error("error: the purchase of \(name) failed: \(transaction.failureReason ?? "refused"). Transaction \(transaction.id).")
            return .storeRefused
        case .deferred(let transaction):
            context.out("Waiting for approval: transaction \(transaction.id) is deferred (ask to buy).")
            context.out("Approve it with 'hangman store approve \(transaction.id)' or decline with 'hangman store decline \(transaction.id)'.")
            context.out("Once approved, the next hangman command installs it.")
            return .deferred
        case .interrupted(let transaction):
            context.out("The purchase was interrupted: transaction \(transaction.id) needs your action.")
            context.out("Complete it with 'hangman store resolve \(transaction.id)'; the next hangman command then installs it.")
            return .deferred
        }
    }
}
