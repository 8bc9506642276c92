import CivilCalendar
import Messages
import PackServiceAPI
import TerminalText

/// `hangman transactions`
enum TransactionsCommand: Command {
    static let spec = CommandSpec(
        name: "hangman transactions",
        overview: "Show the account's whole purchase history, consumables included.",
        usage: ["hangman transactions [--json] [--wide]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document."), ListingOptions.wideOption] + HomeContext.options)

    static func options(_ parsed: ParsedArguments) -> ListingOptions { ListingOptions(parsed) }

    static func run(_ options: ListingOptions, context: CommandContext) async throws -> ExitCode {
        let store = try await HomeContext.open(options.store, context: context)
        let service = store.service
        let transactions = try await service.transactions()
        if options.json {
            context.out(JSONText.encode(transactions.map { TransactionJSON($0, catalog: store.catalog) }))
        } else if transactions.isEmpty {
            context.out(TerminalText(escaping: L10n.text("No transactions yet: see '%s'.", "hangman products")))
        } else {
            let prices = PriceText(environment: context.environment)
            context.out(StoreText.transactionTable(transactions, catalog: store.catalog, prices: prices, width: context.tableWidth(wide: options.wide)))
        }
        return .ok
    }
}

struct TransactionJSON: Encodable {
    var transactionID: String
    /// The order id, as Apple's emailed receipts show it (``TransactionID/orderID``).
    var orderID: String
    var productID: String
    /// `Consumable`, `NonConsumable`, `AutoRenewable` or `NonRenewing`, as `products` says.
    var type: String
    var quantity: Int
    var state: String
    var failureReason: String?
    var hintsCredited: Int
    var purchaseDate: String
    var updatedDate: String
    var revocationDate: String?
    /// A subscription's: its first transaction, the end of the period (or access) it paid for,
    /// a free trial, an upgraded period's refund.
    var originalTransactionID: String?
    var expiresDate: String?
    var isTrial: Bool?
    var refundAmount: String?
    /// What it charged (the price times the quantity; `0` for a free trial), a decimal string in
    /// `currency`'s minor units, and the storefront it was bought in; absent for a purchase made
    /// before storefronts. Never added up across currencies.
    var price: String?
    var currency: String?
    var storefront: String?

    init(_ transaction: StoreTransaction, catalog: Catalog? = nil) {
        transactionID = transaction.id.number
        orderID = transaction.id.orderID
        productID = transaction.productID.rawValue
        type = catalog?.product(transaction.productID)?.typeName ?? (transaction.isConsumable ? "Consumable" : "NonConsumable")
        quantity = transaction.quantity
        state = transaction.state.rawValue
        failureReason = transaction.failureReason
        hintsCredited = transaction.hintsCredited
        purchaseDate = ISO8601.string(transaction.purchaseDate)
        updatedDate = ISO8601.string(transaction.updatedDate)
        revocationDate = transaction.revocationDate.map { ISO8601.string($0) }
        originalTransactionID = transaction.originalTransactionID?.number
        expiresDate = transaction.expiresDate.map { ISO8601.string($0) }
        isTrial = transaction.originalTransactionID == nil ? nil : transaction.isTrial
        refundAmount = transaction.refundAmount
        price = transaction.price?.decimal
        currency = transaction.price?.currency
        storefront = transaction.storefront
    }
}
