import PackServiceAPI

/// `hangman transactions`
enum TransactionsCommand: Command {
    static let spec = CommandSpec(
        name: "hangman transactions",
        overview: "Show the account's whole purchase history, consumables included.",
        usage: ["hangman transactions [--json]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document.")] + StoreContext.options)

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let store = try await StoreContext.open(arguments, context: context)
        let service = store.service
        let transactions = try await service.transactions()
        if arguments.has("--json") {
            context.out(JSONText.encode(transactions.map(TransactionJSON.init)))
        } else if transactions.isEmpty {
            context.out("No transactions yet: see 'hangman products'.")
        } else {
            for transaction in transactions { context.out(StoreText.transactionLine(transaction, catalog: store.catalog)) }
        }
        return .ok
    }
}

struct TransactionJSON: Encodable {
    var id: String
    var productID: String
    var consumable: Bool
    var quantity: Int
    var state: String
    var failureReason: String?
    var hintsCredited: Int
    var purchaseDate: Int64
    var updatedDate: Int64
    var revocationDate: Int64?

    init(_ transaction: StoreTransaction) {
        id = transaction.id.rawValue
        productID = transaction.productID.rawValue
        consumable = transaction.isConsumable
        quantity = transaction.quantity
        state = transaction.state.rawValue
        failureReason = transaction.failureReason
        hintsCredited = transaction.hintsCredited
        purchaseDate = transaction.purchaseDate
        updatedDate = transaction.updatedDate
        revocationDate = transaction.revocationDate
    }
}
